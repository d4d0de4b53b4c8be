/**
 * A call the policy rewrote (`valuesFrom({ action: 'remove' })`) is validated again, as the model's own arguments were:
 * taking a value out can break a `pattern` or a length. One check for every loop that runs rewritten calls (the agent
 * loop, plan-then-execute, the eval's self-check), so they block the same calls with the same words.
 * @module
 */
import { blockedMessage, rewrittenInvalidReason } from '../../policy/policy-messages.js';
import type { PolicyRewrite } from '../../policy/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';

/** The arguments to run, or why the call is blocked after all: the rule, one sentence, and the tool error the model reads. */
export type PreparedRewrite = { ok: true; arguments: unknown } | { ok: false; ruleId: string; reason: string; message: string };

export function prepareRewrittenCall(registry: ToolRegistry, call: { id: string; name: string }, rewrite: PolicyRewrite): PreparedRewrite {
  const again = registry.prepare({ id: call.id, name: call.name, arguments: rewrite.arguments });
  if (again.success) return { ok: true, arguments: again.arguments };
  const ruleId = rewrite.removed[0]?.ruleId ?? 'policy-rewrite';
  const reason = rewrittenInvalidReason(call.name, rewrite.removed, again.failure.message);
  return { ok: false, ruleId, reason, message: blockedMessage(call.name, ruleId, reason, 'arguments') };
}
