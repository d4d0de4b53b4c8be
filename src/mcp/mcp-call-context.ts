/**
 * What a tool can reach of the MCP session that called it: log notifications,
 * sampling and elicitation. `ToolContext` stays protocol-neutral; a tool that
 * wants MCP-only features asks for {@link currentMcpCall} and gets `undefined`
 * when it runs anywhere else (an agent loop, a test).
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  ClientCapabilities,
  CreateMessageRequestParamsBase,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../tools/index.js';

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
}

/**
 * Calls find their MCP session in two ways. With the tool's own context (`currentMcpCall(context)`): a lookup by the
 * context's `reportProgress` function, which the server makes fresh for each call; exact and free. Without it:
 * AsyncLocalStorage, which on Node 20 puts a hook on every promise in the process (and the SDK's HTTP transport
 * makes many per call), so it is switched on only once something asks that way.
 */
const byProgressFunction = new WeakMap<object, McpCallContext>();
const storage = new AsyncLocalStorage<McpCallContext>();
/** Calls running without AsyncLocalStorage (all of them until the switch). */
const untracked = new Set<McpCallContext>();
let ambient = false;

/**
 * The MCP session of the tool call now running, or `undefined` outside an MCP `tools/call`.
 *
 * Pass the tool's `context` (the second argument of `execute`): that always works, at any point of the call. Without
 * it, the server must track calls with AsyncLocalStorage, which costs every call some speed; it starts doing so the
 * first time this function is called without a context. From then on every new call has it. A call that started
 * before that switch gets its session only while it is the only such call still running.
 */
export function currentMcpCall(context?: Pick<ToolContext, 'reportProgress'>): McpCallContext | undefined {
  if (context !== undefined) return byProgressFunction.get(context.reportProgress);
  ambient = true;
  return storage.getStore() ?? loneUntrackedCall();
}

function loneUntrackedCall(): McpCallContext | undefined {
  if (untracked.size !== 1) return undefined;
  for (const call of untracked) return call;
  return undefined;
}

/**
 * Runs `fn` with `context` as the current MCP call (the server does this around each tool call). `reportProgress` is
 * the function the tool will get as `context.reportProgress`; it must be made for this call alone.
 */
export async function runWithMcpCall<T>(context: McpCallContext, reportProgress: object, fn: () => Promise<T>): Promise<T> {
  byProgressFunction.set(reportProgress, context);
  if (ambient) return storage.run(context, fn);
  untracked.add(context);
  try {
    return await fn();
  } finally {
    untracked.delete(context);
  }
}
