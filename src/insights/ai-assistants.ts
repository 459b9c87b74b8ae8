import assistantsFile from './ai-assistant-referrers.json';

/** An AI assistant that sends readers to docs (ai-assistant-referrers.json, with provenance beside it). */
export interface AiAssistant {
  name: string;
  operator: string;
  hosts: string[];
  utmSources: string[];
}

export const AI_ASSISTANTS: readonly AiAssistant[] = assistantsFile.assistants;

const byHost = new Map(AI_ASSISTANTS.flatMap((a) => a.hosts.map((h): [string, AiAssistant] => [h, a])));

/** The assistant a referrer host belongs to, if any (exact host match). */
export function assistantOfHost(host: string): AiAssistant | undefined {
  return byHost.get(host.toLowerCase());
}

/** Parallel arrays for ClickHouse's transform(): referrer host → operator, lower-case utm_source → operator. */
export const REFERRAL_MAPS = {
  hosts: AI_ASSISTANTS.flatMap((a) => a.hosts),
  hostOperators: AI_ASSISTANTS.flatMap((a) => a.hosts.map(() => a.operator)),
  utmSources: AI_ASSISTANTS.flatMap((a) => a.utmSources.map((u) => u.toLowerCase())),
  utmOperators: AI_ASSISTANTS.flatMap((a) => a.utmSources.map(() => a.operator)),
};
