/**
 * `contains` / `minContains` / `maxContains` on an array frame, one counter per distinct `contains` schema. Each
 * position's item schema is split (by the complement construction) into cells that match exactly some of the schemas,
 * so the frame knows when an item closes which counters to raise. The frame keeps the counts in one number (a
 * mixed-radix code); an item is only offered where the array can still close afterwards, so a count past its
 * `maxContains` cannot be written and the array never strands below a `minContains`.
 * @module
 */
import type { ArrayAlternative, ContainsCell, ContainsCounting, UniqueItems } from './grammar-ir.js';

/** The cells of item `position`, or null when no item may come there. */
export function containsCells(counting: ContainsCounting, position: number): readonly ContainsCell[] | null {
  return position < counting.prefixCells.length ? counting.prefixCells[position]! : counting.itemsCells;
}

/** Counter `index`'s count in `code`. */
function countOf(counting: ContainsCounting, code: number, index: number): number {
  const counter = counting.counters[index]!;
  return Math.floor(code / counter.stride) % (counter.cap + 1);
}

/**
 * The code after one more item that matches the schemas in `matches`; -1 when that item would push a count past its
 * `maxContains`. Without `maxContains`, counts at or past `minContains` are alike (the digit stays at its cap).
 */
export function countsAfter(counting: ContainsCounting, code: number, matches: number): number {
  let next = code;
  for (let index = 0; index < counting.counters.length; index++) {
    if ((matches & (1 << index)) === 0) continue;
    const counter = counting.counters[index]!;
    const count = countOf(counting, code, index);
    if (count + 1 > counter.max) return -1;
    if (count < counter.cap) next += counter.stride;
  }
  return next;
}

function countsInRange(counting: ContainsCounting, code: number): boolean {
  return counting.counters.every((counter, index) => {
    const count = countOf(counting, code, index);
    return count >= counter.min && count <= counter.max;
  });
}

/** True when the array may close now. */
export function containsSatisfied(alternative: ArrayAlternative, items: number, code: number): boolean {
  return items >= alternative.minItems && countsInRange(alternative.contains!, code);
}

/**
 * True when an array holding `items` items, with counts `code`, can still close: some continuation, with items whose
 * schemas need at most `room` frames, reaches `minItems` with every count within its bounds. Walks the set of reachable
 * codes position by position. Past the prefix and `minItems` every position is alike and each step either keeps a
 * code or raises a count, so after (sum of the caps) + 1 such positions, or one that leaves it as it was, the
 * reachable set no longer changes.
 */
function canCloseFrom(alternative: ArrayAlternative, items: number, code: number, room: number): boolean {
  const counting = alternative.contains!;
  const depth = counting.counters.reduce((sum, counter) => sum + counter.cap, 0);
  const settled = Math.max(items, counting.prefixCells.length, alternative.minItems) + depth + 1;
  let reach = [code];
  for (let position = items; ; position++) {
    if (position >= alternative.minItems && reach.some((reached) => countsInRange(counting, reached))) return true;
    if (position >= alternative.maxItems || position > settled) return false;
    const cells = containsCells(counting, position);
    if (cells === null) return false;
    const next = new Set<number>();
    for (const cell of cells) {
      if (cell.node.height > room) continue;
      for (const reached of reach) {
        const after = countsAfter(counting, reached, cell.matches);
        if (after >= 0) next.add(after);
      }
    }
    if (next.size === 0) return false;
    // a homogeneous step that changes nothing changes nothing ever after (a large maxContains never walks to its cap)
    const homogeneous = position >= Math.max(counting.prefixCells.length, alternative.minItems);
    if (homogeneous && next.size === reach.length && reach.every((reached) => next.has(reached))) return false;
    reach = [...next];
  }
}

// answers per counting, filled while matching (node heights are final by then; computeHeights uses canCloseFrom)
const closeAnswers = new WeakMap<ContainsCounting, Map<string, boolean>>();

/** `canCloseFrom`, remembered per (items, code, room): the matcher asks the same questions on every visit of a frame. */
export function containsCanClose(alternative: ArrayAlternative, items: number, code: number, room: number): boolean {
  if (code < 0) return false;
  const counting = alternative.contains!;
  let answers = closeAnswers.get(counting);
  if (answers === undefined) closeAnswers.set(counting, (answers = new Map()));
  const key = `${items},${code},${room}`;
  let answer = answers.get(key);
  if (answer === undefined) answers.set(key, (answer = canCloseFrom(alternative, items, code, room)));
  return answer;
}

/** Fewest frames a `contains` array needs (itself plus its deepest required item), Infinity when it cannot close. */
export function containsMinHeight(alternative: ArrayAlternative): number {
  const counting = alternative.contains!;
  const rooms = new Set([0]);
  for (const cells of [...counting.prefixCells, counting.itemsCells ?? []]) {
    for (const cell of cells) if (cell.node.height !== Infinity) rooms.add(cell.node.height);
  }
  for (const room of [...rooms].sort((left, right) => left - right)) if (canCloseFrom(alternative, 0, 0, room)) return 1 + room;
  return Infinity;
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/**
 * Can some set of the unused values close the array? The unused classes are grouped by the schemas they match; a
 * choice of how many to take from each group is searched over the reachable (items added, counts) states, counts
 * kept only up to `maxContains` (or `minContains` without one).
 */
function uniqueCanCloseFrom(alternative: ArrayAlternative, used: number, items: number): boolean {
  const unique = alternative.unique!;
  const rules = unique.contains!;
  const all = unique.classes >= 31 ? -1 >>> 0 : (1 << unique.classes) - 1;
  const groups = new Map<number, number>();
  for (let valueClass = 0; valueClass < unique.classes; valueClass++) {
    const bit = 1 << valueClass;
    if ((used & bit) !== 0) continue;
    let signature = 0;
    rules.forEach((rule, index) => (signature |= (rule.matchClasses & bit) !== 0 ? 1 << index : 0));
    groups.set(signature, (groups.get(signature) ?? 0) + 1);
  }
  const caps = rules.map((rule) => (rule.maxContains === Infinity ? rule.minContains : rule.maxContains));
  const room = alternative.maxItems - items;
  // a state: [items added, count per rule]
  const counts = rules.map((rule) => bitCount(used & rule.matchClasses & all));
  if (rules.some((rule, index) => counts[index]! > rule.maxContains)) return false;
  const start = [0, ...counts.map((count, index) => Math.min(count, caps[index]!))];
  let states = new Map<string, number[]>([[start.join(','), start]]);
  for (const [signature, size] of groups) {
    const next = new Map<string, number[]>();
    for (const state of states.values()) {
      for (let taken = 0; taken <= size && state[0]! + taken <= room; taken++) {
        const after = [state[0]! + taken];
        let fits = true;
        rules.forEach((rule, index) => {
          const count = state[index + 1]! + ((signature & (1 << index)) !== 0 ? taken : 0);
          if (count > rule.maxContains) fits = false;
          after.push(Math.min(count, caps[index]!));
        });
        if (fits) next.set(after.join(','), after);
      }
    }
    states = next;
  }
  for (const state of states.values()) {
    if (items + state[0]! < alternative.minItems) continue;
    if (rules.every((rule, index) => state[index + 1]! >= rule.minContains && state[index + 1]! <= rule.maxContains)) return true;
  }
  return false;
}

const uniqueAnswers = new WeakMap<UniqueItems, Map<number, boolean>>();

/**
 * `uniqueItems` over literal values beside `contains`: the set written (`used`, `items` of them) decides every count, so
 * true when some set of unused values brings the array within [minItems, maxItems] and each count within its bounds.
 */
export function uniqueCanClose(alternative: ArrayAlternative, used: number, items: number): boolean {
  const unique = alternative.unique!;
  let answers = uniqueAnswers.get(unique);
  if (answers === undefined) uniqueAnswers.set(unique, (answers = new Map()));
  // `used` below 2^31 and `items` at most 31: one exact number
  const key = (used >>> 0) * 64 + items;
  let answer = answers.get(key);
  if (answer === undefined) answers.set(key, (answer = uniqueCanCloseFrom(alternative, used, items)));
  return answer;
}

/** True when a `uniqueItems` array with `contains` may close now. */
export function uniqueSatisfied(alternative: ArrayAlternative, used: number, items: number): boolean {
  if (items < alternative.minItems) return false;
  return alternative.unique!.contains!.every(({ matchClasses, minContains, maxContains }) => {
    const count = bitCount(used & matchClasses);
    return count >= minContains && count <= maxContains;
  });
}
