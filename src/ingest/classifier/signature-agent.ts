/** At most this many characters in a Signature-Agent value (the hits API's `signatureAgent`). */
export const MAX_SIGNATURE_AGENT_LENGTH = 256;

/** One member: an optional dictionary key (`sig1=`) and a quoted string, or a bare URL as some clients send. */
const MEMBER = /^(?:[a-z*][a-z0-9_.*-]*=)?(?:"([\x20\x21\x23-\x5b\x5d-\x7e]*)"|(https?:\/\/[\x21-\x2b\x2d-\x7e]+))$/;

/** The directory's well-known path, which some signers write out in full (the agent is the origin before it). */
const WELL_KNOWN_DIRECTORY = /\/\.well-known\/http-message-signatures-directory$/i;

/**
 * Parses a Signature-Agent header (Web Bot Auth: a structured-field string such as
 * `"https://chatgpt.com"`, or a dictionary of them such as `sig1="https://chatgpt.com"`) into the
 * directories it names, each as an origin (`https://chatgpt.com`) or origin + path without a
 * trailing slash or the directory's well-known path. Undefined when the value is malformed.
 */
export function parseSignatureAgent(value: string): string[] | undefined {
  if (value.length === 0 || value.length > MAX_SIGNATURE_AGENT_LENGTH) return undefined;
  const directories: string[] = [];
  for (const raw of value.split(',')) {
    const m = MEMBER.exec(raw.trim());
    if (!m) return undefined;
    let url: URL;
    try {
      url = new URL(m[1] ?? m[2]);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    const path = url.pathname.replace(/\/+$/, '').replace(WELL_KNOWN_DIRECTORY, '');
    directories.push(`${url.protocol}//${url.host}${path}`);
  }
  return directories;
}
