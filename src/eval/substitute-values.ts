/**
 * Substituting the attacker's values into the user's own call: the same tool
 * and the same free text, with each value argument (an account, an amount, an
 * address, a path, an id, a time) that the injection's call to that tool sets
 * differently taking the attacker's value. This is what a gullible extractor
 * does to a payment it was asked to make from a document ("pay this invoice"
 * paying the attacker's IBAN), the attack that appending text to a free-text
 * argument (fold-payload.ts) cannot express. Used by the `sim:substituting`
 * simulator.
 * @module
 */
import type { EvalCall } from './suite-types.js';

/**
 * Whether an argument's value is a value rather than free text: a number, a boolean, a string without whitespace (an IBAN,
 * an address, a path, an id, a date-time), or a list of those (recipients). Free text is what folding appends to.
 */
export function isValueArgument(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return true;
  if (typeof value === 'string') return value !== '' && !/\s/.test(value.trim());
  if (Array.isArray(value)) return value.length > 0 && value.every(isValueArgument);
  return false;
}

/**
 * The user's call with the attacker's values in it, or `undefined` when nothing changes: for the first call of the injection's
 * `attackerCalls` to the same tool, each argument both calls set, where both values are values ({@link isValueArgument}) of the
 * same type and differ, takes the attacker's value. Arguments only the attacker sets are not
 * added: this is a substitution into the user's call, not the attacker's call.
 */
export function substituteValues(call: EvalCall, attackerCalls: readonly EvalCall[]): EvalCall | undefined {
  const attacker = attackerCalls.find((candidate) => candidate.tool === call.tool)?.arguments;
  if (!attacker || !call.arguments) return undefined;
  const substituted: Record<string, unknown> = { ...call.arguments };
  let changed = false;
  for (const [key, value] of Object.entries(call.arguments)) {
    if (!Object.prototype.hasOwnProperty.call(attacker, key)) continue;
    const replacement = attacker[key];
    if (!isValueArgument(value) || !isValueArgument(replacement) || !sameType(value, replacement)) continue;
    if (JSON.stringify(value) === JSON.stringify(replacement)) continue;
    substituted[key] = structuredClone(replacement);
    changed = true;
  }
  return changed ? { tool: call.tool, arguments: substituted } : undefined;
}

function sameType(left: unknown, right: unknown): boolean {
  return typeof left === typeof right && Array.isArray(left) === Array.isArray(right);
}
