/**
 * Where the registry's Ajv skips `contains` and `uniqueItems` on short arrays: followed where that narrows what the
 * schema accepts, refused where it would widen it.
 *
 * Ajv compiles `not` and `if` (and everything it inlines below them) with `allErrors: false`. There each
 * `prefixItems` entry it does not skip as always valid runs only when the array holds that item, and the keywords
 * after it in the array group (`items`, `contains` with `minContains`/`maxContains`, `uniqueItems`,
 * `unevaluatedItems`) run only when the entry's result variable is true: on an array too short to hold the first
 * such entry the variable is never assigned, and those keywords are skipped as if they passed
 * (`{not: {prefixItems: [{type: "integer"}], contains: {type: "null"}}}` rejects `[]`). Inside a loop of the same
 * compiled function the variable keeps what the previous item left, so the verdict depends on earlier items. The
 * registry's interpreter (where code generation is forbidden) runs every keyword, as the specification does, and the
 * lowering follows the specification: the mask must accept only what both registries accept.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { escapePointer } from '../shared/json-schema/json-pointer.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import { subschemaSlots } from '../shared/json-schema/walk-schema.js';
import type { LoweringContext } from './lower-context.js';
import { alwaysValid, holdsReference } from './lower-unevaluated.js';

/** The applicators whose subschema Ajv compiles with `allErrors: false` (`not.js`, `if.js`). */
const FIRST_ERROR_APPLICATORS = new Set(['not', 'if']);

/** The applicators that run their subschema once per item or property, in a loop of the enclosing function. */
const LOOP_APPLICATORS = new Set([
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/** Keywords holding subschemas Ajv compiles only where a `$ref` reaches them, or never. */
const UNCOMPILED_SLOTS = new Set(['$defs', 'definitions', 'contentSchema']);

const REFERENCE_SLOTS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;

/**
 * How the whole schema's verdict moves with a subschema's: `positive` (it passes more when the subschema passes more),
 * `negative` (below an odd number of `not`, or an `if` with `then` only), `mixed` (below `oneOf`, an `if` with
 * `then` and `else`, or a `contains` with `maxContains`).
 */
type Polarity = 'positive' | 'negative' | 'mixed';

const POLARITIES: readonly Polarity[] = ['positive', 'negative', 'mixed'];

interface CompiledAs {
  /** Below `not`/`if` within the current compiled function. */
  readonly firstError: boolean;
  /** Below a keyword that loops over items or properties within the current compiled function. */
  readonly inLoop: boolean;
  readonly polarity: Polarity;
}

const FUNCTION_ROOT: CompiledAs = { firstError: false, inLoop: false, polarity: 'positive' };

function childPolarity(polarity: Polarity, keyword: string, holder: Record<string, unknown>): Polarity {
  // an item passing more can push a count past maxContains
  if (polarity === 'mixed' || keyword === 'oneOf' || (keyword === 'contains' && holder.maxContains !== undefined)) return 'mixed';
  const flipped: Polarity = polarity === 'positive' ? 'negative' : 'positive';
  if (keyword === 'not') return flipped;
  if (keyword !== 'if') return polarity;
  if (holder.then !== undefined && holder.else !== undefined) return 'mixed';
  return holder.then !== undefined ? flipped : polarity;
}

/** The keyword Ajv skips on arrays shorter than `firstCheckedItem + 1`, where that can change a verdict. */
function skippedOnShortArrays(schema: Record<string, unknown>): { keyword: string; firstCheckedItem: number } | undefined {
  if (!Array.isArray(schema.prefixItems)) return undefined;
  const firstCheckedItem = schema.prefixItems.findIndex((item) => !alwaysValid(item));
  if (firstCheckedItem < 0) return undefined;
  // `minItems` runs before `prefixItems` and fails every array the skip reaches
  if (typeof schema.minItems === 'number' && schema.minItems > firstCheckedItem) return undefined;
  // Ajv skips `minContains: 0` without `maxContains` anyway; without `contains` both bounds are ignored
  if (schema.contains !== undefined && !(schema.minContains === 0 && schema.maxContains === undefined)) return { keyword: 'contains', firstCheckedItem };
  // arrays of at most one item have no duplicates to find
  if (schema.uniqueItems === true && firstCheckedItem >= 2) return { keyword: 'uniqueItems', firstCheckedItem };
  return undefined;
}

/** The keywords Ajv's array group runs after `prefixItems` that a short array can fail; the rest cannot fail it. */
const SKIPPED_KEYWORDS = ['contains', 'minContains', 'maxContains', 'uniqueItems'];

type SlotStep = { readonly keyword: string; readonly key: string | number | undefined };

interface Mirrored {
  readonly path: readonly SlotStep[];
  readonly firstCheckedItem: number;
}

/**
 * The schema as the lowering must take it where Ajv skips `contains`/`uniqueItems` on short arrays. A schema S that Ajv
 * compiles with `allErrors: false` (below `not`/`if`, within one compiled function: a `$ref` whose target holds no
 * reference is inlined, any other target is a function of its own, run with `allErrors`) where
 * {@link skippedOnShortArrays} finds a skip passes more under Ajv than under the specification. Where the whole schema
 * passes less when S passes more (negative {@link Polarity}) S becomes, as Ajv runs it, S without those keywords plus
 * `anyOf: [{maxItems: i}, {those keywords}]` appended to its `allOf`, i the index of the first checked `prefixItems`
 * entry; where it passes more (positive) S stays as the specification has it. Refused (naming the keyword): inside a
 * loop of the same function, where Ajv's verdict depends on the items checked before; at mixed polarity, where neither
 * reading is within both registries; and, for a rewrite, in a document with references or `unevaluatedItems`, where
 * S could be reached in another mode or its evaluated items read elsewhere. Returns the root unchanged when nothing is
 * rewritten.
 */
export function followShortTupleSkips(context: LoweringContext): unknown {
  const mirrored: Mirrored[] = [];
  const refusable: { keyword: string; pointer: string; details: string }[] = [];
  let rewritable = !holdsReference(context.root);
  // the modes each schema was reached in, one bit per mode
  const seen = new Map<object, number>();
  const work: { schema: unknown; place: SchemaPlace; as: CompiledAs; path: readonly SlotStep[] }[] = [
    { schema: context.root, place: context.registry.placeOf(context.root) ?? { base: '', pointer: '#' }, as: FUNCTION_ROOT, path: [] },
  ];
  while (work.length > 0) {
    const { schema, place, as, path } = work.pop()!;
    if (!isPlainObject(schema)) continue;
    const state = 1 << ((as.firstError ? 1 : 0) + (as.inLoop ? 2 : 0) + 4 * POLARITIES.indexOf(as.polarity));
    const states = seen.get(schema) ?? 0;
    if ((states & state) !== 0) continue;
    seen.set(schema, states | state);
    if (schema.unevaluatedItems !== undefined) rewritable = false;
    const skipped = as.firstError ? skippedOnShortArrays(schema) : undefined;
    if (skipped !== undefined) {
      const below = `below "not" or "if" the registry's validator (Ajv) checks only the first error, and skips "${skipped.keyword}" on arrays of at most ${skipped.firstCheckedItem} items, which do not reach the first "prefixItems" entry it checks`;
      const fix = `Put "prefixItems" and "${skipped.keyword}" in separate "allOf" entries, which Ajv checks in full`;
      if (as.inLoop) {
        const history = `; here it runs once per item or property of an enclosing array or object, and whether it skips "${skipped.keyword}" then depends on the items checked before`;
        context.refuse(skipped.keyword, place.pointer, `${below}${history}. ${fix}`);
      } else if (as.polarity === 'mixed') {
        // the interpreter registry (no code generation) runs the keyword: only a rewrite that narrows is sound for both
        const both = `; here (below "oneOf", or an "if" with "then" and "else") the skip can widen what the schema accepts, beyond what the registry's interpreter (used where code generation is forbidden) accepts`;
        context.refuse(skipped.keyword, place.pointer, `${below}${both}. ${fix}`);
      } else if (as.polarity === 'negative') {
        mirrored.push({ path, firstCheckedItem: skipped.firstCheckedItem });
        const unmirrored = `${below}, which the engine follows only in a document without references or "unevaluatedItems"`;
        refusable.push({ keyword: skipped.keyword, pointer: place.pointer, details: `${unmirrored}. ${fix}` });
      }
      // positive: the skip only widens what Ajv accepts, so the specification's verdict (the interpreter's) is within it
    }
    for (const slot of subschemaSlots(schema)) {
      if (UNCOMPILED_SLOTS.has(slot.keyword)) continue;
      // Ajv ignores an `if` without `then` and `else`
      if (slot.keyword === 'if' && schema.then === undefined && schema.else === undefined) continue;
      const pointer = `${place.pointer}/${slot.keyword}${slot.key === undefined ? '' : `/${escapePointer(String(slot.key))}`}`;
      const childAs: CompiledAs = {
        firstError: as.firstError || FIRST_ERROR_APPLICATORS.has(slot.keyword),
        inLoop: as.inLoop || LOOP_APPLICATORS.has(slot.keyword),
        polarity: childPolarity(as.polarity, slot.keyword, schema),
      };
      const childPlace = context.registry.placeOf(slot.schema) ?? { base: place.base, pointer };
      work.push({ schema: slot.schema, place: childPlace, as: childAs, path: [...path, { keyword: slot.keyword, key: slot.key }] });
    }
    for (const keyword of REFERENCE_SLOTS) {
      const reference = schema[keyword];
      if (typeof reference !== 'string') continue;
      const target = context.registry.resolve(reference, place.base);
      if (target === undefined) continue;
      // Ajv inlines a `$ref` whose target holds no reference, in the referrer's mode; any other target, and every
      // dynamic one, is a function of its own, with all errors and fresh variables (its verdict still counts as the referrer's)
      const inlined = keyword === '$ref' && !holdsReference(target.schema);
      work.push({ schema: target.schema, place: target.place, as: inlined ? as : { ...FUNCTION_ROOT, polarity: as.polarity }, path: [] });
    }
  }
  if (!rewritable || context.relaxed.length > 0) {
    for (const { keyword, pointer, details } of refusable) context.refuse(keyword, pointer, details);
    return context.root;
  }
  // deepest first: a rewrite only removes the skipped keywords and appends to `allOf`, so shallower paths stay valid
  let root = context.root;
  for (const { path, firstCheckedItem } of [...mirrored].sort((left, right) => right.path.length - left.path.length))
    root = replaceAt(root, path, (schema) => splitAtFirstCheckedItem(schema, firstCheckedItem));
  return root;
}

function splitAtFirstCheckedItem(schema: Record<string, unknown>, firstCheckedItem: number): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  const skipped: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) (SKIPPED_KEYWORDS.includes(keyword) ? skipped : rest)[keyword] = value;
  const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
  return { ...rest, allOf: [...allOf, { anyOf: [{ maxItems: firstCheckedItem }, skipped] }] };
}

/** A copy of `root` with the schema at `path` replaced, sharing everything off the path. */
function replaceAt(root: unknown, path: readonly SlotStep[], replace: (schema: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (path.length === 0) return replace(root as Record<string, unknown>);
  const [step, ...rest] = path as [SlotStep, ...SlotStep[]];
  const parent = root as Record<string, unknown>;
  const slot = parent[step.keyword];
  if (step.key === undefined) return { ...parent, [step.keyword]: replaceAt(slot, rest, replace) };
  if (Array.isArray(slot)) return { ...parent, [step.keyword]: slot.map((child, index) => (index === step.key ? replaceAt(child, rest, replace) : child)) };
  const map = slot as Record<string, unknown>;
  return { ...parent, [step.keyword]: { ...map, [step.key]: replaceAt(map[step.key], rest, replace) } };
}
