import { AI_ASSISTANTS, assistantOfHost, REFERRAL_MAPS } from './ai-assistants';

describe('ai-assistant-referrers.json', () => {
  it('names each host and utm_source once, in lower case, with an operator and a source', () => {
    expect(new Set(REFERRAL_MAPS.hosts).size).toBe(REFERRAL_MAPS.hosts.length);
    expect(new Set(REFERRAL_MAPS.utmSources).size).toBe(REFERRAL_MAPS.utmSources.length);
    for (const a of AI_ASSISTANTS) {
      expect(a.operator).toMatch(/\S/);
      for (const h of a.hosts) expect(h).toBe(h.toLowerCase());
    }
  });

  it('finds the assistant of a referrer host', () => {
    expect(assistantOfHost('chatgpt.com')).toMatchObject({ name: 'ChatGPT', operator: 'OpenAI' });
    expect(assistantOfHost('Perplexity.AI')?.name).toBe('Perplexity');
    expect(assistantOfHost('google.com')).toBeUndefined();
  });
});
