import { describe, expect, it } from 'vitest';
import { toolCallPart, toolCallPartFromText } from './tool-call-part.js';

describe('toolCallPart', () => {
  it('parses the wire text once and keeps it verbatim for replay', () => {
    expect(toolCallPartFromText('c1', 'f', '{"a": 1}')).toEqual({ type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 }, argumentsText: '{"a": 1}' });
  });

  it('keeps a parse failure on the part, so that nobody downstream parses the text again to learn it', () => {
    const part = toolCallPartFromText('c1', 'f', '{"a": 1,');
    expect(part).toMatchObject({ arguments: undefined, argumentsText: '{"a": 1,', argumentsError: { position: 8, line: 1, column: 9 } });
    expect(toolCallPartFromText('c2', 'f', '{"__proto__": {}}').argumentsError?.forbiddenKey).toEqual({ key: '__proto__', path: '' });
  });

  it("keeps strict mode's restored arguments beside the raw text", () => {
    // Strict mode parsed the text to map its nulls back to "absent"; the part must not undo that by parsing again.
    const part = toolCallPart({ id: 'c1', name: 'f', arguments: { a: 1 } }, '{"a": 1, "b": null}');
    expect(part).toEqual({ type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 }, argumentsText: '{"a": 1, "b": null}' });
  });

  it('passes a value sent parsed (Anthropic, MCP) through without text', () => {
    expect(toolCallPart({ id: 'toolu_1', name: 'f', arguments: { a: [1] } })).toEqual({ type: 'tool-call', id: 'toolu_1', name: 'f', arguments: { a: [1] } });
  });
});
