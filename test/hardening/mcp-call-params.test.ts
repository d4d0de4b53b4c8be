/**
 * Hardening: malformed `tools/call` params get one readable sentence as a
 * JSON-RPC -32602 error, over stdio and over HTTP: no "MCP error" prefix, no
 * Zod issue dump, and the sentence says what was wrong and what to send.
 */
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, serveStdio } from '../../src/mcp/index.js';
import type { McpHttpHandle, McpStdioHandle } from '../../src/mcp/index.js';
import { defineTool, silentLogger } from '../../src/tools/index.js';

const echo = defineTool<{ message: string }>({
  name: 'echo',
  description: 'Echoes a message.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  execute: ({ message }) => message,
});

const SEND = 'Send {"name": "<tool>", "arguments": {…}}.';
const CASES: { label: string; params: unknown; message: string }[] = [
  {
    label: 'arguments is a string',
    params: { name: 'echo', arguments: '{"message":"hi"}' },
    message: `Invalid params for tools/call: "arguments" must be an object; got a string. ${SEND}`,
  },
  {
    label: 'arguments is an array',
    params: { name: 'echo', arguments: ['hi'] },
    message: `Invalid params for tools/call: "arguments" must be an object; got an array. ${SEND}`,
  },
  {
    label: 'arguments is null',
    params: { name: 'echo', arguments: null },
    message: `Invalid params for tools/call: "arguments" must be an object; got null. ${SEND}`,
  },
  {
    label: 'arguments is a number',
    params: { name: 'echo', arguments: 5 },
    message: `Invalid params for tools/call: "arguments" must be an object; got a number. ${SEND}`,
  },
  { label: 'name is missing', params: { arguments: { message: 'hi' } }, message: `Invalid params for tools/call: "name" is missing. ${SEND}` },
  { label: 'no params at all', params: undefined, message: `Invalid params for tools/call: "name" is missing. ${SEND}` },
  { label: 'name is a number', params: { name: 5, arguments: {} }, message: `Invalid params for tools/call: "name" must be a string; got a number. ${SEND}` },
  { label: 'name is an object', params: { name: { tool: 'echo' } }, message: `Invalid params for tools/call: "name" must be a string; got an object. ${SEND}` },
  {
    label: 'task is not an object (checked by the full schema)',
    params: { name: 'echo', arguments: {}, task: 'soon' },
    message: `Invalid params for tools/call: "task" must be an object; got a string. ${SEND}`,
  },
];

function requestFor(id: number, params: unknown): Record<string, unknown> {
  return params === undefined ? { jsonrpc: '2.0', id, method: 'tools/call' } : { jsonrpc: '2.0', id, method: 'tools/call', params };
}

function expectReadable(answer: { id?: unknown; error?: { code?: unknown; message?: unknown } }, id: number, message: string): void {
  expect(answer.id).toBe(id);
  expect(answer.error?.code).toBe(-32602);
  expect(answer.error?.message).toBe(message);
  expect(String(answer.error?.message)).not.toMatch(/MCP error|invalid_type|\n|"code"|"path"/);
}

describe('malformed tools/call params over stdio', () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers = new Map<unknown, Record<string, unknown>>();
  let handle: McpStdioHandle;
  let buffered = '';

  beforeAll(async () => {
    handle = await serveStdio([echo], { input, output, logger: silentLogger });
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const answer = JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>;
        buffered = buffered.slice(newline + 1);
        answers.set(answer.id, answer);
      }
    });
    input.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      }) + '\n',
    );
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  });
  afterAll(() => handle.close());

  async function answerTo(id: number): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 200 && !answers.has(id); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    const answer = answers.get(id);
    if (!answer) throw new Error(`no answer to request ${id}`);
    return answer;
  }

  it.each(CASES.map((entry, index) => ({ ...entry, id: index + 1 })))('$label', async ({ id, params, message }) => {
    input.write(JSON.stringify(requestFor(id, params)) + '\n');
    expectReadable(await answerTo(id), id, message);
  });

  it('still calls the tool when the params are right', async () => {
    input.write(JSON.stringify(requestFor(100, { name: 'echo', arguments: { message: 'hi' }, _meta: { progressToken: 7 } })) + '\n');
    expect((await answerTo(100)).result).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
  });
});

describe('malformed tools/call params over HTTP', () => {
  let handle: McpHttpHandle;
  let session: string;

  function post(body: string, headers: Record<string, string> = {}): Promise<{ headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        handle.url,
        { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  beforeAll(async () => {
    handle = await serveHttp([echo], { port: 0, logger: silentLogger });
    const init = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      }),
    );
    session = init.headers['mcp-session-id'] as string;
    await post('{"jsonrpc":"2.0","method":"notifications/initialized"}', { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  });
  afterAll(() => handle.close());

  async function call(id: number, params: unknown): Promise<Record<string, unknown>> {
    const response = await post(JSON.stringify(requestFor(id, params)), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const data = response.body.split('\n').find((line) => line.startsWith('data: '));
    if (data === undefined) throw new Error(`no SSE message in ${response.body}`);
    return JSON.parse(data.slice(6)) as Record<string, unknown>;
  }

  it.each(CASES.map((entry, index) => ({ ...entry, id: index + 1 })))('$label', async ({ id, params, message }) => {
    expectReadable(await call(id, params), id, message);
  });

  it('still calls the tool when the params are right', async () => {
    expect((await call(100, { name: 'echo', arguments: { message: 'hi' } })).result).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
  });
});
