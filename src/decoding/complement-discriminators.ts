/**
 * Discriminating keys of a difference `p ∧ ¬(n₁ ∪ … ∪ nₖ)` (`schema-complement.ts`). Where the negated objects are
 * told apart by a key (some require it, others forbid it, as a `oneOf`'s discriminator does), the objects of `p` are
 * split first into "the key present" and "the key absent": a negated object that forbids the key shares no value with
 * the first part and one that requires it none with the second, so each part subtracts fewer alternatives and the
 * product of their failures stays small. Both parts are exact, so their union is the difference itself.
 * @module
 */

/** What the key tests read of an alternative (the difference's typed alternatives have these fields). */
export interface KeyedAlternative {
  readonly type: string;
  readonly literals: readonly unknown[] | undefined;
  readonly required: ReadonlySet<string>;
}

/** Whether an alternative's value schema for `key` is `false`, so none of its objects holds it. */
export type KeyForbidden<T> = (typed: T, key: string) => boolean;

/** The key that most negated objects require or forbid, with at least one of each (so a split drops some from either part); undefined when none does. */
export function discriminatingKey<T extends KeyedAlternative>(objects: readonly T[], forbidden: KeyForbidden<T>): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  for (const key of new Set(objects.flatMap(requiredKeys))) {
    const requiring = objects.filter((negated) => requiresKey(negated, key)).length;
    const forbidding = objects.filter((negated) => forbidsKey(negated, key, forbidden)).length;
    if (requiring > 0 && forbidding > 0 && requiring + forbidding > bestScore) [best, bestScore] = [key, requiring + forbidding];
  }
  return best;
}

/** Whether two alternatives are objects told apart by a key: one requires it and the other forbids it (no value satisfies both). */
export function keyApart<T extends KeyedAlternative>(typed: T, negated: T, forbidden: KeyForbidden<T>): boolean {
  if (typed.type !== 'object' || negated.type !== 'object' || typed.literals !== undefined) return false;
  for (const key of typed.required) if (forbidsKey(negated, key, forbidden)) return true;
  for (const key of requiredKeys(negated)) if (forbidsKey(typed, key, forbidden)) return true;
  return false;
}

/** Keys the alternative may require (its required names; a literal's first value's keys): candidates for {@link requiresKey}. */
function requiredKeys(typed: KeyedAlternative): string[] {
  return typed.literals === undefined ? [...typed.required] : Object.keys(typed.literals[0] as object);
}

/** Whether every object of the alternative holds `key` (false for other types, which go to both parts of a split). */
export function requiresKey(typed: KeyedAlternative, key: string): boolean {
  if (typed.type !== 'object') return false;
  if (typed.literals !== undefined) return typed.literals.every((value) => Object.prototype.hasOwnProperty.call(value, key));
  return typed.required.has(key);
}

/** Whether no object of the alternative holds `key`. */
export function forbidsKey<T extends KeyedAlternative>(typed: T, key: string, forbidden: KeyForbidden<T>): boolean {
  if (typed.type !== 'object') return false;
  if (typed.literals !== undefined) return typed.literals.every((value) => !Object.prototype.hasOwnProperty.call(value, key));
  return forbidden(typed, key);
}
