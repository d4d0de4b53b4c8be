import { describe, expect, it } from 'vitest';
import { CHARACTERS_PER_TOKEN, IMAGE_TOKEN_ESTIMATE } from './estimate-tokens.js';
import { wirePromptTokens } from './wire-prompt-estimate.js';

const tokens = (...texts: string[]) => Math.ceil(texts.join('').length / CHARACTERS_PER_TOKEN);

describe('wirePromptTokens', () => {
  it('counts each element of a list on its own, and skips undefined parts', () => {
    const tools = [{ name: 'a' }, { name: 'bb' }];
    expect(wirePromptTokens([tools, undefined, 'Be brief.'])).toBe(tokens(JSON.stringify(tools[0]), JSON.stringify(tools[1]), JSON.stringify('Be brief.')));
  });

  it('leaves cache_control marks out: they are not prompt text', () => {
    const marked = { type: 'text', text: 'Hello there', cache_control: { type: 'ephemeral', ttl: '1h' } };
    const first = { cache_control: { type: 'ephemeral' }, type: 'text', text: 'x' };
    expect(wirePromptTokens([marked])).toBe(tokens(JSON.stringify({ type: 'text', text: 'Hello there' })));
    expect(wirePromptTokens([first])).toBe(tokens('{', '"type":"text","text":"x"}'));
  });

  it('charges an inline image a flat figure instead of its base64 length', () => {
    const data = 'A'.repeat(40_000);
    const anthropic = { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
    const chat = { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } };
    expect(wirePromptTokens([anthropic])).toBe(tokens(JSON.stringify({ ...anthropic, source: { ...anthropic.source, data: '' } })) + IMAGE_TOKEN_ESTIMATE);
    expect(wirePromptTokens([chat])).toBe(tokens(JSON.stringify({ type: 'image_url', image_url: { url: '' } })) + IMAGE_TOKEN_ESTIMATE);
    // Text that merely mentions base64 is counted as it is.
    expect(wirePromptTokens(['encode it as base64'])).toBe(tokens('"encode it as base64"'));
  });
});
