/**
 * Which configurations of the JSON automaton the matcher's run-time memory (`written-strings.ts`) concerns: item strings
 * and keys it remembers, container and integer items it remembers whole, the completions an item or key has left where its language
 * can run out, and the literal items of a `uniqueItems` array whose set of values the frame keeps.
 * @module
 */
import { ArrayPhase, Kind, ObjectPhase, StringMode, type Stack } from './automaton-frames.js';
import { uniqueClassAllowed, uniqueClassOf, uniqueSubtreeValues } from './array-progress.js';
import type { Alternative, ArrayAlternative, ItemCompletions, NumberAlternative, ObjectAlternative } from './grammar-ir.js';
import { TRACKED_DECIMAL, TRACKED_INTEGER, TRACKED_RANGED } from './held-numbers.js';
import { rangeValueCount } from './held-ranges.js';
import type { NumberConstraint } from './number-language.js';
import type { DecimalMultipleCheck } from './decimal-multiples.js';

/** Which run-time memories the automaton's alternatives need the matcher to keep (`JsonAutomaton`'s fields of those names). */
export function runTimeMemories(alternatives: readonly (Alternative | undefined)[]): {
  countedLanguages: ItemCompletions[];
  remembersContainers: boolean;
  remembersClosedItems: boolean;
  remembersNumbers: boolean;
  remembersRanges: boolean;
  tracksStrings: boolean;
  checksNumbers: boolean;
} {
  const present = alternatives.filter((alternative) => alternative !== undefined);
  return {
    countedLanguages: present.flatMap((alternative) =>
      alternative.kind === 'array' && alternative.itemCompletions !== null
        ? [alternative.itemCompletions]
        : alternative.kind === 'object' && alternative.keyCompletions !== null
          ? [alternative.keyCompletions]
          : [],
    ),
    remembersContainers: present.some((alternative) => alternative.kind === 'array' && alternative.uniqueContainers),
    remembersClosedItems: present.some((alternative) => alternative.kind === 'object' && alternative.closedItem === true),
    remembersNumbers: present.some((alternative) => alternative.kind === 'array' && alternative.uniqueNumbers),
    remembersRanges: present.some((alternative) => alternative.kind === 'number' && alternative.rememberedRange !== undefined),
    tracksStrings: present.some(
      (alternative) => (alternative.kind === 'array' && alternative.uniqueStrings) || (alternative.kind === 'object' && alternative.distinctKeys),
    ),
    checksNumbers: present.some((alternative) => alternative.kind === 'number' && alternative.check !== undefined),
  };
}

/** Whether every object frame of `config` has written its declared properties as a prefix of their order (2^k − 1). */
export function writtenInDeclaredOrder(config: Stack): boolean {
  for (let at: Stack | null = config; at !== null; at = at.parent) {
    const written = at.frame.written;
    if (at.frame.kind === Kind.Object && (written & (written + 1)) !== 0) return false;
  }
  return true;
}

/** The decimal `multipleOf` checks of a state's numbers past their first byte, and (bit per index) those that can close there. */
export interface CheckedNumbers {
  readonly checks: readonly DecimalMultipleCheck[];
  readonly closing: number;
}

/**
 * The checks of the configurations writing a checked number (`NumberAlternative.check`), undefined where none: before
 * its first byte a number is empty, which no check refuses.
 */
export function checkedNumbersOf(alternatives: readonly Alternative[], configs: readonly Stack[]): CheckedNumbers | undefined {
  const checks: DecimalMultipleCheck[] = [];
  let closing = 0;
  for (const { frame } of configs) {
    const alternative = alternatives[frame.alternative];
    if (frame.kind !== Kind.Number || frame.numberState === 0 || alternative?.kind !== 'number' || alternative.check === undefined) continue;
    let index = checks.indexOf(alternative.check);
    if (index < 0) index = checks.push(alternative.check) - 1;
    if (alternative.automaton.accepting[frame.numberState] === 1) closing |= 1 << index;
  }
  return checks.length === 0 ? undefined : { checks, closing };
}

/** True when the string on top of `config` is an item of a `uniqueItems` array of strings or an undeclared key of an object with `distinctKeys`. */
export function isTrackedItem(alternatives: readonly Alternative[], config: Stack): boolean {
  const parent = config.parent?.frame;
  if (config.frame.kind !== Kind.String || parent === undefined) return false;
  if (parent.kind === Kind.Array) return (alternatives[parent.alternative] as ArrayAlternative).uniqueStrings;
  return parent.kind === Kind.Object && parent.phase === ObjectPhase.AdditionalKey && (alternatives[parent.alternative] as ObjectAlternative).distinctKeys;
}

/** True when the object or array on top of `config`, past its opening byte, is an item of a `uniqueContainers` array. */
export function isTrackedContainer(alternatives: readonly Alternative[], config: Stack): boolean {
  const { frame, parent } = config;
  if ((frame.kind !== Kind.Object && frame.kind !== Kind.Array) || frame.phase === 0 || parent?.frame.kind !== Kind.Array) return false;
  return (alternatives[parent.frame.alternative] as ArrayAlternative).uniqueContainers;
}

/** True when the number on top of `config` is an item of a `uniqueNumbers` array (it finishes at the byte after it, not at its last digit). */
export function isTrackedNumber(alternatives: readonly Alternative[], config: Stack): boolean {
  const parent = config.parent?.frame;
  return config.frame.kind === Kind.Number && parent?.kind === Kind.Array && (alternatives[parent.alternative] as ArrayAlternative).uniqueNumbers;
}

/**
 * Which kinds of remembered number items `configs` write (`JsonAutomaton.trackedNumber`): `TRACKED_INTEGER`,
 * `TRACKED_DECIMAL`, `TRACKED_RANGED` (bits), or 0.
 */
export function trackedNumberKinds(alternatives: readonly Alternative[], configs: readonly Stack[]): number {
  let kinds = 0;
  for (const config of configs) {
    if (!isTrackedNumber(alternatives, config)) continue;
    const number = alternatives[config.frame.alternative] as NumberAlternative;
    kinds |= number.rememberedRange !== undefined ? TRACKED_RANGED : number.rememberedDecimal === true ? TRACKED_DECIMAL : TRACKED_INTEGER;
  }
  return kinds;
}

/** The ranges of the remembered number items under a range that `configs` write (`JsonAutomaton.trackedRanges`), undefined where none. */
export function trackedRangesOf(alternatives: readonly Alternative[], configs: readonly Stack[]): readonly NumberConstraint[] | undefined {
  const ranges: NumberConstraint[] = [];
  for (const config of configs) {
    if (!isTrackedNumber(alternatives, config)) continue;
    const range = (alternatives[config.frame.alternative] as NumberAlternative).rememberedRange;
    if (range !== undefined && !ranges.includes(range)) ranges.push(range);
  }
  return ranges.length === 0 ? undefined : ranges;
}

/** The completion counts of the array on top of `config`, or of the array (or object) whose item string (or key) is on top; null where none counts. */
export function countedItems(alternatives: readonly Alternative[], config: Stack): ItemCompletions | null {
  const frame = config.frame;
  // before its `[` an array holds no items yet, and the container open is another's
  if (frame.kind === Kind.Array) return frame.phase === ArrayPhase.Open ? null : (alternatives[frame.alternative] as ArrayAlternative).itemCompletions;
  if (!isTrackedItem(alternatives, config)) return null;
  const parent = alternatives[config.parent!.frame.alternative]!;
  return parent.kind === 'array' ? parent.itemCompletions : (parent as ObjectAlternative).keyCompletions;
}

/**
 * True when some object of `config` (after its `{`) counts its keys (`keyCompletions`), or `config` writes a number
 * item of an array that counts its item strings (`stringsBesideNumbers`): a token that ends the value being written and
 * opens the next key or item (`1,"a`, `}},"a`, `1,"`) can reach a prefix whose every completion is held.
 */
export function insideCounted(alternatives: readonly Alternative[], config: Stack): boolean {
  const parent = config.parent?.frame;
  if (config.frame.kind === Kind.Number && parent?.kind === Kind.Array && (alternatives[parent.alternative] as ArrayAlternative).itemCompletions !== null) {
    return true;
  }
  for (let at: Stack | null = config; at !== null; at = at.parent) {
    const frame = at.frame;
    if (frame.kind === Kind.Object && frame.phase !== ObjectPhase.Open && (alternatives[frame.alternative] as ObjectAlternative).keyCompletions !== null)
      return true;
  }
  return false;
}

/**
 * The completions `config` has left among its array's item strings: before an item (after `,`), the whole
 * language's; inside one at a character boundary, the prefix's. Infinity where it does not count (elsewhere, or
 * where its array's items never run out).
 */
export function completionsOf(alternatives: readonly Alternative[], config: Stack): number {
  const counts = countedItems(alternatives, config);
  if (counts === null) return Infinity;
  const frame = config.frame;
  // before an item, the numbers beside the strings can be written too (`stringsBesideNumbers`)
  if (frame.kind === Kind.Array)
    return frame.phase === ArrayPhase.Next ? counts.total + numbersBeside(alternatives[frame.alternative] as ArrayAlternative) : Infinity;
  if (frame.phase === StringMode.Open) return counts.total;
  return frame.phase === StringMode.Boundary ? counts.at(frame.dfaState, frame.count) : Infinity;
}

/** The `uniqueItems` array under the literal on top of `config`, or null (such arrays hold literals only). */
function uniqueParent(alternatives: readonly Alternative[], config: Stack): ArrayAlternative | null {
  const parent = config.parent?.frame;
  if (parent?.kind !== Kind.Array) return null;
  const alternative = alternatives[parent.alternative] as ArrayAlternative;
  return alternative.unique === null ? null : alternative;
}

/** True when literal `value` cannot be the next item of its `uniqueItems` array: already held (JSON equality), or no way to close after it. */
export function usedBefore(alternatives: readonly Alternative[], config: Stack, value: number): boolean {
  const alternative = uniqueParent(alternatives, config);
  const frame = config.parent!.frame;
  return alternative !== null && !uniqueClassAllowed(alternative, frame, uniqueClassOf(alternative.unique!, frame.items, value));
}

/** True when some literal below trie node `child` may still be the next item of the `uniqueItems` array above (if any). */
export function literalOpen(alternatives: readonly Alternative[], config: Stack, child: number): boolean {
  const alternative = uniqueParent(alternatives, config);
  if (alternative === null) return true;
  const unique = alternative.unique!;
  const frame = config.parent!.frame;
  return uniqueSubtreeValues(unique, frame.items, child).some((value) => uniqueClassAllowed(alternative, frame, uniqueClassOf(unique, frame.items, value)));
}

/** How many values the number items of `array` offer beside its strings: under a range, `rangeValueCount`; else endless. */
function numbersBeside(array: ArrayAlternative): number {
  if (!array.uniqueNumbers || array.items === null) return 0;
  let values = 0;
  for (const item of array.items.alternatives) {
    if (item.kind === 'number') values += item.rememberedRange === undefined ? Infinity : rangeValueCount(item.rememberedRange);
  }
  return values;
}
