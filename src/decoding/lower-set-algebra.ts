/**
 * Stage 2 of the lowering (`lower-json-schema.ts`), the set algebra: each location set denotes a union of typed
 * alternatives (`Typed`); `allOf`, `$ref` and sibling keywords intersect them, `anyOf` (and `oneOf` with provably
 * disjoint branches) unite them, `not`, `if`/`else` and overlapping `oneOf` branches subtract (`schema-complement.ts`).
 * Disjointness is probed conservatively, and a value's membership is decided here for the other stages.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { escapePointer } from '../shared/json-schema/json-pointer.js';
import { subschemaSlots } from '../shared/json-schema/walk-schema.js';
import { AutomatonWorkLimitError, type CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { ajvMultipleOf } from './multiple-of-language.js';
import { referenceTargetProblem, unresolvedReference } from './meta-schema-check.js';
import { DYNAMIC_REFERENCE_KEYWORDS } from './dynamic-reference.js';
import type { LoweringContext } from './lower-context.js';
import { applyKeywords, checkKeywords, declaredTypes, KeywordSite, schemaArray } from './lower-keywords.js';
import type { SchemaLocations } from './lower-references.js';
import {
  ALL_TYPES,
  blank,
  FALSE_LOCATION,
  FALSE_SET,
  formatChoices,
  TRUE_SET,
  intersectTyped,
  jsonEqual,
  jsonTypeOf,
  valueSetFor,
  witnessTest,
  type FormatChoice,
  type Location,
  type LocationSet,
  type PatternGroup,
  type PatternRule,
  type Typed,
} from './lower-typed.js';
import { applyUnevaluated, type UnevaluatedContext } from './lower-unevaluated.js';
import { prunedUnion } from './alternative-pruning.js';
import { differenceOf, type DifferenceContext, type KeyWitness, type StringPiece } from './schema-complement.js';
import { formatLanguage, type FormatAlternative } from './string-formats.js';

/** Thrown inside a disjointness probe that reached a location still being denoted; the probe answers "unsure". */
class ProbeCycle extends Error {}

/**
 * Thrown inside a complement split over a schema's structure where a piece is not expressible or too large; the caller
 * takes the difference of the denotations instead.
 */
class SplitAbandoned extends Error {}

/** The applicators a schema's denotation intersects with the rest of it (as `denoteObject` does), over which a complement splits. */
const SPLIT_APPLICATORS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not'];
/** Keywords that tie a schema to its identity or to the applicators beside it: such a schema is complemented whole. */
const UNSPLIT_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor', '$dynamicRef', '$recursiveRef', 'unevaluatedProperties', 'unevaluatedItems'];
/**
 * Pairs of alternatives the pruning of split complements may compare over one compile: a split that cannot be pruned
 * within it passes the alternatives budget and is abandoned early, before the difference of the denotations is tried.
 */
const MAX_SPLIT_INCLUSION_PAIRS = 30_000;
/** Work a split may do over one complement, counted as alternatives pruned pairwise and differences' products, before it is abandoned. */
const MAX_SPLIT_WORK = 100_000;
/** Schemas {@link SetAlgebra.reachesItself} visits before it answers "recursive". */
const MAX_RECURSION_CHECK = 2_000;
/** Nesting of applicators a complement splits through (a `$ref` cycle of `allOf`s ends here and is complemented whole). */
const MAX_SPLIT_DEPTH = 8;

/** The denotations of one lowering, cached per location and per set; the caller's context collects what was relaxed. */
export class SetAlgebra {
  private readonly denotations = new Map<number, Typed[]>();
  private readonly setDenotations = new Map<string, Typed[]>();
  private differenceContextCache: DifferenceContext<Typed> | undefined;
  /** `$ref` targets whose keyword values were checked as the registry's Ajv checks them (`referenceTargetProblem`). */
  private readonly checkedReferenceTargets = new Set<object>();
  private splitContextCache: DifferenceContext<Typed> | undefined;
  private splitWork = 0;
  private splitNesting = 0;
  /** Per location split by a complement: the location of its schema less its applicators. */
  private readonly applicatorFree = new Map<number, LocationSet>();
  private readonly recursiveLocations = new Map<number, boolean>();

  constructor(
    private readonly context: LoweringContext,
    private readonly references: SchemaLocations,
  ) {}

  denoteSet(set: LocationSet): Typed[] {
    if (set.length === 0) return ALL_TYPES.map((type) => blank(type, '#'));
    if (set[0] === FALSE_LOCATION) return [];
    const key = set.join(',');
    let result = this.setDenotations.get(key);
    if (result !== undefined && this.relaxedWithin(set)) for (const id of this.context.inProgress) this.context.relaxedDenotations.add(id);
    if (result === undefined) {
      result = this.denote(set[0]!);
      for (let index = 1; index < set.length; index++)
        result = this.intersectLists(result, this.denote(set[index]!), this.context.locations[set[index]!]!.place.pointer);
      this.setDenotations.set(key, result);
    }
    return result;
  }

  private denote(id: number): Typed[] {
    const cached = this.denotations.get(id);
    if (cached !== undefined) {
      if (this.context.relaxedDenotations.has(id)) for (const outer of this.context.inProgress) this.context.relaxedDenotations.add(outer);
      return cached;
    }
    const location = this.context.locations[id]!;
    if (this.context.inProgress.has(id)) {
      // a disjointness probe reached a schema still being denoted: the probe gives up (not provably disjoint)
      if (this.context.probing > 0) throw new ProbeCycle();
      this.context.refuse('$ref', location.place.pointer, 'a $ref cycle that never enters a property or item (the schema refers to itself without nesting)');
      return ALL_TYPES.map((type) => blank(type, location.place.pointer));
    }
    this.context.inProgress.add(id);
    try {
      const result = location.complementOf === undefined ? this.denoteObject(location) : this.denoteComplement(location, location.complementOf);
      this.denotations.set(id, result);
      return result;
    } finally {
      this.context.inProgress.delete(id);
    }
  }

  private denoteObject(location: Location): Typed[] {
    const site = new KeywordSite(this.context, this.references, location);
    const { schema, pointer } = site;
    checkKeywords(site);
    const { types, integerOnly, literals } = declaredTypes(site);
    let result: Typed[] = [];
    for (const type of types) {
      const typed = blank(type, pointer);
      if (type === 'number') typed.integer = integerOnly;
      if (literals !== undefined) typed.literals = literals.filter((value) => jsonTypeOf(value) === type || (type === 'number' && typeof value === 'number'));
      if (typed.literals !== undefined && typed.literals.length === 0) continue;
      applyKeywords(typed, site);
      result.push(typed);
    }

    if (site.has('$ref')) {
      if (typeof schema.$ref !== 'string') this.context.invalid(pointer, '"$ref" must be a string');
      const target = this.context.registry.resolve(schema.$ref as string, location.place.base);
      if (target === undefined) {
        const unresolved = unresolvedReference(schema.$ref as string, location.place.base);
        if (unresolved.kind === 'refused') this.context.refuse('$ref', pointer, unresolved.reason);
        else this.context.invalid(pointer, unresolved.reason);
      } else if (typeof target.schema !== 'boolean' && !isPlainObject(target.schema)) {
        this.context.refuse(
          '$ref',
          pointer,
          `"${String(schema.$ref)}" names a value that is not a schema (${JSON.stringify(target.schema)?.slice(0, 40)}); point it at a schema`,
        );
      } else {
        const problem = referenceTargetProblem(target.schema, target.place.pointer, this.checkedReferenceTargets);
        if (problem !== undefined) this.context.invalid(pointer, problem);
        // the registry's Ajv compiles a target that holds a dynamic reference as a function of its own: a new frame
        const targetSet = this.references.locate(target.schema, target.place, isPlainObject(target.schema) ? target.schema : undefined);
        result = this.intersectLists(result, this.denoteSet(targetSet), pointer);
      }
    }
    for (const keyword of DYNAMIC_REFERENCE_KEYWORDS) if (site.has(keyword)) result = this.applyDynamicReference(result, location, keyword);
    if (site.has('allOf')) {
      const parts = schemaArray(this.context, schema.allOf, pointer, 'allOf');
      parts.forEach((part, index) => {
        result = this.intersectLists(result, this.denoteSet(this.references.child(location, 'allOf', part, `/${index}`)), `${pointer}/allOf/${index}`);
      });
    }
    if (site.has('anyOf')) {
      const parts = schemaArray(this.context, schema.anyOf, pointer, 'anyOf');
      const union = parts.flatMap((part, index) => this.denoteSet(this.references.child(location, 'anyOf', part, `/${index}`)));
      result = this.intersectLists(result, union, `${pointer}/anyOf`);
    }
    if (site.has('oneOf')) {
      const parts = schemaArray(this.context, schema.oneOf, pointer, 'oneOf');
      const branchSets = parts.map((part, index) => this.references.child(location, 'oneOf', part, `/${index}`));
      const branches = branchSets.map((set) => this.denoteSet(set));
      // a branch that shares no value with the rest of the schema cannot make two branches hold
      const live = branches.map((branch) => this.intersectLists(result, branch, `${pointer}/oneOf`)).filter((branch) => branch.length > 0);
      result = this.exactlyOne(
        live,
        pointer,
        branchSets.some((set) => this.relaxedWithin(set)),
      );
    }
    if (site.has('not')) result = this.applyNot(result, location, schema.not);
    if (site.has('if')) result = this.applyConditional(result, location, schema);
    if (site.has('dependentSchemas')) result = this.applyDependencies(result, location, schema.dependentSchemas, 'dependentSchemas');
    if (site.has('dependencies')) result = this.applyDependencies(result, location, schema.dependencies, 'dependencies');
    if (site.has('unevaluatedProperties') || site.has('unevaluatedItems')) result = applyUnevaluated(result, location, schema, this.unevaluatedContext());
    if (result.length > this.context.limits.maxAlternatives)
      this.context.refuse('anyOf', pointer, `the schema expands to more than ${this.context.limits.maxAlternatives} alternatives (limits.maxAlternatives)`);
    return result;
  }

  private applyNot(result: Typed[], location: Location, negated: unknown): Typed[] {
    return this.negateWithin(result, this.references.child(location, 'not', negated), 'not', `${location.place.pointer}/not`);
  }

  /**
   * `within ∧ ¬set`: split over the negated schema, else the difference of the denotations, else (refused, lenient)
   * `within` itself. Lenient: a negated schema that lost keywords is not negated at all (see {@link dropNegation}).
   */
  private negateWithin(within: Typed[], set: LocationSet, keyword: string, pointer: string): Typed[] {
    if (this.context.options.lenient) {
      this.denoteSet(set);
      if (this.relaxedWithin(set)) return this.dropNegation(within, keyword, pointer);
    }
    return this.splitComplement(within, set) ?? this.difference(within, this.denoteSet(set), keyword, pointer) ?? within;
  }

  private relaxedWithin(set: LocationSet): boolean {
    return set.some((id) => this.context.relaxedDenotations.has(id));
  }

  /** Lenient: a negated schema lost keywords, so its complement would reject valid values; the negation is dropped instead. */
  private dropNegation(result: Typed[], keyword: string, pointer: string): Typed[] {
    this.context.refuse(keyword, pointer, 'the negated schema has keywords that are not enforced, so its complement is not enforced either');
    return result;
  }

  /** `left ∧ ¬right`, or undefined (after refusing `keyword`) when not expressible exactly. */
  private difference(left: readonly Typed[], right: readonly Typed[], keyword: string, pointer: string): Typed[] | undefined {
    return differenceOf(left, right, this.differenceContext(), keyword, pointer);
  }

  private differenceContext(): DifferenceContext<Typed> {
    this.differenceContextCache ??= {
      limits: this.context.limits,
      blank,
      intersect: intersectTyped,
      complement: (set) => this.references.complementSet(set),
      literal: (value, pointer) => this.references.literalSet(value, pointer),
      valueSet: valueSetFor,
      satisfies: (value, typed) => this.satisfiesTyped(value, typed),
      stringPieces: (typed) => this.stringPieces(typed),
      // through the vocabulary's cache: a complement (of an enum's literals, say) built once serves every grammar, and so do its positions' masks
      complementDfa: (dfa) => this.context.options.cache.complement(this.context.options.cache.canonical(dfa), this.context.options.automatonWork),
      formatComplement: (name) => this.context.options.cache.formatComplement(name),
      refuse: (keyword, pointer, details) => this.context.refuse(keyword, pointer, details),
    };
    return this.differenceContextCache;
  }

  private unevaluatedContext(): UnevaluatedContext<Typed, Location> {
    return {
      blank,
      intersectLists: (left, right, pointer) => this.intersectLists(left, right, pointer),
      child: (location, keyword, value, suffix) => this.references.child(location, keyword, value, suffix),
      denote: (set) => this.denoteSet(set),
      disjoint: (left, right) => this.disjointLists(left, right, 3),
      negate: (within, set, keyword, pointer) => this.negateWithin([...within], set, keyword, pointer),
      resolve: (reference, base) => this.context.registry.resolve(reference, base),
      placeOf: (schema) => this.context.registry.placeOf(schema),
      keyPattern: (source) => this.context.options.cache.pattern(source, false, this.context.options.automatonWork),
      refuse: (keyword, pointer, details) => this.context.refuse(keyword, pointer, details),
    };
  }

  private denoteComplement(location: Location, set: LocationSet): Typed[] {
    const keyword = location.keyword ?? 'not';
    const everything = location.within === undefined ? ALL_TYPES.map((type) => blank(type, location.place.pointer)) : this.denoteSet(location.within);
    return this.negateWithin(everything, set, keyword, location.place.pointer);
  }

  /**
   * `within ∧ ¬set` split over the negated schema's structure before any product is taken: ¬(A ∧ B) = ¬A ∪ ¬B over the
   * applicators a schema intersects (`$ref`, `allOf`, its own keywords), ¬(A ∪ B) = ¬A ∧ ¬B for `anyOf`, "not exactly
   * one" = none ∪ some two for `oneOf`, and ¬¬A = A, each union pruned as a difference's steps are. Taking the complement
   * of the whole denotation instead multiplies every piece of one part with every piece of the others (an overlapping
   * `oneOf` is already a union of branches less the others). Undefined, with nothing refused, where a piece is not
   * expressible exactly or a union passes `limits.maxAlternatives`: the caller then takes the difference of the denotations.
   */
  private splitComplement(within: readonly Typed[], set: LocationSet): Typed[] | undefined {
    if (this.splitNesting++ === 0) this.splitWork = 0;
    try {
      return this.complementWithin(within, set, MAX_SPLIT_DEPTH);
    } catch (error) {
      if (error instanceof SplitAbandoned) return undefined;
      throw error;
    } finally {
      this.splitNesting--;
    }
  }

  private complementWithin(within: readonly Typed[], set: LocationSet, depth: number): Typed[] {
    if (within.length === 0 || set.length === 0) return [];
    if (set[0] === FALSE_LOCATION) return [...within];
    if (set.length > 1) return this.splitUnion(set.flatMap((id) => this.complementWithin(within, [id], depth)));
    const location = this.context.locations[set[0]!]!;
    const pointer = location.place.pointer;
    if (location.complementOf !== undefined) {
      // W ∧ ¬(V ∧ ¬S) = (W ∧ ¬V) ∪ (W ∧ S), and W ∧ ¬¬S = W ∧ S
      const kept = this.boundedIntersection(within, this.denoteSet(location.complementOf));
      return location.within === undefined ? kept : this.splitUnion([...this.complementWithin(within, location.within, depth), ...kept]);
    }
    const schema = location.schema;
    const has = (keyword: string): boolean => isPlainObject(schema) && Object.prototype.hasOwnProperty.call(schema, keyword);
    if (!isPlainObject(schema) || !this.splitsFurther(set, depth)) return this.splitDifference(within, this.denoteSet(set), pointer);
    const applicatorFree = this.denoteSet(this.applicatorFreeSet(location));
    const pieces = this.splitDifference(within, applicatorFree, pointer);
    if (has('$ref')) {
      const target = typeof schema.$ref === 'string' ? this.context.registry.resolve(schema.$ref, location.place.base) : undefined;
      // an unresolved (or invalid) reference is refused, or reported invalid, by the denotation of the whole
      if (target === undefined) throw new SplitAbandoned();
      const targetSet = this.references.locate(target.schema, target.place, isPlainObject(target.schema) ? target.schema : undefined);
      pieces.push(...this.complementWithin(within, targetSet, depth - 1));
    }
    if (has('allOf'))
      schemaArray(this.context, schema.allOf, pointer, 'allOf').forEach((part, index) =>
        pieces.push(...this.complementWithin(within, this.references.child(location, 'allOf', part, `/${index}`), depth - 1)),
      );
    const partSets = (keyword: 'anyOf' | 'oneOf'): LocationSet[] =>
      schemaArray(this.context, schema[keyword], pointer, keyword).map((part, index) => this.references.child(location, keyword, part, `/${index}`));
    if (has('anyOf')) pieces.push(...this.complementOfEach(within, partSets('anyOf'), depth - 1, pointer));
    if (has('oneOf')) {
      const branchSets = partSets('oneOf');
      pieces.push(...this.complementOfEach(within, branchSets, depth - 1, pointer));
      // two branches hold: every pair, each within the values of the first
      branchSets.forEach((first, index) => {
        const inFirst = this.boundedIntersection(within, this.denoteSet(first));
        for (const second of branchSets.slice(index + 1)) pieces.push(...this.boundedIntersection(inFirst, this.denoteSet(second)));
      });
    }
    if (has('not')) pieces.push(...this.boundedIntersection(within, this.denoteSet(this.references.child(location, 'not', schema.not))));
    return this.splitUnion(pieces).map((piece) => this.inSchemaOrder(piece, within, applicatorFree));
  }

  /** `within ∧ ¬A₁ ∧ … ∧ ¬Aₙ`: the parts that split no further in one difference, so a discriminating key can tell their objects apart. */
  private complementOfEach(within: readonly Typed[], sets: readonly LocationSet[], depth: number, pointer: string): Typed[] {
    const whole = sets.filter((set) => !this.splitsFurther(set, depth)).flatMap((set) => this.denoteSet(set));
    let none = whole.length === 0 ? [...within] : this.splitDifference(within, whole, pointer);
    for (const set of sets) if (this.splitsFurther(set, depth)) none = this.complementWithin(none, set, depth);
    return none;
  }

  /** Whether {@link complementWithin} splits the complement of `set` over its schema, rather than taking the difference of its denotation. */
  private splitsFurther(set: LocationSet, depth: number): boolean {
    if (set.length !== 1 || set[0] === FALSE_LOCATION) return true;
    const location = this.context.locations[set[0]!]!;
    if (location.complementOf !== undefined) return true;
    const schema = location.schema;
    const has = (keyword: string): boolean => isPlainObject(schema) && Object.prototype.hasOwnProperty.call(schema, keyword);
    return !(
      depth === 0 ||
      !isPlainObject(schema) ||
      location.frame !== undefined ||
      UNSPLIT_KEYWORDS.some(has) ||
      !SPLIT_APPLICATORS.some(has) ||
      this.reachesItself(location)
    );
  }

  /**
   * An object piece with the names of `within` and then of the negated schema's own keywords declared first (true: the
   * piece's own rules for them still apply), so its layout keeps the order the whole difference would give it.
   */
  private inSchemaOrder(piece: Typed, within: readonly Typed[], negated: readonly Typed[]): Typed {
    if (piece.type !== 'object' || piece.literals !== undefined || piece.witnesses.length > 0) return piece;
    const ordering = blank('object', piece.pointer);
    for (const typed of [...within, ...negated])
      if (typed.type === 'object')
        for (const name of typed.order) {
          if (ordering.properties.has(name)) continue;
          ordering.order.push(name);
          ordering.properties.set(name, TRUE_SET);
        }
    return intersectTyped(ordering, piece) ?? piece;
  }

  /**
   * Whether a schema reaches itself through its references. Its split complement would then sit in its own values, and
   * the pieces of "none" and "some two", which overlap, would all run side by side at every level of nesting (the
   * configurations multiply with the depth), so such a schema is complemented whole. Past
   * {@link MAX_RECURSION_CHECK} schemas visited, it is taken as recursive.
   */
  private reachesItself(location: Location): boolean {
    let answer = this.recursiveLocations.get(location.id);
    if (answer !== undefined) return answer;
    const onPath = new Set<object>();
    const explored = new Set<object>();
    const walk = (schema: unknown, base: string): boolean => {
      if (!isPlainObject(schema) || explored.has(schema)) return false;
      if (onPath.has(schema) || onPath.size + explored.size > MAX_RECURSION_CHECK) return true;
      onPath.add(schema);
      const here = this.context.registry.placeOf(schema)?.base ?? base;
      for (const slot of subschemaSlots(schema)) if (walk(slot.schema, here)) return true;
      for (const keyword of ['$ref', ...DYNAMIC_REFERENCE_KEYWORDS]) {
        const reference = schema[keyword];
        if (reference === undefined) continue;
        const target = typeof reference === 'string' ? this.context.registry.resolve(reference, here) : undefined;
        if (target === undefined || walk(target.schema, target.place.base)) return true;
      }
      onPath.delete(schema);
      explored.add(schema);
      return false;
    };
    answer = walk(location.schema, location.place.base);
    this.recursiveLocations.set(location.id, answer);
    return answer;
  }

  /** The location of a schema less its split applicators, at the schema's place (its keywords' children are the schema's own). */
  private applicatorFreeSet(location: Location): LocationSet {
    let set = this.applicatorFree.get(location.id);
    if (set === undefined) {
      const rest = Object.fromEntries(Object.entries(location.schema as Record<string, unknown>).filter(([keyword]) => !SPLIT_APPLICATORS.includes(keyword)));
      set = this.references.locate(rest, location.place);
      this.applicatorFree.set(location.id, set);
    }
    return set;
  }

  private splitUnion(pieces: Typed[]): Typed[] {
    this.spendSplitWork(pieces.length * pieces.length);
    const union = prunedUnion(pieces, this.splitContext());
    if (union.length > this.context.limits.maxAlternatives) throw new SplitAbandoned();
    return union;
  }

  private splitDifference(left: readonly Typed[], right: readonly Typed[], pointer: string): Typed[] {
    this.spendSplitWork(left.length * right.length * right.length);
    return differenceOf(left, right, this.splitContext(), 'not', pointer) ?? [];
  }

  private spendSplitWork(work: number): void {
    this.splitWork += work;
    if (this.splitWork > MAX_SPLIT_WORK) throw new SplitAbandoned();
  }

  private boundedIntersection(left: readonly Typed[], right: readonly Typed[]): Typed[] {
    const result: Typed[] = [];
    for (const a of left) {
      for (const b of right) {
        const merged = intersectTyped(a, b);
        if (merged !== undefined) result.push(merged);
        if (result.length > this.context.limits.maxAlternatives) throw new SplitAbandoned();
      }
    }
    return result;
  }

  /** The difference context of a split: a refusal abandons the split instead of refusing the schema. */
  private splitContext(): DifferenceContext<Typed> {
    this.splitContextCache ??= {
      ...this.differenceContext(),
      maxInclusionPairs: MAX_SPLIT_INCLUSION_PAIRS,
      refuse: () => {
        throw new SplitAbandoned();
      },
    };
    return this.splitContextCache;
  }

  /** The string language of an alternative as pieces (one per format alternative); undefined when a pattern is refused. */
  private stringPieces(typed: Typed): StringPiece[] | undefined {
    let minLength = typed.minLength;
    let maxLength = typed.maxLength;
    try {
      for (const pattern of typed.patterns) {
        const compiled = this.context.options.cache.schemaPattern(pattern.source, this.context.options.automatonWork);
        minLength = Math.max(minLength, compiled.minLength);
        maxLength = Math.min(maxLength, compiled.maxLength);
      }
      const pieces: StringPiece[] = [];
      for (const choice of formatChoices(typed.formats)) {
        const dfa = this.stringDfa(typed.patterns, choice, false, typed.languages);
        // undefined for a constrained string: the intersection exceeded its budget
        if (dfa === undefined && typed.patterns.length + choice.patterns.length + typed.languages.length > 0) return undefined;
        pieces.push({ dfa, minLength: Math.max(minLength, choice.minLength), maxLength: Math.min(maxLength, choice.maxLength) });
      }
      return pieces;
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      return undefined;
    }
  }

  /** `oneOf`: the union when the branches are provably disjoint, else each branch minus the branches it may overlap. */
  private exactlyOne(live: readonly Typed[][], pointer: string, relaxed: boolean): Typed[] {
    const overlaps = live.map(() => new Array<boolean>(live.length).fill(false));
    let anyOverlap = false;
    for (let left = 0; left < live.length; left++) {
      for (let right = left + 1; right < live.length; right++) {
        if (this.disjointLists(live[left]!, live[right]!, 3)) continue;
        overlaps[left]![right] = overlaps[right]![left] = anyOverlap = true;
      }
    }
    if (!anyOverlap) return live.flat();
    if (relaxed) return this.dropNegation(live.flat(), 'oneOf', pointer);
    const result: Typed[] = [];
    for (let index = 0; index < live.length; index++) {
      // alternative by alternative: `a ∧ ¬b` is `a` when `a` and `b` share no value, so each alternative subtracts only
      // the other branches' alternatives it may overlap (branches of objects beside other types overlap on those types
      // alone, and their object alternatives then subtract nothing)
      const others = live.filter((_, at) => overlaps[index]![at]).flat();
      for (const alternative of live[index]!) {
        const overlapping = others.filter((other) => !this.disjointTyped(alternative, other, 3));
        const only = overlapping.length === 0 ? [alternative] : this.difference([alternative], overlapping, 'oneOf', pointer);
        if (only === undefined) return live.flat();
        result.push(...only);
      }
      if (result.length > this.context.limits.maxAlternatives) {
        this.context.refuse(
          'oneOf',
          pointer,
          `exactly one of its overlapping branches expands to more than ${this.context.limits.maxAlternatives} alternatives (limits.maxAlternatives)`,
        );
        return live.flat();
      }
    }
    return result;
  }

  /** `if`/`then`/`else` = (if ∧ then) ∪ (¬if ∧ else), an absent `then`/`else` being true. */
  private applyConditional(result: Typed[], location: Location, schema: Record<string, unknown>): Typed[] {
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    const conditionSet = this.references.child(location, 'if', schema.if);
    const condition = this.denoteSet(conditionSet);
    if (this.relaxedWithin(conditionSet)) return this.dropNegation(result, 'if', `${pointer}/if`);
    let matching = this.intersectLists(result, condition, `${pointer}/if`);
    if (has('then')) matching = this.intersectLists(matching, this.denoteSet(this.references.child(location, 'then', schema.then)), `${pointer}/then`);
    let failing = this.splitComplement(result, conditionSet) ?? this.difference(result, condition, 'if', `${pointer}/if`);
    if (failing === undefined) return result;
    if (has('else')) failing = this.intersectLists(failing, this.denoteSet(this.references.child(location, 'else', schema.else)), `${pointer}/else`);
    return [...matching, ...failing];
  }

  /** `$dynamicRef` / `$recursiveRef`: a static reference within the location's frame (`dynamic-reference.ts`). */
  private applyDynamicReference(result: Typed[], location: Location, keyword: string): Typed[] {
    const pointer = location.place.pointer;
    const reference = (location.schema as Record<string, unknown>)[keyword];
    // over the specialization budget (lenient): no frame, so the reference is dropped (already listed as relaxed)
    if (location.frame === undefined) return result;
    const resolution = this.context.dynamicReferences.resolve(keyword, reference, location.place.base, location.frame);
    if (resolution.kind === 'invalid') this.context.invalid(pointer, resolution.message);
    if (resolution.kind === 'refused') {
      this.context.refuse(keyword, pointer, resolution.details);
      return result;
    }
    const target = resolution.schema;
    const targetSet = this.references.locate(target, this.context.registry.placeOf(target) ?? { base: location.place.base, pointer: '#' }, target);
    return this.intersectLists(result, this.denoteSet(targetSet), pointer);
  }

  /** `dependentSchemas` / draft-7 `dependencies`: an object either lacks the property or also satisfies its schema (or has its names). */
  private applyDependencies(result: Typed[], location: Location, dependencies: unknown, keyword: string): Typed[] {
    const pointer = location.place.pointer;
    if (!isPlainObject(dependencies)) this.context.invalid(pointer, `"${keyword}" must be an object`);
    for (const [name, value] of Object.entries(dependencies)) {
      const escaped = `/${escapePointer(name)}`;
      let consequence: Typed[];
      if (Array.isArray(value)) {
        if (keyword !== 'dependencies' || value.some((item) => typeof item !== 'string'))
          this.context.invalid(pointer, `"${keyword}${escaped}" must be a schema`);
        // names made required are tracked by the object's progress (applyObjectKeywords), without splitting alternatives
        continue;
      } else {
        consequence = this.denoteSet(this.references.child(location, keyword, value, escaped));
      }
      const absent = blank('object', pointer);
      absent.order.push(name);
      absent.properties.set(name, FALSE_SET);
      const present = blank('object', pointer);
      present.required.add(name);
      const others = ALL_TYPES.filter((type) => type !== 'object').map((type) => blank(type, pointer));
      const withoutName = this.intersectLists(result, [...others, absent], `${pointer}/${keyword}${escaped}`);
      const withName = this.intersectLists(
        this.intersectLists(result, [present], `${pointer}/${keyword}${escaped}`),
        consequence,
        `${pointer}/${keyword}${escaped}`,
      );
      result = [...withoutName, ...withName];
      if (result.length > this.context.limits.maxAlternatives) {
        this.context.refuse(
          keyword,
          `${pointer}/${keyword}${escaped}`,
          `the dependencies expand to more than ${this.context.limits.maxAlternatives} alternatives (limits.maxAlternatives)`,
        );
        return result;
      }
    }
    return result;
  }

  private intersectLists(left: readonly Typed[], right: readonly Typed[], pointer: string): Typed[] {
    const result: Typed[] = [];
    for (const a of left) {
      for (const b of right) {
        const merged = intersectTyped(a, b);
        if (merged !== undefined) result.push(merged);
        if (result.length > this.context.limits.maxAlternatives * 4) {
          this.context.refuse(
            'allOf',
            pointer,
            `combining the subschemas gives more than ${this.context.limits.maxAlternatives} alternatives (limits.maxAlternatives)`,
          );
          return result;
        }
      }
    }
    return result;
  }

  /** True when no value satisfies both lists (conservative: false when unsure). */
  private disjointLists(left: readonly Typed[], right: readonly Typed[], depth: number): boolean {
    return left.every((a) => right.every((b) => this.disjointTyped(a, b, depth)));
  }

  /**
   * Disjointness of item or property values, which denotes them: through a `$ref` back to a `oneOf` being denoted
   * that would be a cycle, though the value nests; unsure then, so not disjoint (the overlapping-branch construction
   * is exact either way).
   */
  private disjointSets(left: LocationSet, right: LocationSet, depth: number): boolean {
    this.context.probing++;
    try {
      return this.disjointLists(this.denoteSet(left), this.denoteSet(right), depth);
    } catch (error) {
      if (error instanceof ProbeCycle) return false;
      throw error;
    } finally {
      this.context.probing--;
    }
  }

  /** Whether no value satisfies `set`, or undefined when deciding it reaches a location being denoted. */
  private emptySet(set: LocationSet): boolean | undefined {
    this.context.probing++;
    try {
      return this.denoteSet(set).length === 0;
    } catch (error) {
      if (error instanceof ProbeCycle) return undefined;
      throw error;
    } finally {
      this.context.probing--;
    }
  }

  private disjointTyped(a: Typed, b: Typed, depth: number): boolean {
    if (a.type !== b.type) return true;
    if (a.literals !== undefined && b.literals !== undefined) return !a.literals.some((value) => b.literals!.some((other) => jsonEqual(value, other)));
    if (a.literals !== undefined) return !a.literals.some((value) => this.satisfiesTyped(value, b));
    if (b.literals !== undefined) return !b.literals.some((value) => this.satisfiesTyped(value, a));
    switch (a.type) {
      case 'null':
        return false;
      case 'boolean':
        return false;
      case 'number': {
        const merged = intersectTyped(a, b);
        if (merged === undefined) return true;
        return (
          this.context.options.cache.numberAutomaton({
            integer: merged.integer,
            minimum: merged.minimum,
            exclusiveMinimum: merged.exclusiveMinimum,
            maximum: merged.maximum,
            exclusiveMaximum: merged.exclusiveMaximum,
          }) === null
        );
      }
      case 'string': {
        if (Math.max(a.minLength, b.minLength) > Math.min(a.maxLength, b.maxLength)) return true;
        try {
          // no pattern or format on either side: both accept overlapping strings
          return formatChoices([...a.formats, ...b.formats]).every((choice) => {
            const dfa = this.stringDfa([...a.patterns, ...b.patterns], choice, false, [...a.languages, ...b.languages]);
            return dfa !== undefined && dfa.start < 0;
          });
        } catch (error) {
          if (error instanceof AutomatonWorkLimitError) throw error;
          return false;
        }
      }
      case 'array': {
        if (Math.max(a.minItems, b.minItems) > Math.min(a.maxItems, b.maxItems)) return true;
        if (depth <= 0) return false;
        const length = Math.max(a.prefix.length, b.prefix.length);
        for (let index = 0; index < length; index++) {
          if (index >= Math.max(a.minItems, b.minItems)) break;
          if (this.disjointSets(a.prefix[index] ?? a.items, b.prefix[index] ?? b.items, depth - 1)) return true;
        }
        return false;
      }
      case 'object': {
        if (depth <= 0) return false;
        for (const name of new Set([...a.required, ...b.required])) {
          const left = valueSetFor(a, name);
          const right = valueSetFor(b, name);
          if (a.required.has(name) || b.required.has(name)) {
            if (this.emptySet(left) === true || this.emptySet(right) === true) return true;
          }
          if (a.required.has(name) && b.required.has(name) && this.disjointSets(left, right, depth - 1)) return true;
        }
        return false;
      }
    }
  }

  satisfiesSet(value: unknown, set: LocationSet): boolean {
    return this.denoteSet(set).some((typed) => this.satisfiesTyped(value, typed));
  }

  satisfiesTyped(value: unknown, typed: Typed): boolean {
    const type = jsonTypeOf(value);
    if (type === undefined) return false;
    if (!(type === typed.type || (typed.type === 'number' && typeof value === 'number'))) return false;
    if (typed.literals !== undefined && !typed.literals.some((literal) => jsonEqual(literal, value))) return false;
    switch (typed.type) {
      case 'string': {
        const text = value as string;
        const length = [...text].length;
        if (length < typed.minLength || length > typed.maxLength) return false;
        for (const format of typed.formats) {
          const language = formatLanguage(format.source);
          if (language?.kind !== 'string') continue;
          const matches = (alternative: FormatAlternative): boolean =>
            length >= (alternative.minLength ?? 0) &&
            length <= (alternative.maxLength ?? Infinity) &&
            alternative.patterns.every((source) => this.context.options.cache.pattern(source, language.ignoreCase).matches(text));
          if (!language.alternatives.some(matches)) return false;
        }
        for (const language of typed.languages) if (!language.matches(text)) return false;
        for (const pattern of typed.patterns) {
          try {
            if (!this.context.options.cache.pattern(pattern.source, false, this.context.options.automatonWork).matches(text)) return false;
          } catch (error) {
            if (error instanceof AutomatonWorkLimitError) throw error;
            // a refused pattern (lenient) does not constrain
          }
        }
        return true;
      }
      case 'number': {
        const number = value as number;
        if (!Number.isFinite(number)) return false;
        if (typed.integer && !Number.isInteger(number)) return false;
        if (typed.fractional && Number.isInteger(number)) return false;
        if (number < typed.minimum || (typed.exclusiveMinimum && number === typed.minimum)) return false;
        if (number > typed.maximum || (typed.exclusiveMaximum && number === typed.maximum)) return false;
        return typed.multiples.every((divisor) => ajvMultipleOf(number, divisor)) && !typed.nonMultiples.some((divisor) => ajvMultipleOf(number, divisor));
      }
      case 'array': {
        const items = value as unknown[];
        if (items.length < typed.minItems || items.length > typed.maxItems) return false;
        if (typed.uniqueItems && items.some((item, index) => items.findIndex((other) => jsonEqual(other, item)) !== index)) return false;
        for (const rule of typed.contains) {
          const matching = items.filter((item) => this.satisfiesSet(item, rule.set)).length;
          if (matching < rule.min || matching > rule.max) return false;
        }
        return items.every((item, index) => this.satisfiesSet(item, typed.prefix[index] ?? typed.items));
      }
      case 'object': {
        const object = value as Record<string, unknown>;
        const present = (name: string): boolean => Object.prototype.hasOwnProperty.call(object, name);
        const names = Object.keys(object);
        if (names.length < typed.minProperties || names.length > typed.maxProperties) return false;
        for (const name of typed.required) if (!present(name)) return false;
        for (const [name, dependents] of typed.dependencies) if (present(name) && ![...dependents].every(present)) return false;
        if (typed.propertyNames.length > 0 && !names.every((name) => this.satisfiesSet(name, typed.propertyNames))) return false;
        if (!typed.witnesses.every((witness) => names.some((name) => this.witnesses(witness, name, object[name])))) return false;
        return Object.entries(object).every(([name, item]) => this.satisfiesSet(item, valueSetFor(typed, name)));
      }
      default:
        return true;
    }
  }

  /** Whether property `name: value` is a witness of `witness`: a name outside its names whose value (or name) fails its key rules. */
  witnesses(witness: KeyWitness<PatternGroup>, name: string, value: unknown): boolean {
    return !witness.names.has(name) && !this.satisfiesSet(...witnessTest(witness, name, value));
  }

  /** The content DFA of a string with these patterns and one choice of format alternatives, or undefined when a pattern is refused (lenient). */
  stringDfa(patterns: readonly PatternRule[], choice: FormatChoice, refuse: boolean, languages: readonly CodePointDfa[] = []): CodePointDfa | undefined {
    const automata: CodePointDfa[] = [...languages];
    for (const pattern of patterns) {
      try {
        automata.push(this.context.options.cache.schemaPattern(pattern.source, this.context.options.automatonWork).dfa);
      } catch (error) {
        if (!(error instanceof RegexUnsupportedError)) throw error;
        if (refuse) this.context.refuse('pattern', pattern.pointer, `the regex uses ${error.message}`);
        else throw error;
      }
    }
    // a format's own automata (ajv-formats' fixed regexes, the time family's leap-second products) are not the
    // schema's to choose, and are built once per vocabulary: only what the schema's patterns add is metered
    for (const { source, ignoreCase } of choice.patterns) automata.push(this.context.options.cache.pattern(source, ignoreCase));
    if (automata.length === 0) return undefined;
    try {
      return this.context.options.cache.intersection(automata, automata.length > choice.patterns.length ? this.context.options.automatonWork : undefined);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      if (refuse) this.context.refuse('pattern', patterns[0]?.pointer ?? choice.pointer ?? '#', error.message);
      return undefined;
    }
  }
}
