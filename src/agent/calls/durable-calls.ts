/**
 * Exactly-once execution of a stored run's calls: each call is claimed in the run store before it runs and its outcome
 * kept there after, so a run taken over after a crash reuses what a dead process finished and does not start again a
 * write it had begun (unless its tool dedupes on the idempotency key). A call's store key is its call key, or, when a
 * take-over's model made a different call at the same position, `<callKey>~<digest>` (`docs/agent.md`, "A call's identity").
 * @module
 */
import { hmacSha256Digest } from '../../shared/sha256.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { ToolCallOutcome } from '../agent-result.js';
import { RunStoreError } from '../agent-errors.js';
import type { RunEvent } from '../run-event.js';
import type { TurnCall } from '../run-state.js';
import type { CallClaim, RunStore, StoredCall, StoredOutcome } from '../run-store.js';
import type { CallPolicy } from './call-policy.js';

/** What the durable calls of one run need from it. */
export interface DurableRun {
  runId: string;
  store: () => Promise<RunStore>;
  /** The calls a different call replaced at their key (the run state's list, kept across take-overs). */
  superseded: () => ToolCallOutcome[];
  emit: (event: RunEvent) => void;
  /** Learns from a reused outcome's result as if the call had run here (`CallPolicy.restore`). */
  policy: CallPolicy;
}

export class DurableCalls {
  readonly #run: DurableRun;
  #digestKey: Uint8Array | undefined;

  constructor(run: DurableRun) {
    this.#run = run;
  }

  /**
   * Begins a call in the store. Its key is its position (`<step>.<index>`), and a take-over that asked the model again
   * may have got a different call at a position a dead process had begun one at: a stored call is this call only if
   * its claim has the same tool and digest of canonical arguments. Otherwise the earlier call is recorded as superseded
   * and this one is begun under `<callKey>~<digest>`, a key of its own in every process (its idempotency key too).
   */
  async claim(step: number, call: TurnCall, tool: AnyTool, args: unknown): Promise<{ storeKey: string; existing: StoredCall | undefined }> {
    const { runId } = this.#run;
    const store = await this.#run.store();
    this.#digestKey ??= await store.getSecret();
    const digest = callDigest(this.#digestKey, tool.name, args);
    const claim: CallClaim = { toolName: tool.name, callId: call.callId, ...(digest !== undefined ? { digest } : {}) };
    const existing = await store.beginCall(runId, call.callKey, claim);
    if (!existing || sameCall(existing.claim, claim)) return { storeKey: call.callKey, existing };
    const storeKey = `${call.callKey}~${digest ?? `tool-${tool.name}`}`;
    this.#supersede(step, call, existing, storeKey);
    const own = await store.beginCall(runId, storeKey, claim);
    if (own && !sameCall(own.claim, claim)) {
      throw new RunStoreError(
        `The run store holds another call under key "${storeKey}" of run "${runId}", which names this call's digest; the store's data was altered or mixed with another store's. The run cannot continue safely.`,
      );
    }
    return { storeKey, existing: own };
  }

  /** Keeps a call's outcome (with the policy's trust label) under its store key. */
  async finish(storeKey: string, outcome: ToolCallOutcome, trust: StoredOutcome['trust'] | undefined): Promise<void> {
    await (await this.#run.store()).finishCall(this.#run.runId, storeKey, trust !== undefined ? { ...outcome, trust } : outcome);
  }

  /** A call's stored outcome, answering this request's call id; the run's policy learns from its result as if the call had run here. */
  reuse(call: TurnCall, tool: AnyTool, stored: StoredOutcome): ToolCallOutcome {
    const outcome = withoutTrust(stored);
    // The policy's note was added after the screen when the call ran; the policy learns from the tool's result alone.
    const content = outcome.result.content;
    const last = content.at(-1);
    const noted = call.policyNote !== undefined && last?.type === 'text' && last.text === call.policyNote;
    const toolResult = noted ? { ...outcome.result, content: content.slice(0, -1) } : outcome.result;
    // A policy that could not take the result in withholds it, as it would a fresh one.
    const withheld = this.#run.policy.restore(call.callId, tool, toolResult, stored.trust);
    return { ...outcome, ...(withheld ? { result: withheld } : {}), callKey: call.callKey, callId: call.callId };
  }

  /** Keeps a call that a different call replaced at its key in the run (once, however often a take-over finds it), and records it. */
  #supersede(step: number, call: TurnCall, earlier: StoredCall, storeKey: string): void {
    const claim = earlier.claim!;
    const superseded = this.#run.superseded();
    if (superseded.some((item) => item.callKey === call.callKey && item.callId === claim.callId && item.toolName === claim.toolName)) return;
    const outcome: ToolCallOutcome =
      earlier.status === 'done' && earlier.outcome
        ? { ...withoutTrust(earlier.outcome), callKey: call.callKey, supersededBy: call.callId }
        : {
            callKey: call.callKey,
            callId: claim.callId,
            toolName: claim.toolName,
            arguments: undefined,
            status: 'outcome_unknown',
            result: { content: [{ type: 'text', text: supersededUnknownText(claim.toolName) }], isError: true },
            durationMs: 0,
            truncated: false,
            supersededBy: call.callId,
          };
    superseded.push(outcome);
    this.#run.emit({
      type: 'call_superseded',
      step,
      callKey: call.callKey,
      callId: claim.callId,
      toolName: claim.toolName,
      status: outcome.status,
      supersededBy: { callId: call.callId, toolName: call.toolName, storeKey },
    });
  }
}

/** Stable for one call of one run, in every process that runs it: what a tool dedupes on. */
export function idempotencyKeyFor(runId: string, storeKey: string): string {
  return `${runId}:${storeKey}`;
}

/**
 * The identity of a call at its key, for telling a replayed call from a different one: HMAC-SHA256 of the tool name
 * and canonical arguments, keyed by the store's secret, so the store holds no argument value (nor a plain hash that
 * a short secret could be guessed back from). `undefined` for arguments canonical JSON cannot write.
 */
function callDigest(key: Uint8Array, toolName: string, args: unknown): string | undefined {
  let canonical: string;
  try {
    canonical = canonicalJson(args);
  } catch {
    return undefined;
  }
  return hmacSha256Digest(key, `toolwright call digest v1\u0000${JSON.stringify([toolName, canonical])}`);
}

/** A stored outcome as the caller and the model see it: the trust label stays in the store. */
function withoutTrust(stored: StoredOutcome): ToolCallOutcome {
  const { trust: _trust, ...outcome } = stored;
  return outcome;
}

/** Whether a stored claim is this call's; a claim from before digests (or arguments with none) is trusted on its tool name alone. */
function sameCall(stored: CallClaim | undefined, claim: CallClaim): boolean {
  if (!stored) return true;
  if (stored.toolName !== claim.toolName) return false;
  return stored.digest === undefined || claim.digest === undefined || stored.digest === claim.digest;
}

function supersededUnknownText(toolName: string): string {
  return `The run's process died while this call to ${toolName} was running; the run was taken over and the model, asked again, made a different call in its place. Whether this call took effect is unknown.`;
}
