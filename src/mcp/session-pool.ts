/**
 * The sessions and open streams of one Streamable HTTP endpoint, and the caps that keep a flood of them from locking new
 * clients out: shared by `serveHttp` (Node's http) and `createMcpHandler` (web-standard Request in, Response out), which
 * differ only in how a response is watched and cut.
 * @module
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { unrefTimer } from '../shared/node-builtin.js';
import type { StrictParamsServer } from './strict-params-server.js';

/** What the pool needs of a session's transport: the SDK's Node and web-standard Streamable HTTP transports both have it. */
export interface SessionTransport {
  closeStandaloneSSEStream(): void;
  closeSSEStream(requestId: RequestId): void;
}

export interface PooledSession<T extends SessionTransport = SessionTransport> {
  server: StrictParamsServer;
  transport: T;
  /** When the session last received a request or finished answering one. */
  lastActive: number;
  /** Responses of this session still open: SSE streams, and requests being answered. */
  streams: Set<OpenStream>;
  /** With `auth`: whose token started the session; a request with another identity's token does not find it. */
  owner?: string;
}

export interface OpenStream {
  session: PooledSession;
  /** GET: the session's notification stream, which only waits; POST: requests being answered. */
  kind: 'get' | 'post';
  openedAt: number;
  /** The JSON-RPC requests this POST carries (cancelled when the stream is evicted). */
  requestIds: readonly RequestId[];
  /** Set once the response has ended, however it ended. */
  ended: boolean;
  /** Ends the response at once: an evicted stream that the transport has not ended within the grace period is cut. */
  cut: () => void;
  cutTimer?: ReturnType<typeof setTimeout>;
}

/** The caps of one endpoint, as `serveHttp` and `createMcpHandler` take them. */
export interface SessionPoolLimits {
  maxSessions: number;
  maxStreams: number;
  maxStreamsPerSession: number;
  sessionIdleMs: number;
}

/** The limits of one endpoint, from the options of `serveHttp` or `createMcpHandler` (`caller` names it in errors). */
export interface EndpointLimits extends SessionPoolLimits {
  maxBodyBytes: number;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_MAX_STREAMS = 500;
const DEFAULT_MAX_STREAMS_PER_SESSION = 32;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** An evicted stream that has not ended by then (its response was never handed out) is cut. */
const EVICTED_STREAM_GRACE_MS = 1000;

/** Reads and checks the caps an endpoint was given, defaults for the rest. */
export function endpointLimits(options: Partial<EndpointLimits>, caller: string): EndpointLimits {
  return {
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes', caller),
    maxSessions: positive(options.maxSessions, DEFAULT_MAX_SESSIONS, 'maxSessions', caller),
    maxStreams: positive(options.maxStreams, DEFAULT_MAX_STREAMS, 'maxStreams', caller),
    maxStreamsPerSession: positive(options.maxStreamsPerSession, DEFAULT_MAX_STREAMS_PER_SESSION, 'maxStreamsPerSession', caller),
    sessionIdleMs: positive(options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS, 'sessionIdleMs', caller),
  };
}

export class SessionPool<T extends SessionTransport> {
  readonly sessions = new Map<string, PooledSession<T>>();
  readonly streams = new Set<OpenStream>();

  constructor(private readonly limits: SessionPoolLimits) {}

  /** How often idle sessions should be swept: half the idle time, between 1 s and a minute. */
  get sweepIntervalMs(): number {
    return Math.min(60_000, Math.max(1000, Math.floor(this.limits.sessionIdleMs / 2)));
  }

  /** Closes every session idle longer than `sessionIdleMs` with no open stream (clients often never send DELETE). */
  sweepIdle(now = Date.now()): void {
    for (const [id, session] of this.sessions) if (session.streams.size === 0 && now - session.lastActive > this.limits.sessionIdleMs) this.closeSession(id);
  }

  /** The session `id` names, when the request speaks for the identity that started it (`owner`; both `undefined` without auth). */
  find(id: string, owner: string | undefined): PooledSession<T> | undefined {
    const session = this.sessions.get(id);
    return session !== undefined && session.owner === owner ? session : undefined;
  }

  closeSession(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    for (const stream of session.streams) this.#forget(stream);
    // Closing the server closes its transport, which ends every open stream of the session and aborts its requests.
    session.server.close().catch(() => {});
  }

  /** A new client is never refused for want of room: when the pool is full, the session that matters least makes way. */
  makeRoomForSession(): void {
    if (this.sessions.size < this.limits.maxSessions) return;
    let victim: [string, PooledSession<T>] | undefined;
    let victimRank = Infinity;
    for (const entry of this.sessions) {
      const rank = sessionRank(entry[1]);
      if (rank < victimRank || (rank === victimRank && entry[1].lastActive < victim![1].lastActive)) {
        victim = entry;
        victimRank = rank;
      }
    }
    if (victim) this.closeSession(victim[0]);
  }

  /**
   * Counts a response as an open stream of `session` until {@link ended} is called for it, first evicting the idlest
   * stream when a cap is reached. `cut` ends the response at once.
   */
  track(session: PooledSession<T>, kind: OpenStream['kind'], cut: () => void, requestIds: readonly RequestId[] = []): OpenStream {
    const now = Date.now();
    session.lastActive = now;
    if (session.streams.size >= this.limits.maxStreamsPerSession) this.#evictStream(session.streams);
    if (this.streams.size >= this.limits.maxStreams) this.#evictStream(this.streams);
    const stream: OpenStream = { session, kind, openedAt: now, requestIds, ended: false, cut };
    this.streams.add(stream);
    session.streams.add(stream);
    return stream;
  }

  /** The response of `stream` has ended (finished, cut, or its client went away). */
  ended(stream: OpenStream): void {
    if (stream.ended) return;
    stream.ended = true;
    if (stream.cutTimer !== undefined) clearTimeout(stream.cutTimer);
    this.#forget(stream);
    stream.session.lastActive = Date.now();
  }

  /** Closes every session, waiting for each server to close. */
  async closeAll(): Promise<void> {
    await Promise.all(
      [...this.sessions.keys()].map(async (id) => {
        const session = this.sessions.get(id);
        this.sessions.delete(id);
        await session?.server.close().catch(() => {});
      }),
    );
  }

  #forget(stream: OpenStream): void {
    this.streams.delete(stream);
    stream.session.streams.delete(stream);
  }

  /** Closes the idlest of `candidates`: a GET stream before a POST, then the least recently active session's, then the oldest. */
  #evictStream(candidates: Iterable<OpenStream>): void {
    let victim: OpenStream | undefined;
    for (const stream of candidates) if (!victim || idler(stream, victim)) victim = stream;
    if (!victim) return;
    this.#forget(victim);
    const { transport, server } = victim.session;
    if (victim.kind === 'get') transport.closeStandaloneSSEStream();
    for (const requestId of victim.requestIds) {
      // As if the client had cancelled: the handler's signal aborts and no response is sent, so nothing waits on a stream that is gone.
      server.cancelRequest(requestId, 'The server closed this stream to make room for others.');
      transport.closeSSEStream(requestId);
    }
    if (victim.ended) return;
    // The transport ends the response through its stream; one it never handed out is cut instead.
    const stream = victim;
    stream.cutTimer = setTimeout(() => {
      if (!stream.ended) stream.cut();
    }, EVICTED_STREAM_GRACE_MS);
    unrefTimer(stream.cutTimer);
  }
}

/** The ids of the JSON-RPC requests among `messages` (not notifications or responses). */
export function requestIdsOf(messages: readonly JSONRPCMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of messages) if ('method' in message && 'id' in message) ids.push(message.id);
  return ids;
}

/** Whether a `Content-Type` value names JSON (parameters such as `charset` allowed). */
export function isJsonContentType(value: string | null | undefined): boolean {
  if (value === undefined || value === null) return false;
  return value.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

function idler(a: OpenStream, b: OpenStream): boolean {
  if (a.kind !== b.kind) return a.kind === 'get';
  if (a.session.lastActive !== b.session.lastActive) return a.session.lastActive < b.session.lastActive;
  return a.openedAt < b.openedAt;
}

/** 0: no open streams; 1: only GET streams; 2: a request being answered. */
function sessionRank(session: PooledSession): number {
  if (session.streams.size === 0) return 0;
  for (const stream of session.streams) if (stream.kind === 'post') return 2;
  return 1;
}

function positive(value: number | undefined, fallback: number, name: string, caller: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`${caller}: \`${name}\` must be a positive number (got ${String(value)}).`);
  return value;
}
