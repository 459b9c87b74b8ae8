/**
 * The limits of what a hit may carry, shared by the API (ingest validation) and the CLI that feeds
 * it (import-log skips a line the API would refuse), so the two never drift apart.
 */
export const MAX_HITS_PER_REQUEST = 1000;
export const MAX_PATH_LENGTH = 2048;
/** What the API accepts. The classifier calls anything over 1 KiB a bot (no browser sends that much). */
export const MAX_USER_AGENT_LENGTH = 16 * 1024;
export const MAX_VISITOR_ID_LENGTH = 256;
export const MAX_REFERRER_LENGTH = 4096;
