import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from './index.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});

describe('startProviderServer', () => {
  it('listens on 127.0.0.1 and gives each SDK its base URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openaiBaseURL).toBe(`${server.url}/v1`);
    expect(server.anthropicBaseURL).toBe(server.url);
  });

  it('records requests, answers unknown paths with 404, and resets', async () => {
    const response = await fetch(`${server.url}/v1/nothing?x=1`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(404);
    expect(server.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([{ method: 'POST', path: '/v1/nothing', body: { a: 1 } }]);
    server.enqueue({ text: 'unused' });
    server.reset();
    expect([server.pending, server.requests.length]).toEqual([0, 0]);
  });

  it('streams Chat Completions chunks ending with [DONE], usage only when asked', async () => {
    server.enqueue({ text: 'Hi!', chunkSize: 2 }, { text: 'Hi!', chunkSize: 2 });
    const read = async (body: unknown) => (await fetch(`${server.openaiBaseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(body) })).text();
    const plain = await read({ model: 'm', stream: true });
    const lines = plain.split('\n\n').filter(Boolean);
    expect(lines.at(-1)).toBe('data: [DONE]');
    expect(lines.map((line) => JSON.parse(line.slice(6) === '[DONE]' ? '{}' : line.slice(6)).choices?.[0]?.delta?.content ?? null)).toEqual([
      '',
      'Hi',
      '!',
      null,
      null,
    ]);
    expect(plain).not.toContain('"usage"');
    const withUsage = await read({ model: 'm', stream: true, stream_options: { include_usage: true } });
    expect(withUsage).toContain('"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7');
  });

  it('names Anthropic SSE events and ends with message_stop', async () => {
    server.enqueue({ toolCalls: [{ id: 'toolu_1', name: 't', arguments: { a: 1 } }] });
    const text = await (await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'c', stream: true }) })).text();
    const names = [...text.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(text).toContain('"content_block":{"type":"tool_use","id":"toolu_1","name":"t","input":{}}');
    expect(text).toContain('"stop_reason":"tool_use"');
  });
});
