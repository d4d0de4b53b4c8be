/**
 * Which `uniqueItems` items the matcher's memory of values written (`written-strings.ts`) can enforce beyond strings:
 * objects and arrays that never run out of values, so that refusing the close of a repeated item never leaves a dead
 * end (`roomForMember` in `node-heights.ts` keeps an item from being opened where only an empty one would fit); and
 * integers with no range, cut to ±2^53 (exclusive), or numbers with no range, offered as plain decimals of at most 15
 * digits (`held-numbers.ts`), where the memory counts the held values a prefix can still reach.
 * @module
 */
import { endlessKeys, endlessStrings } from './endless-strings.js';
import { jsonEqual } from './lower-typed.js';
import type { Alternative, ArrayAlternative, NumberAlternative, ObjectAlternative, StringAlternative, ValueNode } from './grammar-ir.js';
import { rememberedDecimals } from './held-numbers.js';
import type { NumberAutomaton, NumberConstraint } from './number-language.js';

/**
 * The integers a `uniqueNumbers` array offers: past 2^53 distinct texts parse to one double (`9007199254740993` is
 * `9007199254740992`), so a text's value would not be its digits; within, each text but `-0` is its own value.
 */
export const SAFE_INTEGERS: NumberConstraint = {
  integer: true,
  minimum: -(2 ** 53),
  exclusiveMinimum: true,
  maximum: 2 ** 53,
  exclusiveMaximum: true,
};

/** An integer item with no range nor `multipleOf`: remembered by value (`uniqueNumbers`), offered within `SAFE_INTEGERS`. */
export function rememberedInteger(alternative: Alternative): alternative is NumberAlternative {
  return alternative.kind === 'number' && alternative.unboundedInteger === true;
}

/** An integer or number item with no range nor `multipleOf`: remembered by value (`uniqueNumbers`). */
export function rememberedNumber(alternative: Alternative): alternative is NumberAlternative {
  return alternative.kind === 'number' && (alternative.unboundedInteger === true || alternative.unboundedNumber === true);
}

/**
 * The items of a `uniqueNumbers`/`uniqueContainers` array as the memory offers them (each a new alternative, `nextId`):
 * containers where a member fits, integers as `integers` (`SAFE_INTEGERS`), and, beside a number item, numbers as
 * `REMEMBERED_DECIMALS` (the integer items are some of its texts: they go).
 */
export function rememberedItems(items: readonly Alternative[], integers: NumberAutomaton, nextId: () => number): Alternative[] {
  const decimal = items.some((item) => item.kind === 'number' && item.unboundedNumber === true);
  return items
    .filter((item) => !decimal || !rememberedInteger(item))
    .map((item): Alternative => {
      // offered where a member fits: where only `{}` would, a next item after a held one would be a dead end
      if (item.kind === 'object' && !endlessContainer(item)) return { ...item, id: nextId(), roomForMember: true, closedItem: true };
      if (isContainer(item)) return { ...item, id: nextId(), roomForMember: true };
      if (!rememberedNumber(item)) return item;
      return { ...item, id: nextId(), automaton: decimal ? rememberedDecimals() : integers, rememberedDecimal: decimal };
    });
}

/**
 * A key language with endless completions from every prefix (any string, or a pattern such as `^x-` or `^[a-z]+$`
 * under `propertyNames` or `patternProperties`, declared names excluded): endlessly many keys, so endlessly many
 * distinct objects.
 */
export function endlessKey(key: StringAlternative): boolean {
  return key.free ? key.maxLength === Infinity : endlessKeys(key);
}

export function isContainer(alternative: Alternative): alternative is ObjectAlternative | ArrayAlternative {
  return alternative.kind === 'object' || alternative.kind === 'array';
}

/**
 * An object or array that, from any prefix, has endlessly many values to close as: an object with undeclared keys of
 * an endless class and no `maxProperties` (declared properties or not: the required ones still missing, then a key no
 * held item has, close a value not held); an array of one items schema with no `maxItems`, set or count kept. Any
 * other container item may run out of values that are not held (a closed object's last value, written, leaves one
 * completion), and stays refused.
 */
function endlessContainer(alternative: Alternative): boolean {
  if (alternative.kind === 'array') {
    return (
      alternative.prefix.length === 0 &&
      alternative.items !== null &&
      alternative.maxItems === Infinity &&
      alternative.unique === null &&
      !alternative.uniqueStrings &&
      !alternative.uniqueContainers &&
      !alternative.uniqueNumbers &&
      alternative.contains === null
    );
  }
  if (alternative.kind !== 'object') return false;
  const rules = alternative.progress;
  // declared properties (in schema or any order, required or not) leave room for a fresh undeclared key after them
  return (
    !alternative.blocked &&
    !rules.endsWithWitness &&
    rules.maxProperties === Infinity &&
    alternative.keyClasses.some((keyClass) => keyClass.keys.some(endlessKey))
  );
}

/** An item the memory can keep unique with no dead end: an endless container, or a string whose every prefix has endless completions. */
export function endlessItem(alternative: Alternative): boolean {
  return alternative.kind === 'string' ? endlessStrings(alternative) : endlessContainer(alternative);
}

/**
 * An object item that can run out of values (closed, `maxProperties`, keys that can run out) but only where no key can
 * follow: every value it may take is an endless string, so a prefix has endlessly many completions until only its `}`
 * can follow (`JsonAutomaton.closesOnly`), and there exactly one, which the memory compares with the items held
 * (`closedItem`). Values that can run out (booleans, enums, numbers, containers), a required property that can never
 * be present, a last-key witness, distinct keys that can run out, or no key at all (`{}` alone) stay refused.
 */
export function closableObject(alternative: Alternative): boolean {
  if (alternative.kind !== 'object' || endlessContainer(alternative)) return false;
  if (alternative.blocked || alternative.progress.endsWithWitness || alternative.keyCompletions !== null) return false;
  const endlessValues = (node: ValueNode): boolean =>
    node.literals === null && node.alternatives.every((value) => value.kind === 'string' && endlessStrings(value));
  if (!alternative.properties.every((property) => endlessValues(property.value)) || !alternative.keyClasses.every((keyClass) => endlessValues(keyClass.value)))
    return false;
  // some key can be written: endlessly many values, so a next item is never a dead end (`{}` alone would be, once held)
  const writable = (node: ValueNode): boolean => node.alternatives.length > 0;
  return (
    alternative.progress.maxProperties >= 1 &&
    (alternative.properties.some((property) => writable(property.value)) ||
      alternative.keyClasses.some((keyClass) => keyClass.keys.length > 0 && writable(keyClass.value)))
  );
}

/** Per literal value its class (values equal as JSON share one: 1 and 1.0, objects in either key order), and one value per class. */
export function valueClasses(values: readonly unknown[]): { classOf: Int32Array; representatives: unknown[] } {
  const classOf = new Int32Array(values.length);
  const representatives: unknown[] = [];
  values.forEach((value, index) => {
    let found = representatives.findIndex((other) => jsonEqual(other, value));
    if (found < 0) found = representatives.push(value) - 1;
    classOf[index] = found;
  });
  return { classOf, representatives };
}
