/**
 * Serves tools over MCP's Streamable HTTP transport at one path (`/mcp`):
 * stateful sessions (`Mcp-Session-Id`), SSE responses so that progress, log
 * notifications and server-to-client requests reach the client before the
 * result, and the safety a local server needs: loopback by default, `Host` and
 * `Origin` checks, an optional bearer token, a body size limit, JSON-RPC errors
 * for bad input (never a stack trace), bounded sessions and streams (a flood
 * of held streams evicts the idlest ones instead of locking new clients out)
 * and a graceful close.
 *
 * The body is read and checked here, then handed to the SDK's transport as a
 * parsed value, so every malformed request gets the right JSON-RPC code.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { ToolRegistry, stderrLogger } from '../tools/index.js';
import { createStrictMcpServer, resourceSubscriptions } from './create-mcp-server.js';
import type { McpServerOptions, McpToolSource } from './create-mcp-server.js';
import { createRequestGuard, formatHostPort } from './http-request-guard.js';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';
import type { StrictParamsServer } from './strict-params-server.js';
import { createMcpAuthGate, sessionOwnerOf } from './auth/mcp-auth-gate.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

export interface McpHttpOptions extends McpServerOptions {
  /** Address to listen on. Default `127.0.0.1`; anything else exposes the tools to the network. */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from the handle's `url`). */
  port?: number;
  /** The MCP endpoint. Default `/mcp`. */
  path?: string;
  /** More `Host` header values to accept (`name:port`), for a reverse proxy. */
  allowedHosts?: readonly string[];
  /** More `Origin` values to accept, for browser clients. */
  allowedOrigins?: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  authToken?: string;
  /** Largest request body, in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Most sessions held at once. A new client beyond it closes the least recently active session
   * (one without open streams first, then one whose streams are all GET streams). Default 1000.
   */
  maxSessions?: number;
  /**
   * Most open SSE streams (GET streams and POST responses still being answered) over all sessions.
   * A new stream beyond it closes the idlest one: GET streams first, then the stream of the least
   * recently active session. Default 500.
   */
  maxStreams?: number;
  /** Most open SSE streams of one session; a new one beyond it closes that session's idlest stream the same way. Default 32. */
  maxStreamsPerSession?: number;
  /** A session idle this long is closed (clients often never send DELETE). Default 30 minutes. */
  sessionIdleMs?: number;
  /** On close, how long in-flight calls may finish before connections are cut. Default 5000 ms. */
  shutdownGraceMs?: number;
}

export interface McpHttpHandle {
  /** The endpoint, such as `http://127.0.0.1:3000/mcp`. */
  url: string;
  host: string;
  port: number;
  /** Sessions now open. */
  readonly sessionCount: number;
  /** SSE streams now open (GET streams and POST responses being answered). */
  readonly streamCount: number;
  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Stops accepting requests, lets in-flight calls finish (up to `shutdownGraceMs`), closes every session. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_MAX_STREAMS = 500;
const DEFAULT_MAX_STREAMS_PER_SESSION = 32;
/** An evicted stream that has not ended by then (its response was never handed out) is cut. */
const EVICTED_STREAM_GRACE_MS = 1000;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 5000;
/** JSON-RPC code the SDK uses for an unknown session (with HTTP 404). */
const SESSION_NOT_FOUND = -32001;

interface Session {
  server: StrictParamsServer;
  transport: StreamableHTTPServerTransport;
  /** When the session last received a request or finished answering one. */
  lastActive: number;
  /** Responses of this session still open: SSE streams, and requests being answered. */
  streams: Set<OpenStream>;
  /** With `auth`: whose token started the session; a request with another identity's token does not find it. */
  owner?: string;
}

interface OpenStream {
  session: Session;
  /** GET: the session's notification stream, which only waits; POST: requests being answered. */
  kind: 'get' | 'post';
  openedAt: number;
  res: ServerResponse;
  /** The JSON-RPC requests this POST carries (cancelled when the stream is evicted). */
  requestIds: readonly (string | number)[];
}

export async function serveHttp(tools: McpToolSource, options: McpHttpOptions = {}): Promise<McpHttpHandle> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes');
  const maxSessions = positive(options.maxSessions, DEFAULT_MAX_SESSIONS, 'maxSessions');
  const maxStreams = positive(options.maxStreams, DEFAULT_MAX_STREAMS, 'maxStreams');
  const maxStreamsPerSession = positive(options.maxStreamsPerSession, DEFAULT_MAX_STREAMS_PER_SESSION, 'maxStreamsPerSession');
  const sessionIdleMs = positive(options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS, 'sessionIdleMs');
  const shutdownGraceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const logger = options.logger ?? stderrLogger;
  // One registry for every session: validators are compiled once.
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools, { logger });
  // Fail at startup, not on the first client, if the pack cannot be served.
  createStrictMcpServer(registry, options);
  if (options.auth && options.authToken !== undefined)
    throw new InvalidArgumentError('serveHttp: give either `auth` (OAuth access tokens) or `authToken` (one static token), not both.');

  const sessions = new Map<string, Session>();
  const streams = new Set<OpenStream>();
  let inFlightPosts = 0;
  let closing: Promise<void> | undefined;

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('MCP HTTP request failed', { error });
      if (!res.headersSent)
        sendError(res, 500, ErrorCode.InternalError, 'Internal error: the server failed to answer this request; the details are in its log.');
      else res.destroy();
    });
  });
  httpServer.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) =>
      reject(
        new InvalidArgumentError(`Cannot listen on ${formatHostPort(host, options.port ?? 3000)}: ${error.message}. Choose another address or port.`, {
          cause: error,
        }),
      );
    httpServer.once('error', onError);
    httpServer.listen(options.port ?? 3000, host, () => {
      httpServer.off('error', onError);
      resolve();
    });
  });
  httpServer.on('error', (error) => logger.error('MCP HTTP server error', { error }));
  const port = (httpServer.address() as AddressInfo).port;
  const guard = createRequestGuard({ host, port, ...pick(options, ['allowedHosts', 'allowedOrigins', 'authToken']) });
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${formatHostPort(publicHost, port)}${path}`;
  const authGate = options.auth && createMcpAuthGate(registry, options.auth, url, path, logger);

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (session.streams.size === 0 && now - session.lastActive > sessionIdleMs) closeSession(id);
    },
    Math.min(60_000, Math.max(1000, Math.floor(sessionIdleMs / 2))),
  );
  sweep.unref();

  function closeSession(id: string): void {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    for (const stream of session.streams) forget(stream);
    // Closing the server closes its transport, which ends every open stream of the session and aborts its requests.
    session.server.close().catch(() => {});
  }

  /** Counts `res` as an open stream of `session` until it closes, first evicting the idlest stream when a cap is reached. */
  function track(session: Session, res: ServerResponse, kind: OpenStream['kind'], requestIds: readonly (string | number)[] = []): void {
    const now = Date.now();
    session.lastActive = now;
    if (session.streams.size >= maxStreamsPerSession) evictStream(session.streams);
    if (streams.size >= maxStreams) evictStream(streams);
    const stream: OpenStream = { session, kind, openedAt: now, res, requestIds };
    streams.add(stream);
    session.streams.add(stream);
    res.once('close', () => {
      forget(stream);
      session.lastActive = Date.now();
    });
  }

  function forget(stream: OpenStream): void {
    streams.delete(stream);
    stream.session.streams.delete(stream);
  }

  /** Closes the idlest of `candidates`: a GET stream before a POST, then the least recently active session's, then the oldest. */
  function evictStream(candidates: Iterable<OpenStream>): void {
    let victim: OpenStream | undefined;
    for (const stream of candidates) if (!victim || idler(stream, victim)) victim = stream;
    if (!victim) return;
    forget(victim);
    const { transport, server } = victim.session;
    if (victim.kind === 'get') transport.closeStandaloneSSEStream();
    for (const requestId of victim.requestIds) {
      // As if the client had cancelled: the handler's signal aborts and no response is sent, so nothing waits on a stream that is gone.
      server.cancelRequest(requestId, 'The server closed this stream to make room for others.');
      transport.closeSSEStream(requestId);
    }
    const { res } = victim;
    if (!res.writableEnded) {
      // The transport ends the response through its stream; one it never handed out is cut instead.
      const cut = setTimeout(() => res.destroy(), EVICTED_STREAM_GRACE_MS);
      cut.unref();
      res.once('close', () => clearTimeout(cut));
    }
  }

  function idler(a: OpenStream, b: OpenStream): boolean {
    if (a.kind !== b.kind) return a.kind === 'get';
    if (a.session.lastActive !== b.session.lastActive) return a.session.lastActive < b.session.lastActive;
    return a.openedAt < b.openedAt;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (closing) return sendError(res, 503, ErrorCode.ConnectionClosed, 'Service unavailable: the server is shutting down.', { Connection: 'close' });
    const metadata = authGate?.metadataFor(requestPath(req.url) ?? '');
    if (metadata) return sendMetadata(req, res, metadata);
    if (req.url !== path && requestPath(req.url) !== path)
      return sendError(res, 404, ErrorCode.ConnectionClosed, `Not found: the MCP endpoint is ${path}.`, { Connection: 'close' });
    const verdict = guard.check(req.headers);
    if (!verdict.allowed) return sendError(res, verdict.status, ErrorCode.ConnectionClosed, verdict.message, { Connection: 'close', ...verdict.headers });
    if (authGate) {
      const authenticated = await authGate.authenticate(req.headers);
      if (!authenticated.allowed) return sendError(res, authenticated.status, ErrorCode.ConnectionClosed, authenticated.message, authenticated.headers);
      // Where the SDK's transport reads it from, to hand it to the request handlers as `extra.authInfo`.
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authenticated.authInfo;
    }
    if (req.method === 'POST') {
      inFlightPosts++;
      try {
        await handlePost(req, res);
      } finally {
        inFlightPosts--;
      }
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') return handleSessionRequest(req, res);
    return sendError(res, 405, ErrorCode.ConnectionClosed, `Method not allowed: use POST, GET or DELETE on ${path}.`, {
      Allow: 'GET, POST, DELETE',
      Connection: 'close',
    });
  }

  async function handlePost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isJsonContentType(req.headers['content-type'])) {
      return sendError(res, 415, ErrorCode.ConnectionClosed, 'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.', {
        Connection: 'close',
      });
    }
    const body = await readBody(req, maxBodyBytes);
    if (body.tooLarge) {
      res.once('finish', () => req.destroy());
      return sendError(res, 413, ErrorCode.ConnectionClosed, `Payload too large: request bodies are limited to ${maxBodyBytes} bytes.`, {
        Connection: 'close',
      });
    }
    const payload = parseJsonRpcPayload(body.text, { allowBatch: true });
    if (!payload.success) return sendJson(res, 400, payload.response);
    const refusal = authGate?.authorize(authOf(req)!, payload.messages);
    if (refusal) return sendError(res, refusal.status, ErrorCode.ConnectionClosed, refusal.message, refusal.headers);

    const sessionId = req.headers['mcp-session-id'];
    if (Array.isArray(sessionId)) return sendError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: send one Mcp-Session-Id header.');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session || session.owner !== sessionOwnerOf(authOf(req)))
        return sendError(res, 404, SESSION_NOT_FOUND, 'Session not found: it expired or was closed. Start a new session with initialize.');
      track(session, res, 'post', requestIdsOf(payload.messages));
      return session.transport.handleRequest(req, res, payload.value);
    }
    if (!payload.messages.some((message) => isInitializeRequest(message))) {
      return sendError(
        res,
        400,
        ErrorCode.ConnectionClosed,
        'Bad Request: no Mcp-Session-Id header. Send initialize first and then the session id it returns with every request.',
      );
    }
    // A new client is never refused for want of room: the least recently active session makes way.
    if (sessions.size >= maxSessions) evictSession();
    return startSession(req, res, payload.value, requestIdsOf(payload.messages));
  }

  async function startSession(req: IncomingMessage, res: ServerResponse, value: unknown, requestIds: readonly (string | number)[]): Promise<void> {
    const server = createStrictMcpServer(registry, options);
    // The SDK reports client-side problems (a dropped stream, a bad header) here; they are answered on the wire and never fatal.
    server.onerror = () => {};
    const session: Session = {
      server,
      transport: undefined as unknown as StreamableHTTPServerTransport,
      lastActive: Date.now(),
      streams: new Set(),
      owner: sessionOwnerOf(authOf(req)),
    };
    let id: string | undefined;
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (newId) => {
        id = newId;
        sessions.set(newId, session);
      },
      onsessionclosed: (closedId) => {
        sessions.delete(closedId);
      },
    });
    server.onclose = () => {
      if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    };
    await server.connect(session.transport);
    track(session, res, 'post', requestIds);
    await session.transport.handleRequest(req, res, value);
    // Refused before initialization (406 for a bad Accept header): nothing will ever reach this server again.
    if (id === undefined) await server.close();
  }

  /** Closes the session that matters least: one without open streams, then one with only GET streams, then any; least recently active first. */
  function evictSession(): void {
    let victim: [string, Session] | undefined;
    let victimRank = Infinity;
    for (const entry of sessions) {
      const rank = sessionRank(entry[1]);
      if (rank < victimRank || (rank === victimRank && entry[1].lastActive < victim![1].lastActive)) {
        victim = entry;
        victimRank = rank;
      }
    }
    if (victim) closeSession(victim[0]);
  }

  function sessionRank(session: Session): number {
    if (session.streams.size === 0) return 0;
    for (const stream of session.streams) if (stream.kind === 'post') return 2;
    return 1;
  }

  async function handleSessionRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId !== 'string')
      return sendError(res, 400, ErrorCode.ConnectionClosed, 'Bad Request: send the Mcp-Session-Id header returned by initialize.');
    const session = sessions.get(sessionId);
    if (!session || session.owner !== sessionOwnerOf(authOf(req)))
      return sendError(res, 404, SESSION_NOT_FOUND, 'Session not found: it expired or was closed. Start a new session with initialize.');
    track(session, res, req.method === 'GET' ? 'get' : 'post');
    await session.transport.handleRequest(req, res);
    if (req.method === 'DELETE' && res.statusCode === 200) closeSession(sessionId);
  }

  /** The protected resource metadata (RFC 9728), which a client reads before it has a token: the `Host` and `Origin` checks only. */
  function sendMetadata(req: IncomingMessage, res: ServerResponse, metadata: object): void {
    const verdict = guard.check(req.headers);
    if (!verdict.allowed) return sendError(res, verdict.status, ErrorCode.ConnectionClosed, verdict.message, { Connection: 'close', ...verdict.headers });
    if (req.method !== 'GET') return sendError(res, 405, ErrorCode.ConnectionClosed, 'Method not allowed: use GET for the metadata.', { Allow: 'GET' });
    return sendJson(res, 200, metadata);
  }

  return {
    url,
    host,
    port,
    get sessionCount() {
      return sessions.size;
    },
    get streamCount() {
      return streams.size;
    },
    async notifyResourceUpdated(uri) {
      const sends: Promise<void>[] = [];
      for (const { server } of sessions.values())
        if (resourceSubscriptions.get(server)?.has(uri)) sends.push(server.sendResourceUpdated({ uri }).catch(() => {}));
      await Promise.all(sends);
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        const deadline = Date.now() + shutdownGraceMs;
        while (inFlightPosts > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        await Promise.all(
          [...sessions.keys()].map(async (id) => {
            const session = sessions.get(id);
            sessions.delete(id);
            await session?.server.close().catch(() => {});
          }),
        );
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

function authOf(req: IncomingMessage): AuthInfo | undefined {
  return (req as IncomingMessage & { auth?: AuthInfo }).auth;
}

function requestIdsOf(messages: readonly JSONRPCMessage[]): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of messages) if ('method' in message && 'id' in message) ids.push(message.id);
  return ids;
}

function requestPath(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  return value.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<{ tooLarge: true } | { tooLarge: false; text: string }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        settled = true;
        chunks.length = 0;
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ tooLarge: false, text: Buffer.concat(chunks, size).toString('utf8') });
    });
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`serveHttp: \`${name}\` must be a positive number (got ${String(value)}).`);
  return value;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
