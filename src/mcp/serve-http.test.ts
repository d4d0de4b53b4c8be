import { request } from 'node:http';
import { Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, silentLogger } from '../tools/index.js';
import { serveHttp } from './serve-http.js';
import type { McpHttpHandle, McpHttpOptions } from './serve-http.js';

const echo = defineTool<{ message: string }>({
  name: 'echo',
  description: 'Echoes a message.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  execute: ({ message }) => message,
});

let handle: McpHttpHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function start(options: McpHttpOptions = {}): Promise<McpHttpHandle> {
  handle = await serveHttp([echo], { port: 0, logger: silentLogger, ...options });
  return handle;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function openSession(url: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await raw(url, { headers: { ...MCP_HEADERS, ...extra }, body: INITIALIZE });
  expect(response.status).toBe(200);
  const id = response.headers['mcp-session-id'];
  expect(typeof id).toBe('string');
  await raw(url, {
    headers: { ...MCP_HEADERS, ...extra, 'mcp-session-id': id as string, 'mcp-protocol-version': '2025-11-25' },
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  });
  return id as string;
}

/** The JSON-RPC messages of an SSE or JSON response body. */
function messagesOf(response: RawResponse): { id?: unknown; result?: unknown; error?: { code: number; message: string } }[] {
  if (String(response.headers['content-type']).startsWith('application/json')) return [JSON.parse(response.body)];
  return response.body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)));
}

describe('serveHttp', () => {
  it('serves tools to the SDK client over Streamable HTTP with a session', async () => {
    const { url } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
    expect(handle!.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(handle!.sessionCount).toBe(0);
    await client.close();
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding)', async () => {
    const { url, port } = await start();
    const host = await raw(url, { headers: { ...MCP_HEADERS, Host: 'evil.example.com' }, body: INITIALIZE });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Forbidden: Host header "evil.example.com" is not allowed. This server accepts 127.0.0.1:${port}, localhost:${port}, [::1]:${port}; use --allowed-host to add one.`,
      },
    });
    const origin = await raw(url, { headers: { ...MCP_HEADERS, Origin: 'http://evil.example.com' }, body: INITIALIZE });
    expect(origin.status).toBe(403);
    const good = await raw(url, { headers: { ...MCP_HEADERS, Host: `localhost:${port}`, Origin: `http://localhost:${port}` }, body: INITIALIZE });
    expect(good.status).toBe(200);
  });

  it('requires the bearer token when one is set', async () => {
    const { url } = await start({ authToken: 's3cret' });
    const missing = await raw(url, { headers: MCP_HEADERS, body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="toolwright"');
    expect((await raw(url, { headers: { ...MCP_HEADERS, Authorization: 'Bearer wrong' }, body: INITIALIZE })).status).toBe(401);
    expect((await raw(url, { headers: { ...MCP_HEADERS, Authorization: 'Bearer s3cret' }, body: INITIALIZE })).status).toBe(200);
  });

  it('answers bad bodies with JSON-RPC errors and never a stack trace', async () => {
    const { url } = await start({ maxBodyBytes: 1024 });
    const notJson = await raw(url, { headers: MCP_HEADERS, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
    const notRpc = await raw(url, { headers: MCP_HEADERS, body: '{"hello":"world"}' });
    expect(notRpc.status).toBe(400);
    expect(JSON.parse(notRpc.body).error.code).toBe(-32600);
    const tooLarge = await raw(url, {
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }),
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).error.message).toBe('Payload too large: request bodies are limited to 1024 bytes.');
    const wrongType = await raw(url, { headers: { ...MCP_HEADERS, 'Content-Type': 'text/plain' }, body: INITIALIZE });
    expect(wrongType.status).toBe(415);
    for (const response of [notJson, notRpc, tooLarge, wrongType]) expect(response.body).not.toMatch(/\bat .+\.(js|ts):\d+/);
  });

  it('routes only the MCP path and methods', async () => {
    const { url } = await start();
    expect((await raw(url.replace('/mcp', '/other'), { headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(404);
    const put = await raw(url, { method: 'PUT', headers: MCP_HEADERS, body: INITIALIZE });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
  });

  it('requires a session after initialize, and answers an unknown one with 404', async () => {
    const { url } = await start();
    const ping = '{"jsonrpc":"2.0","id":2,"method":"ping"}';
    expect((await raw(url, { headers: MCP_HEADERS, body: ping })).status).toBe(400);
    const unknown = await raw(url, { headers: { ...MCP_HEADERS, 'mcp-session-id': 'nope', 'mcp-protocol-version': '2025-11-25' }, body: ping });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe(-32001);
  });

  it('answers unknown methods -32601 and unknown tools -32602 inside a session', async () => {
    const { url } = await start();
    const session = await openSession(url);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const unknownMethod = messagesOf(await raw(url, { headers, body: '{"jsonrpc":"2.0","id":3,"method":"tools/frobnicate"}' }));
    expect(unknownMethod).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } }]);
    const unknownTool = messagesOf(await raw(url, { headers, body: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}' }));
    expect(unknownTool[0]!.error).toEqual({ code: -32602, message: 'Unknown tool "nope". Available tools: echo. Call one of these by its exact name.' });
    const badArguments = messagesOf(
      await raw(url, { headers, body: '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"message":1}}}' }),
    );
    expect(badArguments[0]!.result).toMatchObject({ isError: true });
  });

  it('closes the least recently used idle session when full', async () => {
    const { url } = await start({ maxSessions: 2 });
    const first = await openSession(url);
    await openSession(url);
    await openSession(url);
    expect(handle!.sessionCount).toBe(2);
    const stale = await raw(url, {
      headers: { ...MCP_HEADERS, 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    });
    expect(stale.status).toBe(404);
  });

  it('lets an in-flight call finish on close, then refuses new connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for the test.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: async () => {
        started();
        await gate;
        return 'finished';
      },
    });
    handle = await serveHttp([slow], { port: 0, logger: silentLogger });
    const { url } = handle;
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const call = client.callTool({ name: 'slow', arguments: {} });
    await running;
    const closed = handle.close();
    release();
    expect(await call).toEqual({ content: [{ type: 'text', text: 'finished' }], isError: false });
    await closed;
    await expect(raw(url, { headers: MCP_HEADERS, body: INITIALIZE })).rejects.toThrow(/ECONNREFUSED/);
    handle = undefined;
  });
});

describe('serveHttp: the headers of an SSE answer', () => {
  const sessionHeaders = (id: string) => ({ ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
  const call = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });

  it('leave with the answer of a quick call, in one write', async () => {
    const { url, port } = await start();
    const id = await openSession(url);
    // Counts the writes the server makes on its side of a connection (a socket whose local port is the server's).
    const writes: string[] = [];
    const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const originals = { _write: proto._write, _writev: proto._writev };
    for (const name of ['_write', '_writev'] as const) {
      proto[name] = function (this: Socket, ...args: unknown[]) {
        if (this.localPort === port) writes.push(name);
        return originals[name].apply(this, args);
      };
    }
    try {
      const response = await raw(url, { headers: sessionHeaders(id), body: call('echo', { message: 'hi' }) });
      expect(messagesOf(response)).toMatchObject([{ id: 2, result: { content: [{ type: 'text', text: 'hi' }] } }]);
    } finally {
      Object.assign(proto, originals);
    }
    expect(writes).toHaveLength(1);
  });

  it('leave alone, soon, when the call takes longer', async () => {
    let release: (() => void) | undefined;
    const slow = defineTool<Record<string, never>>({
      name: 'slow',
      description: 'Answers when the test releases it.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => new Promise<string>((resolve) => (release = () => resolve('done'))),
    });
    handle = await serveHttp([slow], { port: 0, logger: silentLogger });
    const id = await openSession(handle.url);
    const answered = new Promise<{ status: number; body: Promise<string> }>((resolve, reject) => {
      const req = request(handle!.url, { method: 'POST', headers: sessionHeaders(id) }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        resolve({ status: res.statusCode!, body: new Promise((done) => res.on('end', () => done(body))) });
      });
      req.on('error', reject);
      req.end(call('slow', {}));
    });
    // The headers arrive while the tool is still running.
    const head = await answered;
    expect(head.status).toBe(200);
    await expect.poll(() => release).toBeDefined();
    release!();
    expect(await head.body).toContain('"text":"done"');
  });
});
