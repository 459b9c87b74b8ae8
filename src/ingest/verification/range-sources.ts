/**
 * The operators' published IP range lists Docent ships (agent-ranges/, see its PROVENANCE.md) and
 * refreshes (`npm run cli -- update-agent-ranges`). The id is the file name without `.json`.
 */
export interface RangeSource {
  id: string;
  operator: string;
  /** The official URL the refresh downloads. */
  url: string;
  /** `json`: the operator's JSON document; `html`: a page with the JSON document embedded (Amazon). */
  format: 'json' | 'html';
}

export const RANGE_SOURCES: readonly RangeSource[] = [
  { id: 'openai-gptbot', operator: 'OpenAI', url: 'https://openai.com/gptbot.json', format: 'json' },
  { id: 'openai-searchbot', operator: 'OpenAI', url: 'https://openai.com/searchbot.json', format: 'json' },
  { id: 'openai-chatgpt-user', operator: 'OpenAI', url: 'https://openai.com/chatgpt-user.json', format: 'json' },
  { id: 'anthropic-bots', operator: 'Anthropic', url: 'https://claude.com/crawling/bots.json', format: 'json' },
  { id: 'google-googlebot', operator: 'Google', url: 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json', format: 'json' },
  { id: 'google-special-crawlers', operator: 'Google', url: 'https://developers.google.com/static/crawling/ipranges/special-crawlers.json', format: 'json' },
  { id: 'google-user-triggered-fetchers', operator: 'Google', url: 'https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers.json', format: 'json' },
  {
    id: 'google-user-triggered-fetchers-google',
    operator: 'Google',
    url: 'https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json',
    format: 'json',
  },
  { id: 'bing-bingbot', operator: 'Microsoft', url: 'https://www.bing.com/toolbox/bingbot.json', format: 'json' },
  { id: 'perplexity-perplexitybot', operator: 'Perplexity', url: 'https://www.perplexity.com/perplexitybot.json', format: 'json' },
  { id: 'perplexity-user', operator: 'Perplexity', url: 'https://www.perplexity.com/perplexity-user.json', format: 'json' },
  { id: 'apple-applebot', operator: 'Apple', url: 'https://search.developer.apple.com/applebot.json', format: 'json' },
  { id: 'duckduckgo-duckduckbot', operator: 'DuckDuckGo', url: 'https://duckduckgo.com/duckduckbot.json', format: 'json' },
  { id: 'duckduckgo-duckassistbot', operator: 'DuckDuckGo', url: 'https://duckduckgo.com/duckassistbot.json', format: 'json' },
  { id: 'commoncrawl-ccbot', operator: 'Common Crawl', url: 'https://index.commoncrawl.org/ccbot.json', format: 'json' },
  { id: 'amazon-amazonbot', operator: 'Amazon', url: 'https://developer.amazon.com/amazonbot/ip-addresses/', format: 'html' },
];

/** When the shipped copies were collected (agent-ranges/PROVENANCE.md): their age in /health counts from here. */
export const SHIPPED_COLLECTED_AT = '2026-11-23T00:00:00Z';

/** A refreshed list lives at DATA_DIR/agent-ranges/<id>.json, in the operator's own format. */
export const RANGES_SUBDIR = 'agent-ranges';
