/**
 * What the matcher's memory (`written-strings.ts`) holds for one container being written: its item strings (or an
 * object's undeclared keys), and the values of its object, array and integer items.
 * @module
 */
import { compareUnits } from './quote-tokens.js';
import { HeldNumbers } from './held-integers.js';

/**
 * The item strings of one container being written: sorted by code units, so the items that begin like the string being
 * written are one range that each decoded unit narrows by binary search (`WrittenStrings.narrow`); and its object and
 * array items (`uniqueContainers`), by their canonical JSON (`canonicalJson`, the registry's `uniqueItems` equality).
 */
export class HeldStrings {
  readonly sorted: string[] = [];
  readonly values = new Set<string>();
  readonly containers = new Set<string>();
  /** The values of its integer items (`uniqueNumbers`). */
  readonly numbers = new HeldNumbers();
  shortest = Infinity;
  longest = -1;

  add(value: string): void {
    this.sorted.splice(this.insertionPoint(value), 0, value);
    this.values.add(value);
    this.shortest = Math.min(this.shortest, value.length);
    this.longest = Math.max(this.longest, value.length);
  }

  remove(value: string): void {
    this.sorted.splice(this.insertionPoint(value), 1);
    this.values.delete(value);
    this.shortest = Infinity;
    this.longest = -1;
    for (const held of this.sorted) {
      this.shortest = Math.min(this.shortest, held.length);
      this.longest = Math.max(this.longest, held.length);
    }
  }

  private insertionPoint(value: string): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareUnits(this.sorted[middle]!, value) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * `value` from code unit `at` on, compared with `text` (negative: before it), without cutting either: the items held
 * that begin like the string being written share their first `at` units.
 */
export function compareFrom(value: string, at: number, text: string): number {
  const common = Math.min(value.length - at, text.length);
  for (let index = 0; index < common; index++) {
    const difference = value.charCodeAt(at + index) - text.charCodeAt(index);
    if (difference !== 0) return difference;
  }
  return value.length - at - text.length;
}
