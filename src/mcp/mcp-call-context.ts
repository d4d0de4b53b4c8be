/**
 * What a tool can reach of the MCP session that called it: log notifications,
 * sampling and elicitation. `ToolContext` stays protocol-neutral; a tool that
 * wants MCP-only features asks for {@link currentMcpCall} and gets `undefined`
 * when it runs anywhere else (an agent loop, a test).
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@opentelemetry/api';
import type {
  ClientCapabilities,
  CreateMessageRequestParamsBase,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import { nodeBuiltin } from '../shared/node-builtin.js';
import type { ToolContext } from '../tools/index.js';
import type { McpAuthIdentity } from './auth/mcp-auth-options.js';

/** The MCP session around one `tools/call`; every message it sends travels with that call (on its SSE stream over HTTP). */
export interface McpCallContext {
  /** What the client declared at `initialize`; check it before sampling or eliciting. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The `tools/call` request's abort signal (cancellation or shutdown). */
  readonly signal: AbortSignal;
  /** Sends a `notifications/message` if the client's `logging/setLevel` threshold lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model for a completion (`sampling/createMessage`). Rejects if the client did not declare sampling. */
  sample(params: CreateMessageRequestParamsBase): Promise<CreateMessageResult>;
  /** Asks the person for structured input (`elicitation/create`, form mode). Rejects if the client did not declare elicitation. */
  elicit(params: Omit<ElicitRequestFormParams, 'mode'>): Promise<ElicitResult>;
  /** Who the request's access token speaks for, when the server's `auth` option checked one (docs/mcp.md, "OAuth"); never the token. */
  readonly auth?: McpAuthIdentity;
}

/** What the server registers for each call; `context` is built the first time a tool asks for it, which most never do. */
export interface McpCallHandle {
  readonly context: McpCallContext;
  /** The OpenTelemetry context of the call's server span, when it records (the parent of what the tool's work traces). */
  readonly traceContext?: Context | undefined;
}

/**
 * Calls find their MCP session in two ways. With the tool's own context (`currentMcpCall(context)`): a lookup by the
 * context's `reportProgress` function, which the server makes fresh for each call, in a map of the calls now running;
 * exact and cheap. (A WeakMap from function to call cost about 10 µs of CPU per call, a fifth of the MCP layer's
 * cost, and a symbol property set on each function nearly as much: every WeakMap entry is an ephemeron that each
 * garbage collection must trace.)
 * Without it: AsyncLocalStorage, which on Node 20 puts a hook on every promise in the process (and the SDK's HTTP
 * transport makes many per call), so it is switched on only once something asks that way. It comes from `node:async_hooks`
 * or the runtime's global (Vercel's edge runtime); where there is neither, only a lone running call is found that way.
 */
const running = new Map<unknown, McpCallHandle>();
let storage: AsyncLocalStorage<McpCallHandle> | undefined;
/** Calls running without AsyncLocalStorage (all of them until the switch). */
const untracked = new Set<McpCallHandle>();
let ambient = false;

/**
 * The MCP session of the tool call now running, or `undefined` outside an MCP `tools/call` (and once the call has
 * returned its result).
 *
 * Pass the tool's `context` (the second argument of `execute`): that always works, at any point of the call. Without
 * it, the server must track calls with AsyncLocalStorage, which costs every call some speed; it starts doing so the
 * first time this function is called without a context. From then on every new call has it. A call that started
 * before that switch gets its session only while it is the only such call still running.
 */
export function currentMcpCall(context?: Pick<ToolContext, 'reportProgress'>): McpCallContext | undefined {
  if (context !== undefined) return running.get(context.reportProgress)?.context;
  if (!ambient) storage = callStorage();
  ambient = true;
  return (storage?.getStore() ?? loneUntrackedCall())?.context;
}

/**
 * The trace context of the server span around the MCP call running `context`'s tool, when that span records: an imported
 * tool's client span nests under it even where no OpenTelemetry context manager carries the active span across awaits.
 */
export function mcpCallTraceContext(context: Pick<ToolContext, 'reportProgress'>): Context | undefined {
  return running.get(context.reportProgress)?.traceContext;
}

function callStorage(): AsyncLocalStorage<McpCallHandle> | undefined {
  const Storage = nodeBuiltin('node:async_hooks')?.AsyncLocalStorage ?? (globalThis as { AsyncLocalStorage?: typeof AsyncLocalStorage }).AsyncLocalStorage;
  return Storage === undefined ? undefined : new Storage<McpCallHandle>();
}

function loneUntrackedCall(): McpCallHandle | undefined {
  if (untracked.size !== 1) return undefined;
  for (const call of untracked) return call;
  return undefined;
}

/**
 * Runs `fn` with `call` as the current MCP call (the server does this around each tool call). `reportProgress` is
 * the function the tool will get as `context.reportProgress`; it must be made for this call alone.
 */
export async function runWithMcpCall<T>(call: McpCallHandle, reportProgress: (...args: never[]) => void, fn: () => Promise<T>): Promise<T> {
  running.set(reportProgress, call);
  try {
    if (storage) return await storage.run(call, fn);
    untracked.add(call);
    try {
      return await fn();
    } finally {
      untracked.delete(call);
    }
  } finally {
    running.delete(reportProgress);
  }
}
