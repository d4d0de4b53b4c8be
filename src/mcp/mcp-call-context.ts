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

const storage = new AsyncLocalStorage<McpCallContext>();

/** The MCP session of the tool call now running, or `undefined` outside an MCP `tools/call`. */
export function currentMcpCall(): McpCallContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `context` as the current MCP call (the server does this around each tool call). */
export function runWithMcpCall<T>(context: McpCallContext, fn: () => T): T {
  return storage.run(context, fn);
}
