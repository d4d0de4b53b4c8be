/**
 * Folding an in-scope injection into the user's own call: the same tool and
 * arguments, with the attacker's payload appended to the call's free-text
 * argument. Shared by the adversarial simulator (`sim:folding`) and the
 * self-check, which replays the folded calls to find every pair a task
 * scope cannot close.
 * @module
 */
import type { EvalCall } from './suite-types.js';

/** The call's free-text argument: its longest string argument with a space in it (a body, a message, a topic; not an id or an address). */
export function foldTarget(call: EvalCall): string | undefined {
  let best: string | undefined;
  for (const [key, value] of Object.entries(call.arguments ?? {})) {
    if (typeof value === 'string' && /\s/.test(value.trim()) && (best === undefined || value.length > String(call.arguments![best]).length)) best = key;
  }
  return best;
}

/** The call with `payload` appended to its free-text argument, or `undefined` when it has none. */
export function foldPayload(call: EvalCall, payload: string): EvalCall | undefined {
  const target = foldTarget(call);
  if (target === undefined) return undefined;
  return { tool: call.tool, arguments: { ...call.arguments, [target]: `${String(call.arguments![target])} ${payload}` } };
}
