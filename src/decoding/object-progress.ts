/**
 * The rules an object frame follows between properties: which declared key or key class
 * may come next and whether the object may close, under `required`, `dependentRequired`,
 * `minProperties`/`maxProperties`, the property order and the depth budget. Every move
 * is allowed only into a progress from which the object can still close, so an object
 * state never dead-ends. Computed when a transition is first built, never per token.
 *
 * Progress is `(last, written, count)`: the last property written (a declared index, -1
 * before the first, `classProperty(c)` after a key of class `c`), the set of declared
 * properties written (a bitset, kept only for tracked objects), and the number of
 * properties written (clamped at `countCap`).
 * @module
 */
import type { ObjectAlternative, ObjectProgressRules, PropertyRule } from './grammar-ir.js';

/** The bit tables of an object's progress rules (see the fields of `ObjectProgressRules`). */
export type ProgressTables = Pick<
  ObjectProgressRules,
  'bitOf' | 'propertyOfBit' | 'bitsBefore' | 'untrackedRequiredFrom' | 'requiredMask' | 'closure' | 'requiredFrom'
>;

/**
 * The bit tables for `properties` in schema order, where the declared properties at `bitted` (indexes, ascending) get a
 * bit of the written set in that order, and `edges` (a property and the ones it requires, by name; `index` maps a name to
 * its position) close each bit over the dependencies it implies.
 */
export function progressTables(
  properties: readonly PropertyRule[],
  bitted: readonly number[],
  tracked: boolean,
  edges: readonly (readonly [string, ReadonlySet<string>])[],
  index: ReadonlyMap<string, number>,
): ProgressTables {
  const bitOf = new Int32Array(properties.length).fill(-1);
  bitted.forEach((at, bit) => (bitOf[at] = bit));
  const propertyOfBit = Int32Array.from(bitted);
  const bitsBefore = new Int32Array(properties.length + 1);
  const untrackedRequiredFrom = new Int32Array(properties.length + 1);
  for (let at = 0; at < properties.length; at++) bitsBefore[at + 1] = bitsBefore[at]! | (bitOf[at]! >= 0 ? 1 << bitOf[at]! : 0);
  for (let at = properties.length - 1; at >= 0; at--)
    untrackedRequiredFrom[at] = untrackedRequiredFrom[at + 1]! + (tracked && bitOf[at]! < 0 && properties[at]!.required ? 1 : 0);
  const closure = new Int32Array(bitted.length);
  let requiredMask = 0;
  if (tracked) {
    bitted.forEach((at, bit) => {
      closure[bit] = 1 << bit;
      if (properties[at]!.required) requiredMask |= 1 << bit;
    });
    for (const [name, dependents] of edges)
      for (const dependent of dependents) if (index.has(dependent)) closure[bitOf[index.get(name)!]!]! |= 1 << bitOf[index.get(dependent)!]!;
    for (let changed = true; changed;) {
      changed = false;
      for (let at = 0; at < closure.length; at++) {
        let bits = closure[at]!;
        for (let other = 0; other < closure.length; other++) if (((bits >>> other) & 1) === 1) bits |= closure[other]!;
        if (bits !== closure[at]) {
          closure[at] = bits;
          changed = true;
        }
      }
    }
  }
  const requiredFrom = new Int32Array(properties.length + 1);
  for (let at = properties.length - 1; at >= 0; at--) requiredFrom[at] = requiredFrom[at + 1]! + (properties[at]!.required ? 1 : 0);
  return { bitOf, propertyOfBit, bitsBefore, untrackedRequiredFrom, requiredMask, closure, requiredFrom };
}

/** The `property` of a frame whose last key was of key class `index`. */
export function classProperty(index: number): number {
  return -2 - index;
}

/** The key class of a `property` at or below -2. */
export function classOf(property: number): number {
  return -2 - property;
}

/** Property count after one more, clamped where no rule tells larger counts apart. */
export function countAfter(rules: ObjectProgressRules, count: number): number {
  return Math.min(count + 1, rules.countCap);
}

/** The written set after declared property `index` (unchanged for untracked objects, which keep none, and for a property without a bit). */
export function writtenAfter(rules: ObjectProgressRules, written: number, index: number): number {
  // an untracked object keeps only whether a witness written anywhere was seen
  if (!rules.tracked) return written & WITNESS_LAST;
  const bit = rules.bitOf[index]!;
  return bit < 0 ? written : written | (1 << bit);
}

function popcount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}

function closureOf(rules: ObjectProgressRules, bits: number): number {
  let out = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) out |= rules.closure[31 - Math.clz32(rest & -rest)]!;
  return out;
}

/** Bits of the tracked properties at index 0..index (schema order). */
function upTo(rules: ObjectProgressRules, index: number): number {
  return rules.bitsBefore[index + 1]!;
}

/** Declared properties still required: the required ones and the dependents of those written, transitively. */
function pendingRequired(rules: ObjectProgressRules, written: number): number {
  return closureOf(rules, rules.requiredMask | written) & ~written;
}

function allFit(alternative: ObjectAlternative, bits: number, room: number): boolean {
  for (let rest = bits; rest !== 0; rest &= rest - 1) {
    if (alternative.properties[alternative.progress.propertyOfBit[31 - Math.clz32(rest & -rest)]!]!.value.height > room) return false;
  }
  return true;
}

/**
 * Under any order, the bit of `written` above the declared properties' (at most 30) that says the last undeclared key
 * written was a witness: declared keys may follow it, since they never repeat an undeclared one. With
 * `witnessAnywhere`, in either order, that some key written was a witness.
 */
const WITNESS_LAST = 1 << 30;

/** The written set after a key of class `index`: under any order, whether it is a witness (the last undeclared key so far). */
export function classWrittenAfter(alternative: ObjectAlternative, written: number, index: number): number {
  const rules = alternative.progress;
  if (rules.witnessAnywhere && alternative.keyClasses[index]!.witness) return written | WITNESS_LAST;
  if (!rules.anyOrder || !rules.endsWithWitness || rules.witnessAnywhere) return written;
  return alternative.keyClasses[index]!.witness ? written | WITNESS_LAST : written & ~WITNESS_LAST;
}

/** Does the object still need a witness key before it closes (its last undeclared key so far is none)? */
function witnessPending(alternative: ObjectAlternative, last: number, written: number): boolean {
  const rules = alternative.progress;
  if (!rules.endsWithWitness) return false;
  // in schema order no declared key follows an undeclared one: the last key tells
  if (rules.anyOrder || rules.witnessAnywhere) return (written & WITNESS_LAST) === 0;
  return !(last <= -2 && alternative.keyClasses[classOf(last)]!.witness);
}

/** Can the object, at this progress and with `room` frames left for a property value, still close? */
export function objectLive(alternative: ObjectAlternative, last: number, written: number, count: number, room: number): boolean {
  const rules = alternative.progress;
  if (count > rules.maxProperties) return false;
  // a witness key comes last, after every declared property still needed
  const witness = witnessPending(alternative, last, written) ? 1 : 0;
  if (witness === 1 && !alternative.keyClasses.some((keyClass) => keyClass.witness && keyClass.value.height <= room)) return false;
  let need: number;
  let pending = 0;
  if (!rules.tracked) {
    // the object's height covers its required properties, so they fit
    need = last <= -2 ? 0 : rules.requiredFrom[last + 1]!;
  } else {
    pending = pendingRequired(rules, written);
    if (!rules.anyOrder && pending !== 0 && (last <= -2 || (pending & upTo(rules, last)) !== 0)) return false;
    if (!allFit(alternative, pending, room)) return false;
    // required properties without a bit come in schema order, as in an untracked object
    need = popcount(pending) + (last <= -2 ? 0 : rules.untrackedRequiredFrom[last + 1]!);
  }
  need += witness;
  if (count + need > rules.maxProperties) return false;
  if (count + need >= rules.minProperties) return true;
  if (alternative.keyClasses.some((keyClass) => keyClass.value.height <= room)) return true;
  return count + need + optionalReach(alternative, last, written | pending, room) >= rules.minProperties;
}

/** How many more declared properties, beyond `taken`, some continuation can still write (no maxProperties applies here). */
function optionalReach(alternative: ObjectAlternative, last: number, taken: number, room: number): number {
  const rules = alternative.progress;
  const properties = alternative.properties;
  if (!rules.anyOrder && last <= -2) return 0;
  const from = rules.anyOrder ? 0 : last + 1;
  if (!rules.tracked) {
    // no bitset here (an untracked object may have more than 30 properties); required ones are already counted
    let optional = 0;
    for (let index = from; index < properties.length; index++) if (!properties[index]!.required && properties[index]!.value.height <= room) optional++;
    return optional;
  }
  let reach = taken;
  let untracked = 0;
  for (let index = from; index < properties.length; index++) {
    const bit = rules.bitOf[index]!;
    if (bit < 0) {
      if (!properties[index]!.required && properties[index]!.value.height <= room) untracked++;
      continue;
    }
    if (((reach >>> bit) & 1) === 1) continue;
    const added = rules.closure[bit]! & ~reach;
    // in schema order a dependent before `last` can no longer be written
    if (!rules.anyOrder && (added & upTo(rules, last)) !== 0) continue;
    if (allFit(alternative, added, room)) reach |= added;
  }
  return popcount(reach & ~taken) + untracked;
}

/** May the object close (`}`) at this progress? */
export function objectCanClose(alternative: ObjectAlternative, last: number, written: number, count: number): boolean {
  const rules = alternative.progress;
  if (count < rules.minProperties || witnessPending(alternative, last, written)) return false;
  if (!rules.tracked) return last <= -2 || rules.requiredFrom[last + 1] === 0;
  return pendingRequired(rules, written) === 0 && (last <= -2 || rules.untrackedRequiredFrom[last + 1] === 0);
}

/** May declared property `index` come next? */
export function declaredAllowed(alternative: ObjectAlternative, last: number, written: number, count: number, index: number, room: number): boolean {
  const rules = alternative.progress;
  if (count >= rules.maxProperties) return false;
  if (rules.anyOrder) {
    if (((written >>> index) & 1) === 1) return false;
  } else {
    if (last <= -2 || index <= last) return false;
    // a required property is never skipped: the written set tells a skipped one apart only when it has a bit
    if ((!rules.tracked || rules.propertyOfBit.length < alternative.properties.length) && index > alternative.reach[last + 1]!) return false;
  }
  if (alternative.properties[index]!.value.height > room) return false;
  return objectLive(alternative, index, writtenAfter(rules, written, index), countAfter(rules, count), room);
}

/** May a key of class `index` come next? */
export function classAllowed(alternative: ObjectAlternative, last: number, written: number, count: number, index: number, room: number): boolean {
  const rules = alternative.progress;
  if (count >= rules.maxProperties) return false;
  if (alternative.keyClasses[index]!.value.height > room) return false;
  if (last > -2 && (rules.tracked ? rules.untrackedRequiredFrom : rules.requiredFrom)[last + 1]! > 0) return false;
  return objectLive(alternative, classProperty(index), classWrittenAfter(alternative, written, index), countAfter(rules, count), room);
}

/**
 * Fewest frames a value of the object needs (Infinity: none), consistent with `objectLive`:
 * an object pushed where its height fits can always close.
 */
export function objectMinHeight(alternative: ObjectAlternative): number {
  const rules = alternative.progress;
  if (alternative.blocked || rules.minProperties > rules.maxProperties) return Infinity;
  const properties = alternative.properties;
  const valueHeight = (index: number): number => 1 + properties[index]!.value.height;
  let height = 1;
  let need = 0;
  const optional: number[] = [];
  if (rules.tracked) {
    const pending = pendingRequired(rules, 0);
    for (let index = 0; index < properties.length; index++) {
      const bit = rules.bitOf[index]!;
      if (bit < 0 ? properties[index]!.required : ((pending >>> bit) & 1) === 1) {
        height = Math.max(height, valueHeight(index));
        need++;
        continue;
      }
      let optionalHeight = valueHeight(index);
      if (bit >= 0)
        for (let rest = rules.closure[bit]! & ~pending; rest !== 0; rest &= rest - 1)
          optionalHeight = Math.max(optionalHeight, valueHeight(rules.propertyOfBit[31 - Math.clz32(rest & -rest)]!));
      optional.push(optionalHeight);
    }
  } else {
    properties.forEach((property, index) => {
      if (!property.required) optional.push(valueHeight(index));
      else {
        height = Math.max(height, valueHeight(index));
        need++;
      }
    });
  }
  if (rules.endsWithWitness) {
    // one more key: an undeclared witness, last
    const witnessHeight = Math.min(Infinity, ...alternative.keyClasses.filter((keyClass) => keyClass.witness).map((keyClass) => 1 + keyClass.value.height));
    height = Math.max(height, witnessHeight);
    need++;
  }
  if (need > rules.maxProperties) return Infinity;
  const extra = rules.minProperties - need;
  if (extra > 0) {
    optional.sort((left, right) => left - right);
    const classHeight = Math.min(Infinity, ...alternative.keyClasses.map((keyClass) => 1 + keyClass.value.height));
    // the extra properties: the j lowest declared ones, and the rest from a key class
    let best = Infinity;
    for (let declared = 0; declared <= Math.min(extra, optional.length); declared++) {
      const fromDeclared = declared === 0 ? 1 : optional[declared - 1]!;
      const fromClass = declared < extra ? classHeight : 1;
      best = Math.min(best, Math.max(fromDeclared, fromClass));
    }
    height = Math.max(height, best);
  }
  return height;
}
