import { describe, expect, it } from 'vitest';
import { callParams } from '../__fixtures__/mcp.js';
import { parseMcpToolCall } from './parse-mcp-tool-call.js';

describe('parseMcpToolCall', () => {
  it('reads the spec’s call params, using the given id', () => {
    expect(parseMcpToolCall(callParams, { id: 2 })).toEqual({ id: '2', name: 'get_weather', arguments: { location: 'New York' } });
  });

  it('treats absent arguments as none, and makes up an id when none is given', () => {
    const call = parseMcpToolCall({ name: 'ping' });
    expect(call.arguments).toEqual({});
    expect(call.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
