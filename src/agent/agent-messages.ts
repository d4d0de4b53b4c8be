/**
 * What the model reads when a call did not run as asked. Like the registry's
 * messages, each says what happened and what to do next.
 * @module
 */

export function declinedMessage(toolName: string, reason: string | undefined): string {
  return `The user declined this call to ${toolName}${reason ? ` (${reason.trim().replace(/\.$/, '')})` : ''}, so it did not run. Do not call it again with the same arguments; carry on without it, or ask the user what to do instead.`;
}

export function expiredMessage(toolName: string): string {
  return `Nobody confirmed this call to ${toolName} before its confirmation expired, so it did not run. Ask the user before trying it again.`;
}

/** What a budget belongs to, as the model is told: an agent run, or an MCP session (`createMcpServer({ limits })`). */
export type CallScopeName = 'run' | 'session';

export function toolBudgetMessage(toolName: string, limit: number, scope: CallScopeName = 'run'): string {
  return `This call to ${toolName} was not run: the ${scope}'s budget of ${limit} tool calls is used up.`;
}

export function outcomeUnknownMessage(toolName: string): string {
  return `The run was interrupted while this call to ${toolName} was running, so whether it took effect is unknown. Check its effect with a read-only tool before calling it again.`;
}

export function missingToolMessage(toolName: string): string {
  return `The tool ${toolName} is no longer available, so this approved call did not run. Carry on without it, or tell the user.`;
}

export function duplicateCallMessage(toolName: string, originalCallId: string): string {
  return `This call is identical to call ${originalCallId} in the same response (same tool ${toolName}, same arguments), so it was not run a second time; the result of ${originalCallId} is its result. If you really mean to repeat it, call it again in your next response.`;
}

export function turnLimitMessage(toolName: string, requested: number, limit: number): string {
  return `This response asked for ${requested} tool calls; at most ${limit} run per response, so this call was not run (${toolName}). If it is still needed, make it again in your next response, after reading the results of the others.`;
}

export function truncatedCallMessage(toolName: string): string {
  return `Your response was cut off at the output token limit while this call to ${toolName} was being written, so it was not run. Make the call again, with shorter arguments or fewer calls in one response.`;
}
