/**
 * `unevaluatedProperties` / `unevaluatedItems` for the shapes where evaluation is static:
 * the names (items) evaluated are those of `properties` and the keys `patternProperties`
 * match (`prefixItems`) in the schema and in every subschema it always applies (`allOf`,
 * `$ref`), so the keyword is `additionalProperties` (`items`) over that union. Where a
 * subschema that may or may not pass (`anyOf`, `oneOf`, `if`/`then`/`else`,
 * `dependentSchemas`) decides what is evaluated, the values are split by which branches pass
 * and each piece is closed as Ajv's generated code closes it; `patternProperties` inside such
 * a branch and `$dynamicRef` are refused. `contains` follows the registry's Ajv, which marks every
 * item evaluated once a `contains` with assertions ran (the spec: only the items it matches).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import type { LocationSet } from './schema-complement.js';
import { FALSE_SET, TRUE_SET, type PatternGroup } from './lower-typed.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { APPLICATOR_KEYWORDS, REFERENCE_KEYWORDS, VALIDATION_KEYWORDS } from '../shared/json-schema/keywords.js';

/** Keywords Ajv compiles to code; a subschema with none of them is "always valid" to Ajv and skipped. */
const AJV_RULE_KEYWORDS = new Set([
  ...APPLICATOR_KEYWORDS,
  ...VALIDATION_KEYWORDS,
  ...REFERENCE_KEYWORDS,
  'format',
  'formatMinimum',
  'formatMaximum',
  'formatExclusiveMinimum',
  'formatExclusiveMaximum',
  'nullable',
  '$comment',
  '$dynamicAnchor',
  '$recursiveAnchor',
  'id',
]);

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

/** The fields of a typed alternative this module sets. */
interface UnevaluatedTyped {
  type: 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
  order: string[];
  properties: Map<string, LocationSet>;
  required: Set<string>;
  additional: LocationSet;
  patternGroups: PatternGroup[];
  prefix: LocationSet[];
  items: LocationSet;
}

interface UnevaluatedLocation {
  readonly place: SchemaPlace;
}

export interface UnevaluatedContext<T extends UnevaluatedTyped, L extends UnevaluatedLocation> {
  blank(type: T['type'], pointer: string): T;
  intersectLists(left: readonly T[], right: readonly T[], pointer: string): T[];
  child(location: L, keyword: string, value: unknown, suffix?: string): LocationSet;
  denote(set: LocationSet): T[];
  /** True when no value satisfies both lists (false when unsure). */
  disjoint(left: readonly T[], right: readonly T[]): boolean;
  /** `within ∧ ¬set`, refusing `keyword` where that is not expressible. */
  negate(within: readonly T[], set: LocationSet, keyword: string, pointer: string): T[];
  resolve(reference: string, base: string): { schema: unknown; place: SchemaPlace } | undefined;
  placeOf(schema: unknown): SchemaPlace | undefined;
  /** The automaton of a `patternProperties` regex; throws `RegexUnsupportedError` where the engine does not support it. */
  keyPattern(source: string): CodePointDfa;
  refuse(keyword: string, pointer: string, details: string): void;
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
        ? context.intersectLists(result, [...others('array'), closedAfter(context, location, schema, evaluation.items)], `${pointer}/unevaluatedItems`)
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

/** Combinations of passing branches an `unevaluatedProperties`/`unevaluatedItems` is split over, past which it is refused. */
const MAX_BRANCH_CONFIGURATIONS = 64;

/** What a subschema evaluates wherever it passes, as Ajv knows it at compile time: nothing, everything (true), or these names (this many items). */
type Static<V> = undefined | true | V;

/** A `props`/`items` variable of Ajv's generated code, with the value it holds in the configuration being run. */
class TrackingVariable<V> {
  value: Static<V> = undefined;
}

/** Ajv's `it.props`/`it.items` while it compiles a schema: known at compile time, or a variable. */
type Tracked<V> = Static<V> | TrackingVariable<V>;

/** How one of the two annotations is tracked: names (`props`) or a count of items (`items`). */
interface Dimension<V> {
  /** Keywords that make what a branch evaluates vary: such a branch is not modelled. */
  readonly unmodelled: readonly string[];
  /** Keywords beside the branches that make it vary, or that are not modelled there. */
  readonly unmodelledBeside: readonly string[];
  /** Whether a subschema evaluates everything (Ajv sets `it.props`/`it.items` to true). */
  everything(schema: Record<string, unknown>): boolean;
  /** What a subschema's own keywords evaluate (`properties` and `patternProperties`, `prefixItems`). */
  own(schema: Record<string, unknown>): V | undefined;
  join(left: V | undefined, right: V): V;
  /**
   * Whether Ajv holds what this evaluates in a variable of the generated code rather than at compile time (keys matched
   * by `patternProperties`): merged in, it turns what was known at compile time into that variable.
   */
  inVariable(evaluated: V): boolean;
  /**
   * The subschema's own `evaluated` merged into a variable that is undefined at run time (a branch that declared it
   * failed). Ajv's `properties` first sets it to `{}`; `patternProperties` alone writes `props[key]` into undefined.
   */
  ownIntoUndefined(evaluated: V): V;
  /** Whether `dependentSchemas` runs for the values this dimension closes (objects, not arrays). */
  readonly dependenciesRun: boolean;
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

/** Which branches pass: one configuration of the branches an `unevaluated*` depends on. */
interface Configuration {
  readonly anyOf: readonly boolean[];
  readonly oneOf: number;
  readonly ifPasses: boolean;
  readonly dependencies: readonly boolean[];
}

/** A schema's branches, each with what it evaluates where it passes. */
interface Branches<V> {
  readonly reference: Static<V>;
  readonly anyOf: readonly Static<V>[];
  readonly oneOf: readonly (Static<V> | 'always valid')[];
  readonly allOf: readonly Static<V>[];
  /** Undefined when Ajv ignores the `if` (no `then`/`else` with assertions). */
  readonly conditional: { readonly condition: Static<V>; readonly then?: Static<V>; readonly else?: Static<V> } | undefined;
  readonly own: Static<V>;
  readonly dependencies: readonly { readonly name: string; readonly evaluated: Static<V> }[];
}

/** Whether Ajv skips this subschema as "always valid" (`alwaysValidSchema`: `true`, or no keyword it compiles). */
export function alwaysValid(schema: unknown): boolean {
  return schema === true || (isPlainObject(schema) && !Object.keys(schema).some((keyword) => AJV_RULE_KEYWORDS.has(keyword)));
}

/** Keywords whose presence anywhere in a `$ref`'s target makes Ajv compile it as a function of its own rather than inline it (`hasRef`). */
const AJV_REFERENCE_KEYWORDS = new Set(['$ref', '$recursiveRef', '$recursiveAnchor', '$dynamicRef', '$dynamicAnchor']);

/** Ajv's `hasRef`: whether a reference keyword appears under any key of the schema, at any depth. */
export function holdsReference(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(holdsReference);
  if (!isPlainObject(schema)) return false;
  return Object.entries(schema).some(([key, value]) => AJV_REFERENCE_KEYWORDS.has(key) || holdsReference(value));
}

type ReferenceResolver = Pick<UnevaluatedContext<UnevaluatedTyped, UnevaluatedLocation>, 'resolve' | 'placeOf'>;

/** Adds `more` to `evaluated`, everything (true) absorbing the rest. */
function joinStatic<V>(dimension: Dimension<V>, evaluated: Static<V>, more: Static<V>): Static<V> {
  if (evaluated === true || more === true) return true;
  return more === undefined ? evaluated : dimension.join(evaluated, more);
}

/**
 * What a branch evaluates, as Ajv tracks it at compile time; a string says why it is not static. A `$ref` counts when
 * its target holds no reference: Ajv inlines it then, and merges what it evaluates as the branch's own.
 */
function staticEvaluation<V>(dimension: Dimension<V>, schema: unknown, pointer: string, base: string, resolver: ReferenceResolver): Static<V> | string {
  if (!isPlainObject(schema)) return undefined;
  base = resolver.placeOf(schema)?.base ?? base;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const unmodelled = dimension.unmodelled.find(has);
  if (unmodelled !== undefined) return `"${unmodelled}" at ${pointer}`;
  if (dimension.everything(schema)) return true;
  let evaluated: Static<V> = dimension.own(schema);
  if (has('$ref')) {
    const target = typeof schema.$ref === 'string' ? resolver.resolve(schema.$ref, base) : undefined;
    if (target === undefined || holdsReference(target.schema)) return `"$ref" at ${pointer} (its target holds references, so Ajv does not inline it)`;
    const targetEvaluation = staticEvaluation(dimension, target.schema, target.place.pointer, target.place.base, resolver);
    if (typeof targetEvaluation === 'string') return targetEvaluation;
    evaluated = joinStatic(dimension, evaluated, targetEvaluation);
  }
  if (has('allOf') && Array.isArray(schema.allOf)) {
    for (const [index, part] of schema.allOf.entries()) {
      const partEvaluation = staticEvaluation(dimension, part, `${pointer}/allOf/${index}`, base, resolver);
      if (typeof partEvaluation === 'string') return partEvaluation;
      evaluated = joinStatic(dimension, evaluated, partEvaluation);
    }
  }
  return evaluated;
}

/** The branches of `schema`, or why what they evaluate is not modelled. */
function branchesOf<V>(
  dimension: Dimension<V>,
  schema: Record<string, unknown>,
  pointer: string,
  base: string,
  resolver: ReferenceResolver,
): Branches<V> | string {
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const unmodelled = dimension.unmodelledBeside.find(has);
  if (unmodelled !== undefined) return `"${unmodelled}" beside the branches at ${pointer}`;
  const problems: string[] = [];
  /**
   * A branch that may fail (`mayFail`) and holds what it evaluates in a variable (`patternProperties`) is not modelled:
   * Ajv's merge hands the parent that variable, filled while the branch ran, whether it passed or not.
   */
  const evaluationOf = (value: unknown, at: string, mayFail = true): Static<V> => {
    const evaluated = staticEvaluation(dimension, value, at, base, resolver);
    if (typeof evaluated === 'string') problems.push(evaluated);
    else if (mayFail && evaluated !== undefined && evaluated !== true && dimension.inVariable(evaluated))
      problems.push(`"patternProperties" in the branch at ${at}, which may fail (Ajv keeps the keys its patterns marked there)`);
    else return evaluated;
    return undefined;
  };
  // the schema's own `$ref` runs first, and inlined (or refused as a branch's would be)
  const reference = has('$ref') ? evaluationOf({ $ref: schema.$ref }, pointer, false) : undefined;
  const list = (keyword: string): unknown[] => (has(keyword) && Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []);
  const anyOf = list('anyOf').map((part, index) => evaluationOf(part, `${pointer}/anyOf/${index}`));
  const oneOf = list('oneOf').map((part, index) => (alwaysValid(part) ? ('always valid' as const) : evaluationOf(part, `${pointer}/oneOf/${index}`)));
  const allOf = list('allOf').map((part, index) => (alwaysValid(part) ? undefined : evaluationOf(part, `${pointer}/allOf/${index}`, false)));
  const hasThen = has('then') && !alwaysValid(schema.then);
  const hasElse = has('else') && !alwaysValid(schema.else);
  const conditional =
    has('if') && (hasThen || hasElse)
      ? {
          condition: evaluationOf(schema.if, `${pointer}/if`),
          ...(hasThen ? { then: evaluationOf(schema.then, `${pointer}/then`) } : {}),
          ...(hasElse ? { else: evaluationOf(schema.else, `${pointer}/else`) } : {}),
        }
      : undefined;
  const dependentSchemas = has('dependentSchemas') && isPlainObject(schema.dependentSchemas) ? schema.dependentSchemas : {};
  const dependencies = Object.entries(dependentSchemas)
    .filter(([, value]) => !alwaysValid(value))
    .map(([name, value]) => ({ name, evaluated: evaluationOf(value, `${pointer}/dependentSchemas/${name}`) }));
  if (problems.length > 0) return problems[0]!;
  return { reference, anyOf, oneOf, allOf, conditional, own: dimension.own(schema), dependencies };
}

/**
 * What the registry's Ajv has marked evaluated when its `unevaluated*` runs, in one configuration: its generated code
 * replayed keyword by keyword in Ajv's order (`$ref`, `anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`, then `properties`
 * or `prefixItems`, then `dependentSchemas`), with `mergeEvaluated` as `compile/util.js` writes it. A branch that may
 * fail merges into a variable declared inside the block that runs when it passes, so where it fails the variable is
 * undefined and what was known before it is lost (the `else` of an `if` whose `then` holds `properties`, say).
 */
function evaluatedIn<V>(dimension: Dimension<V>, branches: Branches<V>, configuration: Configuration): Tracked<V> {
  let tracked: Tracked<V> = undefined;
  const merge = (from: Static<V>, intoVariable: boolean, runs: boolean, own = false): void => {
    if (tracked === true || from === undefined) return;
    let merged: Tracked<V>;
    if (tracked instanceof TrackingVariable) {
      if (runs && tracked.value !== true)
        tracked.value = from === true ? true : own && tracked.value === undefined ? dimension.ownIntoUndefined(from) : dimension.join(tracked.value, from);
      merged = tracked;
    } else merged = from === true ? true : dimension.join(tracked, from);
    // a variable of the generated code merged into what was known at compile time: the result is that variable
    if ((intoVariable || (from !== true && dimension.inVariable(from))) && !(merged instanceof TrackingVariable)) {
      const variable = new TrackingVariable<V>();
      if (runs) variable.value = merged;
      merged = variable;
    }
    tracked = merged;
  };
  merge(branches.reference, false, true);
  branches.anyOf.forEach((evaluated, index) => merge(evaluated, true, configuration.anyOf[index]!));
  branches.oneOf.forEach((evaluated, index) => {
    if (evaluated !== 'always valid') merge(evaluated, true, configuration.oneOf === index);
  });
  for (const evaluated of branches.allOf) merge(evaluated, false, true);
  const conditional = branches.conditional;
  if (conditional !== undefined) {
    merge(conditional.condition, false, true);
    if ('then' in conditional) merge(conditional.then, true, configuration.ifPasses);
    if ('else' in conditional) merge(conditional.else, true, !configuration.ifPasses);
  }
  merge(branches.own, false, true, true);
  branches.dependencies.forEach(({ evaluated }, index) => merge(evaluated, true, dimension.dependenciesRun && configuration.dependencies[index]!));
  return tracked;
}

/** Every configuration of the branches: one of `anyOfChoices` (which `anyOf` branches pass), exactly one `oneOf` branch. */
function configurationsOf(branches: Branches<unknown>, anyOfChoices: readonly (readonly boolean[])[], dependencyCount: number): Configuration[] {
  const dependencyChoices = Array.from({ length: 2 ** dependencyCount }, (_, mask) =>
    Array.from({ length: dependencyCount }, (_, index) => (mask & (1 << index)) !== 0),
  );
  const oneOfs = branches.oneOf.length === 0 ? [-1] : branches.oneOf.map((_, index) => index);
  const ifs = branches.conditional === undefined ? [true] : [true, false];
  const configurations: Configuration[] = [];
  for (const anyOf of anyOfChoices)
    for (const oneOf of oneOfs)
      for (const ifPasses of ifs) for (const dependencies of dependencyChoices) configurations.push({ anyOf, oneOf, ifPasses, dependencies });
  return configurations;
}

/**
 * The sets of `anyOf` branches that may pass together: those whose values are not provably disjoint (branches told
 * apart by a required `const` never pair), at least one branch each; undefined past `most` sets.
 */
function passingTogether<T>(
  values: readonly T[],
  branches: readonly (readonly T[])[],
  meet: (left: readonly T[], right: readonly T[]) => T[],
  disjoint: (left: readonly T[], right: readonly T[]) => boolean,
  most: number,
): boolean[][] | undefined {
  if (branches.length === 0) return [[]];
  const subsets: boolean[][] = [];
  const extend = (from: number, chosen: readonly boolean[], within: readonly T[]): boolean => {
    for (let index = from; index < branches.length; index++) {
      if (disjoint(within, branches[index]!)) continue;
      const met = meet(within, branches[index]!);
      if (met.length === 0) continue;
      const next = chosen.map((passing, at) => passing || at === index);
      subsets.push(next);
      if (subsets.length > most || !extend(index + 1, next, met)) return false;
    }
    return true;
  };
  return extend(0, new Array<boolean>(branches.length).fill(false), values) ? subsets : undefined;
}

/** What closes one configuration's values: nothing (true), what is evaluated, or why it is not enforced. */
type Effective<V> = true | V | { readonly refused: string };

/** One of the two keywords, as {@link closeByBranches} splits it. */
interface ClosedKeyword<V, T> {
  readonly keyword: 'unevaluatedProperties' | 'unevaluatedItems';
  readonly dimension: Dimension<V>;
  readonly type: 'object' | 'array';
  /** What Ajv's `unevaluated*` reads from what it tracked. */
  effective(tracked: Tracked<V>): Effective<V>;
  /** Whether closing over `smaller` rejects everything closing over `larger` does. */
  includes(larger: V, smaller: V): boolean;
  /** The values whose unevaluated part satisfies the keyword's schema. */
  close(evaluated: V): T;
}

/**
 * `unevaluatedProperties`/`unevaluatedItems` where what is evaluated depends on which branches pass: the values are
 * split by configuration (which `anyOf` branches, which `oneOf` branch, whether the `if`, which `dependentSchemas` names
 * apply), and each piece is closed over what Ajv marks evaluated in it ({@link evaluatedIn}). A branch's failure is
 * enforced (its complement taken) only where failing would leave something evaluated that passing would not. A string
 * says why the shape is not modelled.
 */
function closeByBranches<V, T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  result: T[],
  location: L,
  schema: Record<string, unknown>,
  context: UnevaluatedContext<T, L>,
  keyword: ClosedKeyword<V, T>,
): T[] | string {
  const pointer = location.place.pointer;
  const branches = branchesOf(keyword.dimension, schema, pointer, location.place.base, context);
  if (typeof branches === 'string') return branches;
  const values = result.filter((typed) => typed.type === keyword.type);
  const anyOfSets = (schema.anyOf as unknown[] | undefined)?.map((part, index) => context.child(location, 'anyOf', part, `/${index}`)) ?? [];
  const tooMany = `more combinations of passing branches than the ${MAX_BRANCH_CONFIGURATIONS} split over`;
  const anyOfChoices = passingTogether(
    values,
    anyOfSets.map((set) => context.denote(set)),
    (left, right) => context.intersectLists(left, right, `${pointer}/anyOf`),
    (left, right) => context.disjoint(left, right),
    MAX_BRANCH_CONFIGURATIONS,
  );
  if (anyOfChoices === undefined) return tooMany;
  const configurations = configurationsOf(branches, anyOfChoices, keyword.dimension.dependenciesRun ? branches.dependencies.length : 0);
  if (configurations.length > MAX_BRANCH_CONFIGURATIONS) return tooMany;
  const closings = configurations.map((configuration) => keyword.effective(evaluatedIn(keyword.dimension, branches, configuration)));
  const refusal = closings.find((closing): closing is { refused: string } => typeof closing === 'object' && closing !== null && 'refused' in closing);
  if (refusal !== undefined) return refusal.refused;
  const pieces: T[] = result.filter((typed) => typed.type !== keyword.type);
  const oneOfSets = (schema.oneOf as unknown[] | undefined)?.map((part, index) => context.child(location, 'oneOf', part, `/${index}`)) ?? [];
  const conditionSet = branches.conditional === undefined ? undefined : context.child(location, 'if', schema.if);
  const closesTighter = (failed: Effective<V>, passed: Effective<V>): boolean =>
    passed === true || (failed !== true && keyword.includes(passed as V, failed as V));
  /** The values where a branch fails, where that has to be enforced: where failing does not always close more tightly than passing. */
  const failingWhereNeeded = (set: LocationSet, applicator: string, at: string, passes: (configuration: Configuration) => Configuration): T[] | undefined => {
    const needed = configurations.some((configuration, index) => {
      const passing = passes(configuration);
      if (sameConfiguration(passing, configuration)) return false;
      // no value passes that set of branches together: nothing to tell apart
      const passingIndex = configurations.findIndex((other) => sameConfiguration(other, passing));
      return passingIndex >= 0 && !closesTighter(closings[index]!, closings[passingIndex]!);
    });
    return needed ? context.negate(values, set, applicator, `${pointer}/${at}`) : undefined;
  };
  const anyOfFailing = anyOfSets.map((set, index) =>
    failingWhereNeeded(set, 'anyOf', `anyOf/${index}`, (configuration) => ({
      ...configuration,
      anyOf: configuration.anyOf.map((passing, at) => passing || at === index),
    })),
  );
  const conditionFailing =
    conditionSet === undefined ? undefined : failingWhereNeeded(conditionSet, 'if', 'if', (configuration) => ({ ...configuration, ifPasses: true }));
  configurations.forEach((configuration, index) => {
    let piece: T[] = values;
    const within = (list: readonly T[], at: string): void => {
      if (piece.length > 0) piece = context.intersectLists(piece, list, at);
    };
    configuration.anyOf.forEach((passing, branch) => {
      const failing = anyOfFailing[branch];
      if (passing) within(context.denote(anyOfSets[branch]!), `${pointer}/anyOf/${branch}`);
      else if (failing !== undefined) within(failing, `${pointer}/anyOf/${branch}`);
    });
    if (configuration.oneOf >= 0) within(context.denote(oneOfSets[configuration.oneOf]!), `${pointer}/oneOf/${configuration.oneOf}`);
    if (conditionSet !== undefined) {
      if (configuration.ifPasses) within(context.denote(conditionSet), `${pointer}/if`);
      else if (conditionFailing !== undefined) within(conditionFailing, `${pointer}/if`);
    }
    configuration.dependencies.forEach((present, at) =>
      within([nameCondition(context, branches.dependencies[at]!.name, present, pointer)], `${pointer}/dependentSchemas`),
    );
    const closing = closings[index]!;
    if (closing !== true) within([keyword.close(closing as V)], `${pointer}/${keyword.keyword}`);
    pieces.push(...piece);
  });
  return pieces;
}

function sameConfiguration(left: Configuration, right: Configuration): boolean {
  return (
    left.oneOf === right.oneOf &&
    left.ifPasses === right.ifPasses &&
    left.anyOf.every((passing, index) => passing === right.anyOf[index]) &&
    left.dependencies.every((present, index) => present === right.dependencies[index])
  );
}

/** The objects that hold `name` (present) or lack it. */
function nameCondition<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  name: string,
  present: boolean,
  pointer: string,
): T {
  const objects = context.blank('object', pointer);
  if (present) objects.required.add(name);
  else {
    objects.order.push(name);
    objects.properties.set(name, FALSE_SET);
  }
  return objects;
}

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

/** The arrays whose items from `count` on satisfy the schema's `unevaluatedItems`. */
function closedAfter<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  schema: Record<string, unknown>,
  count: number,
): T {
  const closing = context.blank('array', location.place.pointer);
  closing.prefix = Array.from({ length: count }, () => TRUE_SET);
  closing.items = context.child(location, 'unevaluatedItems', schema.unevaluatedItems);
  return closing;
}

function propertiesClosing<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  schema: Record<string, unknown>,
): ClosedKeyword<EvaluatedNames, T> {
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
): ClosedKeyword<number, T> {
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
      return { refused: 'a branch that evaluates every item, which Ajv then reads as the index 1' };
    },
    includes: (larger, smaller) => larger >= smaller,
    close: (count) => closedAfter(context, location, schema, count),
  };
}
