import { parseSignatureAgent } from './signature-agent';
import { classifyHit } from './user-agent-classifier';

const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('Signature-Agent (Web Bot Auth)', () => {
  it.each([
    ['"https://chatgpt.com"', ['https://chatgpt.com']],
    ['"https://chatgpt.com/"', ['https://chatgpt.com']],
    ['sig1="https://chatgpt.com"', ['https://chatgpt.com']],
    ['"https://CHATGPT.com"', ['https://chatgpt.com']],
    ['https://chatgpt.com', ['https://chatgpt.com']],
    ['"https://agents.example/dir/"', ['https://agents.example/dir']],
    ['sig1="https://a.example", sig2="https://chatgpt.com"', ['https://a.example', 'https://chatgpt.com']],
    ['g="https://agent.bot.goog"', ['https://agent.bot.goog']],
    ['"https://agents.example/.well-known/http-message-signatures-directory"', ['https://agents.example']],
  ])('reads %s', (value, directories) => {
    expect(parseSignatureAgent(value)).toEqual(directories);
  });

  it.each([
    ['empty', ''],
    ['not a URL', '"chatgpt"'],
    ['another scheme', '"ftp://chatgpt.com"'],
    ['an unterminated string', '"https://chatgpt.com'],
    ['a control character', '"https://chatgpt.com\u0001"'],
    ['over 256 characters', `"https://${'a'.repeat(260)}.com"`],
  ])('refuses %s', (_what, value) => {
    expect(parseSignatureAgent(value)).toBeUndefined();
  });

  it("makes a Chrome UA with ChatGPT's directory OpenAI's agent; an unknown directory leaves the UA to decide", () => {
    expect(classifyHit(CHROME, ['https://chatgpt.com'])).toMatchObject({ class: 'ai', aiCategory: 'agent', aiOperator: 'OpenAI', aiAgent: 'ChatGPT Agent' });
    expect(classifyHit(CHROME, ['https://unknown.example'])).toMatchObject({ class: 'human' });
    expect(classifyHit(CHROME)).toMatchObject({ class: 'human' });
  });

  it.each([
    // Google signs Google-Agent's requests as g="https://agent.bot.goog" (its "Allow Google-Agent traffic" page).
    ['https://agent.bot.goog', 'Google', 'Google-Agent'],
    // Cloudflare's Browser Run signs every request, whatever UA the caller gave its Chrome.
    ['https://web-bot-auth.cloudflare-browser-rendering-085.workers.dev', 'Cloudflare', 'Cloudflare Browser Run'],
  ])('makes a Chrome UA signed by %s that operator\'s agent', (directory, aiOperator, aiAgent) => {
    expect(classifyHit(CHROME, parseSignatureAgent(`"${directory}"`))).toMatchObject({ class: 'ai', aiCategory: 'agent', aiOperator, aiAgent });
  });
});
