/**
 * The MCP server as one web-standard function, `(request: Request) => Promise<Response>`, over the SDK's
 * `WebStandardStreamableHTTPServerTransport`: a Cloudflare Worker's `fetch`, a Next.js or Hono route handler,
 * `Bun.serve({ fetch })` and `Deno.serve(handler)` all take it as it is.
 *
 * It keeps what `serveHttp` guarantees, through the same code: the session pool and its caps (`session-pool.ts`), the
 * `Host`/`Origin` checks and optional bearer token (`http-request-guard.ts`), the JSON-RPC parse
 * (`parse-jsonrpc-payload.ts`) and one `createStrictMcpServer` per session (confirmations, the effect gate, redaction,
 * the call pipeline's policy, guard and limits). What differs is only how a response is watched: its body is wrapped so
 * that the pool learns when it ends and can cut it. Nothing here starts a timer until a request arrives (a Worker forbids
 * timers in global scope), so idle sessions are swept as requests come in.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ToolRegistry, stderrLogger } from '../tools/index.js';
import { createStrictMcpServer, resourceSubscriptions } from './create-mcp-server.js';
import type { McpServerOptions, McpToolSource } from './create-mcp-server.js';
import { createRequestGuard } from './http-request-guard.js';
import type { RequestGuard } from './http-request-guard.js';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { createMcpAuthGate, sessionOwnerOf } from './auth/mcp-auth-gate.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { SessionPool, endpointLimits, isJsonContentType, requestIdsOf } from './session-pool.js';
import type { OpenStream, PooledSession } from './session-pool.js';
import type { McpHttpOptions } from './serve-http.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as McpToolSource.
export interface McpHandlerOptions<Ctx = any>
  extends
    McpServerOptions<Ctx>,
    Pick<McpHttpOptions, 'allowedOrigins' | 'authToken' | 'maxBodyBytes' | 'maxSessions' | 'maxStreams' | 'maxStreamsPerSession' | 'sessionIdleMs'> {
  /**
   * `Host` header values to accept (`name` or `name:port`) besides the loopback names (`127.0.0.1`, `localhost`, `[::1]`
   * at the request's port): a deployed handler lists its public host names here, or every request is refused with 403
   * (DNS rebinding). A browser page at `http://<host>` of one of them may connect; list other origins in `allowedOrigins`.
   */
  allowedHosts?: readonly string[];
  /** When set, requests to any other path get 404. Default: none, every path is the endpoint (the framework routes to it). */
  path?: string;
  /**
   * No sessions: every POST is answered by a server of its own, closed when its response ends, so any isolate can answer
   * any request. What a session holds lasts one request: the client's capabilities are unknown (a confirmation cannot be
   * asked through elicitation: use `confirmation` or `preapproved`), and `policy`, `limits` and `recordDir` see one
   * request at a time. GET and DELETE get 405. Default `false`.
   */
  stateless?: boolean;
}

/** `createMcpHandler`'s result: call it with each request; its properties tell how many sessions it holds and close them. */
export interface McpHandler {
  (request: Request): Promise<Response>;
  /** Sessions now open. */
  readonly sessionCount: number;
  /** SSE streams now open (GET streams and POST responses being answered). */
  readonly streamCount: number;
  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Refuses new requests (503), lets in-flight calls finish (up to `graceMs`, default 5000), then closes every session. */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 5000;
/** JSON-RPC code the SDK uses for an unknown session (with HTTP 404). */
const SESSION_NOT_FOUND = -32001;
/** Guards kept for distinct request ports; the port comes from the request, so the cache is bounded. */
const MAX_CACHED_GUARDS = 16;

type Session = PooledSession<WebStandardStreamableHTTPServerTransport>;

/**
 * Serves `tools` over MCP's Streamable HTTP transport as a web-standard handler: sessions in memory (`Mcp-Session-Id`),
 * SSE responses, `Host` and `Origin` checks, bounded sessions and streams, JSON-RPC errors for bad input. Sessions live
 * in the memory of one process or isolate: a platform that spreads one client's requests over several isolates answers
 * a request that lands on another one 404 (the client starts a new session).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as McpToolSource.
export function createMcpHandler<Ctx = any>(tools: McpToolSource<Ctx>, options: McpHandlerOptions<Ctx> = {}): McpHandler {
  // The handler does not know the URL it is served under: the audience tokens must name is given, not guessed from a request.
  if (options.auth && options.auth.audience === undefined)
    throw new InvalidArgumentError(
      "createMcpHandler's `auth` needs `audience`: this server's public URL (e.g. 'https://mcp.example.com/mcp'), which every access token's `aud` must name.",
    );
  if (options.auth && options.authToken !== undefined)
    throw new InvalidArgumentError('createMcpHandler: give either `auth` (OAuth access tokens) or `authToken` (one static token), not both.');
  const limits = endpointLimits(options, 'createMcpHandler');
  const logger = options.logger ?? stderrLogger;
  // One registry for every session: validators are compiled once.
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools, { logger });
  // Fail when the handler is made, not on the first client, if the pack cannot be served.
  createStrictMcpServer(registry, options);
  const authGate =
    options.auth && createMcpAuthGate(registry, options.auth, options.auth.audience!, options.path ?? new URL(options.auth.audience!).pathname, logger);

  const pool = new SessionPool<WebStandardStreamableHTTPServerTransport>(limits);
  const { sessions } = pool;
  const guards = new Map<number, RequestGuard>();
  let nextSweep = 0;
  let inFlightPosts = 0;
  let closing: Promise<void> | undefined;

  const handler = async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch (error) {
      logger.error('MCP request failed', { error });
      return errorResponse(500, ErrorCode.InternalError, 'Internal error: the server failed to answer this request; the details are in its log.');
    }
  };

  async function handle(request: Request): Promise<Response> {
    if (closing) return errorResponse(503, ErrorCode.ConnectionClosed, 'Service unavailable: the server is shutting down.');
    const url = new URL(request.url);
    const metadata = authGate?.metadataFor(url.pathname);
    if (options.path !== undefined && url.pathname !== options.path && !metadata)
      return errorResponse(404, ErrorCode.ConnectionClosed, `Not found: the MCP endpoint is ${options.path}.`);
    const verdict = guardFor(url).check({
      // A runtime that builds the URL from the connection (or a test calling the handler directly) may send no Host header.
      host: request.headers.get('host') ?? url.host,
      origin: request.headers.get('origin') ?? undefined,
      authorization: request.headers.get('authorization') ?? undefined,
    });
    if (!verdict.allowed) return errorResponse(verdict.status, ErrorCode.ConnectionClosed, verdict.message, verdict.headers);
    // The protected resource metadata (RFC 9728), read before the client has a token: the Host and Origin checks only.
    if (metadata)
      return request.method === 'GET'
        ? jsonResponse(200, metadata)
        : errorResponse(405, ErrorCode.ConnectionClosed, 'Method not allowed: use GET for the metadata.', { Allow: 'GET' });
    let authInfo: AuthInfo | undefined;
    if (authGate) {
      const authenticated = await authGate.authenticate(request.headers);
      if (!authenticated.allowed) return errorResponse(authenticated.status, ErrorCode.ConnectionClosed, authenticated.message, authenticated.headers);
      authInfo = authenticated.authInfo;
    }
    const now = Date.now();
    if (now >= nextSweep) {
      pool.sweepIdle(now);
      nextSweep = now + pool.sweepIntervalMs;
    }
    if (request.method === 'POST') {
      inFlightPosts++;
      try {
        return await handlePost(request, authInfo);
      } finally {
        inFlightPosts--;
      }
    }
    if (options.stateless)
      return errorResponse(405, ErrorCode.ConnectionClosed, `Method not allowed: this stateless endpoint answers POST only.`, { Allow: 'POST' });
    if (request.method === 'GET' || request.method === 'DELETE') return handleSessionRequest(request, authInfo);
    return errorResponse(405, ErrorCode.ConnectionClosed, `Method not allowed: use POST, GET or DELETE on ${url.pathname}.`, { Allow: 'GET, POST, DELETE' });
  }

  /** The request guard for the port the request names: the loopback names are accepted at that port, as serveHttp accepts them at its own. */
  function guardFor(url: URL): RequestGuard {
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    let guard = guards.get(port);
    if (guard) return guard;
    if (guards.size >= MAX_CACHED_GUARDS) guards.clear();
    guard = createRequestGuard({
      host: '127.0.0.1',
      port,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      ...(options.authToken !== undefined ? { authToken: options.authToken } : {}),
      allowAdvice: {
        host: "add the name to createMcpHandler's `allowedHosts`",
        origin: "Add it to createMcpHandler's `allowedOrigins` to let a browser page at that origin connect",
      },
    });
    guards.set(port, guard);
    return guard;
  }

  async function handlePost(request: Request, authInfo: AuthInfo | undefined): Promise<Response> {
    if (!isJsonContentType(request.headers.get('content-type')))
      return errorResponse(415, ErrorCode.ConnectionClosed, 'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.');
    const body = await readBodyText(request, limits.maxBodyBytes);
    if (body === undefined)
      return errorResponse(413, ErrorCode.ConnectionClosed, `Payload too large: request bodies are limited to ${limits.maxBodyBytes} bytes.`);
    const payload = parseJsonRpcPayload(body, { allowBatch: true });
    if (!payload.success) return jsonResponse(400, payload.response);
    const refusal = authInfo && authGate?.authorize(authInfo, payload.messages);
    if (refusal) return errorResponse(refusal.status, ErrorCode.ConnectionClosed, refusal.message, refusal.headers);

    const requestIds = requestIdsOf(payload.messages);
    if (options.stateless) return answerAlone(request, payload.value, requestIds, authInfo);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      // Headers join repeated values with ", "; a session id never holds one.
      if (sessionId.includes(',')) return errorResponse(400, ErrorCode.InvalidRequest, 'Bad Request: send one Mcp-Session-Id header.');
      const session = pool.find(sessionId, sessionOwnerOf(authInfo));
      if (!session) return errorResponse(404, SESSION_NOT_FOUND, 'Session not found: it expired or was closed. Start a new session with initialize.');
      return answer(session, 'post', requestIds, (transport) => transport.handleRequest(request, { parsedBody: payload.value, authInfo }));
    }
    if (!payload.messages.some((message) => isInitializeRequest(message))) {
      return errorResponse(
        400,
        ErrorCode.ConnectionClosed,
        'Bad Request: no Mcp-Session-Id header. Send initialize first and then the session id it returns with every request.',
      );
    }
    pool.makeRoomForSession();
    return startSession(request, payload.value, requestIds, authInfo);
  }

  async function startSession(request: Request, value: unknown, requestIds: readonly RequestId[], authInfo: AuthInfo | undefined): Promise<Response> {
    const server = createStrictMcpServer(registry, options);
    // The SDK reports client-side problems (a dropped stream, a bad header) here; they are answered on the wire and never fatal.
    server.onerror = () => {};
    let id: string | undefined;
    const session: Session = {
      server,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (newId) => {
          id = newId;
          sessions.set(newId, session);
        },
        onsessionclosed: (closedId) => {
          sessions.delete(closedId);
        },
      }),
      lastActive: Date.now(),
      streams: new Set(),
      owner: sessionOwnerOf(authInfo),
    };
    server.onclose = () => {
      if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    };
    await server.connect(session.transport);
    const response = await answer(session, 'post', requestIds, (transport) => transport.handleRequest(request, { parsedBody: value, authInfo }));
    // Refused before initialization (406 for a bad Accept header): nothing will ever reach this server again.
    if (id === undefined) await server.close();
    return response;
  }

  /** A stateless request: a server and transport of its own, closed once its response has ended. */
  async function answerAlone(request: Request, value: unknown, requestIds: readonly RequestId[], authInfo: AuthInfo | undefined): Promise<Response> {
    // No session keeps a task past this one response, so long-running tools are not offered as tasks.
    const server = createStrictMcpServer(registry, { ...options, tasks: false });
    server.onerror = () => {};
    // Not in the pool's sessions (nothing can find it again), but its response counts against the stream caps.
    const alone: Session = { server, transport: new WebStandardStreamableHTTPServerTransport({}), lastActive: Date.now(), streams: new Set() };
    await server.connect(alone.transport);
    const close = () => void server.close().catch(() => {});
    try {
      return await answer(alone, 'post', requestIds, (transport) => transport.handleRequest(request, { parsedBody: value, authInfo }), close);
    } catch (error) {
      close();
      throw error;
    }
  }

  async function handleSessionRequest(request: Request, authInfo: AuthInfo | undefined): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId === null) return errorResponse(400, ErrorCode.ConnectionClosed, 'Bad Request: send the Mcp-Session-Id header returned by initialize.');
    const session = pool.find(sessionId, sessionOwnerOf(authInfo));
    if (!session) return errorResponse(404, SESSION_NOT_FOUND, 'Session not found: it expired or was closed. Start a new session with initialize.');
    const response = await answer(session, request.method === 'GET' ? 'get' : 'post', [], (transport) => transport.handleRequest(request, { authInfo }));
    if (request.method === 'DELETE' && response.status === 200) pool.closeSession(sessionId);
    return response;
  }

  /**
   * Runs `respond` as an open stream of `session`, counted by the pool until the response's body ends: the body is
   * wrapped so that its end, its cancellation by the client and an eviction by the pool all reach the pool.
   */
  async function answer(
    session: Session,
    kind: OpenStream['kind'],
    requestIds: readonly RequestId[],
    respond: (transport: WebStandardStreamableHTTPServerTransport) => Promise<Response>,
    onEnd?: () => void,
  ): Promise<Response> {
    // Evicted before the transport handed out its response: that response is cut as soon as it comes.
    const body: { cut?: () => void; cutEarly?: boolean } = {};
    const stream = pool.track(session, kind, () => (body.cut ? body.cut() : (body.cutEarly = true)), requestIds);
    const ended = () => {
      pool.ended(stream);
      onEnd?.();
    };
    let response: Response;
    try {
      response = await respond(session.transport);
    } catch (error) {
      pool.ended(stream);
      throw error;
    }
    if (response.body === null || body.cutEarly) {
      if (response.body !== null) await response.body.cancel().catch(() => {});
      ended();
      return response.body === null ? response : new Response(null, { status: response.status, headers: response.headers });
    }
    const watched = watchBody(response.body, ended);
    body.cut = watched.cut;
    return new Response(watched.body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  return Object.defineProperties(handler, {
    sessionCount: { get: () => sessions.size },
    streamCount: { get: () => pool.streams.size },
    notifyResourceUpdated: {
      value: async (uri: string) => {
        const sends: Promise<void>[] = [];
        for (const { server } of sessions.values())
          if (resourceSubscriptions.get(server)?.has(uri)) sends.push(server.sendResourceUpdated({ uri }).catch(() => {}));
        await Promise.all(sends);
      },
    },
    close: {
      value: (graceMs = DEFAULT_SHUTDOWN_GRACE_MS) => {
        closing ??= (async () => {
          const deadline = Date.now() + graceMs;
          while (inFlightPosts > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
          await pool.closeAll();
        })();
        return closing;
      },
    },
  }) as McpHandler;
}

/**
 * `source` passed through as it is read, with `onEnd` told once when it ends, fails or its reader cancels it; `cut`
 * ends it at once (the pool evicted it and the transport did not end it).
 */
function watchBody(source: ReadableStream<Uint8Array>, onEnd: () => void): { body: ReadableStream<Uint8Array>; cut: () => void } {
  const reader = source.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
    },
    async pull(into) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          into.close();
        } else into.enqueue(value);
      } catch (error) {
        end();
        into.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  const cut = () => {
    end();
    reader.cancel().catch(() => {});
    try {
      controller?.close();
    } catch {
      // Already closed by its reader.
    }
  };
  return { body, cut };
}

/** The request's body as text, or `undefined` when it is larger than `maxBytes` (read no further than that). */
async function readBodyText(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

function errorResponse(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}
