import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { addAnthropicCacheBreakpoints } from './anthropic-cache-control.js';

const ephemeral = { type: 'ephemeral' };

describe('addAnthropicCacheBreakpoints', () => {
  it('marks the last block that takes a breakpoint, never a thinking block, and the last of several system blocks', () => {
    const body: MessageCreateParamsBase = {
      model: 'claude-test',
      max_tokens: 10,
      system: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me think.' },
            { type: 'thinking', thinking: 'hm', signature: 'sig' },
            { type: 'redacted_thinking', data: 'opaque' },
          ],
        },
      ],
    };
    addAnthropicCacheBreakpoints(body);
    expect(body.system).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two', cache_control: ephemeral },
    ]);
    expect(body.messages[1]!.content).toEqual([
      { type: 'text', text: 'Let me think.', cache_control: ephemeral },
      { type: 'thinking', thinking: 'hm', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
    ]);
    expect(body.messages[0]).toEqual({ role: 'user', content: 'Hi' });
  });

  it('leaves the objects it was given unchanged, marking copies', () => {
    const tool = { name: 't', input_schema: { type: 'object' as const } };
    const block = { type: 'text' as const, text: 'Hi' };
    const message = { role: 'user' as const, content: [block] };
    const body: MessageCreateParamsBase = { model: 'claude-test', max_tokens: 10, tools: [tool], messages: [message] };
    addAnthropicCacheBreakpoints(body);
    expect(body.tools).toEqual([{ ...tool, cache_control: ephemeral }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: ephemeral }] }]);
    expect(tool).not.toHaveProperty('cache_control');
    expect(block).not.toHaveProperty('cache_control');
    expect(message.content).toEqual([{ type: 'text', text: 'Hi' }]);
  });
});
