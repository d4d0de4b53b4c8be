/**
 * Which `uniqueItems` items the matcher's memory of values written (`written-strings.ts`) can enforce beyond strings:
 * objects and arrays that never run out of values, so that refusing the close of a repeated item never leaves a dead
 * end (`roomForMember` in `node-heights.ts` keeps an item from being opened where only an empty one would fit); and
 * integers with no range, cut to ±2^53 (exclusive), or numbers with no range, offered as plain decimals of at most 15
 * digits (`held-numbers.ts`), or either under a range (`held-ranges.ts`), where the memory counts the held values a
 * prefix can still reach.
 * @module
 */
import { endlessKeys, endlessStrings } from './endless-strings.js';
import { planUniqueStrings, type AutomatonConstructions, type StringCompletions } from './string-completions.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { jsonEqual, literalText } from './lower-typed.js';
import {
  ByteTrie,
  type Alternative,
  type ArrayAlternative,
  type NumberAlternative,
  type ObjectAlternative,
  type StringAlternative,
  type ValueNode,
} from './grammar-ir.js';
import { rememberedDecimals } from './held-numbers.js';
import { rangeValueCount, rememberedRangeAutomaton } from './held-ranges.js';
import { finiteNumberTexts, type NumberAutomaton, type NumberConstraint } from './number-language.js';

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

/** An integer or number item with no `multipleOf` (under a range or not): remembered by value (`uniqueNumbers`). */
export function rememberedNumber(alternative: Alternative): alternative is NumberAlternative {
  return (
    alternative.kind === 'number' && (alternative.unboundedInteger === true || alternative.unboundedNumber === true || alternative.rangedNumber !== undefined)
  );
}

/**
 * The items of a `uniqueNumbers`/`uniqueContainers` array as the memory offers them (each a new alternative, `nextId`):
 * containers where a member fits, integers as `integers` (`SAFE_INTEGERS`), and, beside a number item, numbers as
 * `REMEMBERED_DECIMALS` (the integer items are some of its texts: they go); a number under a range as those of its
 * texts (`rememberedRangeAutomaton`), gone where the range holds none of them.
 */
export function rememberedItems(items: readonly Alternative[], integers: NumberAutomaton, nextId: () => number): Alternative[] {
  const decimal = items.some((item) => item.kind === 'number' && item.unboundedNumber === true);
  return items
    .filter((item) => !decimal || !rememberedInteger(item))
    .flatMap((item): Alternative[] => {
      // offered where a member fits: where only `{}` would, a next item after a held one would be a dead end
      if (item.kind === 'object' && !endlessContainer(item)) return [{ ...item, id: nextId(), roomForMember: true, closedItem: true }];
      if (isContainer(item)) return [{ ...item, id: nextId(), roomForMember: true }];
      if (!rememberedNumber(item)) return [item];
      const range = item.rangedNumber;
      if (range === undefined) return [{ ...item, id: nextId(), automaton: decimal ? rememberedDecimals() : integers, rememberedDecimal: decimal }];
      const automaton = rememberedRangeAutomaton(item.automaton, range.integer ? integers : rememberedDecimals());
      return automaton === null ? [] : [{ ...item, id: nextId(), automaton, rememberedRange: range }];
    });
}

/** The literal items beside remembered ones, as the array's set keeps them, and the most distinct items the array offers. */
export interface LiteralsBeside {
  readonly values: unknown[];
  readonly literals: ByteTrie | null;
  readonly classOf: Int32Array;
  readonly representatives: readonly unknown[];
  /**
   * Where every remembered item is a number under a range or a string that runs out, their values (`rangeValueCount`,
   * the strings' total) and the literal classes; else endless.
   */
  readonly most: number;
}

/**
 * The string items beside remembered numbers as the memory keeps them: where some can run out, one alternative (the
 * union of several, `planUniqueStrings`) and the counts of its completions, which the matcher compares with the held
 * strings alone (a number is never a string: each kind runs out on its own); else as they are. Refused beside objects
 * or arrays and beside literals, whose items would share the count before an item.
 */
export function stringsBesideNumbers(
  items: readonly Alternative[],
  hasLiterals: boolean,
  constructions: AutomatonConstructions,
  languageOf: (dfa: CodePointDfa) => StringAlternative,
): { items: readonly Alternative[]; completions: StringCompletions | null } | string {
  const strings = items.filter((item) => item.kind === 'string');
  if (strings.every(endlessStrings)) return { items, completions: null };
  if (hasLiterals || items.some(isContainer)) {
    return 'over strings that can run out beside objects, arrays or literals (enum/const, booleans, null); make the strings endless (no maxLength, a pattern with no end), or list the allowed values in an "enum"';
  }
  let plan = planUniqueStrings(strings, constructions);
  let kept = items;
  if (plan.kind === 'union') {
    const union = languageOf(plan.dfa);
    kept = [...items.filter((item) => item.kind !== 'string'), union];
    plan = planUniqueStrings([union], constructions);
  }
  if (plan.kind === 'refused') return plan.reason;
  return { items: kept, completions: plan.kind === 'counted' ? plan.completions : null };
}

/**
 * The literal `values` beside the remembered `items` (`rememberedItems`), less each number whose text a number item
 * offers: the memory sees it written as that number, and the texts offered stay the same. Else why they cannot be
 * remembered: a number literal no number item offers could repeat a remembered number's value unseen by the set; and
 * the memory counts a prefix's completions under one range per number item, where the languages must not overlap.
 */
export function literalsBeside(values: readonly unknown[], items: readonly Alternative[], strings: number): LiteralsBeside | string {
  const numbers = items.filter((item) => item.kind === 'number');
  if (numbers.length > 1 && numbers.some((item) => item.rememberedRange !== undefined)) {
    return 'over numbers under a range beside other number schemas (an anyOf of several); merge them into one number schema, or list the allowed values in an "enum"';
  }
  const kept = values.filter((value) => typeof value !== 'number' || !numbers.some((item) => item.automaton.matches(literalText(value))));
  if (numbers.length > 0 && kept.some((value) => typeof value === 'number')) {
    return 'over numbers beside number literals (enum/const) they do not offer (past their range, or not written as they write numbers: the memory and the set of literals would not see each other); list every allowed value in an "enum"';
  }
  const literals = kept.length === 0 ? null : textTrie(kept.map(literalText));
  const { classOf, representatives } = valueClasses(kept);
  let most = representatives.length;
  for (const item of items) {
    if (item.kind === 'string') continue;
    most += item.kind === 'number' && item.rememberedRange !== undefined ? rangeValueCount(item.rememberedRange) : Infinity;
  }
  most += items.some((item) => item.kind === 'string') ? strings : 0;
  return { values: kept, literals, classOf, representatives, most };
}

/** A trie of `texts`, each text's index its value's. */
function textTrie(texts: readonly string[]): ByteTrie {
  const trie = new ByteTrie();
  const encoder = new TextEncoder();
  texts.forEach((text, index) => trie.add(encoder.encode(text), index));
  return trie;
}

/**
 * The literal `values` and the number `items`' texts (`-0` beside `0` included, each its value), where each number item
 * has finitely many (an integer range, or one under an integer `multipleOf`); undefined where some item is no number,
 * or has infinitely many texts or more than `maxTexts`.
 */
export function numberLiterals(
  values: readonly unknown[],
  items: readonly Alternative[],
  maxTexts: number,
): { values: unknown[]; literals: ByteTrie } | undefined {
  const kept = [...values];
  const texts = kept.map(literalText);
  for (const item of items) {
    const written = item.kind === 'number' ? finiteNumberTexts(item.automaton, maxTexts) : undefined;
    if (written === undefined) return undefined;
    for (const text of written) {
      if (texts.includes(text)) continue;
      texts.push(text);
      kept.push(Number(text));
    }
  }
  return { values: kept, literals: textTrie(texts) };
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
