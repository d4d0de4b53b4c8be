import { describe, expect, it } from 'vitest';
import { guideGetWeather as tool } from '../formats/__fixtures__/tools.js';
import type { Message } from '../protocol/messages.js';
import { trackConversation } from './conversation-token-estimate.js';
import { estimateInputTokens, estimateTextTokens } from './estimate-tokens.js';

describe('estimateInputTokens', () => {
  it('is ceil(characters / 4) over the serialized messages', () => {
    const messages = [{ role: 'user' as const, content: 'hello' }];
    // {"role":"user","content":"hello"} is 33 characters.
    expect(JSON.stringify(messages[0]).length).toBe(33);
    expect(estimateInputTokens({ messages })).toBe(9);
  });

  it('adds the tool declarations', () => {
    const declared = tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
    expect(estimateInputTokens({ messages: [], tools: [tool] })).toBe(Math.ceil(declared / 4));
  });

  it('leaves out the deferred tools of a native tool search until the conversation called them', () => {
    const toolSearch = { deferred: ['get_weather'] };
    expect(estimateInputTokens({ messages: [], tools: [tool], toolSearch })).toBe(0);
    const called = [{ role: 'assistant' as const, content: [{ type: 'tool-call' as const, id: 'c', name: 'get_weather', arguments: {} }] }];
    const withCall = estimateInputTokens({ messages: called, tools: [tool] });
    expect(estimateInputTokens({ messages: called, tools: [tool], toolSearch })).toBe(withCall);
  });

  it('reads only the new messages of a tracked conversation for the tools it called, with the figure of a fresh count', () => {
    const toolSearch = { deferred: ['get_weather'] };
    const messages: Message[] = [{ role: 'user', content: 'Weather in Paris?' }];
    trackConversation(messages);
    const fresh = () => estimateInputTokens({ messages: [...messages], tools: [tool], toolSearch });
    expect(estimateInputTokens({ messages, tools: [tool], toolSearch })).toBe(fresh());
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] });
    expect(estimateInputTokens({ messages, tools: [tool], toolSearch })).toBe(fresh());
    // The call arrives after the conversation was read twice: the deferred tool now counts, as in a fresh count.
    messages.push({ role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'get_weather', arguments: {} }] });
    const afterCall = estimateInputTokens({ messages, tools: [tool], toolSearch });
    expect(afterCall).toBe(fresh());
    expect(afterCall).toBeGreaterThan(estimateInputTokens({ messages, tools: [], toolSearch }));
  });

  it('charges a flat figure for images instead of their base64 length', () => {
    const small = estimateInputTokens({ messages: [{ role: 'user', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }] });
    const large = estimateInputTokens({ messages: [{ role: 'user', content: [{ type: 'image', data: 'A'.repeat(100_000), mimeType: 'image/png' }] }] });
    expect(small).toBe(large);
    expect(small).toBeGreaterThanOrEqual(1_000);
  });

  it('counts a structured field named data as text', () => {
    const result = { content: [], structuredContent: { data: 'x'.repeat(400) }, isError: false };
    const estimate = estimateInputTokens({ messages: [{ role: 'tool', results: [{ callId: 'c', toolName: 't', result }] }] });
    expect(estimate).toBeGreaterThan(100);
    expect(estimate).toBeLessThan(1_000);
  });

  it('is deterministic', () => {
    const request = {
      messages: [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'Hi' },
      ],
    };
    expect(estimateInputTokens(request)).toBe(estimateInputTokens(request));
  });
});

describe('estimateTextTokens', () => {
  it('rounds up', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('abcde')).toBe(2);
  });
});
