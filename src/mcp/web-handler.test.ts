/**
 * `createMcpHandler`: the MCP server as a web-standard `(request) => Promise<Response>`, driven by the SDK's own client
 * over HTTP (through a Node bridge, as Bun.serve or Deno.serve would call it) and with `fetch` aimed at the handler
 * itself, with the assertions `serve-http.test.ts` and `test/hardening/mcp-streams.test.ts` make of `serveHttp`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { holdOpen as openHeldStream, openSession, post, settle, type HeldStream } from '../../test/mcp/raw-http-session.js';
import { serveOnNode, type BridgedHandler } from '../../test/mcp/web-handler-bridge.js';
import { defineTool, silentLogger } from '../tools/index.js';
import { createMcpHandler } from './web-handler.js';
import type { McpHandler, McpHandlerOptions } from './web-handler.js';

const API_KEY = 'sk-proj-abcdefghijklmnop1234';
const PASSWORD = 'hunter2-correct-horse';

const echo = defineTool<{ message: string }>({
  name: 'echo',
  description: 'Echoes a message.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  execute: ({ message }) => message,
});

const ran: string[] = [];
const login = defineTool<{ user: string; password: string }>({
  name: 'login',
  description: 'Logs a user in and returns their API key.',
  effect: 'write',
  confirm: true,
  summarize: ({ user }) => `log ${user} in`,
  inputSchema: {
    type: 'object',
    properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } },
    required: ['user', 'password'],
  },
  execute: ({ user }) => {
    ran.push(user);
    return `Logged in ${user}; their key is ${API_KEY}`;
  },
});

let holdsAborted = 0;
const hold = defineTool<Record<string, never>>({
  name: 'hold',
  description: 'Waits until cancelled.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  timeoutMs: 600_000,
  execute: (_args, context) =>
    new Promise((resolve) =>
      context.signal.addEventListener('abort', () => {
        holdsAborted++;
        resolve('cancelled');
      }),
    ),
});

const folder = mkdtempSync(join(tmpdir(), 'tw-web-handler-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let handler: McpHandler | undefined;
let bridge: BridgedHandler | undefined;
const held: HeldStream[] = [];
afterEach(async () => {
  for (const stream of held) stream.request.destroy();
  held.length = 0;
  await handler?.close(0);
  await bridge?.close();
  handler = undefined;
  bridge = undefined;
  ran.length = 0;
});

async function serve(options: McpHandlerOptions = {}): Promise<string> {
  handler = createMcpHandler([echo, login, hold], { logger: silentLogger, ...options });
  bridge = await serveOnNode(handler);
  return bridge.url;
}

async function connect(
  url: string,
  capabilities: ConstructorParameters<typeof Client>[1] = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'web-handler-test', version: '1' }, capabilities);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;
}

/** The JSON-RPC messages of an SSE or JSON response body. */
function messagesOf(response: {
  headers: Record<string, unknown>;
  body: string;
}): { id?: unknown; result?: unknown; error?: { code: number; message: string } }[] {
  if (String(response.headers['content-type']).startsWith('application/json')) return [JSON.parse(response.body)];
  return response.body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)));
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('createMcpHandler over HTTP, with the SDK client', () => {
  it('lists the tools, answers a good call, and a bad call with an isError recovery text', async () => {
    const url = await serve();
    const { client, transport } = await connect(url);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'login', 'hold']);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
    const bad = await client.callTool({ name: 'echo', arguments: { message: 1 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('"message"');
    expect(textOf(bad)).toMatch(/string/);
    expect(handler!.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(handler!.sessionCount).toBe(0);
    await client.close();
  });

  it('answers protocol faults with JSON-RPC errors: an unknown tool -32602, an unknown method -32601', async () => {
    const url = await serve();
    const headers = await openSession(url);
    const unknownMethod = messagesOf(await post(url, '{"jsonrpc":"2.0","id":3,"method":"tools/frobnicate"}', headers));
    expect(unknownMethod).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } }]);
    const unknownTool = messagesOf(await post(url, '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}', headers));
    expect(unknownTool[0]!.error).toEqual({
      code: -32602,
      message: 'Unknown tool "nope". Available tools: echo, login, hold. Call one of these by its exact name.',
    });
  });

  it('asks for a write through elicitation, with the writeOnly password redacted from the prompt, and runs it only when approved', async () => {
    const url = await serve();
    const { client } = await connect(url, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    let approve = false;
    client.setRequestHandler(ElicitRequestSchema, (request): ElicitResult => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { approve } };
    });
    const declined = await client.callTool({ name: 'login', arguments: { user: 'ann', password: PASSWORD } });
    expect(declined.isError).toBe(true);
    expect(ran).toEqual([]);
    approve = true;
    const approved = await client.callTool({ name: 'login', arguments: { user: 'bob', password: PASSWORD } });
    expect(approved.isError).toBe(false);
    expect(ran).toEqual(['bob']);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain('log bob in');
    for (const message of asked) expect(message).not.toContain(PASSWORD);
    await client.close();
  });

  it('runs the call pipeline per session: a guard block, and a record with the secret in a result redacted', async () => {
    const recordDir = join(folder, 'record');
    const url = await serve({
      recordDir,
      preapproved: ['login'],
      guardToolCall: ({ toolName }) => (toolName === 'echo' ? { action: 'block', message: 'echo is off today.' } : { action: 'allow' }),
    });
    const { client, transport } = await connect(url);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'echo is off today.' }],
      isError: true,
    });
    const result = await client.callTool({ name: 'login', arguments: { user: 'ann', password: PASSWORD } });
    // The client gets the tool's own result; the record keeps it redacted.
    expect(textOf(result)).toContain(API_KEY);
    await transport.terminateSession();
    await client.close();
    const [name] = readdirSync(recordDir);
    const record = readFileSync(join(recordDir, name!), 'utf8');
    expect(record).toContain('Logged in ann');
    expect(record).toContain('echo is off today.');
    expect(record).not.toContain(API_KEY);
    expect(record).not.toContain(PASSWORD);
  });

  it("gives the context factory the call's session id and the request's headers", async () => {
    const seen: unknown[] = [];
    const url = await serve({ context: ({ sessionId, headers }) => seen.push({ sessionId, tenant: headers?.['x-tenant'] }) });
    const client = new Client({ name: 'web-handler-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'X-Tenant': 'acme' } } });
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(seen).toEqual([{ sessionId: transport.sessionId, tenant: 'acme' }]);
    await client.close();
  });

  it('refuses a foreign Host or Origin with 403, and accepts the hosts and origins it is given', async () => {
    const url = await serve({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    const port = new URL(url).port;
    const host = await post(url, INITIALIZE, { Host: 'evil.example.com' });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          `Forbidden: Host header "evil.example.com" is not allowed. This server accepts 127.0.0.1:80, 127.0.0.1, localhost:80, localhost, [::1]:80, [::1], ` +
          "mcp.example.com; add the name to createMcpHandler's `allowedHosts`.",
      },
    });
    const origin = await post(url, INITIALIZE, { Origin: 'http://evil.example.com' });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.message).toBe(
      'Forbidden: Origin "http://evil.example.com" is not allowed. Add it to createMcpHandler\'s `allowedOrigins` to let a browser page at that origin connect.',
    );
    expect((await post(url, INITIALIZE, { Host: `localhost:${port}`, Origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await post(url, INITIALIZE, { Host: 'mcp.example.com', Origin: 'https://app.example.com' })).status).toBe(200);
  });

  it('requires the bearer token when one is set', async () => {
    const url = await serve({ authToken: 's3cret' });
    const missing = await post(url, INITIALIZE);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="toolwright"');
    expect((await post(url, INITIALIZE, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(url, INITIALIZE, { Authorization: 'Bearer s3cret' })).status).toBe(200);
  });

  it('answers bad bodies with JSON-RPC errors and never a stack trace', async () => {
    const url = await serve({ maxBodyBytes: 1024 });
    const notJson = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
    const notRpc = await post(url, '{"hello":"world"}');
    expect(notRpc.status).toBe(400);
    expect(JSON.parse(notRpc.body).error.code).toBe(-32600);
    const tooLarge = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }));
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).error.message).toBe('Payload too large: request bodies are limited to 1024 bytes.');
    const wrongType = await post(url, INITIALIZE, { 'Content-Type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    const noSession = await post(url, '{"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect(noSession.status).toBe(400);
    const unknown = await post(url, '{"jsonrpc":"2.0","id":2,"method":"ping"}', { 'mcp-session-id': 'nope', 'mcp-protocol-version': '2025-11-25' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe(-32001);
    for (const response of [notJson, notRpc, tooLarge, wrongType, noSession, unknown]) expect(response.body).not.toMatch(/\bat .+\.(js|ts):\d+/);
  });

  it('closes the least recently used idle session when full (maxSessions)', async () => {
    const url = await serve({ maxSessions: 2 });
    const first = await openSession(url);
    await openSession(url);
    await openSession(url);
    expect(handler!.sessionCount).toBe(2);
    const stale = await post(url, '{"jsonrpc":"2.0","id":2,"method":"ping"}', first);
    expect(stale.status).toBe(404);
  });

  it('closes a session idle longer than sessionIdleMs when a later request arrives (no timer of its own)', async () => {
    const url = await serve({ sessionIdleMs: 60_000 });
    const idle = await openSession(url);
    expect(handler!.sessionCount).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      await openSession(url);
    } finally {
      vi.useRealTimers();
    }
    expect(handler!.sessionCount).toBe(1);
    expect((await post(url, '{"jsonrpc":"2.0","id":2,"method":"ping"}', idle)).status).toBe(404);
  });

  it('keeps serving new clients while sessions hold GET streams beyond maxStreams, ending evicted streams cleanly', async () => {
    const url = await serve({ maxSessions: 20, maxStreams: 5 });
    const floods = 30;
    for (let index = 0; index < floods; index++) {
      const stream = openHeldStream(url, 'GET', await openSession(url));
      held.push(stream);
      expect(await stream.opened).toBe(200);
    }
    expect(handler!.sessionCount).toBeLessThanOrEqual(20);
    expect(handler!.streamCount).toBeLessThanOrEqual(5);
    const { client, transport } = await connect(url);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'still served' } }))).toBe('still served');
    await transport.terminateSession();
    await client.close();
    await settle(() => held.filter((stream) => stream.ended !== undefined).length >= floods - 5);
    const ended = held.filter((stream) => stream.ended !== undefined);
    expect(ended.length).toBeGreaterThanOrEqual(floods - 5);
    expect(ended.every((stream) => stream.ended === 'end')).toBe(true);
    expect(held.at(-1)!.ended).toBeUndefined();
    for (const stream of held) stream.request.destroy();
    await settle(() => handler!.streamCount === 0);
    expect(handler!.streamCount).toBe(0);
  });

  it('caps the POST responses one session holds open: the oldest end and their calls are cancelled', async () => {
    holdsAborted = 0;
    const url = await serve({ maxStreamsPerSession: 2 });
    const headers = await openSession(url);
    for (let id = 10; id < 14; id++) {
      held.push(openHeldStream(url, 'POST', headers, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold', arguments: {} } })));
      expect(await held.at(-1)!.opened).toBe(200);
    }
    await settle(() => held.filter((stream) => stream.ended !== undefined).length >= 2);
    expect(held.map((stream) => stream.ended)).toEqual(['end', 'end', undefined, undefined]);
    expect(handler!.streamCount).toBe(2);
    await settle(() => holdsAborted >= 2);
    expect(holdsAborted).toBe(2);
  });
});

describe('createMcpHandler without sessions (stateless)', () => {
  it('answers each POST with a server of its own: the SDK client lists and calls tools, and nothing is held after', async () => {
    const url = await serve({ stateless: true });
    const { client, transport } = await connect(url);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'login', 'hold']);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'alone' } })).toEqual({ content: [{ type: 'text', text: 'alone' }], isError: false });
    const bad = await client.callTool({ name: 'echo', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(handler!.sessionCount).toBe(0);
    await settle(() => handler!.streamCount === 0);
    expect(handler!.streamCount).toBe(0);
    await client.close();
    const get = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('cannot ask a person through elicitation (the client is not known), so a write needs a confirmation handler', async () => {
    const url = await serve({ stateless: true });
    const { client } = await connect(url, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (): ElicitResult => ({ action: 'accept', content: { approve: true } }));
    const refused = await client.callTool({ name: 'login', arguments: { user: 'ann', password: PASSWORD } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('it did not declare the "elicitation" capability');
    expect(ran).toEqual([]);
    await client.close();
    await handler!.close(0);
    await bridge!.close();

    const decided: string[] = [];
    const approving = await serve({
      stateless: true,
      confirmation: async ({ summary }) => {
        decided.push(summary);
        return { approved: true };
      },
    });
    const second = await connect(approving);
    expect((await second.client.callTool({ name: 'login', arguments: { user: 'bob', password: PASSWORD } })).isError).toBe(false);
    expect(decided).toEqual(['log bob in']);
    expect(ran).toEqual(['bob']);
    await second.client.close();
  });
});

describe('createMcpHandler called directly, with no HTTP server', () => {
  it('serves the SDK client whose fetch is the handler itself', async () => {
    handler = createMcpHandler([echo], { logger: silentLogger });
    const direct = handler;
    const client = new Client({ name: 'direct', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: (url, init) => direct(new Request(url, init)) });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'direct' } })).toEqual({ content: [{ type: 'text', text: 'direct' }], isError: false });
    await transport.terminateSession();
    expect(handler.sessionCount).toBe(0);
    await client.close();
  });

  it('answers only its path when given one, and refuses other methods', async () => {
    handler = createMcpHandler([echo], { logger: silentLogger, path: '/mcp' });
    const elsewhere = await handler(
      new Request('http://localhost/other', { method: 'POST', body: INITIALIZE, headers: { 'Content-Type': 'application/json' } }),
    );
    expect(elsewhere.status).toBe(404);
    expect((await elsewhere.json()) as unknown).toMatchObject({ error: { message: 'Not found: the MCP endpoint is /mcp.' } });
    const put = await handler(new Request('http://localhost/mcp', { method: 'PUT', body: INITIALIZE }));
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('checks its caps when made', () => {
    expect(() => createMcpHandler([echo], { maxSessions: 0 })).toThrow('createMcpHandler: `maxSessions` must be a positive number (got 0).');
  });
});
