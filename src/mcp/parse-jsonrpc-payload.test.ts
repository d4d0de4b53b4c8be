import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';

function errorOf(text: string, allowBatch = false) {
  const payload = parseJsonRpcPayload(text, { allowBatch });
  if (payload.success) throw new Error('expected a failure');
  return payload.response;
}

describe('parseJsonRpcPayload', () => {
  it('accepts a request, a notification and a response', () => {
    const request = parseJsonRpcPayload('{"jsonrpc":"2.0","id":1,"method":"ping"}', { allowBatch: false });
    expect(request).toEqual({ success: true, value: { jsonrpc: '2.0', id: 1, method: 'ping' }, messages: [{ jsonrpc: '2.0', id: 1, method: 'ping' }] });
    expect(parseJsonRpcPayload('{"jsonrpc":"2.0","method":"notifications/initialized"}', { allowBatch: false }).success).toBe(true);
    expect(parseJsonRpcPayload('{"jsonrpc":"2.0","id":"a","result":{}}', { allowBatch: false }).success).toBe(true);
  });

  it("takes an everyday result response as it is, with the SDK schema's verdict on every response shape", () => {
    const plain = parseJsonRpcPayload('{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"hi"}]}}', { allowBatch: false });
    // The parsed value itself, not the schema's copy: no Zod parse ran.
    expect(plain.success && plain.messages[0]).toBe(plain.success && plain.value);
    const shapes = [
      '{"jsonrpc":"2.0","id":"a","result":{}}',
      '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"progressToken":1}}}',
      '{"jsonrpc":"2.0","id":1,"result":{"_meta":5}}',
      '{"jsonrpc":"2.0","id":1,"result":[]}',
      '{"jsonrpc":"2.0","id":1,"result":null}',
      '{"jsonrpc":"2.0","id":1,"result":"x"}',
      '{"jsonrpc":"2.0","id":1.5,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"result":{}}',
      '{"jsonrpc":"2.0","id":1,"result":{},"extra":1}',
      '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
      '{"jsonrpc":"2.0","result":{}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m"}}',
    ];
    for (const text of shapes) {
      const payload = parseJsonRpcPayload(text, { allowBatch: false });
      expect({ text, accepted: payload.success }).toEqual({ text, accepted: JSONRPCMessageSchema.safeParse(JSON.parse(text)).success });
      if (payload.success) expect(payload.messages[0]).toEqual(JSON.parse(text));
    }
  });

  it('answers text that is not JSON with -32700 and a null id', () => {
    const response = errorOf('{"jsonrpc":"2.0","id":1,');
    expect(response.id).toBeNull();
    expect(response.error.code).toBe(-32700);
    expect(response.error.message).toMatch(/^Parse error: .+ at line 1, column 25\. Send one JSON-RPC 2\.0 message as JSON\.$/);
  });

  it('refuses prototype-polluting keys as a parse error', () => {
    expect(errorOf('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"__proto__":{"x":1}}}').error.code).toBe(-32700);
  });

  it('answers JSON that is not a JSON-RPC message with -32600, echoing a usable id', () => {
    expect(errorOf('42').error).toEqual({ code: -32600, message: 'Invalid Request: expected a JSON-RPC message object, got number.' });
    expect(errorOf('{"id":7,"method":"ping"}')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: 'Invalid Request: the "jsonrpc" member must be exactly "2.0".' },
    });
    expect(errorOf('{"jsonrpc":"2.0","id":7,"method":5}').error.message).toBe('Invalid Request: the "method" member must be a string.');
    expect(errorOf('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(errorOf('{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}')).toMatchObject({ id: 3, error: { code: -32600 } });
  });

  it('refuses nesting deeper than 128 levels without overflowing the stack', () => {
    expect(errorOf('['.repeat(100_000) + ']'.repeat(100_000)).error).toEqual({
      code: -32600,
      message: 'Invalid Request: the message nests arrays and objects more than 128 levels deep.',
    });
    const deepButFine = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(120)}"[[[[{{{{"${']'.repeat(120)}}}`;
    expect(parseJsonRpcPayload(deepButFine, { allowBatch: false }).success).toBe(true);
  });

  it('accepts batches only where allowed, and never empty or oversized ones', () => {
    expect(errorOf('[{"jsonrpc":"2.0","id":1,"method":"ping"}]').error.message).toBe(
      'Invalid Request: batches are not supported here; send one JSON-RPC message per line.',
    );
    const batch = parseJsonRpcPayload('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]', { allowBatch: true });
    expect(batch.success && batch.messages).toHaveLength(2);
    expect(errorOf('[]', true).error.code).toBe(-32600);
    expect(errorOf(JSON.stringify(Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }))), true).error.message).toBe(
      'Invalid Request: a batch may hold at most 100 messages.',
    );
    expect(errorOf('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":2}]', true)).toMatchObject({
      id: 2,
      error: { code: -32600, message: 'Invalid Request: batch item 1: the "jsonrpc" member must be exactly "2.0".' },
    });
  });
});
