/**
 * A confirmation the server asked the client for through `elicitation/create` and did not get: the client declared
 * elicitation but has no handler for it (the official SDK's `Client` then answers -32601), nobody answered in time,
 * or the connection closed. That is the client's situation, not a server bug, so it is reported in words (the
 * tool error the model reads, one log line for the operator) and never as a stack trace.
 * @module
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../tools/index.js';

/** Why the client gave no answer, in words a person can act on; `code` is the JSON-RPC error code when the client sent one. */
export interface ElicitationFailure {
  reason: string;
  code?: number;
}

/** Reads the error `elicitInput` rejected with. The client's own error text is not quoted: it reaches the model. */
export function elicitationFailure(error: unknown, timeoutMs: number, signal: AbortSignal): ElicitationFailure {
  if (signal.aborted) return { reason: 'the call was cancelled while it waited for the answer' };
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'number') return { reason: 'the request could not be sent to the client' };
  switch (code) {
    case ErrorCode.MethodNotFound:
      return {
        reason: 'the client declared the "elicitation" capability but does not handle elicitation/create requests (it answered "Method not found")',
        code,
      };
    case ErrorCode.RequestTimeout:
      return { reason: `nobody answered within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`, code };
    case ErrorCode.ConnectionClosed:
      return { reason: 'the connection to the client closed before it answered', code };
    default:
      return { reason: `the client answered the request with JSON-RPC error ${code}`, code };
  }
}

/** The tool error when the client could not ask: the call did not run, why, and how to get it approved. */
export function elicitationFailedMessage(
  tool: AnyTool,
  summary: string,
  failure: ElicitationFailure,
  options: { preapprovable: boolean; hint?: ((toolName: string, preapprovable: boolean) => string) | undefined },
): string {
  // `--approve` lifts only the tool's own rule: for a call the server's policy or guard wants asked about, it would not help.
  const ways =
    options.hint?.(tool.name, options.preapprovable) ??
    (options.preapprovable
      ? `use an MCP client whose elicitation works, or restart the server with \`toolwright serve --approve ${tool.name}\` to let this tool run without asking.`
      : 'use an MCP client whose elicitation works.');
  return (
    `The call to "${tool.name}" did not run: it needs a person's approval, and asking for it failed: ${failure.reason}. ` +
    `Call that was refused: ${summary}. ` +
    `Do not call it again unless the person asks you to. Tell the person what you want to do. To approve it they can ${ways}`
  );
}

/** The one log line for the operator: no stack, since nothing in the server failed. */
export function elicitationFailedLogLine(tool: AnyTool, failure: ElicitationFailure): string {
  return `asking to confirm "${tool.name}" failed: ${failure.reason}; the call did not run`;
}
