/**
 * OpenTelemetry spans for MCP `tools/call`, after the semantic conventions for MCP: a SERVER span where
 * `createMcpServer` answers a call, a CLIENT span where an imported tool forwards one, both named
 * `tools/call {tool}`, and the trace context carried in the request's `params._meta` (`traceparent`,
 * `tracestate`; SEP-414), so that a server continues the trace its client started. Only `@opentelemetry/api` is
 * used: without a registered SDK every span is a no-op and no `_meta` is added. Attributes are built only for
 * spans that record and hold names, ids and codes, never arguments or results; a JSON-RPC error's message in a
 * span's status is redacted.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 * @module
 */
import {
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context as otelContext,
  createTraceState,
  isSpanContextValid,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { TRACER_NAME } from '../agent/agent-telemetry.js';
import { createRedactor, type Redactor } from '../agent/redact.js';
import { isPlainObject } from '../shared/own.js';

/** How the MCP messages travel, as `network.transport` names it: `pipe` for stdio, `tcp` for Streamable HTTP. */
export type McpNetworkTransport = 'pipe' | 'tcp';

/** What a call span knows of its session; every field is left out of the span when unknown. */
export interface McpCallSpanInfo {
  /** The tool's name as the request names it. */
  toolName: string;
  /** Whether `toolName` names a tool the server has: only then is it the span name's target (a client may send any name). */
  knownTool: boolean;
  requestId?: string | number | undefined;
  sessionId?: string | undefined;
  protocolVersion?: string | undefined;
  transport?: McpNetworkTransport | undefined;
}

/** One call's span; `end` once, with the result the peer got or the error that answered it. */
export interface McpCallSpan {
  /** The context to run the call under (the span set on it), or `undefined` when the span does not record. */
  readonly context: Context | undefined;
  end(outcome: { result?: { isError?: unknown } | undefined; error?: unknown }): void;
}

/** The W3C Trace Context keys, the ones the built-in propagation reads and writes when no propagator is registered. */
const TRACEPARENT = 'traceparent';
const TRACESTATE = 'tracestate';
const TRACEPARENT_SYNTAX = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** W3C asks a receiver to keep at least 512 characters of `tracestate`; anything longer from a client is dropped, not parsed. */
const MAX_TRACESTATE_LENGTH = 512;
/** A tool name sent for a tool the server does not have is the client's text: it is cut to this length. */
const MAX_UNKNOWN_NAME_LENGTH = 80;

const metaGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  // `_meta` comes from the peer: only string values are read.
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * The trace context `meta` (a request's `params._meta`) carries, over `base`: through the registered OpenTelemetry
 * propagator when there is one, else read as W3C `traceparent`/`tracestate`. `undefined` when it carries no valid one.
 */
export function extractTraceContext(meta: unknown, base: Context = otelContext.active()): Context | undefined {
  if (!isPlainObject(meta)) return undefined;
  let extracted: Context;
  if (propagation.fields().length > 0) extracted = propagation.extract(base, meta, metaGetter);
  else {
    const parsed = parseTraceparent(metaGetter.get(meta, TRACEPARENT));
    if (parsed === undefined) return undefined;
    const state = metaGetter.get(meta, TRACESTATE);
    const traceState = state !== undefined && state.length <= MAX_TRACESTATE_LENGTH ? createTraceState(state) : undefined;
    extracted = trace.setSpanContext(base, { ...parsed, isRemote: true, ...(traceState ? { traceState } : {}) });
  }
  const spanContext = trace.getSpanContext(extracted);
  return spanContext && spanContext.isRemote === true && isSpanContextValid(spanContext) ? extracted : undefined;
}

/** `ctx`'s trace context as `_meta` entries (the registered propagator's, else W3C `traceparent`/`tracestate`), or `undefined` when it has none. */
export function injectTraceContext(ctx: Context): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  if (propagation.fields().length > 0) propagation.inject(ctx, carrier);
  else {
    const spanContext = trace.getSpanContext(ctx);
    if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
    const sampled = (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00';
    carrier[TRACEPARENT] = `00-${spanContext.traceId}-${spanContext.spanId}-${sampled}`;
    const state = spanContext.traceState?.serialize();
    if (state) carrier[TRACESTATE] = state;
  }
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

function parseTraceparent(value: string | undefined): { traceId: string; spanId: string; traceFlags: number } | undefined {
  if (value === undefined) return undefined;
  const match = TRACEPARENT_SYNTAX.exec(value);
  // Version ff is invalid; version 00 has exactly four fields (a later version may add some, which are ignored).
  if (!match || match[1] === 'ff' || (match[1] === '00' && match[5] !== undefined)) return undefined;
  return { traceId: match[2]!, spanId: match[3]!, traceFlags: Number.parseInt(match[4]!, 16) & TraceFlags.SAMPLED };
}

/**
 * Starts the SERVER span of one `tools/call`: its parent is the trace context the request's `_meta` carries, the
 * ambient span (an HTTP server span, say) linked; without one, its parent is the ambient context.
 */
export function startServerCallSpan(tracer: Tracer | undefined, info: McpCallSpanInfo, meta: unknown, redactor: () => Redactor): McpCallSpan {
  const ambient = otelContext.active();
  const remote = extractTraceContext(meta, ambient);
  const ambientSpan = remote === undefined ? undefined : trace.getSpan(ambient);
  const links: Link[] = ambientSpan && isSpanContextValid(ambientSpan.spanContext()) ? [{ context: ambientSpan.spanContext() }] : [];
  return startCallSpan(tracer, SpanKind.SERVER, info, remote ?? ambient, links, redactor).handle;
}

/** Starts the CLIENT span of one forwarded `tools/call` under `parent`; `meta` is its context for the request's `_meta`. */
export function startClientCallSpan(
  tracer: Tracer | undefined,
  info: McpCallSpanInfo,
  parent: Context,
  redactor: () => Redactor,
): McpCallSpan & { meta: Record<string, string> | undefined } {
  const { span, handle } = startCallSpan(tracer, SpanKind.CLIENT, info, parent, [], redactor);
  // Injected even when the span does not record: a sampled-out or no-op span still carries the trace onward.
  return Object.assign(handle, { meta: injectTraceContext(trace.setSpan(parent, span)) });
}

function startCallSpan(
  tracer: Tracer | undefined,
  kind: SpanKind,
  info: McpCallSpanInfo,
  parent: Context,
  links: Link[],
  redactor: () => Redactor,
): { span: Span; handle: McpCallSpan } {
  const target = info.knownTool ? info.toolName : undefined;
  const span = (tracer ?? trace.getTracer(TRACER_NAME)).startSpan(
    target === undefined ? 'tools/call' : `tools/call ${target}`,
    { kind, ...(links.length > 0 ? { links } : {}) },
    parent,
  );
  const recording = span.isRecording();
  if (recording) span.setAttributes(callAttributes(info, redactor));
  const handle: McpCallSpan = {
    context: recording ? trace.setSpan(parent, span) : undefined,
    end({ result, error }) {
      if (recording) {
        if (error !== undefined) failWithError(span, kind, error, redactor);
        else if (result?.isError === true) {
          span.setAttribute('error.type', 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool result has isError: true' });
        }
      }
      span.end();
    },
  };
  return { span, handle };
}

function callAttributes(info: McpCallSpanInfo, redactor: () => Redactor): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    // A name no tool has is whatever the client sent (a pasted key, say): cut, and redacted as the status message is.
    'gen_ai.tool.name': info.knownTool ? info.toolName : redactor().text(info.toolName.slice(0, MAX_UNKNOWN_NAME_LENGTH)),
  };
  if (info.requestId !== undefined) attributes['jsonrpc.request.id'] = String(info.requestId);
  if (info.sessionId !== undefined) attributes['mcp.session.id'] = info.sessionId;
  if (info.protocolVersion !== undefined) attributes['mcp.protocol.version'] = info.protocolVersion;
  if (info.transport !== undefined) attributes['network.transport'] = info.transport;
  return attributes;
}

/**
 * A JSON-RPC error's code is the error type, its message (redacted) the status. A server answers any other throw
 * -32603, so that is its code there; a client's failure without a code (the SDK's "Not connected") is `_OTHER`.
 */
function failWithError(span: Span, kind: SpanKind, error: unknown, redactor: () => Redactor): void {
  const code = (error as { code?: unknown } | null)?.code;
  const jsonRpcCode = typeof code === 'number' && Number.isSafeInteger(code) ? code : kind === SpanKind.SERVER ? ErrorCode.InternalError : undefined;
  if (jsonRpcCode === undefined) span.setAttribute('error.type', '_OTHER');
  else span.setAttributes({ 'error.type': String(jsonRpcCode), 'rpc.response.status_code': String(jsonRpcCode) });
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: redactor().text(message) });
}

let sharedRedactor: Redactor | undefined;
/** The default redactor (known secret shapes), for a client span, which has no tool schemas to read. */
export function defaultSpanRedactor(): Redactor {
  return (sharedRedactor ??= createRedactor());
}
