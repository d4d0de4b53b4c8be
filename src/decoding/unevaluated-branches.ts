/**
 * The branches an `unevaluatedProperties`/`unevaluatedItems` depends on, as the registry's Ajv runs them: which
 * subschemas apply, what each evaluates where it passes, the configurations of passing branches the values are split
 * over, and each configuration's values closed over what Ajv's generated code has marked evaluated there.
 * `lower-unevaluated.ts` says what is evaluated (names or items) and how a keyword closes; this module replays the branches.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import type { LocationSet } from './schema-complement.js';
import { FALSE_SET, type PatternGroup } from './lower-typed.js';
import type { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { APPLICATOR_KEYWORDS, REFERENCE_KEYWORDS, VALIDATION_KEYWORDS } from '../shared/json-schema/keywords.js';

/** Keywords Ajv compiles to code; a subschema with none of them is "always valid" to Ajv and skipped. */
export const AJV_RULE_KEYWORDS = new Set([
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

/** The fields of a typed alternative this module sets. */
export interface UnevaluatedTyped {
  type: 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
  order: string[];
  properties: Map<string, LocationSet>;
  required: Set<string>;
  additional: LocationSet;
  patternGroups: PatternGroup[];
  prefix: LocationSet[];
  items: LocationSet;
}

export interface UnevaluatedLocation {
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

/** Combinations of passing branches an `unevaluatedProperties`/`unevaluatedItems` is split over, past which it is refused. */
export const MAX_BRANCH_CONFIGURATIONS = 64;

/** What a subschema evaluates wherever it passes, as Ajv knows it at compile time: nothing, everything (true), or these names (this many items). */
export type Static<V> = undefined | true | V;

/** A `props`/`items` variable of Ajv's generated code, with the value it holds in the configuration being run. */
export class TrackingVariable<V> {
  value: Static<V> = undefined;
}

/** Ajv's `it.props`/`it.items` while it compiles a schema: known at compile time, or a variable. */
export type Tracked<V> = Static<V> | TrackingVariable<V>;

/**
 * A branch whose evaluation is not modelled, and why. It is refused only where Ajv would merge it: not where what was
 * evaluated before it is already everything at compile time (Ajv then merges nothing more).
 */
class Unmodelled {
  constructor(readonly reason: string) {}
}

/** What a branch evaluates where it passes, or why that is not modelled. */
type Branch<V> = Static<V> | Unmodelled;

/** How one of the two annotations is tracked: names (`props`) or a count of items (`items`). */
export interface Dimension<V> {
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

/** Which branches of one {@link Branches} pass. */
interface FrameConfiguration {
  readonly anyOf: readonly boolean[];
  readonly oneOf: number;
  readonly ifPasses: boolean;
  readonly dependencies: readonly boolean[];
}

/** One configuration of the branches an `unevaluated*` depends on: which pass, in the schema and in each nested frame (by `frame`). */
type Configuration = readonly FrameConfiguration[];

/**
 * A schema's branches, each with what it evaluates where it passes: the schema that holds the `unevaluated*` keyword,
 * or a subschema Ajv always applies in place (an `allOf` part, a `$ref` target it inlines) holding branches of its own.
 */
interface Branches<V> {
  /** The index of this schema's choices in a {@link Configuration}. */
  readonly frame: number;
  readonly schema: Record<string, unknown>;
  readonly place: SchemaPlace;
  readonly reference: Branch<V> | Branches<V>;
  readonly anyOf: readonly Branch<V>[];
  readonly oneOf: readonly (Branch<V> | 'always valid')[];
  readonly allOf: readonly (Branch<V> | Branches<V>)[];
  /** Undefined when Ajv ignores the `if` (no `then`/`else` with assertions). */
  readonly conditional: { readonly condition: Branch<V>; readonly then?: Branch<V>; readonly else?: Branch<V> } | undefined;
  readonly own: Static<V>;
  readonly dependencies: readonly { readonly name: string; readonly evaluated: Branch<V> }[];
}

/** Nested frames past which an `unevaluated*` is refused. */
const MAX_FRAMES = 8;

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

/**
 * The branches of `schema`, or why what they evaluate is not modelled; each frame, nested ones first, is added to
 * `frames`. An `allOf` part or an inlined `$ref` target whose evaluation is not static but that holds branches of its
 * own (a `oneOf` inside an `allOf`) is a nested frame: it always runs, so its branches split the values as the schema's do.
 */
function branchesOf<V>(
  dimension: Dimension<V>,
  schema: Record<string, unknown>,
  place: SchemaPlace,
  resolver: ReferenceResolver,
  frames: Branches<V>[],
): Branches<V> | string {
  const { pointer } = place;
  const base = resolver.placeOf(schema)?.base ?? place.base;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const unmodelled = dimension.unmodelledBeside.find(has);
  if (unmodelled !== undefined) return `"${unmodelled}" beside the branches at ${pointer}`;
  /**
   * A branch that may fail (`mayFail`) and holds what it evaluates in a variable (`patternProperties`) is not modelled:
   * Ajv's merge hands the parent that variable, filled while the branch ran, whether it passed or not.
   */
  const evaluationOf = (value: unknown, at: string, mayFail = true): Branch<V> => {
    const evaluated = staticEvaluation(dimension, value, at, base, resolver);
    if (typeof evaluated === 'string') return new Unmodelled(evaluated);
    if (mayFail && evaluated !== undefined && evaluated !== true && dimension.inVariable(evaluated))
      return new Unmodelled(`"patternProperties" in the branch at ${at}, which may fail (Ajv keeps the keys its patterns marked there)`);
    return evaluated;
  };
  /** What a subschema that always runs in place evaluates: static, or a nested frame of branches. */
  const appliedInPlace = (value: unknown, at: SchemaPlace): Branch<V> | Branches<V> => {
    const evaluated = evaluationOf(value, at.pointer, false);
    if (!(evaluated instanceof Unmodelled) || !isPlainObject(value)) return evaluated;
    if (frames.length >= MAX_FRAMES) return new Unmodelled(`more than ${MAX_FRAMES} subschemas with branches of their own at ${at.pointer}`);
    const nested = branchesOf(dimension, value, at, resolver, frames);
    return typeof nested === 'string' ? new Unmodelled(nested) : nested;
  };
  // the schema's own `$ref` runs first, and inlined where its target holds no reference (else refused as a branch's would be)
  let reference: Branch<V> | Branches<V> | undefined;
  if (has('$ref')) {
    reference = evaluationOf({ $ref: schema.$ref }, pointer, false);
    const target = typeof schema.$ref === 'string' ? resolver.resolve(schema.$ref, base) : undefined;
    if (reference instanceof Unmodelled && target !== undefined && !holdsReference(target.schema)) reference = appliedInPlace(target.schema, target.place);
  }
  const list = (keyword: string): unknown[] => (has(keyword) && Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []);
  const anyOf = list('anyOf').map((part, index) => evaluationOf(part, `${pointer}/anyOf/${index}`));
  const oneOf = list('oneOf').map((part, index) => (alwaysValid(part) ? ('always valid' as const) : evaluationOf(part, `${pointer}/oneOf/${index}`)));
  const allOf = list('allOf').map((part, index) => (alwaysValid(part) ? undefined : appliedInPlace(part, { base, pointer: `${pointer}/allOf/${index}` })));
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
  const branches: Branches<V> = {
    frame: frames.length,
    schema,
    place: { base, pointer },
    reference,
    anyOf,
    oneOf,
    allOf,
    conditional,
    own: dimension.own(schema),
    dependencies,
  };
  frames.push(branches);
  return branches;
}

/**
 * What the registry's Ajv has marked evaluated when its `unevaluated*` runs, in one configuration: its generated code
 * replayed keyword by keyword in Ajv's order (`$ref`, `anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`, then `properties`
 * or `prefixItems`, then `dependentSchemas`), with `mergeEvaluated` as `compile/util.js` writes it. A branch that may
 * fail merges into a variable declared inside the block that runs when it passes, so where it fails the variable is
 * undefined and what was known before it is lost (the `else` of an `if` whose `then` holds `properties`, say). A nested
 * frame (an `allOf` part or inlined `$ref` target with branches) is replayed the same way from nothing, with its own
 * choices in `configurations`, and merged in; the first branch not modelled that Ajv would merge is the answer.
 */
function evaluatedIn<V>(dimension: Dimension<V>, branches: Branches<V>, configurations: Configuration): Tracked<V> | Unmodelled {
  const configuration = configurations[branches.frame]!;
  let tracked: Tracked<V> = undefined;
  let unmodelled: Unmodelled | undefined;
  /**
   * A nested frame's `it.props`/`it.items` merged in as `mergeEvaluated` merges a subschema's (no variable of its own):
   * static, as any static part; a variable, at run time into the parent's variable, or the parent's static names
   * written into it, which then becomes the parent's.
   */
  const mergeFrame = (frame: Branches<V>): void => {
    if (tracked === true) return;
    const from = evaluatedIn(dimension, frame, configurations);
    if (from instanceof Unmodelled) unmodelled ??= from;
    else if (!(from instanceof TrackingVariable)) merge(from, false, true);
    else if (tracked instanceof TrackingVariable) {
      if (tracked.value !== true && from.value !== undefined) tracked.value = from.value === true ? true : dimension.join(tracked.value, from.value);
    } else {
      if (tracked !== undefined && from.value !== true) from.value = dimension.join(from.value, tracked);
      tracked = from;
    }
  };
  const mergeInPlace = (from: Branch<V> | Branches<V>): void => {
    if (from !== undefined && !(from instanceof Unmodelled) && from !== true && isFrame(from)) mergeFrame(from);
    else merge(from, false, true);
  };
  const merge = (from: Branch<V>, intoVariable: boolean, runs: boolean, own = false): void => {
    if (tracked === true || from === undefined) return;
    // merged or not at run time, such a branch shapes what Ajv tracks after it (a variable or not)
    if (from instanceof Unmodelled) {
      unmodelled ??= from;
      return;
    }
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
  mergeInPlace(branches.reference);
  branches.anyOf.forEach((evaluated, index) => merge(evaluated, true, configuration.anyOf[index]!));
  branches.oneOf.forEach((evaluated, index) => {
    if (evaluated !== 'always valid') merge(evaluated, true, configuration.oneOf === index);
  });
  for (const evaluated of branches.allOf) mergeInPlace(evaluated);
  const conditional = branches.conditional;
  if (conditional !== undefined) {
    merge(conditional.condition, false, true);
    if ('then' in conditional) merge(conditional.then, true, configuration.ifPasses);
    if ('else' in conditional) merge(conditional.else, true, !configuration.ifPasses);
  }
  merge(branches.own, false, true, true);
  branches.dependencies.forEach(({ evaluated }, index) => merge(evaluated, true, dimension.dependenciesRun && configuration.dependencies[index]!));
  return unmodelled ?? tracked;
}

/** Whether a subschema applied in place is a nested frame of branches rather than what it evaluates. */
function isFrame<V>(value: Branch<V> | Branches<V>): value is Branches<V> {
  return isPlainObject(value) && 'frame' in value && 'place' in value && 'own' in value;
}

/** Every configuration of one frame's branches: one of `anyOfChoices` (which `anyOf` branches pass), exactly one `oneOf` branch. */
function frameConfigurationsOf(branches: Branches<unknown>, anyOfChoices: readonly (readonly boolean[])[], dependencyCount: number): FrameConfiguration[] {
  const dependencyChoices = Array.from({ length: 2 ** dependencyCount }, (_, mask) =>
    Array.from({ length: dependencyCount }, (_, index) => (mask & (1 << index)) !== 0),
  );
  const oneOfs = branches.oneOf.length === 0 ? [-1] : branches.oneOf.map((_, index) => index);
  const ifs = branches.conditional === undefined ? [true] : [true, false];
  const configurations: FrameConfiguration[] = [];
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

/** What closes one configuration's values: nothing (true), a closing, or why it is not enforced. */
type Effective<C> = true | C | { readonly refused: string };

/** One of the two keywords, as {@link closeByBranches} splits it: `V` is what is tracked, `C` what the keyword reads from it. */
export interface ClosedKeyword<V, C, T> {
  readonly keyword: 'unevaluatedProperties' | 'unevaluatedItems';
  readonly dimension: Dimension<V>;
  readonly type: 'object' | 'array';
  /** What Ajv's `unevaluated*` reads from what it tracked. */
  effective(tracked: Tracked<V>): Effective<C>;
  /** Whether closing over `smaller` rejects everything closing over `larger` does (false when unsure). */
  includes(larger: C, smaller: C): boolean;
  /** The values whose unevaluated part satisfies the keyword's schema. */
  close(closing: C): T;
}

/**
 * `unevaluatedProperties`/`unevaluatedItems` where what is evaluated depends on which branches pass: the values are
 * split by configuration (which `anyOf` branches, which `oneOf` branch, whether the `if`, which `dependentSchemas` names
 * apply), and each piece is closed over what Ajv marks evaluated in it ({@link evaluatedIn}). A branch's failure is
 * enforced (its complement taken) only where failing would leave something evaluated that passing would not. A string
 * says why the shape is not modelled.
 */
export function closeByBranches<V, C, T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  result: T[],
  location: L,
  schema: Record<string, unknown>,
  context: UnevaluatedContext<T, L>,
  keyword: ClosedKeyword<V, C, T>,
): T[] | string {
  const pointer = location.place.pointer;
  const frames: Branches<V>[] = [];
  const top = branchesOf(keyword.dimension, schema, location.place, context, frames);
  if (typeof top === 'string') return top;
  const values = result.filter((typed) => typed.type === keyword.type);
  const tooMany = `more combinations of passing branches than the ${MAX_BRANCH_CONFIGURATIONS} split over`;
  // the sets of each frame's branches, located as its own subschemas (a nested frame's sit below an allOf part or a $ref target)
  const at = (frame: Branches<V>): L => ({ ...location, place: frame.place });
  const setsOf = (frame: Branches<V>, applicator: 'anyOf' | 'oneOf'): LocationSet[] =>
    ((frame.schema[applicator] as unknown[] | undefined) ?? []).map((part, index) => context.child(at(frame), applicator, part, `/${index}`));
  const anyOfSets = frames.map((frame) => setsOf(frame, 'anyOf'));
  const oneOfSets = frames.map((frame) => setsOf(frame, 'oneOf'));
  const conditionSets = frames.map((frame) => (frame.conditional === undefined ? undefined : context.child(at(frame), 'if', frame.schema.if)));
  let configurations: Configuration[] = [[]];
  for (const frame of frames) {
    const anyOfChoices = passingTogether(
      values,
      anyOfSets[frame.frame]!.map((set) => context.denote(set)),
      (left, right) => context.intersectLists(left, right, `${frame.place.pointer}/anyOf`),
      (left, right) => context.disjoint(left, right),
      MAX_BRANCH_CONFIGURATIONS,
    );
    if (anyOfChoices === undefined) return tooMany;
    const choices = frameConfigurationsOf(frame, anyOfChoices, keyword.dimension.dependenciesRun ? frame.dependencies.length : 0);
    configurations = configurations.flatMap((configuration) => choices.map((choice) => [...configuration, choice]));
    if (configurations.length > MAX_BRANCH_CONFIGURATIONS) return tooMany;
  }
  const closings = configurations.map((configuration): Effective<C> => {
    const tracked = evaluatedIn(keyword.dimension, top, configuration);
    return tracked instanceof Unmodelled ? { refused: tracked.reason } : keyword.effective(tracked);
  });
  const refusal = closings.find((closing): closing is { refused: string } => typeof closing === 'object' && closing !== null && 'refused' in closing);
  if (refusal !== undefined) return refusal.refused;
  // what is evaluated before the branches is everything in every configuration (an `if` with a `contains`, say): nothing to close
  if (closings.every((closing) => closing === true)) return result;
  const pieces: T[] = result.filter((typed) => typed.type !== keyword.type);
  const closesTighter = (failed: Effective<C>, passed: Effective<C>): boolean =>
    passed === true || (failed !== true && keyword.includes(passed as C, failed as C));
  /** The values where a branch fails, where that has to be enforced: where failing does not always close more tightly than passing. */
  const failingWhereNeeded = (
    frame: number,
    set: LocationSet,
    applicator: string,
    at: string,
    passes: (configuration: FrameConfiguration) => FrameConfiguration,
  ): T[] | undefined => {
    const needed = configurations.some((configuration, index) => {
      const passing = configuration.map((choice, where) => (where === frame ? passes(choice) : choice));
      if (sameConfiguration(passing, configuration)) return false;
      // no value passes that set of branches together: nothing to tell apart
      const passingIndex = configurations.findIndex((other) => sameConfiguration(other, passing));
      return passingIndex >= 0 && !closesTighter(closings[index]!, closings[passingIndex]!);
    });
    return needed ? context.negate(values, set, applicator, at) : undefined;
  };
  const anyOfFailing = frames.map((frame) =>
    anyOfSets[frame.frame]!.map((set, index) =>
      failingWhereNeeded(frame.frame, set, 'anyOf', `${frame.place.pointer}/anyOf/${index}`, (choice) => ({
        ...choice,
        anyOf: choice.anyOf.map((passing, branch) => passing || branch === index),
      })),
    ),
  );
  const conditionFailing = frames.map((frame) => {
    const set = conditionSets[frame.frame];
    return set === undefined ? undefined : failingWhereNeeded(frame.frame, set, 'if', `${frame.place.pointer}/if`, (choice) => ({ ...choice, ifPasses: true }));
  });
  configurations.forEach((configuration, index) => {
    let piece: T[] = values;
    const within = (list: readonly T[], at: string): void => {
      if (piece.length > 0) piece = context.intersectLists(piece, list, at);
    };
    for (const frame of frames) {
      const choice = configuration[frame.frame]!;
      const framePointer = frame.place.pointer;
      choice.anyOf.forEach((passing, branch) => {
        const failing = anyOfFailing[frame.frame]![branch];
        if (passing) within(context.denote(anyOfSets[frame.frame]![branch]!), `${framePointer}/anyOf/${branch}`);
        else if (failing !== undefined) within(failing, `${framePointer}/anyOf/${branch}`);
      });
      if (choice.oneOf >= 0) within(context.denote(oneOfSets[frame.frame]![choice.oneOf]!), `${framePointer}/oneOf/${choice.oneOf}`);
      const conditionSet = conditionSets[frame.frame];
      if (conditionSet !== undefined) {
        const failing = conditionFailing[frame.frame];
        if (choice.ifPasses) within(context.denote(conditionSet), `${framePointer}/if`);
        else if (failing !== undefined) within(failing, `${framePointer}/if`);
      }
      choice.dependencies.forEach((present, at) =>
        within([nameCondition(context, frame.dependencies[at]!.name, present, framePointer)], `${framePointer}/dependentSchemas`),
      );
    }
    const closing = closings[index]!;
    if (closing !== true) within([keyword.close(closing as C)], `${pointer}/${keyword.keyword}`);
    pieces.push(...piece);
  });
  return pieces;
}

function sameConfiguration(left: Configuration, right: Configuration): boolean {
  return left.every((choice, frame) => sameFrameConfiguration(choice, right[frame]!));
}

function sameFrameConfiguration(left: FrameConfiguration, right: FrameConfiguration): boolean {
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
