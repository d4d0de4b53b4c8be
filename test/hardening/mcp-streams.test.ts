/**
 * Hardening: a flood of held SSE streams (GET streams, or POST responses whose
 * calls never finish) cannot lock a new client out of `serveHttp`. Caps on
 * sessions, streams and streams per session evict the idlest stream or the
 * least recently active session; evicted streams end cleanly, their calls are
 * cancelled, and nothing is left open once the clients go away.
 * The caps are set low so that a few hundred streams exercise them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../src/mcp/index.js';
import type { McpHttpHandle, McpHttpOptions } from '../../src/mcp/index.js';
import { defineTool, silentLogger } from '../../src/tools/index.js';
import { holdOpen as openHeldStream, openSession, post, settle, type HeldStream } from '../mcp/raw-http-session.js';

const echo = defineTool<{ message: string }>({
  name: 'echo',
  description: 'Echoes a message.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  execute: ({ message }) => message,
});

let holdsStarted = 0;
let holdsAborted = 0;
/** A call that never finishes on its own: it ends only when its signal aborts. */
const hold = defineTool<Record<string, never>>({
  name: 'hold',
  description: 'Waits until cancelled.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  timeoutMs: 600_000,
  execute: (_args, context) => {
    holdsStarted++;
    return new Promise((resolve) => {
      context.signal.addEventListener('abort', () => {
        holdsAborted++;
        resolve('cancelled');
      });
    });
  },
});

let handle: McpHttpHandle | undefined;
const held: HeldStream[] = [];
afterEach(async () => {
  for (const stream of held) stream.request.destroy();
  held.length = 0;
  await handle?.close();
  handle = undefined;
});

async function start(options: McpHttpOptions): Promise<McpHttpHandle> {
  handle = await serveHttp([echo, hold], { port: 0, logger: silentLogger, ...options });
  return handle;
}

/** Holds a stream open and remembers it, so that each test's streams are destroyed after it. */
function holdOpen(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): HeldStream {
  const stream = openHeldStream(url, method, headers, body);
  held.push(stream);
  return stream;
}

async function newClientCallsATool(url: string): Promise<void> {
  const client = new Client({ name: 'newcomer', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  expect(await client.callTool({ name: 'echo', arguments: { message: 'still served' } })).toEqual({
    content: [{ type: 'text', text: 'still served' }],
    isError: false,
  });
  await transport.terminateSession();
  await client.close();
}

describe('serveHttp under a flood of held streams', () => {
  it('keeps serving new clients while hundreds of sessions hold GET streams, and ends evicted streams cleanly', async () => {
    const { url } = await start({ maxSessions: 40, maxStreams: 30 });
    const floods = 200;
    for (let index = 0; index < floods; index++) {
      const headers = await openSession(url);
      const stream = holdOpen(url, 'GET', headers);
      expect(await stream.opened).toBe(200);
    }
    expect(handle!.sessionCount).toBeLessThanOrEqual(40);
    expect(handle!.streamCount).toBeLessThanOrEqual(30);

    await newClientCallsATool(url);

    // Every stream beyond the caps was ended by the server, cleanly (a finished response, not a reset).
    await settle(() => held.filter((stream) => stream.ended !== undefined).length >= floods - 30);
    const ended = held.filter((stream) => stream.ended !== undefined);
    expect(ended.length).toBeGreaterThanOrEqual(floods - 30);
    expect(ended.every((stream) => stream.ended === 'end')).toBe(true);
    // The most recent sessions are the ones kept.
    expect(held.at(-1)!.ended).toBeUndefined();

    for (const stream of held) stream.request.destroy();
    await settle(() => handle!.streamCount === 0);
    expect(handle!.streamCount).toBe(0);
  });

  it('answers a new initialize even when every session holds a stream (was 503)', async () => {
    const { url } = await start({ maxSessions: 5 });
    for (let index = 0; index < 5; index++) expect(await holdOpen(url, 'GET', await openSession(url)).opened).toBe(200);
    expect(handle!.sessionCount).toBe(5);
    await newClientCallsATool(url);
    // The least recently active session made way: its stream ended and its id is gone.
    await settle(() => held[0]!.ended !== undefined);
    expect(held[0]!.ended).toBe('end');
    expect(held.slice(1).every((stream) => stream.ended === undefined)).toBe(true);
    expect(handle!.sessionCount).toBeLessThanOrEqual(5);
  });

  it('caps the POST responses one session holds open: the oldest are ended and their calls cancelled', async () => {
    holdsStarted = 0;
    holdsAborted = 0;
    const { url } = await start({ maxStreamsPerSession: 4 });
    const headers = await openSession(url);
    const calls = 12;
    for (let index = 0; index < calls; index++) {
      const stream = holdOpen(
        url,
        'POST',
        headers,
        JSON.stringify({ jsonrpc: '2.0', id: 100 + index, method: 'tools/call', params: { name: 'hold', arguments: {} } }),
      );
      expect(await stream.opened).toBe(200);
      await settle(() => holdsStarted === index + 1);
    }
    expect(holdsStarted).toBe(calls);
    await settle(() => holdsAborted === calls - 4);
    expect(holdsAborted).toBe(calls - 4);
    expect(handle!.streamCount).toBe(4);
    const evicted = held.slice(0, calls - 4);
    await settle(() => evicted.every((stream) => stream.ended !== undefined));
    expect(evicted.map((stream) => stream.ended)).toEqual(Array(calls - 4).fill('end'));
    // A cancelled call sends no result (as the spec asks for cancellation).
    expect(evicted.some((stream) => stream.body.includes('"result"'))).toBe(false);
    expect(held.slice(calls - 4).every((stream) => stream.ended === undefined)).toBe(true);

    await newClientCallsATool(url);
  });

  it('evicts across sessions when held POST calls fill the total cap, and the evicted sessions are closed, not leaked', async () => {
    holdsAborted = 0;
    const { url } = await start({ maxSessions: 20, maxStreams: 24, maxStreamsPerSession: 3 });
    const sessionHeaders: Record<string, string>[] = [];
    for (let session = 0; session < 30; session++) {
      const headers = await openSession(url);
      sessionHeaders.push(headers);
      for (let call = 0; call < 3; call++) {
        const stream = holdOpen(
          url,
          'POST',
          headers,
          JSON.stringify({ jsonrpc: '2.0', id: call, method: 'tools/call', params: { name: 'hold', arguments: {} } }),
        );
        expect(await stream.opened).toBe(200);
      }
    }
    expect(handle!.sessionCount).toBeLessThanOrEqual(20);
    expect(handle!.streamCount).toBeLessThanOrEqual(24);
    await newClientCallsATool(url);

    // The first session was the least recently active: it is gone (404), its streams ended and its calls were cancelled.
    const gone = await post(url, '{"jsonrpc":"2.0","id":9,"method":"ping"}', sessionHeaders[0]!);
    expect(gone.status).toBe(404);
    await settle(() => held.slice(0, 3).every((stream) => stream.ended !== undefined));
    expect(held.slice(0, 3).map((stream) => stream.ended)).toEqual(['end', 'end', 'end']);
    // Nothing beyond the caps is still running: every call without an open stream was cancelled.
    await settle(() => held.filter((stream) => stream.ended === undefined).length === 30 * 3 - holdsAborted);
    expect(held.filter((stream) => stream.ended === undefined).length).toBe(30 * 3 - holdsAborted);
    expect(30 * 3 - holdsAborted).toBeLessThanOrEqual(24);

    for (const stream of held) stream.request.destroy();
    await settle(() => handle!.streamCount === 0);
    expect(handle!.streamCount).toBe(0);
  });
});
