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
  /**
   * The strings inside its object and array items (keys and values), sorted, never removed (a rollback leaves a few more):
   * an object that can run out (`closedItem`) whose last value would close as none of them repeats no item, unparsed.
   */
  readonly leaves: string[] = [];
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

  /** An object or array item (its canonical JSON) held: its strings join `leaves`. */
  addContainer(text: string): void {
    this.containers.add(text);
    const visit = (value: unknown): void => {
      if (typeof value === 'string') this.leaves.splice(insertionPoint(this.leaves, value), 0, value);
      else if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object')
        for (const [key, member] of Object.entries(value)) {
          visit(key);
          visit(member);
        }
    };
    visit(JSON.parse(text));
  }

  /** Some item held has the string of code units `units[from, to)` inside it (`leaves`). */
  hasLeaf(units: Uint16Array, from: number, to: number): boolean {
    let low = 0;
    let high = this.leaves.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const leaf = this.leaves[middle]!;
      let difference = 0;
      for (let index = 0; difference === 0 && index < Math.min(leaf.length, to - from); index++) difference = leaf.charCodeAt(index) - units[from + index]!;
      if (difference === 0) difference = leaf.length - (to - from);
      if (difference === 0) return true;
      if (difference < 0) low = middle + 1;
      else high = middle;
    }
    return false;
  }

  private insertionPoint(value: string): number {
    return insertionPoint(this.sorted, value);
  }
}

function insertionPoint(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareUnits(sorted[middle]!, value) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
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

/** The string of `units[start, end)` (in slices: an argument list has a bound; `apply` reads a typed array as is, a spread iterates it). */
export function textOfUnits(units: Uint16Array, start: number, end: number): string {
  let text = '';
  for (let at = start; at < end; at += 4096) text += String.fromCharCode.apply(null, units.subarray(at, Math.min(end, at + 4096)) as unknown as number[]);
  return text;
}
