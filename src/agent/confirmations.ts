/**
 * The confirmations of a paused turn: one per call that waits for a person, holding the arguments as the person sees
 * them (redacted) and a single-use token bound to that view. The real values stay in the (sealed) pending turn.
 * @module
 */
import { randomHex } from '../shared/bytes.js';
import type { PendingConfirmation } from './agent-result.js';
import { createConfirmationToken } from './confirmation-token.js';
import type { Redactor } from './redact.js';
import type { PendingTurn } from './run-state.js';
import type { StoredConfirmation } from './run-store.js';

export interface ConfirmationSettings {
  runId: string;
  /** The store's secret, which the tokens are bound with. */
  secret: Uint8Array;
  /** Milliseconds since the epoch. */
  createdAt: number;
  ttlMs: number;
  redactor: Redactor;
}

/** The stored confirmations for the turn's calls of kind `confirm`, in the model's order. */
export function confirmationsFor(turn: PendingTurn, settings: ConfirmationSettings): StoredConfirmation[] {
  const { runId, secret, createdAt } = settings;
  const expiresAt = createdAt + settings.ttlMs;
  return turn.calls
    .filter((call) => call.kind === 'confirm')
    .map((call) => {
      // A confirmation holds the arguments as the person sees them; the token binds that view.
      const shown = settings.redactor.toolArguments(call.toolName, call.arguments);
      const bound = { runId, callKey: call.callKey, callId: call.callId, toolName: call.toolName, arguments: shown };
      return {
        approvalId: `apr_${randomHex(5)}`,
        ...bound,
        summary: call.summary ?? call.toolName,
        token: createConfirmationToken(secret, bound, expiresAt),
        expiresAt,
        createdAt,
      };
    });
}

/** A stored confirmation as a run's result shows it: the same record, its expiry as an ISO time and nothing of its decision. */
export function toPendingConfirmation(item: StoredConfirmation): PendingConfirmation {
  const { approvalId, runId, callKey, callId, toolName, arguments: args, summary, token } = item;
  return { approvalId, runId, callKey, callId, toolName, arguments: args, summary, token, expiresAt: new Date(item.expiresAt).toISOString() };
}
