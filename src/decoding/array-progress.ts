/**
 * The rules an array frame follows between items: whether another item may come and the
 * array can still close after it, and whether it may close now, under `minItems`/
 * `maxItems`, `prefixItems`, `uniqueItems` (literal value classes, per position beside `prefixItems`), `contains` counts and
 * the depth budget. Computed when a transition is first built, never per token.
 * @module
 */
import { containsCanClose, containsCells, containsSatisfied, countsAfter, uniqueCanClose, uniqueSatisfied } from './array-contains.js';
import type { Frame } from './automaton-frames.js';
import type { ArrayAlternative, UniqueItems } from './grammar-ir.js';

export function arrayCanCloseEmpty(alternative: ArrayAlternative): boolean {
  if (alternative.unique?.contains != null) return uniqueSatisfied(alternative, 0, 0);
  return alternative.contains === null ? alternative.minItems === 0 : containsSatisfied(alternative, 0, 0);
}

export function arrayCanClose(alternative: ArrayAlternative, frame: Frame): boolean {
  if (alternative.unique?.contains != null) return uniqueSatisfied(alternative, frame.used, frame.items);
  return alternative.contains === null ? frame.items >= alternative.minItems : containsSatisfied(alternative, frame.items, frame.contained);
}

/**
 * A `uniqueItems` array: true when the value class may come next in the array frame: not
 * written yet and, with `contains`, the array can still close after it.
 */
export function uniqueClassAllowed(alternative: ArrayAlternative, frame: Frame, valueClass: number): boolean {
  const bit = 1 << valueClass;
  if ((frame.used & bit) !== 0) return false;
  const unique = alternative.unique!;
  if (unique.positions !== null) return closableAfter(alternative, frame.items + 1, frame.used | bit);
  return unique.contains === null || uniqueCanClose(alternative, frame.used | bit, frame.items + 1);
}

/** A `uniqueItems` array whose frame decides whether an item may come from the set written: beside `contains` or `prefixItems`. */
export function uniqueDecidesItems(alternative: ArrayAlternative): boolean {
  return alternative.unique !== null && (alternative.unique.contains !== null || alternative.unique.positions !== null);
}

/** A `uniqueItems` array with `contains` or `prefixItems`: true when some value may come next (a value class, or an endless item that takes none). */
export function uniqueItemCanFollow(alternative: ArrayAlternative, frame: Frame): boolean {
  const unique = alternative.unique!;
  const position = unique.positions === null ? -1 : Math.min(frame.items, unique.positions.allowed.length - 1);
  if (position >= 0 && unique.positions!.endless[position]!) return closableAfter(alternative, frame.items + 1, frame.used);
  const allowed = position >= 0 ? unique.positions!.allowed[position]! : -1;
  for (let valueClass = 0; valueClass < unique.classes; valueClass++) {
    if ((allowed & (1 << valueClass)) !== 0 && uniqueClassAllowed(alternative, frame, valueClass)) return true;
  }
  return false;
}

/** Beside `prefixItems`: true when the array can still close once it holds `items` items of the classes `used`. */
function closableAfter(alternative: ArrayAlternative, items: number, used: number): boolean {
  return items >= alternative.minItems || alternative.unique!.positions!.closable.has(used * 64 + items);
}

/** The class of literal `value` (an index into the literals of the node at item `position`) among its array's value classes. */
export function uniqueClassOf(unique: UniqueItems, position: number, value: number): number {
  return (unique.positions?.classOf[position] ?? unique.classOf)[value]!;
}

/** The literal indexes below node `trieNode` of the literal trie of the node at item `position`. */
export function uniqueSubtreeValues(unique: UniqueItems, position: number, trieNode: number): readonly number[] {
  return (unique.positions?.subtreeValues[position] ?? unique.subtreeValues)[trieNode]!;
}

/** True when some item may come at the frame's position and the array can still close after it; `room`: frames an item may still take. */
export function itemCanFollow(alternative: ArrayAlternative, frame: Frame, room: number): boolean {
  const { items, contained } = frame;
  if (items >= alternative.maxItems) return false;
  const counting = alternative.contains;
  if (counting === null) {
    const item = alternative.prefix[items] ?? alternative.items;
    if (uniqueDecidesItems(alternative) && !uniqueItemCanFollow(alternative, frame)) return false;
    return item !== null && item.height <= room;
  }
  return (containsCells(counting, items) ?? []).some(
    (cell) => cell.node.height <= room && containsCanClose(alternative, items + 1, countsAfter(counting, contained, cell.matches), room),
  );
}

/** Item counts past what any rule distinguishes collapse into one state. */
export function clampCount(alternative: ArrayAlternative, count: number): number {
  if (alternative.maxItems !== Infinity) return count;
  return Math.min(count, Math.max(alternative.prefix.length, alternative.minItems));
}
