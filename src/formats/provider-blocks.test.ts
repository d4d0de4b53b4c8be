import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../protocol/messages.js';
import { withProviderBlocks } from './provider-blocks.js';

// Converted blocks stand for what an adapter made of each part: a call becomes `call:<id>`, a text `text:<text>`.
const convert = (message: AssistantMessage) => message.content.map((part) => (part.type === 'text' ? `text:${part.text}` : `call:${part.id}`));
const isCall = (block: string) => block.startsWith('call:');

describe('withProviderBlocks', () => {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [
      { type: 'text', text: 'a' },
      { type: 'tool-call', id: '1', name: 't', arguments: {} },
      { type: 'tool-call', id: '2', name: 't', arguments: {} },
    ],
    providerBlocks: [
      { format: 'anthropic', before: 2, block: 'search-2' },
      { format: 'anthropic', before: 0, block: 'search-0' },
      { format: 'openai-responses', before: 0, block: 'other-format' },
      { format: 'anthropic', before: 3, block: 'after-all' },
    ],
  };

  it('puts each block of its format before the call that followed it, those after the last call at the end, and no other format', () => {
    expect(withProviderBlocks(message, 'anthropic', convert(message), isCall)).toEqual(['text:a', 'search-0', 'call:1', 'search-2', 'call:2', 'after-all']);
  });

  it('leaves a message without blocks of its format as converted', () => {
    expect(withProviderBlocks({ ...message, providerBlocks: undefined }, 'anthropic', convert(message), isCall)).toEqual(convert(message));
    expect(withProviderBlocks(message, 'openai-responses', ['text:a'], isCall)).toEqual(['text:a', 'other-format']);
  });
});
