/**
 * `unevaluatedProperties` / `unevaluatedItems` for the shapes where evaluation is static:
 * the names (items) evaluated are those of `properties` (`prefixItems`) in the schema and
 * in every subschema it always applies (`allOf`, `$ref`), so the keyword is
 * `additionalProperties` (`items`) over that union. Where a subschema that may or may not
 * pass (`anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`) or a keyword that
 * evaluates part of the instance (`patternProperties`, `$dynamicRef`) would decide what is
 * evaluated, the keyword is refused. `contains` follows the registry's Ajv, which marks every
 * item evaluated once a `contains` with assertions ran (the spec: only the items it matches).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import type { LocationSet } from './schema-complement.js';
import { FALSE_SET, TRUE_SET } from './lower-typed.js';
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
  /** `within ∧ ¬set`, refusing `keyword` where that is not expressible. */
  negate(within: readonly T[], set: LocationSet, keyword: string, pointer: string): T[];
  resolve(reference: string, base: string): { schema: unknown; place: SchemaPlace } | undefined;
  placeOf(schema: unknown): SchemaPlace | undefined;
  refuse(keyword: string, pointer: string, details: string): void;
}

/** What a schema evaluates of an instance wherever it passes. */
interface Evaluation {
  readonly names: Set<string>;
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
  const evaluation: Evaluation = { names: new Set(), allNames: false, namesVary: undefined, items: 0, allItems: false, itemsVary: undefined };
  collect(schema, location.place.base, undefined, new Set(), evaluation, context, true);
  const others = (type: T['type']): T[] =>
    (['null', 'boolean', 'number', 'string', 'array', 'object'] as const).filter((other) => other !== type).map((other) => context.blank(other, pointer));
  if (has('unevaluatedProperties') && !evaluation.allNames) {
    if (evaluation.namesVary !== undefined) {
      const closed = closeByBranches(result, location, schema, context);
      if (typeof closed !== 'string') result = closed;
      else context.refuse('unevaluatedProperties', pointer, `the evaluated properties depend on ${evaluation.namesVary}, which is not enforced (${closed})`);
    } else {
      result = context.intersectLists(
        result,
        [...others('object'), closedOver(context, location, schema, evaluation.names)],
        `${pointer}/unevaluatedProperties`,
      );
    }
  }
  if (has('unevaluatedItems') && !evaluation.allItems) {
    if (evaluation.itemsVary !== undefined) {
      context.refuse('unevaluatedItems', pointer, `the evaluated items depend on ${evaluation.itemsVary}, which is not enforced`);
    } else {
      const closing = context.blank('array', pointer);
      closing.prefix = Array.from({ length: evaluation.items }, () => []);
      closing.items = context.child(location, 'unevaluatedItems', schema.unevaluatedItems);
      result = context.intersectLists(result, [...others('array'), closing], `${pointer}/unevaluatedItems`);
    }
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
  if (has('patternProperties')) out.namesVary ??= '"patternProperties" (it evaluates the names its patterns match)';
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

/** Combinations of passing branches an `unevaluatedProperties` is split over, past which it is refused. */
const MAX_BRANCH_CONFIGURATIONS = 64;

/** Names a subschema evaluates wherever it passes: none (undefined), every name (true), or these. */
type StaticNames = undefined | true | ReadonlySet<string>;

/** A `props` variable of Ajv's generated code, with the value it holds in the configuration being run. */
class NamesVariable {
  value: undefined | true | Set<string> = undefined;
}

/** Ajv's `it.props` while it compiles a schema: nothing yet, every name, names known at compile time, or a variable. */
type TrackedNames = undefined | true | Set<string> | NamesVariable;

/** Which branches pass: one configuration of the branches an `unevaluatedProperties` depends on. */
interface Configuration {
  readonly anyOf: readonly boolean[];
  readonly oneOf: number;
  readonly ifPasses: boolean;
  readonly dependencies: readonly boolean[];
}

/** A schema's branches, each with the names it evaluates where it passes (its `properties`, `allOf`, …). */
interface Branches {
  readonly reference: StaticNames;
  readonly anyOf: readonly StaticNames[];
  readonly oneOf: readonly (StaticNames | 'always valid')[];
  readonly allOf: readonly StaticNames[];
  /** Undefined when Ajv ignores the `if` (no `then`/`else` with assertions). */
  readonly conditional: { readonly condition: StaticNames; readonly then?: StaticNames; readonly else?: StaticNames } | undefined;
  readonly properties: StaticNames;
  readonly dependencies: readonly { readonly name: string; readonly names: StaticNames }[];
}

/** Whether Ajv skips this subschema as "always valid" (`alwaysValidSchema`: `true`, or no keyword it compiles). */
function alwaysValid(schema: unknown): boolean {
  return schema === true || (isPlainObject(schema) && !Object.keys(schema).some((keyword) => AJV_RULE_KEYWORDS.has(keyword)));
}

/** Keywords that make the names a subschema evaluates vary: such a branch is not modelled. */
const UNMODELLED_IN_BRANCH = ['$dynamicRef', '$recursiveRef', 'patternProperties', 'anyOf', 'oneOf', 'if', 'dependentSchemas', 'dependencies'];
/** Keywords whose presence anywhere in a `$ref`'s target makes Ajv compile it as a function of its own rather than inline it (`hasRef`). */
const AJV_REFERENCE_KEYWORDS = new Set(['$ref', '$recursiveRef', '$recursiveAnchor', '$dynamicRef', '$dynamicAnchor']);

/** Ajv's `hasRef`: whether a reference keyword appears under any key of the schema, at any depth. */
function holdsReference(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(holdsReference);
  if (!isPlainObject(schema)) return false;
  return Object.entries(schema).some(([key, value]) => AJV_REFERENCE_KEYWORDS.has(key) || holdsReference(value));
}

type ReferenceResolver = Pick<UnevaluatedContext<UnevaluatedTyped, UnevaluatedLocation>, 'resolve' | 'placeOf'>;

/** Adds `more` to `names`, every name (true) absorbing the rest. */
function mergeStatic(names: StaticNames, more: StaticNames): StaticNames {
  if (names === true || more === true) return true;
  if (more === undefined) return names;
  return new Set([...(names ?? []), ...more]);
}

/**
 * The names a branch evaluates, as Ajv tracks them at compile time; a string says why they are not static. A `$ref`
 * counts when its target holds no reference: Ajv inlines it then, and merges its names as the branch's own.
 */
function staticNames(schema: unknown, pointer: string, base: string, resolver: ReferenceResolver): StaticNames | string {
  if (!isPlainObject(schema)) return undefined;
  base = resolver.placeOf(schema)?.base ?? base;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const unmodelled = UNMODELLED_IN_BRANCH.find(has);
  if (unmodelled !== undefined) return `"${unmodelled}" at ${pointer}`;
  if (has('additionalProperties') || has('unevaluatedProperties')) return true;
  let names: StaticNames = propertyNames(schema);
  if (has('$ref')) {
    const target = typeof schema.$ref === 'string' ? resolver.resolve(schema.$ref, base) : undefined;
    if (target === undefined || holdsReference(target.schema)) return `"$ref" at ${pointer} (its target holds references, so Ajv does not inline it)`;
    const targetNames = staticNames(target.schema, target.place.pointer, target.place.base, resolver);
    if (typeof targetNames === 'string') return targetNames;
    names = mergeStatic(names, targetNames);
  }
  if (has('allOf') && Array.isArray(schema.allOf)) {
    for (const [index, part] of schema.allOf.entries()) {
      const partNames = staticNames(part, `${pointer}/allOf/${index}`, base, resolver);
      if (typeof partNames === 'string') return partNames;
      names = mergeStatic(names, partNames);
    }
  }
  return names;
}

/** The names of `properties`, as Ajv's `allSchemaProperties` lists them; undefined when there are none. */
function propertyNames(schema: Record<string, unknown>): ReadonlySet<string> | undefined {
  if (!isPlainObject(schema.properties)) return undefined;
  const names = Object.keys(schema.properties).filter((name) => name !== '__proto__');
  return names.length === 0 ? undefined : new Set(names);
}

/** The branches of `schema`, or why the names they evaluate are not modelled. */
function branchesOf(schema: Record<string, unknown>, pointer: string, base: string, resolver: ReferenceResolver): Branches | string {
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  for (const keyword of ['$dynamicRef', '$recursiveRef', 'patternProperties', 'dependencies'])
    if (has(keyword)) return `"${keyword}" beside the branches at ${pointer}`;
  const problems: string[] = [];
  const namesOf = (value: unknown, at: string): StaticNames => {
    const names = staticNames(value, at, base, resolver);
    if (typeof names !== 'string') return names;
    problems.push(names);
    return undefined;
  };
  // the schema's own `$ref` runs first, and inlined (or refused as a branch's would be)
  const reference = has('$ref') ? namesOf({ $ref: schema.$ref }, pointer) : undefined;
  const list = (keyword: string): unknown[] => (has(keyword) && Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []);
  const anyOf = list('anyOf').map((part, index) => namesOf(part, `${pointer}/anyOf/${index}`));
  const oneOf = list('oneOf').map((part, index) => (alwaysValid(part) ? ('always valid' as const) : namesOf(part, `${pointer}/oneOf/${index}`)));
  const allOf = list('allOf').map((part, index) => (alwaysValid(part) ? undefined : namesOf(part, `${pointer}/allOf/${index}`)));
  const hasThen = has('then') && !alwaysValid(schema.then);
  const hasElse = has('else') && !alwaysValid(schema.else);
  const conditional =
    has('if') && (hasThen || hasElse)
      ? {
          condition: namesOf(schema.if, `${pointer}/if`),
          ...(hasThen ? { then: namesOf(schema.then, `${pointer}/then`) } : {}),
          ...(hasElse ? { else: namesOf(schema.else, `${pointer}/else`) } : {}),
        }
      : undefined;
  const dependentSchemas = has('dependentSchemas') && isPlainObject(schema.dependentSchemas) ? schema.dependentSchemas : {};
  const dependencies = Object.entries(dependentSchemas)
    .filter(([, value]) => !alwaysValid(value))
    .map(([name, value]) => ({ name, names: namesOf(value, `${pointer}/dependentSchemas/${name}`) }));
  if (problems.length > 0) return problems[0]!;
  return { reference, anyOf, oneOf, allOf, conditional, properties: propertyNames(schema), dependencies };
}

/**
 * The names the registry's Ajv has marked evaluated when its `unevaluatedProperties` runs, in one configuration: its
 * generated code replayed keyword by keyword in Ajv's order (`anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`, then
 * `properties`, then `dependentSchemas`), with `mergeEvaluated` as `compile/util.js` writes it. A branch that may fail
 * merges its names into a variable declared inside the block that runs when it passes, so where it fails the variable
 * is undefined and the names known before it are lost (the `else` of an `if` whose `then` holds `properties`, say).
 */
function evaluatedNames(branches: Branches, configuration: Configuration): true | ReadonlySet<string> {
  let tracked: TrackedNames = undefined;
  const merge = (from: StaticNames, intoVariable: boolean, runs: boolean): void => {
    if (tracked === true || from === undefined) return;
    let merged: TrackedNames;
    if (tracked === undefined) merged = from === true ? true : new Set(from);
    else if (tracked instanceof NamesVariable) {
      if (runs && tracked.value !== true) tracked.value = from === true ? true : new Set([...(tracked.value ?? []), ...from]);
      merged = tracked;
    } else merged = from === true ? true : new Set([...tracked, ...from]);
    if (intoVariable && !(merged instanceof NamesVariable)) {
      const variable = new NamesVariable();
      if (runs) variable.value = merged === true ? true : new Set(merged);
      merged = variable;
    }
    tracked = merged;
  };
  merge(branches.reference, false, true);
  branches.anyOf.forEach((names, index) => merge(names, true, configuration.anyOf[index]!));
  branches.oneOf.forEach((names, index) => {
    if (names !== 'always valid') merge(names, true, configuration.oneOf === index);
  });
  for (const names of branches.allOf) merge(names, false, true);
  const conditional = branches.conditional;
  if (conditional !== undefined) {
    merge(conditional.condition, false, true);
    if ('then' in conditional) merge(conditional.then, true, configuration.ifPasses);
    if ('else' in conditional) merge(conditional.else, true, !configuration.ifPasses);
  }
  merge(branches.properties, false, true);
  branches.dependencies.forEach(({ names }, index) => merge(names, true, configuration.dependencies[index]!));
  const final = tracked as TrackedNames;
  if (final instanceof NamesVariable) return final.value ?? new Set();
  return final ?? new Set();
}

/** Every configuration of the branches: at least one `anyOf` branch passes, exactly one `oneOf` branch. */
function configurationsOf(branches: Branches): Configuration[] {
  const flags = (count: number): boolean[][] =>
    Array.from({ length: 2 ** count }, (_, mask) => Array.from({ length: count }, (_, index) => (mask & (1 << index)) !== 0));
  const anyOfs = flags(branches.anyOf.length).filter((passing) => branches.anyOf.length === 0 || passing.some(Boolean));
  const oneOfs = branches.oneOf.length === 0 ? [-1] : branches.oneOf.map((_, index) => index);
  const ifs = branches.conditional === undefined ? [true] : [true, false];
  const configurations: Configuration[] = [];
  for (const anyOf of anyOfs)
    for (const oneOf of oneOfs)
      for (const ifPasses of ifs) for (const dependencies of flags(branches.dependencies.length)) configurations.push({ anyOf, oneOf, ifPasses, dependencies });
  return configurations;
}

/** Whether a branch failing never leaves more names evaluated than it passing would: then "it fails" need not be enforced. */
function monotone(branches: Branches, configurations: readonly Configuration[], flip: (configuration: Configuration) => Configuration | undefined): boolean {
  return configurations.every((configuration) => {
    const passing = flip(configuration);
    if (passing === undefined) return true;
    const failed = evaluatedNames(branches, configuration);
    const passed = evaluatedNames(branches, passing);
    return passed === true || (failed !== true && [...failed].every((name) => passed.has(name)));
  });
}

/**
 * `unevaluatedProperties` where the names evaluated depend on which branches pass: the objects are split by
 * configuration (which `anyOf` branches, which `oneOf` branch, whether the `if`, which `dependentSchemas` names apply),
 * and each piece is closed over the names Ajv marks evaluated in it ({@link evaluatedNames}). A branch's failure is
 * enforced (its complement taken) only where failing would evaluate names that passing does not. A string says why
 * the shape is not modelled.
 */
function closeByBranches<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  result: T[],
  location: L,
  schema: Record<string, unknown>,
  context: UnevaluatedContext<T, L>,
): T[] | string {
  const pointer = location.place.pointer;
  const branches = branchesOf(schema, pointer, location.place.base, context);
  if (typeof branches === 'string') return branches;
  const configurations = configurationsOf(branches);
  if (configurations.length > MAX_BRANCH_CONFIGURATIONS)
    return `${configurations.length} combinations of passing branches, more than the ${MAX_BRANCH_CONFIGURATIONS} split over`;
  const objects = result.filter((typed) => typed.type === 'object');
  const pieces: T[] = result.filter((typed) => typed.type !== 'object');
  const anyOfSets = (schema.anyOf as unknown[] | undefined)?.map((part, index) => context.child(location, 'anyOf', part, `/${index}`)) ?? [];
  const oneOfSets = (schema.oneOf as unknown[] | undefined)?.map((part, index) => context.child(location, 'oneOf', part, `/${index}`)) ?? [];
  const conditionSet = branches.conditional === undefined ? undefined : context.child(location, 'if', schema.if);
  // the objects where a branch fails, where that has to be enforced
  const anyOfFailing = anyOfSets.map((set, index) =>
    monotone(branches, configurations, (configuration) => {
      if (configuration.anyOf[index]) return undefined;
      return { ...configuration, anyOf: configuration.anyOf.map((passing, at) => passing || at === index) };
    })
      ? undefined
      : context.negate(objects, set, 'anyOf', `${pointer}/anyOf/${index}`),
  );
  const conditionFailing =
    conditionSet === undefined ||
    monotone(branches, configurations, (configuration) => (configuration.ifPasses ? undefined : { ...configuration, ifPasses: true }))
      ? undefined
      : context.negate(objects, conditionSet, 'if', `${pointer}/if`);
  for (const configuration of configurations) {
    let piece: T[] = objects;
    const within = (list: readonly T[], at: string): void => {
      if (piece.length > 0) piece = context.intersectLists(piece, list, at);
    };
    configuration.anyOf.forEach((passing, index) => {
      const failing = anyOfFailing[index];
      if (passing) within(context.denote(anyOfSets[index]!), `${pointer}/anyOf/${index}`);
      else if (failing !== undefined) within(failing, `${pointer}/anyOf/${index}`);
    });
    if (configuration.oneOf >= 0) within(context.denote(oneOfSets[configuration.oneOf]!), `${pointer}/oneOf/${configuration.oneOf}`);
    if (conditionSet !== undefined) {
      if (configuration.ifPasses) within(context.denote(conditionSet), `${pointer}/if`);
      else if (conditionFailing !== undefined) within(conditionFailing, `${pointer}/if`);
    }
    branches.dependencies.forEach(({ name }, index) =>
      within([nameCondition(context, name, configuration.dependencies[index]!, pointer)], `${pointer}/dependentSchemas`),
    );
    const names = evaluatedNames(branches, configuration);
    if (names !== true) within([closedOver(context, location, schema, names)], `${pointer}/unevaluatedProperties`);
    pieces.push(...piece);
  }
  return pieces;
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

/** The objects whose properties outside `names` satisfy the schema's `unevaluatedProperties`. */
function closedOver<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  context: UnevaluatedContext<T, L>,
  location: L,
  schema: Record<string, unknown>,
  names: ReadonlySet<string>,
): T {
  const closing = context.blank('object', location.place.pointer);
  for (const name of names) {
    closing.order.push(name);
    closing.properties.set(name, TRUE_SET);
  }
  closing.additional = context.child(location, 'unevaluatedProperties', schema.unevaluatedProperties);
  return closing;
}
