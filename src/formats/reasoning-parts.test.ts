import { describe, expect, it } from 'vitest';
import { encryptedMarker, withoutEncryptedReasoning } from './reasoning-parts.js';

describe('withoutEncryptedReasoning', () => {
  it('replaces every encrypted reasoning payload, wherever it sits, and leaves the rest', () => {
    const line = {
      type: 'model_response',
      raw: {
        content: [
          { type: 'redacted_thinking', data: 'AAA' },
          { type: 'thinking', thinking: 'plain', signature: 'sig' },
        ],
      },
      messages: [
        { role: 'assistant', content: [{ type: 'reasoning', format: 'openai-responses', item: { type: 'reasoning', id: 'rs_1', encrypted_content: 'BBBB' } }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'reasoning',
              format: 'ai-sdk',
              item: { type: 'reasoning', text: 't', providerMetadata: { anthropic: { redactedData: 'CC' }, openai: { reasoningEncryptedContent: 'D' } } },
            },
          ],
        },
      ],
      // Not reasoning: an image's data and a tool argument named like a field stay as they are.
      image: { type: 'image', data: 'base64' },
      arguments: { data: 'kept', encrypted_content: 'kept too' },
    };
    const stripped = withoutEncryptedReasoning(line);
    expect(stripped.raw.content).toEqual([
      { type: 'redacted_thinking', data: encryptedMarker('AAA') },
      { type: 'thinking', thinking: 'plain', signature: 'sig' },
    ]);
    expect(stripped.messages[0]!.content[0]!.item).toEqual({ type: 'reasoning', id: 'rs_1', encrypted_content: encryptedMarker('BBBB') });
    expect((stripped.messages[1]!.content[0]!.item as { providerMetadata: unknown }).providerMetadata).toEqual({
      anthropic: { redactedData: encryptedMarker('CC') },
      openai: { reasoningEncryptedContent: encryptedMarker('D') },
    });
    expect(stripped.image).toBe(line.image);
    expect(stripped.arguments).toBe(line.arguments);
    expect(JSON.stringify(stripped)).not.toMatch(/"(AAA|BBBB|CC|D)"/);
    // The original is not touched: the run state still replays it.
    expect(line.raw.content[0]).toEqual({ type: 'redacted_thinking', data: 'AAA' });
  });

  it('returns the same object when there is nothing encrypted', () => {
    const line = { type: 'tool_call', arguments: { city: 'Paris', list: [1, { a: 'b' }] } };
    expect(withoutEncryptedReasoning(line)).toBe(line);
  });
});
