/**
 * The client side of MCP's Streamable HTTP transport over `node:http` and `node:https` with a keep-alive agent, used by
 * `importMcpTools` and the gateway in place of the SDK's `StreamableHTTPClientTransport`. The SDK's transport goes
 * through `fetch` and web streams (a `TextDecoderStream` and an SSE parser stream piped per response): in
 * `npm run bench:gateway` the SDK relay, its client and server transports, spent 1,357 µs of CPU per call where the
 * upstream, the same server transport alone, spent 300.
 *
 * It speaks the protocol as the SDK's transport does: each message is POSTed with `Accept: application/json,
 * text/event-stream`, the `Mcp-Session-Id` the server gives and the agreed `Mcp-Protocol-Version`, and the configured
 * headers (a bearer token); a JSON answer is parsed once, an SSE answer is read event by event as it arrives (so that
 * progress, notifications and the server's own requests, such as elicitation, reach the client before the result);
 * after `notifications/initialized` a GET stream is opened for messages the server sends outside any request (405:
 * the server has none), and reopened when it ends; a POST stream that ends before its answer, after an event with an
 * id, is resumed with `Last-Event-ID`. What it adds: an answer that cannot be used (an HTTP error, a redirect, another
 * content type, more than `maxMessageBytes`, a stream that ends before its answer with nothing to resume from) fails
 * that request at once with {@link McpHttpResponseError}, instead of leaving it to wait for its timeout.
 * @module
 */
import { createParser } from 'eventsource-parser';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { InvalidStateError, ToolwrightError } from '../shared/errors.js';
import { parseJsonRpcPayload } from './parse-jsonrpc-payload.js';

export interface HttpClientTransportOptions {
  /** Sent with every request (an `Authorization` header, an API key). */
  headers?: Readonly<Record<string, string>>;
  /** Largest JSON answer or SSE event, in bytes; a larger one fails its request. Default 32 MiB. */
  maxMessageBytes?: number;
  /** Delays before reopening a stream: the first, and how it grows per attempt. Default 1000 ms × 1.5, 2 attempts (the SDK's). */
  reconnection?: { initialDelayMs: number; growFactor: number; maxDelayMs: number; maxRetries: number };
}

/** An MCP server reached over Streamable HTTP answered with something the client cannot use, or closed its answer early. */
export class McpHttpResponseError extends ToolwrightError {
  /** The HTTP status, when the server sent one. */
  readonly status: number | undefined;
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super('TW_MCP_HTTP_RESPONSE', message, options.cause === undefined ? {} : { cause: options.cause });
    this.status = options.status;
  }
}

const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
const DEFAULT_RECONNECTION = { initialDelayMs: 1000, growFactor: 1.5, maxDelayMs: 30_000, maxRetries: 2 };
const IDLE_CONNECTION_MS = 4000;
/** Redirects followed for one request (the SDK's transport's bound). */
const MAX_REDIRECTS = 5;
/** How much of an error answer's body is quoted in the message. */
const QUOTED_BODY_BYTES = 1000;

export class HttpClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;

  private readonly url: URL;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly maxMessageBytes: number;
  private readonly reconnection: Required<NonNullable<HttpClientTransportOptions['reconnection']>>;
  private readonly agent: HttpAgent;
  private readonly request: typeof httpRequest;
  private protocolVersion: string | undefined;
  private started = false;
  private closed = false;
  /** Every request still open, destroyed on close. */
  private readonly open = new Set<ClientRequest>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The `retry:` an SSE stream asked for, which replaces the growing delay. */
  private serverRetryMs: number | undefined;

  constructor(url: URL, options: HttpClientTransportOptions = {}) {
    this.url = url;
    this.headers = options.headers ?? {};
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.reconnection = { ...DEFAULT_RECONNECTION, ...options.reconnection };
    const https = url.protocol === 'https:';
    // An idle connection is dropped after 4 s, or a second before the server's Keep-Alive hint (Node's agent reads it,
    // given a timeout), before the server closes it (Node's servers: after 5 s), as undici does: the race that
    // exchangeOnce retries stays rare.
    const agentOptions = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
    this.agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.request = https ? httpsRequest : httpRequest;
  }

  async start(): Promise<void> {
    if (this.started) throw new InvalidStateError('HttpClientTransport was started twice: Client.connect() starts it; do not call start() yourself.');
    this.started = true;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const request of this.open) request.destroy();
    this.agent.destroy();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    try {
      if (options?.resumptionToken) {
        const replayId = isRequest(message) ? message.id : undefined;
        void this.openEventStream(options.resumptionToken, replayId === undefined ? [] : [replayId], 0);
        return;
      }
      await this.post(message);
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
  }

  private async post(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const body = JSON.stringify(message);
    // A tools/call may have acted before its connection was reset: it is never sent twice (its outcome stays unknown).
    const resendable = !(Array.isArray(message) ? message : [message]).some((entry) => 'method' in entry && entry.method === 'tools/call');
    const response = await this.exchange('POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body, resendable);
    if (response.statusCode !== 202 && (response.statusCode! < 200 || response.statusCode! > 299)) throw await this.refusal('POST', response);
    const messages = Array.isArray(message) ? message : [message];
    const requestIds = messages.flatMap((entry) => (isRequest(entry) ? [entry.id] : []));
    if (response.statusCode === 202 || requestIds.length === 0) {
      response.resume();
      if (messages.some((entry) => 'method' in entry && entry.method === 'notifications/initialized')) void this.openEventStream(undefined, undefined, 0);
      return;
    }
    const mediaType = mediaTypeOf(response.headers['content-type']);
    if (mediaType === 'application/json') {
      const payload = parseJsonRpcPayload(await this.readBody(response), { allowBatch: true });
      if (!payload.success) throw new McpHttpResponseError(`The MCP server ${this.label()} answered with ${unusable(payload.response.error.message)}`);
      for (const message of payload.messages) this.onmessage?.(message);
      return;
    }
    if (mediaType === 'text/event-stream') {
      const outcome = await this.readEventStream(response, requestIds);
      if (outcome.unanswered.length === 0) return;
      if (outcome.lastEventId !== undefined && !this.closed) {
        // The server keeps its events (it gave them ids): what was lost is asked for again, on a GET stream.
        void this.openEventStream(outcome.lastEventId, outcome.unanswered, 0);
        return;
      }
      throw this.closed ? new Error('the transport was closed') : endedEarly(this.label(), outcome.error);
    }
    response.resume();
    throw new McpHttpResponseError(
      `The MCP server ${this.label()} answered a request with Content-Type ${JSON.stringify(response.headers['content-type'] ?? '')}; MCP servers answer with application/json or text/event-stream.`,
      { status: response.statusCode },
    );
  }

  /**
   * A GET stream: the server's own messages (`waitingFor` undefined), reopened whenever it ends, or the rest of an
   * interrupted answer after `lastEventId`, reopened until it has answered every request in `waitingFor`.
   */
  private async openEventStream(lastEventId: string | undefined, waitingFor: readonly RequestId[] | undefined, attempt: number): Promise<void> {
    if (this.closed) return;
    const headers: OutgoingHttpHeaders = { accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    let outcome: Awaited<ReturnType<HttpClientTransport['readEventStream']>>;
    try {
      const response = await this.exchange('GET', headers);
      if (response.statusCode === 405 && waitingFor === undefined) {
        response.resume();
        return;
      }
      if (response.statusCode !== 200) throw await this.refusal('GET', response);
      if (mediaTypeOf(response.headers['content-type']) !== 'text/event-stream') {
        response.resume();
        throw new McpHttpResponseError(`The MCP server ${this.label()} answered GET with ${String(response.headers['content-type'])}, not an SSE stream.`, {
          status: response.statusCode,
        });
      }
      outcome = await this.readEventStream(response, waitingFor ?? []);
    } catch (error) {
      if (this.closed) return;
      this.onerror?.(error as Error);
      return this.reopenLater(lastEventId, waitingFor, attempt + 1);
    }
    if (this.closed || (waitingFor !== undefined && outcome.unanswered.length === 0)) return;
    // A stream that delivered something starts the count again: only a server that keeps failing is given up on.
    this.reopenLater(outcome.lastEventId ?? lastEventId, waitingFor && outcome.unanswered, outcome.delivered ? 0 : attempt + 1);
  }

  private reopenLater(lastEventId: string | undefined, waitingFor: readonly RequestId[] | undefined, attempt: number): void {
    if (attempt >= this.reconnection.maxRetries) {
      this.onerror?.(
        new McpHttpResponseError(
          `The MCP server ${this.label()} ended its event stream ${this.reconnection.maxRetries} times in a row without sending anything; it is not reopened again.`,
        ),
      );
      return;
    }
    const { initialDelayMs, growFactor, maxDelayMs } = this.reconnection;
    const delay = this.serverRetryMs ?? Math.min(initialDelayMs * growFactor ** attempt, maxDelayMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.openEventStream(lastEventId, waitingFor, attempt);
    }, delay);
    this.timers.add(timer);
  }

  /** Reads an SSE answer to its end, delivering each message; says which of `requestIds` it left unanswered. */
  private readEventStream(
    response: IncomingMessage,
    requestIds: readonly RequestId[],
  ): Promise<{ unanswered: RequestId[]; lastEventId: string | undefined; delivered: boolean; error?: Error }> {
    const unanswered = new Set(requestIds);
    let lastEventId: string | undefined;
    let delivered = false;
    // Each message is handed on in a microtask of its own, as a web stream reader hands them: the client runs a
    // notification's handler in a microtask, and a progress notification must reach it before the result that follows
    // it in the same chunk closes the request.
    let delivering = Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        void delivering.then(() => resolve({ unanswered: [...unanswered], lastEventId, delivered, ...(error ? { error } : {}) }));
      };
      let problem: string | undefined;
      const parser = createParser({
        maxBufferSize: this.maxMessageBytes,
        onRetry: (ms) => (this.serverRetryMs = ms),
        onError: (error) => {
          if (error.type === 'max-buffer-size-exceeded') problem = `an SSE event longer than ${this.maxMessageBytes} characters`;
        },
        onEvent: (event) => {
          if (event.id !== undefined) lastEventId = event.id;
          if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
          const payload = parseJsonRpcPayload(event.data, { allowBatch: false });
          if (!payload.success) {
            this.onerror?.(new McpHttpResponseError(`The MCP server ${this.label()} sent an SSE event with ${unusable(payload.response.error.message)}`));
            return;
          }
          const message = payload.messages[0]!;
          const id = responseIdOf(message);
          if (id !== undefined) unanswered.delete(id);
          delivered = true;
          delivering = delivering.then(() => this.onmessage?.(message));
        },
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (settled) return;
        parser.feed(chunk);
        if (problem) {
          response.destroy();
          finish(new McpHttpResponseError(`The MCP server ${this.label()} sent ${problem}.`));
        }
      });
      response.once('end', () => finish());
      response.once('error', (error) => finish(error));
      response.once('close', () => finish(response.complete ? undefined : new Error('the connection closed mid-stream')));
    });
  }

  /**
   * Sends one request and resolves with the response's head, following a redirect within the URL's origin (same
   * scheme, host and port; up to five) that keeps the method, as the SDK's transport does; any other redirect is
   * answered as it is (and refused by the caller).
   */
  private async exchange(method: 'GET' | 'POST', extra: OutgoingHttpHeaders, body?: string, resendable = true): Promise<IncomingMessage> {
    let url = this.url;
    for (let hops = 0; ; hops++) {
      const response = await this.exchangeOnce(url, method, extra, body, resendable);
      const status = response.statusCode!;
      const keepsMethod = status === 307 || status === 308 || (method === 'GET' && (status === 301 || status === 302 || status === 303));
      const target = keepsMethod && hops < MAX_REDIRECTS ? redirectTarget(response.headers.location, url) : undefined;
      if (!target || target.origin !== this.url.origin || target.username !== this.url.username || target.password !== this.url.password) return response;
      response.resume();
      url = target;
    }
  }

  private exchangeOnce(url: URL, method: 'GET' | 'POST', extra: OutgoingHttpHeaders, body?: string, retry = true): Promise<IncomingMessage> {
    if (this.closed) return Promise.reject(new Error('Not connected: the transport was closed.'));
    const headers: OutgoingHttpHeaders = { ...this.headers, ...extra };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    return new Promise((resolve, reject) => {
      const request = this.request(url, { method, headers, agent: this.agent }, (response) => {
        const sessionId = response.headers['mcp-session-id'];
        if (typeof sessionId === 'string' && sessionId !== '') this.sessionId = sessionId;
        response.once('close', () => this.open.delete(request));
        resolve(response);
      });
      this.open.add(request);
      request.once('error', (error: NodeJS.ErrnoException) => {
        this.open.delete(request);
        // A kept-alive connection the server closed as this request left on it (Node's documented race) is usually one
        // the server never read from, so a request without effects is sent once more on a new connection; a tools/call
        // is not (the reset may also have come after the server ran it).
        if (retry && request.reusedSocket && error.code === 'ECONNRESET' && !this.closed) {
          resolve(this.exchangeOnce(url, method, extra, body, false));
          return;
        }
        reject(
          this.closed
            ? new Error('Not connected: the transport was closed.')
            : new McpHttpResponseError(`Cannot reach the MCP server ${this.label()}: ${error.message}.`, { cause: error }),
        );
      });
      request.end(body);
    });
  }

  private async refusal(method: string, response: IncomingMessage): Promise<McpHttpResponseError> {
    const status = response.statusCode!;
    const location = response.headers.location;
    if (status >= 300 && status < 400) {
      response.resume();
      return new McpHttpResponseError(
        `The MCP server ${this.label()} answered ${method} with a redirect (HTTP ${status}${location ? ` to ${location}` : ''}), which is followed only within its origin: configure the URL it names.`,
        { status },
      );
    }
    const text = await this.readBody(response, QUOTED_BODY_BYTES).catch(() => '');
    return new McpHttpResponseError(`The MCP server ${this.label()} answered ${method} with HTTP ${status}${text ? `: ${text.trim()}` : ''}.`, { status });
  }

  /** The whole body as text; past `limit` bytes it is cut there (`limit` given) or refused (the message limit). */
  private readBody(response: IncomingMessage, limit?: number): Promise<string> {
    const max = limit ?? this.maxMessageBytes;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) {
          response.destroy();
          if (limit !== undefined)
            resolve(
              `${Buffer.concat([...chunks, chunk])
                .subarray(0, max)
                .toString('utf8')}…`,
            );
          else reject(new McpHttpResponseError(`The MCP server ${this.label()} answered with more than ${max} bytes (maxMessageBytes).`));
          return;
        }
        chunks.push(chunk);
      });
      response.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
      response.once('error', (error) => reject(endedEarly(this.label(), error)));
      response.once('close', () => {
        if (!response.complete && size <= max) reject(endedEarly(this.label(), new Error('the connection closed mid-body')));
      });
    });
  }

  private label(): string {
    return `at ${this.url.href}`;
  }
}

function endedEarly(label: string, cause: Error | undefined): McpHttpResponseError {
  return new McpHttpResponseError(
    `The MCP server ${label} closed its answer before it was complete${cause ? ` (${cause.message})` : ''}; whether the call took effect is unknown.`,
    cause === undefined ? {} : { cause },
  );
}

function isRequest(message: JSONRPCMessage | JSONRPCMessage[]): message is JSONRPCMessage & { id: RequestId; method: string } {
  return !Array.isArray(message) && 'method' in message && 'id' in message && message.id !== undefined;
}

/** The id of a response (a result or an error), else `undefined`. */
function responseIdOf(message: JSONRPCMessage): RequestId | undefined {
  const record = message as Record<string, unknown>;
  if ('method' in record || !('result' in record || 'error' in record)) return undefined;
  return typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
}

/** What the wire gate (`parse-jsonrpc-payload.ts`) said, as the rest of a sentence: `… answered with <this>`. */
function unusable(gateMessage: string): string {
  return `a message it cannot use: ${gateMessage}`;
}

function redirectTarget(location: string | undefined, from: URL): URL | undefined {
  if (location === undefined) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}
