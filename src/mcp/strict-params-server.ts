/**
 * The SDK's low-level `Server`, with one correction: a request whose params do
 * not fit the method's schema is answered -32602 (Invalid params) with one
 * readable sentence. The SDK parses params before the handler runs and lets
 * the Zod error fall to its catch-all, which reports a client mistake as an
 * internal error (-32603) with the raw Zod issue dump; for `tools/call` it
 * answers -32602, but with an "MCP error" prefix and the same dump.
 * It also cancels request id 0, which the SDK's `notifications/cancelled`
 * handler skips (it tests the id for truthiness).
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CancelledNotificationSchema, ErrorCode, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
// The namespace import lets a bundler keep only what is used (the named `z` export brings all of zod: 443 KiB minified).
import * as z from 'zod';
import { ProtocolError } from './protocol-error.js';

const MESSAGE_MAX_ISSUES = 3;
const CALL_TOOL_EXAMPLE = 'Send {"name": "<tool>", "arguments": {…}}.';

type Handler<T extends AnyObjectSchema> = Parameters<Server['setRequestHandler']>[1] extends (request: never, ...rest: infer Rest) => infer Result
  ? (request: SchemaOutput<T>, ...rest: Rest) => Result
  : never;
type AnyHandler = (request: unknown, extra: unknown) => unknown;

export class StrictParamsServer extends Server {
  readonly #closeListeners: (() => void)[] = [];
  #sessionAuthInfo: AuthInfo | undefined;
  #protocolVersion: string | undefined;

  constructor(...args: ConstructorParameters<typeof Server>) {
    super(...args);
    this.setNotificationHandler(CancelledNotificationSchema, (notification) => {
      if (notification.params.requestId !== undefined) this.cancelRequest(notification.params.requestId, notification.params.reason);
    });
  }

  /**
   * Runs `listener` when the session's transport closes, whoever closed it. Unlike `onclose`, which the transports
   * set for themselves, listeners added here are kept.
   */
  onSessionClosed(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  /**
   * What the authenticating HTTP layer attached to the session's first request that carried any (`extra.authInfo`): the
   * session pools of `serveHttp` and `createMcpHandler` bind a session to one identity, so it is the session's.
   */
  get sessionAuthInfo(): AuthInfo | undefined {
    return this.#sessionAuthInfo;
  }

  /** The protocol version this session agreed at `initialize` (for spans' `mcp.protocol.version`), once it has. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const received = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.#sessionAuthInfo ??= extra?.authInfo;
      if ('method' in message && message.method === 'initialize') {
        // As the SDK's Server answers it: the client's version when supported, else the latest.
        const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        this.#protocolVersion = typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
      }
      received?.(message, extra);
    };
    // After the SDK's own close handler, which `super.connect` installed on the transport.
    const closed = transport.onclose;
    transport.onclose = () => {
      closed?.();
      for (const listener of this.#closeListeners) listener();
    };
  }

  /**
   * Aborts the handler of request `requestId` as `notifications/cancelled` would: its signal fires and no response is
   * sent. Used when the HTTP transport evicts the stream a request was to be answered on.
   */
  cancelRequest(requestId: RequestId, reason?: string): void {
    // The SDK keeps these controllers private and offers no other way in; pinned SDK version, covered by test/hardening/mcp-streams.test.ts.
    const controllers = (this as unknown as { _requestHandlerAbortControllers?: Map<RequestId, AbortController> })._requestHandlerAbortControllers;
    controllers?.get(requestId)?.abort(reason);
  }

  /** A task-augmented request this server runs no task for is MCP's -32601 (Method not found), not the SDK's plain error (-32603). */
  protected override assertTaskHandlerCapability(method: string): void {
    try {
      super.assertTaskHandlerCapability(method);
    } catch {
      throw new ProtocolError(ErrorCode.MethodNotFound, `This server runs no ${method} request as a task: send it again without "task".`);
    }
  }

  override setRequestHandler<T extends AnyObjectSchema>(requestSchema: T, handler: Handler<T>): void {
    const schema = requestSchema as unknown as z.ZodType;
    const method = methodOf(requestSchema);
    // Only the method literal is checked up front; everything else is checked below, where a failure can become -32602.
    const lenient = z.looseObject({ method: z.literal(method) });
    const run = handler as AnyHandler;
    if (method === 'tools/call') {
      // Registered on Protocol directly: Server wraps tools/call in a second Zod pass over the request and the result,
      // whose failures go out as "MCP error -32602: … [Zod dump]". The request is checked here instead (a hand-written
      // check for the usual shape, so every call does not pay for a Zod parse), and the result by toWireResult.
      const registerOnProtocol = Protocol.prototype.setRequestHandler as (
        this: unknown,
        schema: AnyObjectSchema,
        handler: (request: { params?: unknown }, extra: unknown) => unknown,
      ) => void;
      registerOnProtocol.call(this, lenient as unknown as AnyObjectSchema, (request, extra) => {
        if (needsFullParse(request.params)) {
          const parsed = schema.safeParse(request);
          if (!parsed.success) throw new ProtocolError(ErrorCode.InvalidParams, describeIssues(method, request, parsed.error.issues, CALL_TOOL_EXAMPLE));
          return run(parsed.data, extra);
        }
        const problem = callToolParamsProblem(request.params);
        if (problem !== undefined) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params for tools/call: ${problem}. ${CALL_TOOL_EXAMPLE}`);
        return run(request, extra);
      });
      return;
    }
    super.setRequestHandler(lenient, (request, extra) => {
      const parsed = schema.safeParse(request);
      if (!parsed.success)
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          describeIssues(method, request, parsed.error.issues, `Check the request against the MCP schema for ${method}.`),
        );
      return run(parsed.data, extra) as ReturnType<Handler<T>>;
    });
  }
}

const CALL_TOOL_KEYS = new Set(['name', 'arguments', '_meta']);
/** `_meta` members the hand-written check lets through: the progress token, and the trace context (SEP-414), read only as strings where used. */
const FAST_META_KEYS = new Set(['progressToken', 'traceparent', 'tracestate', 'baggage']);

/** Whether `params` uses members the hand-written check does not cover (`task`, related-task metadata…); those go through the SDK's schema. */
function needsFullParse(params: unknown): boolean {
  if (!isPlainObject(params)) return false;
  for (const key in params) if (!CALL_TOOL_KEYS.has(key)) return true;
  const meta = params._meta;
  if (isPlainObject(meta)) for (const key in meta) if (!FAST_META_KEYS.has(key)) return true;
  return false;
}

/** What is wrong with `tools/call` params of the usual shape (`name`, `arguments`, `_meta.progressToken`), or `undefined` when nothing is. */
function callToolParamsProblem(params: unknown): string | undefined {
  if (params === undefined) return '"name" is missing';
  if (!isPlainObject(params)) return `params must be an object; got ${describeValue(params)}`;
  if (params.name === undefined) return '"name" is missing';
  if (typeof params.name !== 'string') return `"name" must be a string; got ${describeValue(params.name)}`;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return `"arguments" must be an object; got ${describeValue(params.arguments)}`;
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isPlainObject(meta)) return `"_meta" must be an object; got ${describeValue(meta)}`;
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !(typeof token === 'number' && Number.isSafeInteger(token))) {
    return `"_meta.progressToken" must be a string or an integer; got ${describeValue(token)}`;
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "a string", "an array", "null", "the number 1.5": what the client sent, in words. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a number' : `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}

function methodOf(schema: AnyObjectSchema): string {
  const shape = (schema as unknown as { shape?: Record<string, { value?: unknown }> }).shape;
  const value = shape?.method?.value;
  if (typeof value !== 'string') throw new TypeError('request schema has no method literal');
  return value;
}

const EXPECTED_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** One sentence per issue (at most three), naming each member by its path inside `params`: no Zod dump. */
function describeIssues(method: string, request: unknown, issues: readonly z.core.$ZodIssue[], advice: string): string {
  const shown = issues.slice(0, MESSAGE_MAX_ISSUES).map((issue) => describeIssue(request, issue));
  const more = issues.length > MESSAGE_MAX_ISSUES ? ` (and ${issues.length - MESSAGE_MAX_ISSUES} more)` : '';
  return `Invalid params for ${method}: ${shown.join('; ')}${more}. ${advice}`;
}

function describeIssue(request: unknown, issue: z.core.$ZodIssue): string {
  const path = issue.path[0] === 'params' ? issue.path.slice(1) : issue.path;
  const name = path.length > 0 ? `"${path.map(String).join('.')}"` : 'params';
  if (issue.code === 'invalid_type') {
    const value = valueAt(request, issue.path);
    if (value === undefined) return `${name} is missing`;
    const expected = EXPECTED_WORDS[issue.expected] ?? issue.expected;
    return `${name} must be ${expected}; got ${describeValue(value)}`;
  }
  if (issue.code === 'invalid_value') return `${name} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  // Zod's own text for the rest ("Invalid input", "Too small: expected string to have >=1 characters"), on one line.
  return `${name}: ${issue.message.replace(/\s+/g, ' ')}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
