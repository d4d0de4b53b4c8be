/**
 * A bare HTTP client for toolwright's Streamable HTTP server, below the SDK's client: tests
 * that hold streams open, flood sessions or watch how a stream ends need the raw responses.
 */
import { request } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { expect } from 'vitest';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-http-test', version: '1' } },
});

export function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Initializes a session and returns the headers its later requests carry. */
export async function openSession(url: string): Promise<Record<string, string>> {
  const init = await post(url, INITIALIZE);
  expect(init.status).toBe(200);
  const headers = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
  return headers;
}

export interface HeldStream {
  request: ClientRequest;
  /** Resolves once the response has begun (status and headers received). */
  opened: Promise<number>;
  /** How the stream ended: 'end' (the server finished it cleanly), 'aborted' or 'error'; undefined while open. */
  ended: 'end' | 'aborted' | 'error' | undefined;
  body: string;
}

/** Opens a response and keeps reading it, without waiting for it to end. The caller destroys `request` when done. */
export function holdOpen(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): HeldStream {
  let markOpened: (status: number) => void = () => {};
  const stream: HeldStream = {
    request: undefined as unknown as ClientRequest,
    opened: new Promise((resolve) => (markOpened = resolve)),
    ended: undefined,
    body: '',
  };
  stream.request = request(
    url,
    { method, headers: { Accept: 'application/json, text/event-stream', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers } },
    (res) => {
      markOpened(res.statusCode ?? 0);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (stream.body += chunk));
      res.on('end', () => (stream.ended ??= 'end'));
      res.on('aborted', () => (stream.ended ??= 'aborted'));
      res.on('error', () => (stream.ended ??= 'error'));
    },
  );
  stream.request.on('error', () => {
    stream.ended ??= 'error';
    markOpened(0);
  });
  stream.request.end(body);
  return stream;
}

/** Waits (bounded, about 5 s) until `condition` holds; the assertions that follow say what was expected. */
export async function settle(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
}
