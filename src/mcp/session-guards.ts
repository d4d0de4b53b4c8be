/**
 * The MCP server's per-session guards: one `createToolGuards` per session (the policy session, the caller's guard, the
 * call budget and the loop breaker, as any other loop gets them), fitted to a server that keeps its own confirmation,
 * `preapproved` and per-call `context` (docs/mcp.md, "Policy, guard and call limits per session").
 * @module
 */
import { resolveLimits } from '../agent/agent-limits.js';
import type { ToolCallGuard } from '../agent/calls/call-policy.js';
import type { RunEvent } from '../agent/run-event.js';
import { createToolGuards, type ToolGuardLimits, type ToolGuards } from '../agent/tool-guards.js';
import type { Policy, PolicySession } from '../policy/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import type { ToolRegistry } from '../tools/index.js';

/** The limits of one session's tool calls (`McpServerOptions.limits`). */
type McpCallLimits = Pick<ToolGuardLimits, 'maxToolCalls' | 'maxRepeatedFailures' | 'maxIdenticalCalls' | 'toolTimeoutMs'>;

export interface SessionGuardsOptions {
  policy: Policy | undefined;
  guardToolCall: ToolCallGuard | undefined;
  limits: McpCallLimits | undefined;
  /** The context the server made for a call, by call id; absent when the server has no `context` factory. */
  contextOf: ((callId: string) => unknown) | undefined;
  /** The session's run id (its record's name). */
  runId: string;
  /** Told the events of each call (`recordDir`); absent when the session keeps no record. */
  onEvent: ((event: RunEvent) => void) | undefined;
}

const MCP_LIMIT_KEYS: readonly string[] = ['maxToolCalls', 'maxRepeatedFailures', 'maxIdenticalCalls', 'toolTimeoutMs'];
/** A loop-breaker limit no session reaches: the guards take no "off". */
const NEVER = Number.MAX_SAFE_INTEGER;

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
 * One session's guards (the same per-call checks as `createToolGuards` gives any loop): the policy session, the guard with
 * each call's context, the call budget and the loop breaker. The loop breaker is off unless a limit of it is given: a
 * session may last days, and runAgent's defaults would end its routine repeats.
 */
export function createSessionGuards(registry: ToolRegistry, options: SessionGuardsOptions): ToolGuards {
  const { policy, guardToolCall, limits, contextOf, runId, onEvent } = options;
  const guard: ToolCallGuard | undefined =
    guardToolCall && ((check) => guardToolCall({ ...check, tool: registry.get(check.toolName) ?? check.tool, context: contextOf?.(check.callId) }));
  return createToolGuards({
    tools: withoutConfirmRules(registry),
    ...(policy ? { policy: contextOf ? withCallContexts(policy, contextOf) : policy } : {}),
    ...(guard ? { guardToolCall: guard } : {}),
    limits: { ...limits, maxRepeatedFailures: limits?.maxRepeatedFailures ?? NEVER, maxIdenticalCalls: limits?.maxIdenticalCalls ?? NEVER },
    runId,
    ...(onEvent ? { onEvent } : {}),
  });
}

const confirmRulesOff = new WeakMap<ToolRegistry, ToolRegistry>();

/**
 * The registry as the guards see it: each tool with its `confirm` rule off, because the server applies the rule itself
 * with the call's own context and `preapproved` (the guards know neither). Validators are shared; one view per registry.
 */
function withoutConfirmRules(registry: ToolRegistry): ToolRegistry {
  let view = confirmRulesOff.get(registry);
  if (view === undefined) {
    view = registry.subset([]).with(registry.list().map((tool) => ({ ...tool, confirm: false })));
    confirmRulesOff.set(registry, view);
  }
  return view;
}

/** The policy with each session handing its rules the call's context (`runContext`), found by the call's id. */
function withCallContexts(policy: Policy, contextOf: (callId: string) => unknown): Policy {
  return {
    name: policy.name,
    startRun(runOptions) {
      const session = policy.startRun(runOptions);
      const withContext: PolicySession = {
        beforeToolCall: (input) => session.beforeToolCall({ ...input, runContext: contextOf(input.call.id) }),
        afterToolResult: (input) => session.afterToolResult({ ...input, runContext: contextOf(input.call.id) }),
        systemPrompt: () => session.systemPrompt(),
        snapshot: () => session.snapshot(),
        get tainted() {
          return session.tainted;
        },
      };
      if (session.allowedValues) withContext.allowedValues = (toolName, argument) => session.allowedValues!(toolName, argument);
      return withContext;
    },
  };
}
