/**
 * `unevaluatedProperties` / `unevaluatedItems` for the shapes where evaluation is static:
 * the names (items) evaluated are those of `properties` and the keys `patternProperties`
 * match (`prefixItems`) in the schema and in every subschema it always applies (`allOf`,
 * `$ref`), so the keyword is `additionalProperties` (`items`) over that union. Where a
 * subschema that may or may not pass (`anyOf`, `oneOf`, `if`/`then`/`else`,
 * `dependentSchemas`) decides what is evaluated, the values are split by which branches pass
 * and each piece is closed as Ajv's generated code closes it (`unevaluated-branches.ts`, also for branches inside an
 * `allOf` part or an inlined `$ref` target); `patternProperties` or further branches inside such a branch and
 * `$dynamicRef` are refused. `contains` follows the registry's Ajv, which marks every
 * item evaluated once a `contains` with assertions ran (the spec: only the items it matches).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { LocationSet } from './schema-complement.js';
import { FALSE_SET, TRUE_SET, type PatternGroup } from './lower-typed.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import {
  AJV_RULE_KEYWORDS,
  closeByBranches,
  TrackingVariable,
  type ClosedKeyword,
  type Dimension,
  type UnevaluatedContext,
  type UnevaluatedLocation,
  type UnevaluatedTyped,
} from './unevaluated-branches.js';

export { alwaysValid, holdsReference, type UnevaluatedContext } from './unevaluated-branches.js';

/**
 * True when the registry's Ajv marks all items evaluated for this schema's `contains`: it does so after running any
 * `contains` it does not skip, and it skips one without assertions (`true`, `{}`) and `minContains: 0` without `maxContains`.
 */
function containsEvaluatesAll(schema: Record<string, unknown>): boolean {
  const contains = schema.contains;
  if (schema.minContains === 0 && schema.maxContains === undefined) return false;
  if (typeof contains === 'boolean') return !contains;
  return isPlainObject(contains) && Object.keys(contains).some((keyword) => AJV_RULE_KEYWORDS.has(keyword));
}

/** What a schema evaluates of an instance wherever it passes. */
interface Evaluation {
  readonly names: Set<string>;
  /** `patternProperties` regexes: the keys they match are evaluated. */
  readonly patterns: Set<string>;
  allNames: boolean;
  /** Why the evaluated names depend on the instance, if they do. */
  namesVary: string | undefined;
  items: number;
  allItems: boolean;
  itemsVary: string | undefined;
}

const CONDITIONAL_APPLICATORS = ['anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', 'dependencies'] as const;

export function applyUnevaluated<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  result: T[],
  location: L,
  schema: Record<string, unknown>,
  context: UnevaluatedContext<T, L>,
): T[] {
  const pointer = location.place.pointer;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const evaluation: Evaluation = {
    names: new Set(),
    patterns: new Set(),
    allNames: false,
    namesVary: undefined,
    items: 0,
    allItems: false,
    itemsVary: undefined,
  };
  collect(schema, location.place.base, undefined, new Set(), evaluation, context, true);
  const others = (type: T['type']): T[] =>
    (['null', 'boolean', 'number', 'string', 'array', 'object'] as const).filter((other) => other !== type).map((other) => context.blank(other, pointer));
  if (has('unevaluatedProperties') && !evaluation.allNames) {
    const closed =
      evaluation.namesVary === undefined
        ? context.intersectLists(
            result,
            [...others('object'), closedOver(context, location, schema, { names: evaluation.names, patterns: evaluation.patterns, throwing: NO_PATTERNS })],
            `${pointer}/unevaluatedProperties`,
          )
        : closeByBranches(result, location, schema, context, propertiesClosing(context, location, schema));
    if (typeof closed !== 'string') result = closed;
    else context.refuse('unevaluatedProperties', pointer, `the evaluated properties depend on ${evaluation.namesVary}, which is not enforced (${closed})`);
  }
  // Ajv's own `items` or `contains` sets `it.items` to true; everything merged in from elsewhere while a branch's variable
  // tracks the items sets that variable to true, which its `unevaluatedItems` reads as the index 1 (see itemsClosing)
  const ownEvaluatesEveryItem = has('items') || (has('contains') && containsEvaluatesAll(schema));
  if (has('unevaluatedItems') && !ownEvaluatesEveryItem && (!evaluation.allItems || evaluation.itemsVary !== undefined)) {
    const closed =
      evaluation.itemsVary === undefined
        ? context.intersectLists(
            result,
            [...others('array'), closedAfter(context, location, schema.unevaluatedItems, evaluation.items)],
            `${pointer}/unevaluatedItems`,
          )
        : closeByBranches(result, location, schema, context, itemsClosing(context, location, schema));
    if (typeof closed !== 'string') result = closed;
    else context.refuse('unevaluatedItems', pointer, `the evaluated items depend on ${evaluation.itemsVary}, which is not enforced (${closed})`);
  }
  return result;
}

/** Adds what `schema` evaluates; `conditional` names the applicator under which it may not apply. */
function collect<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  schema: unknown,
  base: string,
  conditional: string | undefined,
  seen: Set<object>,
  out: Evaluation,
  context: UnevaluatedContext<T, L>,
  top: boolean,
): void {
  if (!isPlainObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  base = context.placeOf(schema)?.base ?? base;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const names = (): void => {
    if (conditional !== undefined) out.namesVary ??= conditional;
  };
  const items = (): void => {
    if (conditional !== undefined) out.itemsVary ??= conditional;
  };
  if (has('properties') && isPlainObject(schema.properties)) {
    names();
    for (const name of Object.keys(schema.properties)) out.names.add(name);
  }
  // the schema's own unevaluated* keywords are the ones being applied; a nested one evaluates everything left
  if (has('additionalProperties') || (!top && has('unevaluatedProperties'))) {
    names();
    if (conditional === undefined) out.allNames = true;
  }
  if (has('patternProperties') && isPlainObject(schema.patternProperties)) {
    names();
    for (const source of patternSources(schema.patternProperties)) out.patterns.add(source);
  }
  if (has('prefixItems') && Array.isArray(schema.prefixItems)) {
    items();
    out.items = Math.max(out.items, schema.prefixItems.length);
  }
  if (has('items')) {
    items();
    if (Array.isArray(schema.items)) out.items = Math.max(out.items, schema.items.length);
    else if (conditional === undefined) out.allItems = true;
  }
  if (has('additionalItems') || (!top && has('unevaluatedItems'))) {
    items();
    if (conditional === undefined) out.allItems = true;
  }
  if (has('contains') && containsEvaluatesAll(schema)) {
    items();
    if (conditional === undefined) out.allItems = true;
  }
  // where a dynamic reference leads depends on the function it is reached in (dynamic-reference.ts), which this walk does not track
  if (has('$dynamicRef') || has('$recursiveRef')) {
    out.namesVary ??= 'a $dynamicRef/$recursiveRef that always applies (where it leads depends on the $ref that reached it)';
    out.itemsVary ??= 'a $dynamicRef/$recursiveRef that always applies (where it leads depends on the $ref that reached it)';
  }
  if (has('allOf') && Array.isArray(schema.allOf)) for (const part of schema.allOf) collect(part, base, conditional, seen, out, context, false);
  if (has('$ref') && typeof schema.$ref === 'string') {
    const target = context.resolve(schema.$ref, base);
    if (target !== undefined) collect(target.schema, target.place.base, conditional, seen, out, context, false);
  }
  for (const keyword of CONDITIONAL_APPLICATORS) {
    if (!has(keyword)) continue;
    const value = schema[keyword];
    const parts = Array.isArray(value) ? value : keyword === 'dependentSchemas' || keyword === 'dependencies' ? Object.values(value as object) : [value];
    for (const part of parts) collect(part, base, conditional ?? `"${keyword}"`, seen, out, context, false);
  }
}

/**
 * The property names Ajv's code has marked evaluated: the declared `names`, the keys the `patterns` match, and none
 * where a `throwing` pattern matches a key: its `patternProperties` wrote `props[key]` into an undefined variable, which
 * throws, so the registry refuses the value.
 */
interface EvaluatedNames {
  readonly names: ReadonlySet<string>;
  readonly patterns: ReadonlySet<string>;
  readonly throwing: ReadonlySet<string>;
}

const NO_PATTERNS: ReadonlySet<string> = new Set();

/** Ajv's `allSchemaProperties`: the names of a `properties`/`patternProperties` object but `__proto__`. */
function patternSources(value: object): string[] {
  return Object.keys(value).filter((name) => name !== '__proto__');
}

const NAMES: Dimension<EvaluatedNames> = {
  unmodelled: ['$dynamicRef', '$recursiveRef', 'anyOf', 'oneOf', 'if', 'dependentSchemas', 'dependencies'],
  unmodelledBeside: ['$dynamicRef', '$recursiveRef', 'dependencies'],
  everything: (schema) => Object.hasOwn(schema, 'additionalProperties') || Object.hasOwn(schema, 'unevaluatedProperties'),
  own: (schema) => {
    const names = isPlainObject(schema.properties) ? patternSources(schema.properties) : [];
    const patterns = isPlainObject(schema.patternProperties) ? patternSources(schema.patternProperties) : [];
    return names.length === 0 && patterns.length === 0 ? undefined : { names: new Set(names), patterns: new Set(patterns), throwing: NO_PATTERNS };
  },
  join: (left, right) =>
    left === undefined
      ? right
      : {
          names: new Set([...left.names, ...right.names]),
          patterns: new Set([...left.patterns, ...right.patterns]),
          throwing: new Set([...left.throwing, ...right.throwing]),
        },
  inVariable: (evaluated) => evaluated.patterns.size > 0,
  ownIntoUndefined: (evaluated) =>
    evaluated.names.size === 0 && evaluated.patterns.size > 0 ? { names: new Set(), patterns: NO_PATTERNS, throwing: evaluated.patterns } : evaluated,
  dependenciesRun: true,
};

const ITEMS: Dimension<number> = {
  unmodelled: ['$dynamicRef', '$recursiveRef', 'additionalItems', 'anyOf', 'oneOf', 'if', 'dependentSchemas', 'dependencies'],
  unmodelledBeside: ['$dynamicRef', '$recursiveRef', 'additionalItems', 'dependencies'],
  everything: (schema) =>
    Object.hasOwn(schema, 'items') || Object.hasOwn(schema, 'unevaluatedItems') || (Object.hasOwn(schema, 'contains') && containsEvaluatesAll(schema)),
  own: (schema) => (Array.isArray(schema.prefixItems) && schema.prefixItems.length > 0 ? schema.prefixItems.length : undefined),
  join: (left, right) => Math.max(left ?? 0, right),
  inVariable: () => false,
  ownIntoUndefined: (evaluated) => evaluated,
  dependenciesRun: false,
};

/**
 * The objects whose properties outside what is evaluated satisfy the schema's `unevaluatedProperties`: the declared names
 * and the keys the patterns match take any value, and no key a throwing pattern matches may appear (declared or not).
 */
function closedOver<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  schema: Record<string, unknown>,
  evaluated: EvaluatedNames,
): T {
  const pointer = location.place.pointer;
  const closing = context.blank('object', pointer);
  const rules: PatternGroup['rules'][number][] = [];
  const rule = (source: string, set: LocationSet): CodePointDfa | undefined => {
    let dfa: CodePointDfa | undefined;
    try {
      dfa = context.keyPattern(source);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
    }
    if (dfa === undefined)
      context.refuse(
        'unevaluatedProperties',
        pointer,
        `the keys the patternProperties regex ${JSON.stringify(source)} matches are evaluated, and the engine does not support that regex`,
      );
    else rules.push({ source, set, dfa });
    return dfa;
  };
  const throwing = [...evaluated.throwing].map((source) => rule(source, FALSE_SET)).filter((dfa) => dfa !== undefined);
  for (const source of evaluated.patterns) if (!evaluated.throwing.has(source)) rule(source, TRUE_SET);
  for (const name of evaluated.names) {
    closing.order.push(name);
    closing.properties.set(name, throwing.some((dfa) => dfa.matches(name)) ? FALSE_SET : TRUE_SET);
  }
  const unevaluated = context.child(location, 'unevaluatedProperties', schema.unevaluatedProperties);
  if (rules.length === 0) closing.additional = unevaluated;
  else closing.patternGroups.push({ rules, additional: unevaluated });
  return closing;
}

/** The arrays whose items from `count` on satisfy `unevaluated` (the schema's `unevaluatedItems`, or `false`). */
function closedAfter<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  unevaluated: unknown,
  count: number,
): T {
  const closing = context.blank('array', location.place.pointer);
  closing.prefix = Array.from({ length: count }, () => TRUE_SET);
  closing.items = context.child(location, 'unevaluatedItems', unevaluated);
  return closing;
}

function propertiesClosing<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  schema: Record<string, unknown>,
): ClosedKeyword<EvaluatedNames, EvaluatedNames, T> {
  const within = (larger: ReadonlySet<string>, smaller: ReadonlySet<string>): boolean => [...smaller].every((name) => larger.has(name));
  return {
    keyword: 'unevaluatedProperties',
    dimension: NAMES,
    type: 'object',
    // Ajv's check `!props || !props[key]`: a variable left undefined marks no name, one set to true every name
    effective: (tracked) =>
      (tracked instanceof TrackingVariable ? tracked.value : tracked) ?? { names: NO_PATTERNS, patterns: NO_PATTERNS, throwing: NO_PATTERNS },
    // by the patterns' texts: regexes that differ may match the same keys, so this can only say "not known to include"
    includes: (larger, smaller) =>
      within(larger.names, smaller.names) && within(larger.patterns, smaller.patterns) && within(smaller.throwing, larger.throwing),
    close: (evaluated) => closedOver(context, location, schema, evaluated),
  };
}

function itemsClosing<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  schema: Record<string, unknown>,
): ClosedKeyword<number, ItemsClosing, T> {
  return {
    keyword: 'unevaluatedItems',
    dimension: ITEMS,
    type: 'array',
    effective: (tracked) => {
      // Ajv's check compares the length with `it.items || 0`: at run time `len > undefined` holds for no array, and `len > true` is `len > 1`
      if (!(tracked instanceof TrackingVariable)) return tracked ?? 0;
      if (tracked.value === undefined) return true;
      if (tracked.value !== true) return tracked.value;
      if (schema.unevaluatedItems === false) return 1;
      // with a schema, Ajv's loop `for (i = true; i < len; i++)` checks `data[true]` (undefined) first, then the items from 2 on
      if (rejectsUndefined(schema.unevaluatedItems)) return AT_MOST_ONE_ITEM;
      return {
        refused:
          'a branch that evaluates every item, which Ajv then reads as the index 1 (its loop checks the value undefined and the items from 2 on; enforced where the unevaluatedItems schema has a "type", "const" or "enum", which undefined fails)',
      };
    },
    includes: (larger, smaller) =>
      smaller === AT_MOST_ONE_ITEM ? larger === AT_MOST_ONE_ITEM || larger >= 1 : larger !== AT_MOST_ONE_ITEM && larger >= smaller,
    close: (closing) =>
      closing === AT_MOST_ONE_ITEM ? closedAfter(context, location, false, 1) : closedAfter(context, location, schema.unevaluatedItems, closing),
  };
}

/** What an `unevaluatedItems` reads: the items from this index on are unevaluated, or an array may hold one item at most. */
type ItemsClosing = number | typeof AT_MOST_ONE_ITEM;

const AT_MOST_ONE_ITEM = 'at most one item';

/**
 * Whether Ajv's code for `schema` fails on the value undefined: `false`, or a `type` (every JSON type's check fails on
 * it), `const` or `enum` (undefined equals no JSON value) of its own; false when unsure.
 */
function rejectsUndefined(schema: unknown): boolean {
  if (schema === false) return true;
  if (!isPlainObject(schema) || Object.hasOwn(schema, 'nullable')) return false;
  return Object.hasOwn(schema, 'type') || Object.hasOwn(schema, 'const') || Object.hasOwn(schema, 'enum');
}
