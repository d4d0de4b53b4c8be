/**
 * The rules an array frame follows between items: whether another item may come and the
 * array can still close after it, and whether it may close now, under `minItems`/
 * `maxItems`, `prefixItems`, `uniqueItems` (literal value classes), `contains` counts and
 * the depth budget. Computed when a transition is first built, never per token.
 * @module
 */
import { containsCanClose, containsCells, containsSatisfied, countsAfter, uniqueCanClose, uniqueSatisfied } from './array-contains.js';
import type { Frame } from './automaton-frames.js';
import type { ArrayAlternative } from './grammar-ir.js';

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
  return alternative.unique!.contains === null || uniqueCanClose(alternative, frame.used | bit, frame.items + 1);
}

/** A `uniqueItems` array with `contains`: true when some value class may come next. */
export function uniqueItemCanFollow(alternative: ArrayAlternative, frame: Frame): boolean {
  for (let valueClass = 0; valueClass < alternative.unique!.classes; valueClass++) if (uniqueClassAllowed(alternative, frame, valueClass)) return true;
  return false;
}

/** True when some item may come at the frame's position and the array can still close after it; `room`: frames an item may still take. */
export function itemCanFollow(alternative: ArrayAlternative, frame: Frame, room: number): boolean {
  const { items, contained } = frame;
  if (items >= alternative.maxItems) return false;
  const counting = alternative.contains;
  if (counting === null) {
    const item = alternative.prefix[items] ?? alternative.items;
    if (alternative.unique?.contains != null && !uniqueItemCanFollow(alternative, frame)) return false;
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
