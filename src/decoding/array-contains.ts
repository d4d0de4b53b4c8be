/**
 * `contains` / `minContains` / `maxContains` on an array frame. Each position's item schema is split (by the complement
 * construction) into the values that match `contains` and those that do not, so the frame knows when an item closes
 * whether to count it. The frame keeps that count; an item is only offered where the array can still close afterwards,
 * so a count past `maxContains` cannot be written and the array never strands below `minContains`.
 * @module
 */
import type { ArrayAlternative, ContainsCounting, ValueNode } from './grammar-ir.js';

/** The schema of item `position` restricted to the values that match `contains` (`match`) or do not; null when none may come. */
export function containsChoice(counting: ContainsCounting, position: number, match: boolean): ValueNode | null {
  if (position < counting.prefixMatch.length) return (match ? counting.prefixMatch : counting.prefixMiss)[position]!;
  return match ? counting.itemsMatch : counting.itemsMiss;
}

/** The count after one more matching item; without `maxContains`, counts at or past `minContains` are alike (one state). */
export function containedAfter(counting: ContainsCounting, contained: number): number {
  return counting.maxContains === Infinity ? Math.min(contained + 1, counting.minContains) : contained + 1;
}

function fits(node: ValueNode | null, room: number): boolean {
  return node !== null && node.height <= room;
}

/**
 * True when an array holding `items` items, `contained` of them matching, can still close: some continuation, with
 * items whose schemas need at most `room` frames, reaches `minItems` and a count within [minContains, maxContains].
 * Each position adds 0 or 1 to the count, so the counts reachable after n positions form an interval.
 */
export function containsCanClose(alternative: ArrayAlternative, items: number, contained: number, room: number): boolean {
  const counting = alternative.contains!;
  let low = contained;
  let high = contained;
  // past the prefix and minItems every position is alike: minContains more of them decide it
  const settled = Math.max(items, counting.prefixMatch.length, alternative.minItems) + counting.minContains + 1;
  for (let position = items; ; position++) {
    if (position >= alternative.minItems && high >= counting.minContains && low <= counting.maxContains) return true;
    if (position >= alternative.maxItems || low > counting.maxContains || position > settled) return false;
    const match = fits(containsChoice(counting, position, true), room);
    const miss = fits(containsChoice(counting, position, false), room);
    if (!match && !miss) return false;
    if (!miss) low++;
    if (match) high++;
  }
}

/** True when the array may close now. */
export function containsSatisfied(alternative: ArrayAlternative, items: number, contained: number): boolean {
  const counting = alternative.contains!;
  return items >= alternative.minItems && contained >= counting.minContains && contained <= counting.maxContains;
}

/** Fewest frames a `contains` array needs (itself plus its deepest required item), Infinity when it cannot close. */
export function containsMinHeight(alternative: ArrayAlternative): number {
  const counting = alternative.contains!;
  const rooms = new Set([0]);
  for (const node of [...counting.prefixMatch, ...counting.prefixMiss, counting.itemsMatch, counting.itemsMiss]) {
    if (node !== null && node.height !== Infinity) rooms.add(node.height);
  }
  for (const room of [...rooms].sort((left, right) => left - right)) if (containsCanClose(alternative, 0, 0, room)) return 1 + room;
  return Infinity;
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/**
 * `uniqueItems` over literal values beside `contains`: the set written (`used`, `items` of them) decides the count, so
 * true when some set of unused values, a matching ones and b others, brings the array within [minItems, maxItems] and
 * the count within [minContains, maxContains].
 */
export function uniqueCanClose(alternative: ArrayAlternative, used: number, items: number): boolean {
  const unique = alternative.unique!;
  const { matchClasses, minContains, maxContains } = unique.contains!;
  const all = unique.classes >= 31 ? -1 >>> 0 : (1 << unique.classes) - 1;
  const count = bitCount(used & matchClasses);
  const freeMatches = bitCount(matchClasses & ~used & all);
  const freeOthers = bitCount(~matchClasses & ~used & all);
  for (let matches = Math.max(0, minContains - count); matches <= Math.min(freeMatches, maxContains - count); matches++) {
    const fewest = Math.max(0, alternative.minItems - items - matches);
    const most = Math.min(freeOthers, alternative.maxItems - items - matches);
    if (fewest <= most) return true;
  }
  return false;
}

/** True when a `uniqueItems` array with `contains` may close now. */
export function uniqueSatisfied(alternative: ArrayAlternative, used: number, items: number): boolean {
  const { matchClasses, minContains, maxContains } = alternative.unique!.contains!;
  const count = bitCount(used & matchClasses);
  return items >= alternative.minItems && count >= minContains && count <= maxContains;
}
