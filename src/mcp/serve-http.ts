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
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { ToolRegistry, stderrLogger } from '../tools/index.js';
import { createStrictMcpServer, resourceSubscriptions } from './create-mcp-server.js';
import type { McpServerOptions, McpToolSource } from './create-mcp-server.js';
import { createRequestGuard, formatHostPort } from './http-request-guard.js';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';
import { SessionPool, endpointLimits, isJsonContentType, requestIdsOf } from './session-pool.js';
import type { OpenStream, PooledSession } from './session-pool.js';
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

const DEFAULT_SHUTDOWN_GRACE_MS = 5000;
/** JSON-RPC code the SDK uses for an unknown session (with HTTP 404). */
const SESSION_NOT_FOUND = -32001;

type Session = PooledSession<StreamableHTTPServerTransport>;

export async function serveHttp(tools: McpToolSource, options: McpHttpOptions = {}): Promise<McpHttpHandle> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const limits = endpointLimits(options, 'serveHttp');
  const { maxBodyBytes } = limits;
  const shutdownGraceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const logger = options.logger ?? stderrLogger;
  // One registry for every session: validators are compiled once.
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools, { logger });
  // Fail at startup, not on the first client, if the pack cannot be served.
  createStrictMcpServer(registry, options);
  if (options.auth && options.authToken !== undefined)
    throw new InvalidArgumentError('serveHttp: give either `auth` (OAuth access tokens) or `authToken` (one static token), not both.');

  const pool = new SessionPool<StreamableHTTPServerTransport>(limits);
  const { sessions } = pool;
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

  const sweep = setInterval(() => pool.sweepIdle(), pool.sweepIntervalMs);
  sweep.unref();

  /** Counts `res` as an open stream of `session` until it closes (the pool may evict it first, to respect its caps). */
  function track(session: Session, res: ServerResponse, kind: OpenStream['kind'], requestIds: readonly RequestId[] = []): void {
    const stream = pool.track(session, kind, () => res.destroy(), requestIds);
    res.once('close', () => pool.ended(stream));
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
      const session = pool.find(sessionId, sessionOwnerOf(authOf(req)));
      if (!session) return sendError(res, 404, SESSION_NOT_FOUND, 'Session not found: it expired or was closed. Start a new session with initialize.');
      track(session, res, 'post', requestIdsOf(payload.messages));
      holdHeaders(res);
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
    pool.makeRoomForSession();
    return startSession(req, res, payload.value, requestIdsOf(payload.messages));
  }

  async function startSession(req: IncomingMessage, res: ServerResponse, value: unknown, requestIds: readonly RequestId[]): Promise<void> {
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
    holdHeaders(res);
    await session.transport.handleRequest(req, res, value);
    // Refused before initialization (406 for a bad Accept header): nothing will ever reach this server again.
    if (id === undefined) await server.close();
  }

  async function handleSessionRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId !== 'string')
      return sendError(res, 400, ErrorCode.ConnectionClosed, 'Bad Request: send the Mcp-Session-Id header returned by initialize.');
    const session = pool.find(sessionId, sessionOwnerOf(authOf(req)));
    if (!session) return sendError(res, 404, SESSION_NOT_FOUND, 'Session not found: it expired or was closed. Start a new session with initialize.');
    track(session, res, req.method === 'GET' ? 'get' : 'post');
    await session.transport.handleRequest(req, res);
    if (req.method === 'DELETE' && res.statusCode === 200) pool.closeSession(sessionId);
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
      return pool.streams.size;
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
        await pool.closeAll();
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

/** How long the headers of a POST's SSE answer wait for its first event. */
const HEADER_HOLD_MS = 50;

/**
 * The SDK's Node transport sends an SSE answer's headers in a write of their own as soon as it has them (`flushHeaders`),
 * then its events in another: two writes, and two wake-ups of the client, per call. Held back up to
 * {@link HEADER_HOLD_MS}, the headers leave with the first event when it comes that soon, in one write (bench:gateway),
 * and alone when it does not, so that a client still learns soon that a long call was taken.
 */
function holdHeaders(res: ServerResponse): void {
  const flushHeaders = res.flushHeaders.bind(res);
  res.flushHeaders = () => {
    const socket = res.socket;
    // Nothing else writes to this connection until the answer ends (HTTP/1.1 answers in order): bytes written since
    // mean the headers went with them.
    const written = socket?.bytesWritten;
    setTimeout(() => {
      if (!res.writableEnded && !res.destroyed && res.socket === socket && socket?.bytesWritten === written) flushHeaders();
    }, HEADER_HOLD_MS).unref();
  };
}

function authOf(req: IncomingMessage): AuthInfo | undefined {
  return (req as IncomingMessage & { auth?: AuthInfo }).auth;
}

function requestPath(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
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

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
