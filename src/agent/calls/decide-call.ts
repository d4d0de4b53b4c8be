/**
 * The decide step of the call pipeline (`docs/agent.md`, "One call, three steps"): a valid call goes to the
 * {@link CallPolicy} (the policy session, then the caller's guard, then the tool's `confirm` rule), and a call the policy
 * rewrote is validated again against its tool (`prepareRewrittenCall`). The answer is the call as its turn keeps it:
 * blocked (with the message the model reads), to run, or to confirm (with the redacted summary a person sees).
 * @module
 */
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { RunEvent } from '../run-event.js';
import type { TurnCall } from '../run-state.js';
import type { CallPolicy } from './call-policy.js';
import { toJson, type TurnCallBase, type ValidCall } from './prepare-call.js';
import { prepareRewrittenCall } from './rewritten-call.js';

/** What the decide step needs: the seam, the registry (to validate rewritten arguments) and the call. */
export interface CallToDecide {
  policy: CallPolicy;
  registry: ToolRegistry;
  step: number;
  call: ValidCall;
  /** The arguments untrusted data reached (plan-then-execute's holes); absent: any of them may have. */
  influencedArguments?: readonly string[];
  /** This call's own context, instead of the seam's (`CallUnderCheck.context`); absent (the key itself): the seam's. */
  context?: unknown;
}

export interface DecidedCall {
  /** The call as its turn keeps it (JSON arguments): `invalid` with `blocked: true`, `run` or `confirm`. */
  call: TurnCall;
  /** The arguments to run with, as validated (the rewritten ones, when the policy rewrote them); `undefined` when blocked. */
  arguments: unknown;
  /** For a block: the policy's reason (what a plan's extractor is told), else the message. For a confirmation: the policy's or guard's reason, if any. */
  reason?: string;
  /** For a confirmation: which stage wants a person (`CallDecision`). */
  askedBy?: 'policy' | 'guard' | 'tool';
  /** The record's events, in order (`policy_decision`). */
  events: RunEvent[];
}

export async function decideCall(toDecide: CallToDecide): Promise<DecidedCall> {
  const { policy, registry, step, call, influencedArguments } = toDecide;
  const { tool, arguments: validated, ...base } = call;
  const { callKey, callId } = base;
  const { decision, events } = await policy.decide({
    step,
    callKey,
    callId,
    tool,
    arguments: validated,
    ...(influencedArguments ? { influencedArguments } : {}),
    ...('context' in toDecide ? { context: toDecide.context } : {}),
  });
  if (decision.action === 'block') return blockedCall(base, validated, decision.message, decision.reason ?? decision.message, events);
  let runArguments = validated;
  const rewritten = decision.rewritten;
  if (rewritten) {
    const again = prepareRewrittenCall(registry, call.request, rewritten);
    if (!again.ok) {
      const { ruleId, reason } = again;
      events.push({ type: 'policy_decision', step, callKey, callId, toolName: call.toolName, action: 'block', ruleId, reason, flags: [] });
      return blockedCall(base, validated, again.message, reason, events);
    }
    runArguments = again.arguments;
  }
  const policyNote = rewritten ? { policyNote: rewritten.note } : {};
  if (decision.action === 'run') return { call: { ...base, kind: 'run', arguments: toJson(runArguments), ...policyNote }, arguments: runArguments, events };
  return {
    call: { ...base, kind: 'confirm', arguments: toJson(runArguments), summary: decision.summary, ...policyNote },
    arguments: runArguments,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    askedBy: decision.askedBy,
    events,
  };
}

/** A blocked call as its turn keeps it: its validated arguments, and the message the model reads. */
function blockedCall(base: TurnCallBase, validated: unknown, message: string, reason: string, events: RunEvent[]): DecidedCall {
  return {
    call: {
      ...base,
      kind: 'invalid',
      blocked: true,
      arguments: toJson(validated),
      invalidResult: { content: [{ type: 'text', text: message }], isError: true },
    },
    arguments: undefined,
    reason,
    events,
  };
}
