/**
 * The MCP server's per-session guards: one `createToolGuards` per session (the policy session, the caller's guard, the
 * tool's `confirm` rule with `preapproved`, the call budget and the loop breaker, as any other loop gets them), each
 * call checked and run with its own context (docs/mcp.md, "Policy, guard and call limits per session").
 * @module
 */
import { resolveLimits } from '../agent/agent-limits.js';
import type { ToolCallGuard } from '../agent/calls/call-policy.js';
import type { RunEvent } from '../agent/run-event.js';
import { createToolGuards, type ToolGuardLimits, type ToolGuards } from '../agent/tool-guards.js';
import type { Policy } from '../policy/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import type { ToolRegistry } from '../tools/index.js';

/** The limits of one session's tool calls (`McpServerOptions.limits`). */
export type McpCallLimits = Pick<ToolGuardLimits, 'maxToolCalls' | 'maxRepeatedFailures' | 'maxIdenticalCalls' | 'toolTimeoutMs'>;

export interface SessionGuardsOptions {
  policy: Policy | undefined;
  guardToolCall: ToolCallGuard | undefined;
  limits: McpCallLimits | undefined;
  /** Tools whose own `confirm` rule the server does not apply (`serve --approve`). */
  preapproved: readonly string[] | undefined;
  /** The session's run id (its record's name). */
  runId: string;
  /** Told the events of each call (`recordDir`); absent when the session keeps no record. */
  onEvent: ((event: RunEvent) => void) | undefined;
}

const MCP_LIMIT_KEYS: readonly string[] = ['maxToolCalls', 'maxRepeatedFailures', 'maxIdenticalCalls', 'toolTimeoutMs'];

/** Checks `limits` at creation (not on a session's first call); `undefined` when none are given. */
export function checkedCallLimits(limits: McpCallLimits | undefined): McpCallLimits | undefined {
  if (limits === undefined) return undefined;
  if (typeof limits !== 'object' || limits === null) {
    throw new InvalidArgumentError(`createMcpServer: \`limits\` must be an object with any of ${MCP_LIMIT_KEYS.join(', ')} (got ${String(limits)}).`);
  }
  const unknown = Object.keys(limits).filter((key) => !MCP_LIMIT_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`createMcpServer: \`limits\` takes ${MCP_LIMIT_KEYS.join(', ')}; remove ${unknown.join(', ')}.`);
  }
  resolveLimits(limits);
  return limits;
}

/**
 * The limits a session enforces, as its guards and its record take them: the loop breaker is off (`false`) unless a limit
 * of it is given, because a session may last days, and runAgent's defaults would end its routine repeats.
 */
export function sessionLimits(limits: McpCallLimits | undefined): McpCallLimits {
  return { ...limits, maxRepeatedFailures: limits?.maxRepeatedFailures ?? false, maxIdenticalCalls: limits?.maxIdenticalCalls ?? false };
}

/** One session's guards: the same per-call checks as `createToolGuards` gives any loop, with the budget texts saying "session". */
export function createSessionGuards(registry: ToolRegistry, options: SessionGuardsOptions): ToolGuards {
  const { policy, guardToolCall, limits, preapproved, runId, onEvent } = options;
  return createToolGuards({
    tools: registry,
    ...(policy ? { policy } : {}),
    ...(guardToolCall ? { guardToolCall } : {}),
    limits: sessionLimits(limits),
    ...(preapproved ? { preapproved } : {}),
    scope: 'session',
    runId,
    ...(onEvent ? { onEvent } : {}),
  });
}
