/**
 * Regenerates src/ingest/classifier/ai-agents.json from the ai.robots.txt registry (robots.json)
 * plus the hand-kept decisions below. Decisions and sources: src/ingest/classifier/ai-agents.PROVENANCE.md.
 *
 * Run from the repository root (Node 20 has no TypeScript loader, so compile it first):
 *   npx swc scripts/build-ai-agents.ts -o /tmp/build-ai-agents.js && node /tmp/build-ai-agents.js [robots.json]
 *
 * The registry path defaults to ../shared/data/ai-robots.json (shared/ sits beside the repository).
 * A registry key with no decision below fails the build: every new key needs a category (or a prune) by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

type Category = 'assistant' | 'search' | 'training' | 'other';

interface Decision {
  category: Category;
  /** Canonical name when the registry spells one agent several ways (case variants, version suffixes). */
  name?: string;
  /** Matched exactly as written: the same word in another case belongs to someone else. */
  caseSensitive?: boolean;
}

interface AgentOut {
  name: string;
  category: Category;
  tokens: string[];
  caseSensitive?: true;
  source: string;
}

const REGISTRY_URL = 'https://github.com/ai-robots-txt/ai.robots.txt (robots.json)';

/** Registry keys that must never be matched, with the reason (also in PROVENANCE.md). */
const PRUNED: Record<string, string> = {
  Code: 'generic word: Visual Studio Code sends "Code/1.x … Electron" from its built-in browser, a person',
  Spider: 'generic word: matches classic crawlers ("Sogou web spider", "Speedy Spider", "Screaming Frog SEO Spider"); the agent is kept through its domain "spider.com"',
  Operator: 'generic word ("Unknown Operator", an SEO bot "Operator/1.0"); OpenAI\'s Operator sends a stock Chrome UA, identifiable only by its signed requests',
  Applebot: 'classic search crawler (Spotlight/Siri/Safari search), like Googlebot and Bingbot: bot, not ai; Applebot-Extended stays',
  facebookexternalhit: 'link-preview fetcher for shared links (Meta documents it for sharing; the registry\'s AI use is a guess): bot; Meta\'s AI crawlers have their own tokens',
  Scrapy: 'generic scraping framework: any Scrapy project\'s default UA, not one AI operator: bot',
};

/** Every registry key not pruned, with its category, read from the registry's function/description and vendors' documentation. */
const DECISIONS: Record<string, Decision> = {
  AddSearchBot: { category: 'search' },
  AgentTimes: { category: 'other' },
  AI2Bot: { category: 'training' },
  'AI2Bot-DeepResearchEval': { category: 'assistant' },
  'Ai2Bot-Dolma': { category: 'training' },
  aiHitBot: { category: 'other' },
  AIWebIndex: { category: 'search' },
  'amazon-kendra': { category: 'search' },
  'amazon-QBusiness': { category: 'search' },
  Amazonbot: { category: 'training' },
  AmazonBuyForMe: { category: 'assistant' },
  'Amzn-SearchBot': { category: 'search' },
  'Amzn-User': { category: 'assistant' },
  Andibot: { category: 'search' },
  Anomura: { category: 'search' },
  'anthropic-ai': { category: 'training' },
  ApifyBot: { category: 'other' },
  ApifyWebsiteContentCrawler: { category: 'other' },
  'Applebot-Extended': { category: 'training' },
  'Aranet-SearchBot': { category: 'search' },
  'atlassian-bot': { category: 'search' },
  Awario: { category: 'other' },
  'AzureAI-SearchBot': { category: 'search' },
  bedrockbot: { category: 'other' },
  'bigsur.ai': { category: 'other' },
  Bravebot: { category: 'search' },
  Brightbot: { category: 'training' },
  'Brightbot 1.0': { category: 'training', name: 'Brightbot' },
  BuddyBot: { category: 'assistant' },
  Bytespider: { category: 'training' },
  CCBot: { category: 'training' },
  Channel3Bot: { category: 'search' },
  'ChatGLM-Spider': { category: 'training' },
  'ChatGPT Agent': { category: 'assistant' },
  'ChatGPT-User': { category: 'assistant' },
  'Claude-Code': { category: 'assistant' },
  'Claude-SearchBot': { category: 'search' },
  'Claude-User': { category: 'assistant' },
  'Claude-Web': { category: 'assistant' },
  ClaudeBot: { category: 'training' },
  'Cloudflare-AutoRAG': { category: 'search' },
  CloudVertexBot: { category: 'search', name: 'Google-CloudVertexBot' },
  'cohere-ai': { category: 'assistant' },
  'cohere-training-data-crawler': { category: 'training' },
  Cotoyogi: { category: 'training' },
  CragCrawler: { category: 'other' },
  Crawl4AI: { category: 'other' },
  Crawlspace: { category: 'other' },
  Cursor: { category: 'assistant' },
  'Datenbank Crawler': { category: 'other' },
  DeepSeekBot: { category: 'training' },
  Devin: { category: 'assistant' },
  Diffbot: { category: 'training' },
  DuckAssistBot: { category: 'search' },
  'Echobot Bot': { category: 'other' },
  EchoboxBot: { category: 'other' },
  // Exalead's long-running search crawler writes "Exabot"; Exa's AI crawler "ExaBot".
  ExaBot: { category: 'search', caseSensitive: true },
  ExaSearchBot: { category: 'search' },
  FacebookBot: { category: 'training' },
  Factset_spyderbot: { category: 'training' },
  FirecrawlAgent: { category: 'other' },
  FriendlyCrawler: { category: 'training' },
  'GeistHaus-PageFetcher': { category: 'assistant' },
  'Gemini-Deep-Research': { category: 'assistant' },
  'Google-Agent': { category: 'assistant' },
  'Google-CloudVertexBot': { category: 'search' },
  'Google-Extended': { category: 'training' },
  'Google-Firebase': { category: 'other' },
  'Google-Gemini-CLI': { category: 'assistant' },
  'Google-NotebookLM': { category: 'assistant' },
  'GoogleAgent-Mariner': { category: 'assistant' },
  'GoogleAgent-URLContext': { category: 'assistant' },
  GoogleOther: { category: 'other' },
  'GoogleOther-Image': { category: 'other' },
  'GoogleOther-Video': { category: 'other' },
  GPTBot: { category: 'training' },
  HenkBot: { category: 'search' },
  iAskBot: { category: 'search' },
  iaskspider: { category: 'search' },
  'iaskspider/2.0': { category: 'search', name: 'iaskspider' },
  'ICC-Crawler': { category: 'training' },
  ImagesiftBot: { category: 'other' },
  imageSpider: { category: 'training' },
  img2dataset: { category: 'training' },
  ISSCyberRiskCrawler: { category: 'training' },
  'kagi-fetcher': { category: 'assistant' },
  'Kangaroo Bot': { category: 'training' },
  'Kimi-User': { category: 'assistant' },
  KlaviyoAIBot: { category: 'other' },
  KunatoCrawler: { category: 'other' },
  'laion-huggingface-processor': { category: 'training' },
  LAIONDownloader: { category: 'training' },
  LCC: { category: 'training' },
  Lightpanda: { category: 'other' },
  LinerBot: { category: 'search' },
  'Linguee Bot': { category: 'training' },
  LinkupBot: { category: 'search' },
  'Manus-User': { category: 'assistant' },
  'meta-externalagent': { category: 'training', name: 'Meta-ExternalAgent' },
  'Meta-ExternalAgent': { category: 'training' },
  'meta-externalfetcher': { category: 'assistant', name: 'Meta-ExternalFetcher' },
  'Meta-ExternalFetcher': { category: 'assistant' },
  'meta-webindexer': { category: 'search', name: 'Meta-WebIndexer' },
  'MistralAI-User': { category: 'assistant' },
  'MistralAI-User/1.0': { category: 'assistant', name: 'MistralAI-User' },
  'Mozilla-Tabstack': { category: 'other' },
  MyCentralAIScraperBot: { category: 'training' },
  NagetBot: { category: 'other' },
  'netEstate Imprint Crawler': { category: 'other' },
  newsai: { category: 'other' },
  NotebookLM: { category: 'assistant', name: 'Google-NotebookLM' },
  // An unrelated SEO crawler writes "Novaact".
  NovaAct: { category: 'assistant', caseSensitive: true },
  'OAI-SearchBot': { category: 'search' },
  omgili: { category: 'other' },
  omgilibot: { category: 'other' },
  OpenAI: { category: 'other' },
  opencode: { category: 'assistant' },
  PanguBot: { category: 'training' },
  Panscient: { category: 'other' },
  'panscient.com': { category: 'other', name: 'Panscient' },
  'Perplexity-User': { category: 'assistant' },
  PerplexityBot: { category: 'search' },
  PetalBot: { category: 'search' },
  PhindBot: { category: 'search' },
  'Poggio-Citations': { category: 'other' },
  'Poseidon Research Crawler': { category: 'training' },
  QualifiedBot: { category: 'other' },
  'Querit-SearchBot': { category: 'search' },
  QueritBot: { category: 'search' },
  QuillBot: { category: 'other' },
  'quillbot.com': { category: 'other', name: 'QuillBot' },
  Reflectionbot: { category: 'training' },
  SBIntuitionsBot: { category: 'training' },
  'SemrushBot-OCOB': { category: 'other' },
  'SemrushBot-SWA': { category: 'other' },
  'Shap-User': { category: 'assistant' },
  ShapBot: { category: 'search' },
  'Sidetrade indexer bot': { category: 'training' },
  TavilyBot: { category: 'search' },
  'Terra Cotta': { category: 'search', name: 'TerraCotta' },
  TerraCotta: { category: 'search' },
  Thinkbot: { category: 'other' },
  TikTokSpider: { category: 'training' },
  Timpibot: { category: 'training' },
  TongyiBot: { category: 'assistant' },
  Trae: { category: 'assistant' },
  TwinAgent: { category: 'assistant' },
  UseAI: { category: 'assistant' },
  VelenPublicWebCrawler: { category: 'training' },
  WARDBot: { category: 'other' },
  'Webzio-Extended': { category: 'training' },
  'webzio-extended': { category: 'training', name: 'Webzio-Extended' },
  wpbot: { category: 'other' },
  WRTNBot: { category: 'other' },
  YaK: { category: 'other' },
  YandexAdditional: { category: 'search' },
  YandexAdditionalBot: { category: 'search', name: 'YandexAdditional' },
  YiyanBot: { category: 'assistant' },
  YouBot: { category: 'search' },
  ZanistaBot: { category: 'search' },
};

/** Agents or spellings the registry lacks, each from a vendor's documentation or a public UA list. */
const EXTRA: Array<{ name: string; category: Category; tokens: string[]; source: string }> = [
  { name: 'Google-GeminiNotebook', category: 'assistant', tokens: ['Google-GeminiNotebook'], source: 'Google: user-triggered fetchers' },
  { name: 'Perplexity-User', category: 'assistant', tokens: ['PerplexityUser'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'xAI-Bot', category: 'training', tokens: ['xAI-Bot', 'GrokBot'], source: 'public AI-crawler references (xAI publishes no crawler page)' },
  { name: 'Spider', category: 'other', tokens: ['spider.com'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'AISearchBot', category: 'search', tokens: ['AISearchBot'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'KendraBot', category: 'search', tokens: ['KendraBot'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'Flyriverbot', category: 'other', tokens: ['Flyriverbot'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'ExteContextCrawl', category: 'other', tokens: ['ExteContextCrawl'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'semantic-visions', category: 'other', tokens: ['semantic-visions'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'TaraGroup Intelligent Bot', category: 'other', tokens: ['TaraGroup Intelligent Bot'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'TSM-turingos', category: 'other', tokens: ['TSM-turingos'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'ImageMind', category: 'other', tokens: ['ImageMind'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'Novellum', category: 'other', tokens: ['Novellum'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'linkReader', category: 'other', tokens: ['linkReader'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'Spawning-AI', category: 'training', tokens: ['Spawning-AI'], source: 'crawler-user-agents (ai-crawler)' },
  { name: 'The Knowledge AI', category: 'other', tokens: ['The Knowledge AI'], source: 'crawler-user-agents (ai-crawler)' },
];

/** A registry key as a UA token: robots.txt keys sometimes carry a version ("iaskspider/2.0") that a UA varies. */
function tokenOf(key: string): string {
  return key.replace(/\/[\d.]+$/, '').replace(/ \d+(\.\d+)*$/, '');
}

function build(registry: Record<string, unknown>): unknown {
  const keys = Object.keys(registry);
  const undecided = keys.filter((k) => !(k in DECISIONS) && !(k in PRUNED));
  if (undecided.length > 0) throw new Error(`registry keys without a decision: ${undecided.join(', ')}`);
  const stale = [...Object.keys(DECISIONS), ...Object.keys(PRUNED)].filter((k) => !keys.includes(k));
  if (stale.length > 0) console.warn(`decisions for keys no longer in the registry: ${stale.join(', ')}`);

  const byName = new Map<string, AgentOut>();
  const add = (name: string, category: Category, token: string, source: string, caseSensitive?: boolean): void => {
    const agent = byName.get(name) ?? { name, category, tokens: [], source };
    if (agent.category !== category) throw new Error(`${name}: conflicting categories`);
    if (!agent.tokens.some((t) => t.toLowerCase() === token.toLowerCase())) agent.tokens.push(token);
    if (caseSensitive) agent.caseSensitive = true;
    byName.set(name, agent);
  };
  for (const key of keys) {
    const decision = DECISIONS[key];
    if (decision) add(decision.name ?? key, decision.category, tokenOf(key), 'ai.robots.txt', decision.caseSensitive);
  }
  for (const extra of EXTRA) {
    for (const token of extra.tokens) add(extra.name, extra.category, token, byName.get(extra.name)?.source ?? extra.source);
  }

  return {
    $comment: 'Generated by scripts/build-ai-agents.ts; see ai-agents.PROVENANCE.md. ai.robots.txt data is MIT-licensed (c) 2024 ai.robots.txt.',
    registry: { source: REGISTRY_URL, license: 'MIT', keys, pruned: PRUNED },
    agents: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const registryPath = resolve(process.argv[2] ?? '../shared/data/ai-robots.json');
const outPath = resolve('src/ingest/classifier/ai-agents.json');
const registry = JSON.parse(readFileSync(registryPath, 'utf8')) as Record<string, unknown>;
writeFileSync(outPath, `${JSON.stringify(build(registry), null, 2)}\n`);
console.log(`wrote ${outPath}`);
