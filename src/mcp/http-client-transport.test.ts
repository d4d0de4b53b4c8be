import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitRequestSchema, isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpClientTransport, McpHttpResponseError } from './http-client-transport.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<URL> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

/**
 * The official SDK's `McpServer` over its own Streamable HTTP server transport (stateful): `echo`, `progress` (two
 * progress notifications before its result), `ask` (asks the client through elicitation and returns the answer) and
 * `change` (re-registers a tool, so the server sends `tools/list_changed` on the GET stream). Records each request's headers.
 */
async function sdkServer(options: { json?: boolean } = {}): Promise<{ url: URL; headers: IncomingHttpHeaders[] }> {
  const headers: IncomingHttpHeaders[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const url = await listen(async (req, res, text) => {
    headers.push(req.headers);
    const body = text === '' ? undefined : (JSON.parse(text) as unknown);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: options.json ?? false,
        onsessioninitialized: (newId) => void sessions.set(newId, transport!),
      });
      await mcpServer().connect(transport);
    }
    if (!transport) return void res.writeHead(400).end();
    await transport.handleRequest(req, res, body);
  });
  return { url, headers };
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'sdk-upstream', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { message: z.string() } }, ({ message }) => ({ content: [{ type: 'text', text: message }] }));
  server.registerTool('progress', {}, async (extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined)
      for (const progress of [1, 2]) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total: 2 } });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('ask', {}, async () => {
    const answer = await server.server.elicitInput({
      message: 'Proceed?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return { content: [{ type: 'text', text: `${answer.action}:${JSON.stringify(answer.content ?? {})}` }] };
  });
  let extra: ReturnType<McpServer['registerTool']> | undefined;
  server.registerTool('change', {}, () => {
    extra?.remove();
    extra = server.registerTool(`added_${randomUUID().slice(0, 8)}`, {}, () => ({ content: [] }));
    return { content: [] };
  });
  return server;
}

async function connectedClient(url: URL, options: ConstructorParameters<typeof HttpClientTransport>[1] = {}) {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  const transport = new HttpClientTransport(url, options);
  await client.connect(transport);
  return { client, transport };
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe('HttpClientTransport against the SDK server', () => {
  for (const json of [false, true]) {
    it(`calls tools over ${json ? 'JSON' : 'SSE'} answers, with the session id, protocol version and configured headers on every request`, async () => {
      const server = await sdkServer({ json });
      const { client, transport } = await connectedClient(server.url, { headers: { Authorization: 'Bearer t0ken' } });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
      expect(text(await client.callTool({ name: 'echo', arguments: { message: 'hi' } }))).toBe('hi');
      const [initialize, ...later] = server.headers;
      expect(initialize!['mcp-session-id']).toBeUndefined();
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      for (const headers of later.filter((entry) => entry['accept'] !== 'text/event-stream')) {
        expect(headers).toMatchObject({ 'mcp-session-id': transport.sessionId, 'mcp-protocol-version': client.getServerVersion() && expect.any(String) });
        expect(headers.authorization).toBe('Bearer t0ken');
        expect(headers.accept).toBe('application/json, text/event-stream');
      }
      await client.close();
    });
  }

  it('delivers progress before the result, and answers the server’s elicitation on the same call', async () => {
    const { url } = await sdkServer();
    const { client } = await connectedClient(url);
    const progress: number[] = [];
    expect(text(await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) }))).toBe('done');
    expect(progress).toEqual([1, 2]);
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { ok: true } }));
    expect(text(await client.callTool({ name: 'ask', arguments: {} }))).toBe('accept:{"ok":true}');
    await client.close();
  });

  it('receives what the server sends outside any request on the GET stream (tools/list_changed)', async () => {
    const { url, headers } = await sdkServer();
    const { client } = await connectedClient(url);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(z.object({ method: z.literal('notifications/tools/list_changed') }), () => resolve()),
    );
    await expect.poll(() => headers.some((entry) => entry.accept === 'text/event-stream')).toBe(true);
    await client.callTool({ name: 'change', arguments: {} });
    await changed;
    await client.close();
  });
});

/** A transport started against `url`, collecting what it delivers and reports. */
async function started(url: URL, options: ConstructorParameters<typeof HttpClientTransport>[1] = {}) {
  const transport = new HttpClientTransport(url, options);
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  return { transport, messages, errors };
}

const call = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
const answer = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });

describe('HttpClientTransport against a hostile server', () => {
  it('fails the request with the status and the start of the body of an HTTP error', async () => {
    const url = await listen((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded ' + 'x'.repeat(5000)));
    const { transport } = await started(url);
    const error = await transport.send(call(1)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpHttpResponseError);
    expect(error).toMatchObject({ code: 'TW_MCP_HTTP_RESPONSE', status: 500 });
    expect((error as Error).message).toMatch(new RegExp(`^The MCP server at ${url.href} answered POST with HTTP 500: upstream exploded x+…\\.$`));
    expect((error as Error).message.length).toBeLessThan(1200);
    await transport.close();
  });

  it('follows a redirect within its origin that keeps the method, and refuses one elsewhere or one that turns POST into GET, naming where it points', async () => {
    const url = await listen((req, res) => {
      if (req.url === '/elsewhere') return void res.writeHead(307, { location: 'http://elsewhere.example/mcp' }).end();
      if (req.url === '/see-other') return void res.writeHead(303, { location: '/mcp' }).end();
      if (req.url === '/moved') return void res.writeHead(308, { location: '/mcp' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(1));
    });
    const moved = await started(new URL('/moved', url));
    await moved.transport.send(call(1));
    expect(moved.messages).toEqual([JSON.parse(answer(1))]);
    await moved.transport.close();
    const elsewhere = await started(new URL('/elsewhere', url));
    await expect(elsewhere.transport.send(call(1))).rejects.toThrow(
      /answered POST with a redirect \(HTTP 307 to http:\/\/elsewhere\.example\/mcp\), which is followed only within its origin/,
    );
    await elsewhere.transport.close();
    const seeOther = await started(new URL('/see-other', url));
    await expect(seeOther.transport.send(call(1))).rejects.toThrow(/answered POST with a redirect \(HTTP 303 to \/mcp\)/);
    await seeOther.transport.close();
  });

  it('refuses another content type, JSON that does not parse, and JSON over maxMessageBytes', async () => {
    const bodies: Record<string, [string, string]> = {
      html: ['text/html', '<html></html>'],
      garbled: ['application/json', '{"jsonrpc":"2.0","id":1,"res'],
      huge: ['application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(5000) } })],
    };
    const url = await listen((req, res) => {
      const [type, body] = bodies[req.headers['x-case'] as string]!;
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    for (const [name, pattern] of [
      ['html', /answered a request with Content-Type "text\/html"; MCP servers answer with application\/json or text\/event-stream/],
      ['garbled', /answered with a message it cannot use: Parse error: /],
      ['huge', /answered with more than 4096 bytes \(maxMessageBytes\)/],
    ] as const) {
      const { transport, messages } = await started(url, { headers: { 'x-case': name }, maxMessageBytes: 4096 });
      await expect(transport.send(call(1)), name).rejects.toThrow(pattern);
      expect(messages).toEqual([]);
      await transport.close();
    }
  });

  it('fails the request at once when the server closes its SSE answer before answering, mid-event or between events', async () => {
    const url = await listen((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\n\n');
      if (req.headers['x-case'] === 'mid-event') res.write('event: message\ndata: {"jsonrpc":"2.0","id":1,"res');
      setTimeout(() => res.socket!.destroy(), 10);
    });
    for (const name of ['mid-event', 'between-events']) {
      const { transport, messages } = await started(url, { headers: { 'x-case': name } });
      const error = await transport.send(call(1)).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(McpHttpResponseError);
      expect((error as Error).message).toMatch(/closed its answer before it was complete .*; whether the call took effect is unknown\.$/);
      expect(messages.map((message) => ('method' in message ? message.method : 'response'))).toEqual(['notifications/message']);
      await transport.close();
    }
  });

  it('reports an SSE event that is not JSON or not JSON-RPC and still delivers the answer after it', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: not json\n\ndata: [1,2]\n\nevent: other\ndata: {"ignored":true}\n\n: comment\n\nevent: message\ndata: ${answer(1)}\n\n`);
    });
    const { transport, messages, errors } = await started(url);
    await transport.send(call(1));
    expect(messages).toEqual([JSON.parse(answer(1))]);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(new RegExp(`^The MCP server at ${url.href} sent an SSE event with a message it cannot use: Parse error: `)),
      `The MCP server at ${url.href} sent an SSE event with a message it cannot use: Invalid Request: batches are not supported here; send one JSON-RPC message per line.`,
    ]);
    await transport.close();
  });

  it('cuts an SSE event over maxMessageBytes and fails the request', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ' + 'x'.repeat(3000));
      res.write('x'.repeat(3000));
    });
    const { transport } = await started(url, { maxMessageBytes: 4096 });
    await expect(transport.send(call(1))).rejects.toThrow(/sent an SSE event longer than 4096 characters/);
    await transport.close();
  });

  it('resumes an answer cut after an event with an id, asking for the rest with Last-Event-ID', async () => {
    const gets: IncomingHttpHeaders[] = [];
    const url = await listen((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.method === 'POST') {
        res.write('id: ev-1\ndata:\n\n');
        setTimeout(() => res.socket!.destroy(), 10);
        return;
      }
      gets.push(req.headers);
      res.end(`id: ev-2\nevent: message\ndata: ${answer(1)}\n\n`);
    });
    const { transport, messages } = await started(url, { reconnection: { initialDelayMs: 5, growFactor: 1, maxDelayMs: 5, maxRetries: 2 } });
    await transport.send(call(1));
    await expect.poll(() => messages).toEqual([JSON.parse(answer(1))]);
    expect(gets.map((headers) => headers['last-event-id'])).toEqual(['ev-1']);
    await transport.close();
  });

  it('sends a request without effects again on a new connection when the kept-alive one it went out on was reset, but never a tools/call', async () => {
    const perConnection = new WeakMap<object, number>();
    const received: string[] = [];
    let resets = 0;
    const url = await listen((req, res, body) => {
      received.push((JSON.parse(body) as { method: string }).method);
      const count = (perConnection.get(req.socket) ?? 0) + 1;
      perConnection.set(req.socket, count);
      // The second request on a connection meets a server that has just closed it, as an idle connection is closed.
      if (count === 2) return void (resets++, req.socket.destroy());
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(1));
    });
    const { transport, messages } = await started(url);
    const list: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    await transport.send(list);
    await transport.send(list);
    expect(messages).toHaveLength(2);
    expect(resets).toBe(1);
    expect(received).toEqual(['tools/list', 'tools/list', 'tools/list']);
    // The resent request was the first on its new connection, so this one is the second there and meets a reset too:
    // a tools/call may already have acted, so it fails, and the server has seen it once.
    await expect(transport.send(call(1))).rejects.toMatchObject({ code: 'TW_MCP_HTTP_RESPONSE' });
    expect(resets).toBe(2);
    expect(received.filter((method) => method === 'tools/call')).toHaveLength(1);
    await transport.close();
  });

  it('keeps waiting for an answer longer than the idle-connection timeout', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      setTimeout(() => res.end(`event: message\ndata: ${answer(1)}\n\n`), 4500);
    });
    const { transport, messages } = await started(url);
    await transport.send(call(1));
    expect(messages).toEqual([JSON.parse(answer(1))]);
    await transport.close();
  }, 15_000);

  it('keeps the session id the server gives, and after close refuses to send and ends what is open', async () => {
    let held: ServerResponse | undefined;
    const url = await listen((req, res) => {
      if (req.headers['x-case'] === 'hold') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
        res.write(': held\n\n');
        held = res;
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' }).end(answer(1));
    });
    const { transport } = await started(url);
    await transport.send(call(1));
    expect(transport.sessionId).toBe('s-1');
    const holding = new HttpClientTransport(url, { headers: { 'x-case': 'hold' } });
    let closed = false;
    holding.onclose = () => (closed = true);
    await holding.start();
    const pending = holding.send(call(2)).catch((caught: unknown) => caught);
    await expect.poll(() => held !== undefined).toBe(true);
    await holding.close();
    expect(closed).toBe(true);
    expect(await pending).toBeInstanceOf(Error);
    await expect(holding.send(call(3))).rejects.toThrow(/Not connected/);
    await expect(holding.start()).rejects.toMatchObject({ code: 'TW_INVALID_STATE' });
    await transport.close();
  });
});
