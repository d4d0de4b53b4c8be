/**
 * JSON Schema (2020-12) → value nodes (`grammar-ir.ts`). Each schema denotes a union
 * of typed alternatives; `allOf`, `$ref` and sibling keywords intersect them, `anyOf`
 * (and `oneOf` with provably disjoint branches) unite them. A keyword that cannot be
 * enforced exactly is an `UnsupportedSchemaError` naming it and its JSON pointer.
 * @module
 */
import { SchemaCompileError } from '../shared/errors.js';
import { isPlainObject } from '../shared/own.js';
import { UnsupportedSchemaError } from './decoding-errors.js';
import {
  ByteTrie,
  CodePointTrie,
  type ArrayAlternative,
  type ContainsCell,
  type ContainsCounter,
  type ContainsCounting,
  type KeyClass,
  type ObjectAlternative,
  type ObjectProgressRules,
  type PropertyRule,
  type StringAlternative,
  type UniqueItems,
  type ValueNode,
} from './grammar-ir.js';
import { toPlainDecimal, type NumberAutomaton } from './number-language.js';
import { ajvMultipleOf, intersectNumberAutomata, intersectTwoNumberAutomata, MULTIPLE_OF_MAX_STATES, planMultipleOf } from './multiple-of-language.js';
import type { GrammarCache } from './grammar-cache.js';
import { AutomatonWorkLimitError, CodePointDfa, MAX_DFA_STATES, type AutomatonWork } from '../shared/regex/code-point-dfa.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { CONTENT_KEYWORDS, CORE_KEYWORDS, METADATA_KEYWORDS, REFERENCE_KEYWORDS } from '../shared/json-schema/keywords.js';
import { SchemaRegistry, type SchemaPlace } from '../shared/json-schema/schema-registry.js';
import { subschemaSlots } from '../shared/json-schema/walk-schema.js';
import { formatLanguage, type FormatAlternative } from './string-formats.js';
import { differenceOf, type ContainsRule, type DifferenceContext, type StringPiece } from './schema-complement.js';
import { containsMinHeight, uniqueCanClose, uniqueSatisfied } from './array-contains.js';
import { applyUnevaluated, type UnevaluatedContext } from './lower-unevaluated.js';
import { FORMAT_LIMIT_KEYWORDS, formatComparison, stringOrderPattern } from './format-limits.js';
import { keySignatureLanguages, MAX_KEY_PATTERNS } from './key-signature-languages.js';
import { MAX_TRACKED_PROPERTIES, objectMinHeight } from './object-progress.js';
import { DYNAMIC_REFERENCE_KEYWORDS, DynamicReferences, MAX_DYNAMIC_SPECIALIZATIONS } from './dynamic-reference.js';

/** A keyword the compiler dropped because `lenient` was set. */
export interface RelaxedKeyword {
  /** The keyword, e.g. `uniqueItems`, or `format` / `pattern` for an unsupported value. */
  readonly keyword: string;
  /** JSON pointer of the schema object holding it. */
  readonly pointer: string;
  /** What the engine could not enforce, and so no longer enforces. */
  readonly details: string;
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const ALL_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'string', 'number'];

/** Sorted ids of schema locations that must all hold; `[]` is `true`, `[FALSE_LOCATION]` is `false`. */
type LocationSet = readonly number[];
const FALSE_LOCATION = 0;
const TRUE_SET: LocationSet = [];
const FALSE_SET: LocationSet = [FALSE_LOCATION];

/** Thrown inside a disjointness probe that reached a location still being denoted; the probe answers "unsure". */
class ProbeCycle extends Error {}

interface Location {
  readonly id: number;
  readonly schema: unknown;
  readonly place: SchemaPlace;
  /** Set for a location that denotes the complement of this set (`not`, `if`/`else`, `oneOf`). */
  readonly complementOf?: LocationSet;
  /** With `complementOf`: the location denotes `within ∧ ¬complementOf` (the item values that miss `contains`). */
  readonly within?: LocationSet;
  /** With `complementOf`: the keyword a refused complement names (default `not`). */
  readonly keyword?: string;
  /** For a schema holding a dynamic reference: the schema where the registry's Ajv function holding it starts. */
  readonly frame?: Record<string, unknown>;
}

interface PatternRule {
  readonly source: string;
  readonly pointer: string;
}

/** One typed alternative of a denotation, before lowering. */
interface Typed {
  type: JsonType;
  integer: boolean;
  /** Only non-integers (the complement of `integer`, from `not`, `if` or an overlapping `oneOf`). */
  fractional: boolean;
  /** enum/const values of this type that remain possible; undefined when unrestricted. */
  literals: unknown[] | undefined;
  minLength: number;
  maxLength: number;
  patterns: PatternRule[];
  /** Complement DFAs (from `not`) the string must match too. */
  languages: CodePointDfa[];
  formats: PatternRule[];
  minimum: number;
  exclusiveMinimum: boolean;
  maximum: number;
  exclusiveMaximum: boolean;
  /** `multipleOf` divisors that all hold (Ajv's floating-point test). */
  multiples: number[];
  prefix: LocationSet[];
  items: LocationSet;
  minItems: number;
  maxItems: number;
  /** `uniqueItems: true` somewhere in the intersection. */
  uniqueItems: boolean;
  /** `contains` rules that all hold. */
  contains: ContainsRule[];
  order: string[];
  properties: Map<string, LocationSet>;
  required: Set<string>;
  /** Value of keys neither declared nor governed by a pattern group (with groups: conjoined with theirs). */
  additional: LocationSet;
  minProperties: number;
  maxProperties: number;
  propertyNames: LocationSet;
  /** One per schema with patternProperties: its patterns, and its additionalProperties for keys matching none. */
  patternGroups: PatternGroup[];
  /** dependentRequired (and array-valued draft-7 dependencies): name → names it makes required. */
  dependencies: Map<string, Set<string>>;
  pointer: string;
}

interface PatternGroup {
  readonly rules: readonly { readonly source: string; readonly set: LocationSet; readonly dfa: CodePointDfa }[];
  readonly additional: LocationSet;
}

/**
 * Keywords that only annotate (or hold subschemas handled elsewhere): nothing to enforce. The references are
 * handled or refused below, and `$recursiveAnchor` is refused as the validator does.
 */
const ANNOTATIONS = new Set([
  ...CORE_KEYWORDS.filter((keyword) => !REFERENCE_KEYWORDS.includes(keyword) && keyword !== '$recursiveAnchor'),
  ...METADATA_KEYWORDS,
  ...CONTENT_KEYWORDS,
]);

/** Keywords this compiler enforces. */
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$ref',
  ...DYNAMIC_REFERENCE_KEYWORDS,
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'nullable',
  'multipleOf',
  ...FORMAT_LIMIT_KEYWORDS,
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependencies',
]);

/** Assertion and applicator keywords of the 2020-12 vocabularies that the engine refuses. */
const REFUSED: Record<string, string> = {};

/**
 * Most sets of items a `uniqueItems` array may reach (the sum of C(n, k) for k up to `maxItems`, n distinct values:
 * 2^n without `maxItems`); each set is an array state, so 12 values without `maxItems`, or 30 with `maxItems: 2`.
 */
export const UNIQUE_ITEMS_MAX_SETS = 4096;
/** The array frame holds the set written so far as a bit set: at most this many distinct values. */
const UNIQUE_ITEMS_MAX_VALUES = 30;

/**
 * Most cells one array position is split into: k different `contains` schemas split each item schema into 2^k cells
 * (`item ∧ ±contains₁ ∧ …`), each a node of its own, so at most 4 schemas on one array.
 */
export const CONTAINS_MAX_CELLS = 16;
/**
 * Most count states of an array with several `contains` schemas: the product over the schemas of (maxContains + 1), or
 * (minContains + 1) without maxContains. One schema alone is bounded by the items only, as before.
 */
export const CONTAINS_MAX_COUNT_STATES = 4096;

/** Most typed alternatives one schema may denote before it is refused as too combinatorial. */
const MAX_ALTERNATIVES = 256;

export interface LowerOptions {
  readonly lenient: boolean;
  /** `any`: declared properties may come in any order, each at most once. Default `schema`. */
  readonly propertyOrder?: 'schema' | 'any';
  readonly schemas: Readonly<Record<string, unknown>>;
  /** Where pattern, format and number automata are kept between compiles. */
  readonly cache: GrammarCache;
  /** Meters every automaton built for this schema (a cached one costs nothing); unmetered when absent. */
  readonly automatonWork?: AutomatonWork;
}

export interface LoweredSchema {
  readonly root: ValueNode;
  readonly nodes: readonly ValueNode[];
  readonly relaxed: readonly RelaxedKeyword[];
  /** The engine-layout text of a value, or undefined when the schema rejects it. */
  serialize(value: unknown): string | undefined;
  /** Whether the schema (as the engine enforces it) accepts the value. */
  accepts(value: unknown): boolean;
}

/** One alternative of every string format on a string, combined: regexes that must all match, and length bounds. */
interface FormatChoice {
  readonly patterns: readonly { readonly source: string; readonly ignoreCase: boolean }[];
  readonly minLength: number;
  readonly maxLength: number;
  readonly pointer: string | undefined;
}

/** The ways a string can satisfy all its formats (the product of their alternatives; one way when there is no format). */
function formatChoices(formats: readonly PatternRule[]): FormatChoice[] {
  let choices: FormatChoice[] = [{ patterns: [], minLength: 0, maxLength: Infinity, pointer: undefined }];
  for (const format of formats) {
    const language = formatLanguage(format.source);
    if (language?.kind !== 'string') continue;
    choices = choices.flatMap((choice) =>
      language.alternatives.map((alternative) => ({
        patterns: [...choice.patterns, ...alternative.patterns.map((source) => ({ source, ignoreCase: language.ignoreCase }))],
        minLength: Math.max(choice.minLength, alternative.minLength ?? 0),
        maxLength: Math.min(choice.maxLength, alternative.maxLength ?? Infinity),
        pointer: choice.pointer ?? format.pointer,
      })),
    );
  }
  return choices;
}

export function lowerJsonSchema(schema: unknown, options: LowerOptions): LoweredSchema {
  return new Lowering(schema, options).run();
}

class Lowering {
  private readonly registry: SchemaRegistry;
  private readonly locations: Location[] = [];
  private readonly locationOf = new Map<unknown, number>();
  /** Locations of schemas holding a dynamic reference, by schema then frame (see `dynamic-reference.ts`). */
  private readonly framedLocationOf = new Map<unknown, Map<unknown, number>>();
  private framedLocationCount = 0;
  private readonly dynamicReferences: DynamicReferences;
  private readonly denotations = new Map<number, Typed[]>();
  private readonly setDenotations = new Map<string, Typed[]>();
  private readonly inProgress = new Set<number>();
  /** Nesting of disjointness probes; inside one, reaching a location being denoted abandons the probe instead of refusing. */
  private probing = 0;
  /** Locations whose denotation dropped a keyword (lenient): negating them would be stricter than the schema, not looser. */
  private readonly relaxedDenotations = new Set<number>();
  private readonly nodes: ValueNode[] = [];
  private readonly nodeOf = new Map<string, ValueNode>();
  private readonly pending: { node: ValueNode; set: LocationSet }[] = [];
  private readonly relaxed: RelaxedKeyword[] = [];
  private readonly relaxedKeys = new Set<string>();
  private readonly complementLocations = new Map<string, LocationSet>();
  private readonly complementDfas = new Map<CodePointDfa, CodePointDfa>();
  private alternativeCount = 0;
  /** Per node: its literal values by literal index (for `uniqueItems`). */
  private readonly literalValues = new Map<ValueNode, unknown[]>();
  private readonly uniqueArrays: { alternative: ArrayAlternative; pointer: string; contains: ContainsRule[] }[] = [];

  constructor(
    private readonly root: unknown,
    private readonly options: LowerOptions,
  ) {
    this.registry = new SchemaRegistry(root, options.schemas);
    this.dynamicReferences = new DynamicReferences(root, this.registry);
    this.locations.push({ id: FALSE_LOCATION, schema: false, place: { base: '', pointer: '#' } });
  }

  run(): LoweredSchema {
    this.rejectNonUnicodePatterns();
    const rootSet = this.locate(this.root, this.registry.placeOf(this.root) ?? { base: '', pointer: '#' }, isPlainObject(this.root) ? this.root : undefined);
    const root = this.nodeFor(rootSet);
    while (this.pending.length > 0) {
      const { node, set } = this.pending.pop()!;
      this.fill(node, set);
    }
    for (const { alternative, pointer, contains } of this.uniqueArrays) this.settleUniqueItems(alternative, pointer, contains);
    computeHeights(this.nodes);
    for (const node of this.nodes) node.alternatives = node.alternatives.filter((alternative) => alternative.height !== Infinity);
    return {
      root,
      nodes: this.nodes,
      relaxed: this.relaxed,
      serialize: (value) => this.serialize(value, rootSet),
      accepts: (value) => this.satisfiesSet(value, rootSet),
    };
  }

  // ---- errors ----------------------------------------------------------------

  /** Refuses a keyword, or (lenient) records it as relaxed and returns so the caller skips it. */
  private refuse(keyword: string, pointer: string, details: string): void {
    if (!this.options.lenient) throw new UnsupportedSchemaError(keyword, pointer, details);
    for (const id of this.inProgress) this.relaxedDenotations.add(id);
    const key = `${keyword}\u0000${pointer}\u0000${details}`;
    if (this.relaxedKeys.has(key)) return;
    this.relaxedKeys.add(key);
    this.relaxed.push({ keyword, pointer, details });
  }

  /**
   * The registry's Ajv compiles every `pattern` and `patternProperties` key it reaches (all subschemas but unreferenced
   * definitions) as `new RegExp(source, "u")`, and a regex that is not valid under the `u` flag (`\:`, a lone `]`)
   * fails the whole schema, whether a value ever gets there or not. The engine refuses the same schemas the same way.
   */
  private rejectNonUnicodePatterns(): void {
    const check = (source: unknown, pointer: string): void => {
      if (typeof source !== 'string') return;
      try {
        new RegExp(source, 'u');
      } catch (error) {
        this.invalid(
          pointer,
          `the pattern ${JSON.stringify(source)} is not a valid regular expression with the "u" flag (${(error as Error).message}), so the registry's validator refuses the schema too; escape only syntax characters (write ":" for "\\:") and escape a literal "]" or "}"`,
        );
      }
    };
    const seen = new Set<object>();
    const work: { schema: unknown; place: SchemaPlace }[] = [{ schema: this.root, place: this.registry.placeOf(this.root) ?? { base: '', pointer: '#' } }];
    while (work.length > 0) {
      const { schema, place } = work.pop()!;
      if (!isPlainObject(schema) || seen.has(schema)) continue;
      seen.add(schema);
      check(schema.pattern, `${place.pointer}/pattern`);
      if (isPlainObject(schema.patternProperties))
        for (const source of Object.keys(schema.patternProperties)) check(source, `${place.pointer}/patternProperties`);
      for (const slot of subschemaSlots(schema)) {
        // Ajv compiles a definition only where a $ref reaches it, and never contentSchema (an annotation)
        if (slot.keyword === '$defs' || slot.keyword === 'definitions' || slot.keyword === 'contentSchema') continue;
        const pointer = `${place.pointer}/${slot.keyword}${slot.key === undefined ? '' : `/${String(slot.key).replaceAll('~', '~0').replaceAll('/', '~1')}`}`;
        work.push({ schema: slot.schema, place: this.registry.placeOf(slot.schema) ?? { base: place.base, pointer } });
      }
      if (typeof schema.$ref === 'string') {
        const target = this.registry.resolve(schema.$ref, place.base);
        if (target !== undefined) work.push(target);
      }
    }
  }

  private invalid(pointer: string, message: string): never {
    throw new SchemaCompileError(undefined, `${message} at ${pointer}`);
  }

  // ---- locations ---------------------------------------------------------------

  private locate(schema: unknown, place: SchemaPlace, frame?: Record<string, unknown>): LocationSet {
    if (schema === true) return TRUE_SET;
    if (schema === false) return FALSE_SET;
    if (!isPlainObject(schema)) this.invalid(place.pointer, 'a schema must be an object or a boolean');
    if (frame !== undefined && this.dynamicReferences.holdsDynamicReference(schema)) return this.locateFramed(schema, place, frame);
    let id = this.locationOf.get(schema);
    if (id === undefined) {
      id = this.locations.length;
      this.locations.push({ id, schema, place: this.registry.placeOf(schema) ?? place });
      this.locationOf.set(schema, id);
    }
    return [id];
  }

  /** One location per (schema, frame): a dynamic reference inside resolves by its frame, so each frame is a copy. */
  private locateFramed(schema: Record<string, unknown>, place: SchemaPlace, frame: Record<string, unknown>): LocationSet {
    let byFrame = this.framedLocationOf.get(schema);
    if (byFrame === undefined) {
      byFrame = new Map();
      this.framedLocationOf.set(schema, byFrame);
    }
    let id = byFrame.get(frame);
    if (id === undefined) {
      const resolvedPlace = this.registry.placeOf(schema) ?? place;
      if (++this.framedLocationCount > MAX_DYNAMIC_SPECIALIZATIONS) {
        this.refuse(
          '$dynamicRef',
          resolvedPlace.pointer,
          `the schemas holding dynamic references need more than ${MAX_DYNAMIC_SPECIALIZATIONS} copies, one per $ref target they are reached through (MAX_DYNAMIC_SPECIALIZATIONS)`,
        );
        // lenient: one copy without a frame, whose dynamic references are dropped (looser than the schema)
        return this.locate(schema, place);
      }
      id = this.locations.length;
      this.locations.push({ id, schema, place: resolvedPlace, frame });
      byFrame.set(frame, id);
    }
    return [id];
  }

  private child(location: Location, keyword: string, value: unknown, suffix = ''): LocationSet {
    return this.locate(value, { base: location.place.base, pointer: `${location.place.pointer}/${keyword}${suffix}` }, location.frame);
  }

  // ---- denotation ---------------------------------------------------------------

  private denoteSet(set: LocationSet): Typed[] {
    if (set.length === 0) return ALL_TYPES.map((type) => blank(type, '#'));
    if (set[0] === FALSE_LOCATION) return [];
    const key = set.join(',');
    let result = this.setDenotations.get(key);
    if (result !== undefined && this.relaxedWithin(set)) for (const id of this.inProgress) this.relaxedDenotations.add(id);
    if (result === undefined) {
      result = this.denote(set[0]!);
      for (let index = 1; index < set.length; index++)
        result = this.intersectLists(result, this.denote(set[index]!), this.locations[set[index]!]!.place.pointer);
      this.setDenotations.set(key, result);
    }
    return result;
  }

  private denote(id: number): Typed[] {
    const cached = this.denotations.get(id);
    if (cached !== undefined) {
      if (this.relaxedDenotations.has(id)) for (const outer of this.inProgress) this.relaxedDenotations.add(outer);
      return cached;
    }
    const location = this.locations[id]!;
    if (this.inProgress.has(id)) {
      // a disjointness probe reached a schema still being denoted: the probe gives up (not provably disjoint)
      if (this.probing > 0) throw new ProbeCycle();
      this.refuse('$ref', location.place.pointer, 'a $ref cycle that never enters a property or item (the schema refers to itself without nesting)');
      return ALL_TYPES.map((type) => blank(type, location.place.pointer));
    }
    this.inProgress.add(id);
    try {
      const result = location.complementOf === undefined ? this.denoteObject(location) : this.denoteComplement(location, location.complementOf);
      this.denotations.set(id, result);
      return result;
    } finally {
      this.inProgress.delete(id);
    }
  }

  private denoteObject(location: Location): Typed[] {
    const schema = location.schema as Record<string, unknown>;
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    for (const keyword of Object.keys(schema)) {
      if (HANDLED.has(keyword) || ANNOTATIONS.has(keyword)) continue;
      const reason = REFUSED[keyword];
      if (reason !== undefined) this.refuse(keyword, pointer, reason);
      // any other keyword is unknown to 2020-12 and, per the spec, only an annotation
    }
    // Ajv refuses to compile a schema with draft-4 "id", so no value could pass the registry
    if (has('id')) this.invalid(pointer, 'the draft-4 keyword "id" is not supported (Ajv refuses it); use "$id"');
    // draft 2019-09: the 2020-12 meta-schema wants a string and Ajv's keyword a boolean, so the validator refuses both
    if (has('$recursiveAnchor')) this.invalid(pointer, '"$recursiveAnchor" is draft 2019-09 and Ajv refuses it in a 2020-12 schema; use "$dynamicAnchor"');
    if (has('format')) {
      if (typeof schema.format !== 'string') this.invalid(pointer, '"format" must be a string');
      const language = formatLanguage(schema.format);
      // a format ajv-formats does not know constrains nothing: the registry's Ajv (strict: false) ignores it, so the mask does too
      if (language !== undefined && language.kind === 'refused') {
        this.refuse('format', pointer, `format "${schema.format}" is not enforced: ${language.reason}`);
      }
    }

    for (const keyword of FORMAT_LIMIT_KEYWORDS) {
      if (!has(keyword)) continue;
      if (typeof schema[keyword] !== 'string') this.invalid(pointer, `"${keyword}" must be a string (Ajv refuses other values)`);
      if (!has('format')) this.invalid(pointer, `"${keyword}" needs "format" beside it (Ajv refuses it alone)`);
      const format = schema.format as string;
      // an unknown format is refused above; an unchecked one (password) has nothing to compare, so Ajv skips the bound
      const kind = formatLanguage(format)?.kind;
      if (kind === undefined || kind === 'unchecked') continue;
      const comparison = formatComparison(format);
      if (comparison === 'none') this.invalid(pointer, `"${keyword}": format "${format}" defines no comparison (Ajv refuses it)`);
      if (comparison === 'date-parser') {
        this.refuse(
          keyword,
          pointer,
          `${keyword} on format "${format}" is not enforced: ajv-formats compares through JavaScript's Date parser, whose verdicts (NaN for leap seconds and some offsets, which then pass) the engine does not model`,
        );
      }
    }

    let types: JsonType[] = [...ALL_TYPES];
    let integerOnly = false;
    if (has('type')) {
      const declared = Array.isArray(schema.type) ? schema.type : [schema.type];
      const named = new Set<string>();
      for (const type of declared) {
        if (typeof type !== 'string' || !['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'].includes(type))
          this.invalid(pointer, `"type" names an unknown type ${JSON.stringify(type)}`);
        named.add(type as string);
      }
      // OpenAPI's "nullable: true", which Ajv honours beside "type"
      if (schema.nullable === true) named.add('null');
      else if (schema.nullable === false && named.has('null')) this.invalid(pointer, '"type" allows null but "nullable" is false (Ajv refuses this)');
      types = ALL_TYPES.filter((type) => named.has(type) || (type === 'number' && named.has('integer')));
      integerOnly = named.has('integer') && !named.has('number');
    } else if (has('nullable')) {
      this.invalid(pointer, '"nullable" needs "type" beside it (Ajv refuses it alone)');
    }
    let literals: unknown[] | undefined;
    if (has('enum')) {
      if (!Array.isArray(schema.enum)) this.invalid(pointer, '"enum" must be an array');
      literals = schema.enum as unknown[];
    }
    if (has('const')) literals = literals === undefined ? [schema.const] : literals.filter((value) => jsonEqual(value, schema.const));

    let result: Typed[] = [];
    for (const type of types) {
      const typed = blank(type, pointer);
      if (type === 'number') typed.integer = integerOnly;
      if (literals !== undefined) typed.literals = literals.filter((value) => jsonTypeOf(value) === type || (type === 'number' && typeof value === 'number'));
      if (typed.literals !== undefined && typed.literals.length === 0) continue;
      this.applyKeywords(typed, location, schema);
      result.push(typed);
    }

    if (has('$ref')) {
      if (typeof schema.$ref !== 'string') this.invalid(pointer, '"$ref" must be a string');
      const target = this.registry.resolve(schema.$ref as string, location.place.base);
      if (target === undefined) {
        this.refuse('$ref', pointer, `cannot resolve "${String(schema.$ref)}"; pass remote schemas in the "schemas" option, keyed by their URI`);
      } else {
        // the registry's Ajv compiles a target that holds a dynamic reference as a function of its own: a new frame
        const targetSet = this.locate(target.schema, target.place, isPlainObject(target.schema) ? target.schema : undefined);
        result = this.intersectLists(result, this.denoteSet(targetSet), pointer);
      }
    }
    for (const keyword of DYNAMIC_REFERENCE_KEYWORDS) if (has(keyword)) result = this.applyDynamicReference(result, location, keyword);
    if (has('allOf')) {
      const parts = this.schemaArray(schema.allOf, pointer, 'allOf');
      parts.forEach((part, index) => {
        result = this.intersectLists(result, this.denoteSet(this.child(location, 'allOf', part, `/${index}`)), `${pointer}/allOf/${index}`);
      });
    }
    if (has('anyOf')) {
      const parts = this.schemaArray(schema.anyOf, pointer, 'anyOf');
      const union = parts.flatMap((part, index) => this.denoteSet(this.child(location, 'anyOf', part, `/${index}`)));
      result = this.intersectLists(result, union, `${pointer}/anyOf`);
    }
    if (has('oneOf')) {
      const parts = this.schemaArray(schema.oneOf, pointer, 'oneOf');
      const branchSets = parts.map((part, index) => this.child(location, 'oneOf', part, `/${index}`));
      const branches = branchSets.map((set) => this.denoteSet(set));
      // a branch that shares no value with the rest of the schema cannot make two branches hold
      const live = branches.map((branch) => this.intersectLists(result, branch, `${pointer}/oneOf`)).filter((branch) => branch.length > 0);
      result = this.exactlyOne(
        live,
        pointer,
        branchSets.some((set) => this.relaxedWithin(set)),
      );
    }
    if (has('not')) result = this.applyNot(result, location, schema.not);
    if (has('if')) result = this.applyConditional(result, location, schema);
    if (has('dependentSchemas')) result = this.applyDependencies(result, location, schema.dependentSchemas, 'dependentSchemas');
    if (has('dependencies')) result = this.applyDependencies(result, location, schema.dependencies, 'dependencies');
    if (has('unevaluatedProperties') || has('unevaluatedItems')) result = applyUnevaluated(result, location, schema, this.unevaluatedContext());
    if (result.length > MAX_ALTERNATIVES) this.refuse('anyOf', pointer, `the schema expands to more than ${MAX_ALTERNATIVES} alternatives`);
    return result;
  }

  private applyNot(result: Typed[], location: Location, negated: unknown): Typed[] {
    const pointer = `${location.place.pointer}/not`;
    const negatedSet = this.child(location, 'not', negated);
    const denotation = this.denoteSet(negatedSet);
    if (this.relaxedWithin(negatedSet)) return this.dropNegation(result, 'not', pointer);
    return this.difference(result, denotation, 'not', pointer) ?? result;
  }

  private relaxedWithin(set: LocationSet): boolean {
    return set.some((id) => this.relaxedDenotations.has(id));
  }

  /** Lenient: a negated schema lost keywords, so its complement would reject valid values; the negation is dropped instead. */
  private dropNegation(result: Typed[], keyword: string, pointer: string): Typed[] {
    this.refuse(keyword, pointer, 'the negated schema has keywords that are not enforced, so its complement is not enforced either');
    return result;
  }

  // ---- complements (schema-complement.ts) ------------------------------------------------

  /** `left ∧ ¬right`, or undefined (after refusing `keyword`) when not expressible exactly. */
  private difference(left: readonly Typed[], right: readonly Typed[], keyword: string, pointer: string): Typed[] | undefined {
    return differenceOf(left, right, this.differenceContext(), keyword, pointer, MAX_ALTERNATIVES);
  }

  private differenceContextCache: DifferenceContext<Typed> | undefined;

  private differenceContext(): DifferenceContext<Typed> {
    this.differenceContextCache ??= {
      blank,
      intersect: intersectTyped,
      complement: (set) => this.complementSet(set),
      literal: (value, pointer) => this.literalSet(value, pointer),
      valueSet: valueSetFor,
      satisfies: (value, typed) => this.satisfiesTyped(value, typed),
      stringPieces: (typed) => this.stringPieces(typed),
      complementDfa: (dfa) => {
        let complement = this.complementDfas.get(dfa);
        if (complement === undefined) {
          complement = dfa.complement(this.options.automatonWork);
          this.complementDfas.set(dfa, complement);
        }
        return complement;
      },
      refuse: (keyword, pointer, details) => this.refuse(keyword, pointer, details),
    };
    return this.differenceContextCache;
  }

  private unevaluatedContext(): UnevaluatedContext<Typed, Location> {
    return {
      blank,
      intersectLists: (left, right, pointer) => this.intersectLists(left, right, pointer),
      child: (location, keyword, value) => this.child(location, keyword, value),
      resolve: (reference, base) => this.registry.resolve(reference, base),
      placeOf: (schema) => this.registry.placeOf(schema),
      refuse: (keyword, pointer, details) => this.refuse(keyword, pointer, details),
    };
  }

  private readonly literalLocations = new Map<string, LocationSet>();

  /** A location set that denotes one JSON value, as `{ "const": value }` at `pointer` (complements of array and object literals use them). */
  private literalSet(value: unknown, pointer: string): LocationSet {
    const key = `${pointer}\u0000${JSON.stringify(value)}`;
    let set = this.literalLocations.get(key);
    if (set === undefined) {
      set = this.locate({ const: value }, { base: '', pointer });
      this.literalLocations.set(key, set);
    }
    return set;
  }

  /** A location set that denotes every JSON value `set` rejects. */
  private complementSet(set: LocationSet): LocationSet {
    if (set.length === 0) return FALSE_SET;
    if (set[0] === FALSE_LOCATION) return TRUE_SET;
    const key = set.join(',');
    let complement = this.complementLocations.get(key);
    if (complement === undefined) {
      const place = this.locations[set[0]!]!.place;
      const id = this.locations.length;
      this.locations.push({ id, schema: {}, place: { base: place.base, pointer: `${place.pointer}` }, complementOf: set });
      complement = [id];
      this.complementLocations.set(key, complement);
    }
    return complement;
  }

  private denoteComplement(location: Location, set: LocationSet): Typed[] {
    const keyword = location.keyword ?? 'not';
    const everything = location.within === undefined ? ALL_TYPES.map((type) => blank(type, location.place.pointer)) : this.denoteSet(location.within);
    const denotation = this.denoteSet(set);
    if (this.relaxedWithin(set)) return this.dropNegation(everything, keyword, location.place.pointer);
    return this.difference(everything, denotation, keyword, location.place.pointer) ?? everything;
  }

  /** A location denoting the values of `within` that `set` rejects; a complement it cannot build refuses `keyword` at `pointer`. */
  private differenceSet(within: LocationSet, set: LocationSet, keyword: string, pointer: string): LocationSet {
    if (within[0] === FALSE_LOCATION || set.length === 0) return FALSE_SET;
    if (set[0] === FALSE_LOCATION) return within;
    const key = `${within.join(',')}\u0000${set.join(',')}\u0000${keyword}\u0000${pointer}`;
    let difference = this.complementLocations.get(key);
    if (difference === undefined) {
      const place = this.locations[set[0]!]!.place;
      const id = this.locations.length;
      this.locations.push({ id, schema: {}, place: { base: place.base, pointer }, complementOf: set, within, keyword });
      difference = [id];
      this.complementLocations.set(key, difference);
    }
    return difference;
  }

  /** The string language of an alternative as pieces (one per format alternative); undefined when a pattern is refused. */
  private stringPieces(typed: Typed): StringPiece[] | undefined {
    let minLength = typed.minLength;
    let maxLength = typed.maxLength;
    try {
      for (const pattern of typed.patterns) {
        const compiled = this.options.cache.schemaPattern(pattern.source, this.options.automatonWork);
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
      const overlapping = live.filter((_, at) => overlaps[index]![at]).flat();
      const only = overlapping.length === 0 ? live[index]! : this.difference(live[index]!, overlapping, 'oneOf', pointer);
      if (only === undefined) return live.flat();
      result.push(...only);
      if (result.length > MAX_ALTERNATIVES) {
        this.refuse('oneOf', pointer, `exactly one of its overlapping branches expands to more than ${MAX_ALTERNATIVES} alternatives (MAX_ALTERNATIVES)`);
        return live.flat();
      }
    }
    return result;
  }

  /** `if`/`then`/`else` = (if ∧ then) ∪ (¬if ∧ else), an absent `then`/`else` being true. */
  private applyConditional(result: Typed[], location: Location, schema: Record<string, unknown>): Typed[] {
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    const conditionSet = this.child(location, 'if', schema.if);
    const condition = this.denoteSet(conditionSet);
    if (this.relaxedWithin(conditionSet)) return this.dropNegation(result, 'if', `${pointer}/if`);
    let matching = this.intersectLists(result, condition, `${pointer}/if`);
    if (has('then')) matching = this.intersectLists(matching, this.denoteSet(this.child(location, 'then', schema.then)), `${pointer}/then`);
    let failing = this.difference(result, condition, 'if', `${pointer}/if`);
    if (failing === undefined) return result;
    if (has('else')) failing = this.intersectLists(failing, this.denoteSet(this.child(location, 'else', schema.else)), `${pointer}/else`);
    return [...matching, ...failing];
  }

  /** `$dynamicRef` / `$recursiveRef`: a static reference within the location's frame (`dynamic-reference.ts`). */
  private applyDynamicReference(result: Typed[], location: Location, keyword: string): Typed[] {
    const pointer = location.place.pointer;
    const reference = (location.schema as Record<string, unknown>)[keyword];
    // over the specialization budget (lenient): no frame, so the reference is dropped (already listed as relaxed)
    if (location.frame === undefined) return result;
    const resolution = this.dynamicReferences.resolve(keyword, reference, location.place.base, location.frame);
    if (resolution.kind === 'invalid') this.invalid(pointer, resolution.message);
    if (resolution.kind === 'refused') {
      this.refuse(keyword, pointer, resolution.details);
      return result;
    }
    const target = resolution.schema;
    const targetSet = this.locate(target, this.registry.placeOf(target) ?? { base: location.place.base, pointer: '#' }, target);
    return this.intersectLists(result, this.denoteSet(targetSet), pointer);
  }

  /** `dependentSchemas` / draft-7 `dependencies`: an object either lacks the property or also satisfies its schema (or has its names). */
  private applyDependencies(result: Typed[], location: Location, dependencies: unknown, keyword: string): Typed[] {
    const pointer = location.place.pointer;
    if (!isPlainObject(dependencies)) this.invalid(pointer, `"${keyword}" must be an object`);
    for (const [name, value] of Object.entries(dependencies)) {
      const escaped = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      let consequence: Typed[];
      if (Array.isArray(value)) {
        if (keyword !== 'dependencies' || value.some((item) => typeof item !== 'string')) this.invalid(pointer, `"${keyword}${escaped}" must be a schema`);
        // names made required are tracked by the object's progress (applyObjectKeywords), without splitting alternatives
        continue;
      } else {
        consequence = this.denoteSet(this.child(location, keyword, value, escaped));
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
      if (result.length > MAX_ALTERNATIVES) {
        this.refuse(keyword, `${pointer}/${keyword}${escaped}`, `the dependencies expand to more than ${MAX_ALTERNATIVES} alternatives (MAX_ALTERNATIVES)`);
        return result;
      }
    }
    return result;
  }

  private schemaArray(value: unknown, pointer: string, keyword: string): unknown[] {
    if (!Array.isArray(value) || value.length === 0) this.invalid(pointer, `"${keyword}" must be a non-empty array of schemas`);
    return value as unknown[];
  }

  private applyKeywords(typed: Typed, location: Location, schema: Record<string, unknown>): void {
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    const count = (keyword: string): number | undefined => {
      if (!has(keyword)) return undefined;
      const value = schema[keyword];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.invalid(pointer, `"${keyword}" must be a non-negative integer`);
      return value as number;
    };
    const bound = (keyword: string): number | undefined => {
      if (!has(keyword)) return undefined;
      const value = schema[keyword];
      if (typeof value !== 'number' || !Number.isFinite(value)) this.invalid(pointer, `"${keyword}" must be a number`);
      return value as number;
    };
    switch (typed.type) {
      case 'string': {
        typed.minLength = count('minLength') ?? 0;
        typed.maxLength = count('maxLength') ?? Infinity;
        if (has('pattern')) {
          if (typeof schema.pattern !== 'string') this.invalid(pointer, '"pattern" must be a string');
          typed.patterns.push({ source: schema.pattern as string, pointer });
        }
        // number formats (int32…) and unchecked ones (password) do not constrain strings, as in Ajv
        if (has('format') && formatLanguage(schema.format as string)?.kind === 'string') typed.formats.push({ source: schema.format as string, pointer });
        // ajv-formats compares dates in string order: a regular bound, enforced as one more pattern
        if (has('format') && formatComparison(schema.format as string) === 'string-order') {
          for (const keyword of FORMAT_LIMIT_KEYWORDS) {
            const source = has(keyword) ? stringOrderPattern(keyword, schema[keyword] as string) : undefined;
            if (source !== undefined) typed.patterns.push({ source, pointer: `${pointer}/${keyword}` });
          }
        }
        break;
      }
      case 'number': {
        const minimum = bound('minimum');
        const maximum = bound('maximum');
        const exclusiveMinimum = bound('exclusiveMinimum');
        const exclusiveMaximum = bound('exclusiveMaximum');
        if (minimum !== undefined) tightenLow(typed, minimum, false);
        if (exclusiveMinimum !== undefined) tightenLow(typed, exclusiveMinimum, true);
        if (maximum !== undefined) tightenHigh(typed, maximum, false);
        if (exclusiveMaximum !== undefined) tightenHigh(typed, exclusiveMaximum, true);
        if (has('multipleOf')) {
          const divisor = schema.multipleOf;
          if (typeof divisor !== 'number' || !(divisor > 0) || !Number.isFinite(divisor)) this.invalid(pointer, '"multipleOf" must be a number greater than 0');
          typed.multiples.push(divisor as number);
        }
        // string formats do not constrain numbers, as in Ajv
        const format = has('format') ? formatLanguage(schema.format as string) : undefined;
        if (format?.kind === 'number') {
          if (format.integer) typed.integer = true;
          tightenLow(typed, format.minimum, false);
          tightenHigh(typed, format.maximum, false);
        }
        break;
      }
      case 'array': {
        typed.minItems = count('minItems') ?? 0;
        typed.maxItems = count('maxItems') ?? Infinity;
        if (schema.uniqueItems === true) typed.uniqueItems = true;
        let rest: unknown = has('items') ? schema.items : undefined;
        let prefix: unknown[] = [];
        if (has('prefixItems')) prefix = this.schemaArray(schema.prefixItems, pointer, 'prefixItems');
        if (Array.isArray(rest)) {
          // draft 2019 and older: items as an array is the tuple, additionalItems the rest
          prefix = rest;
          rest = has('additionalItems') ? schema.additionalItems : undefined;
          typed.prefix = prefix.map((item, index) => this.child(location, 'items', item, `/${index}`));
          typed.items = rest === undefined ? TRUE_SET : this.child(location, 'additionalItems', rest);
        } else {
          typed.prefix = prefix.map((item, index) => this.child(location, 'prefixItems', item, `/${index}`));
          typed.items = rest === undefined ? TRUE_SET : this.child(location, 'items', rest);
        }
        // 2020-12: minContains defaults to 1; both bounds mean nothing without contains
        const minContains = count('minContains') ?? 1;
        const maxContains = count('maxContains') ?? Infinity;
        if (has('contains') && !(minContains === 0 && maxContains === Infinity)) {
          typed.contains.push({ set: this.child(location, 'contains', schema.contains), min: minContains, max: maxContains, pointer });
        }
        break;
      }
      case 'object': {
        if (has('properties')) {
          if (!isPlainObject(schema.properties)) this.invalid(pointer, '"properties" must be an object');
          for (const [name, value] of Object.entries(schema.properties)) {
            typed.order.push(name);
            typed.properties.set(name, this.child(location, 'properties', value, `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`));
          }
        }
        if (has('required')) {
          if (!Array.isArray(schema.required) || schema.required.some((name) => typeof name !== 'string'))
            this.invalid(pointer, '"required" must be an array of strings');
          for (const name of schema.required as string[]) typed.required.add(name);
        }
        if (has('additionalProperties')) typed.additional = this.child(location, 'additionalProperties', schema.additionalProperties);
        this.applyObjectKeywords(typed, location, schema);
        break;
      }
      default:
        break;
    }
  }

  // ---- intersection ----------------------------------------------------------------

  private intersectLists(left: readonly Typed[], right: readonly Typed[], pointer: string): Typed[] {
    const result: Typed[] = [];
    for (const a of left) {
      for (const b of right) {
        const merged = intersectTyped(a, b);
        if (merged !== undefined) result.push(merged);
        if (result.length > MAX_ALTERNATIVES * 4) {
          this.refuse('allOf', pointer, `combining the subschemas gives more than ${MAX_ALTERNATIVES} alternatives`);
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
    this.probing++;
    try {
      return this.disjointLists(this.denoteSet(left), this.denoteSet(right), depth);
    } catch (error) {
      if (error instanceof ProbeCycle) return false;
      throw error;
    } finally {
      this.probing--;
    }
  }

  /** Whether no value satisfies `set`, or undefined when deciding it reaches a location being denoted. */
  private emptySet(set: LocationSet): boolean | undefined {
    this.probing++;
    try {
      return this.denoteSet(set).length === 0;
    } catch (error) {
      if (error instanceof ProbeCycle) return undefined;
      throw error;
    } finally {
      this.probing--;
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
          this.options.cache.numberAutomaton({
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

  // ---- lowering -------------------------------------------------------------------

  private nodeFor(set: LocationSet): ValueNode {
    const key = set.join(',');
    let node = this.nodeOf.get(key);
    if (node === undefined) {
      const pointer = set.length === 0 ? '#' : this.locations[set[0]!]!.place.pointer;
      node = { id: this.nodes.length, pointer, alternatives: [], literals: null, height: Infinity };
      this.nodes.push(node);
      this.nodeOf.set(key, node);
      this.pending.push({ node, set });
    }
    return node;
  }

  private fill(node: ValueNode, set: LocationSet): void {
    const literals = new ByteTrie();
    let literalCount = 0;
    const values: unknown[] = [];
    this.literalValues.set(node, values);
    const addLiteral = (value: unknown): void => {
      values.push(value);
      literals.add(new TextEncoder().encode(literalText(value)), literalCount++);
    };
    for (const typed of this.denoteSet(set)) {
      if (typed.literals !== undefined) {
        for (const value of typed.literals) if (this.satisfiesTyped(value, typed)) addLiteral(value);
        continue;
      }
      switch (typed.type) {
        case 'null':
          addLiteral(null);
          break;
        case 'boolean':
          addLiteral(true);
          addLiteral(false);
          break;
        case 'number': {
          if (typed.multiples.length > 0) {
            for (const value of this.multiplesOf(typed, node) ?? []) addLiteral(value);
            break;
          }
          const automaton = this.fractionalOnly(
            typed,
            this.options.cache.numberAutomaton({
              integer: typed.integer,
              minimum: typed.minimum,
              exclusiveMinimum: typed.exclusiveMinimum,
              maximum: typed.maximum,
              exclusiveMaximum: typed.exclusiveMaximum,
            }),
          );
          if (automaton !== null) node.alternatives.push({ kind: 'number', id: this.alternativeCount++, automaton, height: 1 });
          break;
        }
        case 'string':
          node.alternatives.push(...this.lowerString(typed));
          break;
        case 'array':
          node.alternatives.push(this.lowerArray(typed));
          break;
        case 'object':
          node.alternatives.push(this.lowerObject(typed));
          break;
      }
    }
    if (literalCount > 0) node.literals = literals;
  }

  /**
   * `uniqueItems: true` on an array whose items are a finite set of literals: each value gets a class (values equal as
   * JSON share one) and the array frame tracks the classes written, so a duplicate cannot be written. Refused where the
   * items' language is infinite or the classes exceed `UNIQUE_ITEMS_MAX_VALUES`.
   */
  private settleUniqueItems(alternative: ArrayAlternative, pointer: string, contains: ContainsRule[]): void {
    const refuse = (details: string): void => this.refuse('uniqueItems', pointer, `uniqueItems: true is not enforced: ${details}`);
    if (alternative.prefix.length > 0) return refuse('beside prefixItems (only a single items schema)');
    const node = alternative.items;
    if (node === null) return;
    if (node.alternatives.length > 0 || node.literals === null) {
      return refuse(
        'the items are not a finite set of values (only enum/const, booleans and null items are tracked); list the allowed values in an "enum", or set "maxItems": 1',
      );
    }
    const values = this.literalValues.get(node)!;
    const classOf = new Int32Array(values.length);
    const representatives: unknown[] = [];
    values.forEach((value, index) => {
      let found = representatives.findIndex((other) => jsonEqual(other, value));
      if (found < 0) found = representatives.push(value) - 1;
      classOf[index] = found;
    });
    const sets = reachableSets(representatives.length, alternative.maxItems);
    if (representatives.length > UNIQUE_ITEMS_MAX_VALUES || sets > UNIQUE_ITEMS_MAX_SETS) {
      return refuse(
        `the items' ${representatives.length} distinct values make more than ${UNIQUE_ITEMS_MAX_SETS} sets of items (UNIQUE_ITEMS_MAX_SETS); lower "maxItems"`,
      );
    }
    // the values written decide every contains count: per schema, the classes that match it, counted in the set (no counters)
    const counted = contains.map((rule) => {
      let matchClasses = 0;
      representatives.forEach((value, index) => (matchClasses |= this.satisfiesSet(value, rule.set) ? 1 << index : 0));
      return { matchClasses, minContains: rule.min, maxContains: rule.max };
    });
    const unique: UniqueItems = {
      classOf,
      classes: representatives.length,
      subtreeValues: node.literals.subtreeValues(),
      contains: counted.length === 0 ? null : counted,
    };
    const mutable = alternative as { unique: UniqueItems | null; maxItems: number; contains: ContainsCounting | null };
    mutable.unique = unique;
    mutable.contains = null;
    // n distinct values make at most n items
    mutable.maxItems = Math.min(alternative.maxItems, unique.classes);
  }

  /**
   * A number alternative under `multipleOf`: pushes its automaton onto `node` and returns undefined, or returns the
   * values to list as literals. Refused (lenient: enforced without `multipleOf`) where Ajv's float test is not exact.
   */
  private multiplesOf(typed: Typed, node: ValueNode): number[] | undefined {
    const plan = planMultipleOf(typed, typed.multiples);
    if (plan.kind === 'values') return plan.values.filter((value) => !typed.fractional || !Number.isInteger(value));
    let range: Typed = typed;
    if (plan.kind === 'automaton') range = { ...typed, ...plan.range };
    else this.refuse('multipleOf', typed.pointer, plan.reason);
    const base = this.options.cache.numberAutomaton({
      integer: range.integer,
      minimum: range.minimum,
      exclusiveMinimum: range.exclusiveMinimum,
      maximum: range.maximum,
      exclusiveMaximum: range.exclusiveMaximum,
    });
    let automaton = base === null ? null : intersectNumberAutomata(base, plan.kind === 'automaton' ? plan.moduli : []);
    if (automaton !== null && automaton !== undefined) automaton = this.fractionalOnly(typed, automaton);
    if (automaton === undefined) {
      this.refuse('multipleOf', typed.pointer, `the multipleOf automaton needs more than ${MULTIPLE_OF_MAX_STATES} states (MULTIPLE_OF_MAX_STATES)`);
      automaton = base;
    }
    if (automaton !== null) node.alternatives.push({ kind: 'number', id: this.alternativeCount++, automaton, height: 1 });
    return undefined;
  }

  /** `automaton` restricted to texts that parse to a non-integer when the alternative is `fractional`. */
  private fractionalOnly(typed: Typed, automaton: NumberAutomaton | null): NumberAutomaton | null {
    if (!typed.fractional || automaton === null) return automaton;
    return intersectTwoNumberAutomata(automaton, this.options.cache.fractionalNumbers());
  }

  /** The content DFA of a string with these patterns and one choice of format alternatives, or undefined when a pattern is refused (lenient). */
  private stringDfa(
    patterns: readonly PatternRule[],
    choice: FormatChoice,
    refuse: boolean,
    languages: readonly CodePointDfa[] = [],
  ): CodePointDfa | undefined {
    const automata: CodePointDfa[] = [...languages];
    for (const pattern of patterns) {
      try {
        automata.push(this.options.cache.schemaPattern(pattern.source, this.options.automatonWork).dfa);
      } catch (error) {
        if (!(error instanceof RegexUnsupportedError)) throw error;
        if (refuse) this.refuse('pattern', pattern.pointer, `the regex uses ${error.message}`);
        else throw error;
      }
    }
    // a format's own automata (ajv-formats' fixed regexes, the time family's leap-second products) are not the
    // schema's to choose, and are built once per vocabulary: only what the schema's patterns add is metered
    for (const { source, ignoreCase } of choice.patterns) automata.push(this.options.cache.pattern(source, ignoreCase));
    if (automata.length === 0) return undefined;
    try {
      return this.options.cache.intersection(automata, automata.length > choice.patterns.length ? this.options.automatonWork : undefined);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      if (refuse) this.refuse('pattern', patterns[0]?.pointer ?? choice.pointer ?? '#', error.message);
      return undefined;
    }
  }

  /** One string alternative per combination of the formats' alternatives (usually one). */
  private lowerString(typed: Typed, exclude: CodePointTrie | null = null): StringAlternative[] {
    let patternMinLength = typed.minLength;
    let patternMaxLength = typed.maxLength;
    for (const pattern of typed.patterns) {
      try {
        const compiled = this.options.cache.schemaPattern(pattern.source, this.options.automatonWork);
        patternMinLength = Math.max(patternMinLength, compiled.minLength);
        patternMaxLength = Math.min(patternMaxLength, compiled.maxLength);
      } catch (error) {
        if (error instanceof AutomatonWorkLimitError) throw error;
        // refused in stringDfa, with the regex's reason
      }
    }
    const alternatives: StringAlternative[] = [];
    for (const choice of formatChoices(typed.formats)) {
      const minLength = Math.max(patternMinLength, choice.minLength);
      const maxLength = Math.min(patternMaxLength, choice.maxLength);
      if (minLength > maxLength) continue;
      const constrained = this.stringDfa(typed.patterns, choice, true, typed.languages);
      const dfa = constrained ?? CodePointDfa.any();
      if (dfa.start < 0) continue;
      const alternative: StringAlternative = {
        kind: 'string',
        id: this.alternativeCount++,
        dfa,
        free: constrained === undefined,
        minLength,
        maxLength,
        exclude,
        height: 1,
      };
      if (stringFeasible(alternative)) alternatives.push(alternative);
    }
    return alternatives;
  }

  private lowerArray(typed: Typed): ArrayAlternative {
    const prefixLength = Math.min(typed.prefix.length, typed.maxItems);
    const prefix = typed.prefix.slice(0, prefixLength).map((set) => this.nodeFor(set));
    const items = typed.items[0] === FALSE_LOCATION || typed.maxItems <= prefixLength ? null : this.nodeFor(typed.items);
    const maxItems = items === null ? Math.min(typed.maxItems, prefixLength) : typed.maxItems;
    const alternative: ArrayAlternative = {
      kind: 'array',
      id: this.alternativeCount++,
      prefix,
      items,
      minItems: typed.minItems,
      maxItems,
      unique: null,
      contains: null,
      height: Infinity,
    };
    const setBased = typed.uniqueItems && maxItems > 1;
    const rules = this.containsRules(typed, setBased);
    if (rules.length > 0) (alternative as { contains: ContainsCounting | null }).contains = this.containsCounting(rules, typed, prefixLength, items !== null);
    // the items' literals are known once their node is filled: `run` settles uniqueness then (and counts contains on the set)
    if (setBased) this.uniqueArrays.push({ alternative, pointer: typed.pointer, contains: rules });
    return alternative;
  }

  private sameSchemas(left: LocationSet, right: LocationSet): boolean {
    if (left.length !== right.length) return false;
    return left.every((id, index) => {
      const [a, b] = [this.locations[id]!, this.locations[right[index]!]!];
      return (
        a.complementOf === undefined && b.complementOf === undefined && a.frame === b.frame && a.place.base === b.place.base && jsonEqual(a.schema, b.schema)
      );
    });
  }

  /**
   * The distinct `contains` schemas on the array, one counter each: `contains` repeated with the same schema (allOf parts
   * written apart) is one counter with both bounds. Past `CONTAINS_MAX_CELLS` cells per item, or (counted by counters,
   * not by the set written under `uniqueItems`) past `CONTAINS_MAX_COUNT_STATES` count states, the schema is refused.
   */
  private containsRules(typed: Typed, setBased: boolean): ContainsRule[] {
    const distinct: ContainsRule[] = [];
    for (const rule of typed.contains) {
      const same = distinct.findIndex((other) => this.sameSchemas(other.set, rule.set));
      if (same < 0) distinct.push(rule);
      else distinct[same] = { ...distinct[same]!, min: Math.max(distinct[same]!.min, rule.min), max: Math.min(distinct[same]!.max, rule.max) };
    }
    const kept: ContainsRule[] = [];
    let states = 1;
    for (const rule of distinct) {
      const where = [...kept, rule].map((other) => other.pointer).join(', ');
      if (2 ** (kept.length + 1) > CONTAINS_MAX_CELLS) {
        this.refuse(
          'contains',
          rule.pointer,
          `${kept.length + 1} different contains schemas apply to the same array (${where}; "some item fails items" under not or an overlapping oneOf counts as one): each item would be split into ${2 ** (kept.length + 1)} cells, one per combination of matches, more than CONTAINS_MAX_CELLS (${CONTAINS_MAX_CELLS}); merge some of them into one "contains"`,
        );
        continue;
      }
      const nextStates = states * (countCap(rule) + 1);
      if (!setBased && kept.length > 0 && nextStates > CONTAINS_MAX_COUNT_STATES) {
        this.refuse(
          'contains',
          rule.pointer,
          `the counts of the ${kept.length + 1} different contains schemas on one array (${where}) make ${nextStates} states (each count runs to its maxContains, or its minContains without one), more than CONTAINS_MAX_COUNT_STATES (${CONTAINS_MAX_COUNT_STATES}); lower "maxContains" or "minContains", or merge them into one "contains"`,
        );
        continue;
      }
      states = nextStates;
      kept.push(rule);
    }
    return kept;
  }

  /** Each position's item schema split into cells `item ∧ ±contains₁ ∧ ±contains₂ …`, one per combination of matches. */
  private containsCounting(rules: readonly ContainsRule[], typed: Typed, prefixLength: number, hasItems: boolean): ContainsCounting {
    const split = (set: LocationSet): ContainsCell[] => {
      const cells: ContainsCell[] = [];
      // matching cells first: they are filled (and refused) in the order one counter always used
      for (let matches = 2 ** rules.length - 1; matches >= 0; matches--) {
        // the schemas it matches first, so each complement is taken within the smallest set
        let cell = set;
        rules.forEach((rule, index) => (cell = (matches & (1 << index)) !== 0 ? unionSets(cell, rule.set) : cell));
        rules.forEach((rule, index) => {
          if ((matches & (1 << index)) === 0) cell = this.differenceSet(cell, rule.set, 'contains', `${rule.pointer}/contains`);
        });
        // an empty cell stays in the list: its node's height is Infinity, so it is never offered
        if (cell[0] !== FALSE_LOCATION) cells.push({ node: this.nodeFor(cell), matches });
      }
      return cells;
    };
    let stride = 1;
    const counters = rules.map((rule): ContainsCounter => {
      const counter = { min: rule.min, max: rule.max, cap: countCap(rule), stride };
      stride *= counter.cap + 1;
      return counter;
    });
    return {
      counters,
      prefixCells: typed.prefix.slice(0, prefixLength).map(split),
      itemsCells: hasItems ? split(typed.items) : null,
    };
  }

  private lowerObject(typed: Typed): ObjectAlternative {
    const names = layoutNames(typed);
    const excluded = new CodePointTrie();
    for (const name of names) excluded.add(name);
    const plan = this.planObject(typed, names);
    const properties: PropertyRule[] = plan.present.map((name) => ({
      name,
      value: this.nodeFor(valueSetFor(typed, name)),
      required: typed.required.has(name),
    }));
    const keys = new ByteTrie();
    const encoder = new TextEncoder();
    properties.forEach((property, index) => keys.add(encoder.encode(JSON.stringify(property.name)), index));
    const reach = new Int32Array(properties.length + 1);
    let nextRequired = properties.length - 1;
    for (let index = properties.length; index >= 0; index--) {
      // reach[i + 1]: after property i was written, keys up to this index may come next
      reach[index] = nextRequired;
      if (index - 1 >= 0 && properties[index - 1]!.required) nextRequired = index - 1;
    }
    const keyClasses = this.keyClasses(typed, names, excluded);
    return {
      kind: 'object',
      id: this.alternativeCount++,
      properties,
      keyClasses,
      keys,
      keyValues: keys.subtreeValues(),
      reach,
      blocked: plan.impossible,
      progress: this.progressRules(typed, properties, plan.dependencies, keyClasses.length > 0),
      height: Infinity,
    };
  }

  /** The declared names that can appear (not false, accepted by propertyNames, their dependents can appear too) and the dependencies enforced. */
  private planObject(typed: Typed, names: readonly string[]): { present: string[]; impossible: boolean; dependencies: Map<string, Set<string>> } {
    const absent = new Set<string>();
    for (const name of names) {
      if (valueSetFor(typed, name)[0] === FALSE_LOCATION || (typed.propertyNames.length > 0 && !this.satisfiesSet(name, typed.propertyNames))) absent.add(name);
    }
    let dependencies = typed.dependencies;
    if (dependencies.size > 0 && typed.maxProperties !== Infinity) {
      this.refuse('dependentRequired', typed.pointer, 'dependentRequired together with maxProperties is not enforced');
      dependencies = new Map();
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, dependents] of dependencies) {
        if (!absent.has(name) && [...dependents].some((dependent) => absent.has(dependent))) {
          absent.add(name);
          changed = true;
        }
      }
    }
    const present = names.filter((name) => !absent.has(name));
    const impossible = typed.minProperties > typed.maxProperties || names.some((name) => absent.has(name) && typed.required.has(name));
    return { present, impossible, dependencies };
  }

  private progressRules(
    typed: Typed,
    properties: readonly PropertyRule[],
    dependencies: Map<string, Set<string>>,
    hasKeyClasses: boolean,
  ): ObjectProgressRules {
    const index = new Map(properties.map((property, at) => [property.name, at]));
    const edges = [...dependencies].filter(([name, dependents]) => index.has(name) && [...dependents].some((dependent) => dependent !== name));
    // one declared property without other keys has one order anyway
    let anyOrder = this.options.propertyOrder === 'any' && (properties.length > 1 || (properties.length === 1 && hasKeyClasses));
    let tracked = anyOrder || edges.length > 0;
    if (tracked && properties.length > MAX_TRACKED_PROPERTIES) {
      if (edges.length > 0)
        this.refuse(
          'dependentRequired',
          typed.pointer,
          `tracking which of ${properties.length} declared properties were written exceeds MAX_TRACKED_PROPERTIES (${MAX_TRACKED_PROPERTIES})`,
        );
      if (anyOrder && !this.options.lenient)
        throw new UnsupportedSchemaError(
          'propertyOrder',
          typed.pointer,
          `propertyOrder "any" on an object with ${properties.length} declared properties exceeds MAX_TRACKED_PROPERTIES (${MAX_TRACKED_PROPERTIES}); use propertyOrder "schema"`,
        );
      // lenient: the schema's order (still exact) and no dependentRequired (looser, listed in relaxed)
      anyOrder = false;
      tracked = false;
    }
    let minProperties = typed.minProperties;
    if (minProperties > 1 && hasKeyClasses) {
      this.refuse(
        'minProperties',
        typed.pointer,
        'minProperties above 1 with additional or pattern properties allowed is not enforced: a repeated key would count twice (duplicate keys are not detected)',
      );
      minProperties = 0;
    }
    const closure = new Int32Array(tracked ? properties.length : 0);
    let requiredMask = 0;
    if (tracked) {
      properties.forEach((property, at) => {
        closure[at] = 1 << at;
        if (property.required) requiredMask |= 1 << at;
      });
      for (const [name, dependents] of edges) for (const dependent of dependents) closure[index.get(name)!]! |= 1 << index.get(dependent)!;
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
    return {
      anyOrder,
      tracked,
      requiredMask,
      closure,
      minProperties,
      maxProperties: typed.maxProperties,
      countCap: typed.maxProperties !== Infinity ? typed.maxProperties : minProperties,
      requiredFrom,
    };
  }

  /** Keys other than the declared names, grouped by the value schema they get. */
  private keyClasses(typed: Typed, names: readonly string[], excluded: CodePointTrie): KeyClass[] {
    const loose = (): KeyClass[] => [{ keys: [this.freeKey(excluded)], value: this.nodeFor(TRUE_SET) }];
    if (typed.patternGroups.length === 0 && typed.propertyNames.length === 0) {
      return typed.additional[0] === FALSE_LOCATION ? [] : [{ keys: [this.freeKey(excluded)], value: this.nodeFor(typed.additional) }];
    }
    const rules = typed.patternGroups.flatMap((group) => group.rules);
    if (rules.length > MAX_KEY_PATTERNS) {
      this.refuse('patternProperties', typed.pointer, `more than ${MAX_KEY_PATTERNS} patterns (MAX_KEY_PATTERNS) on one object is over budget`);
      return loose();
    }
    let languages: Map<number, CodePointDfa> | undefined;
    let keyLanguages: { dfa: CodePointDfa; minLength: number; maxLength: number }[];
    try {
      languages = keySignatureLanguages(
        CodePointDfa.literals([...names], this.options.automatonWork),
        rules.map((rule) => rule.dfa),
      );
      keyLanguages = typed.propertyNames.length === 0 ? [] : this.keyLanguages(typed.propertyNames);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      this.refuse('propertyNames', typed.pointer, error.message);
      return loose();
    }
    if (languages === undefined) {
      this.refuse('patternProperties', typed.pointer, `the key automaton (the product of the key patterns) exceeds ${MAX_DFA_STATES} states`);
      return loose();
    }
    const classes: KeyClass[] = [];
    for (const [signature, dfa] of languages) {
      let set = typed.additional;
      let offset = 0;
      for (const group of typed.patternGroups) {
        let matched = false;
        group.rules.forEach((rule, at) => {
          if (((signature >>> (offset + at)) & 1) === 1) {
            matched = true;
            set = unionSets(set, rule.set);
          }
        });
        if (!matched) set = unionSets(set, group.additional);
        offset += group.rules.length;
      }
      if (set[0] === FALSE_LOCATION) continue;
      const keys: StringAlternative[] = [];
      for (const language of typed.propertyNames.length === 0 ? [{ dfa, minLength: 0, maxLength: Infinity }] : keyLanguages) {
        let keyDfa = dfa;
        if (language.dfa !== dfa) {
          try {
            keyDfa = this.options.cache.intersection([dfa, language.dfa], this.options.automatonWork);
          } catch (error) {
            if (!(error instanceof RegexUnsupportedError)) throw error;
            this.refuse('propertyNames', typed.pointer, error.message);
            return loose();
          }
        }
        if (keyDfa.start < 0) continue;
        const key: StringAlternative = {
          kind: 'string',
          id: this.alternativeCount++,
          dfa: keyDfa,
          free: false,
          minLength: language.minLength,
          maxLength: language.maxLength,
          exclude: null,
          height: 1,
        };
        if (stringFeasible(key)) keys.push(key);
      }
      if (keys.length > 0) classes.push({ keys, value: this.nodeFor(set) });
    }
    return classes;
  }

  private freeKey(excluded: CodePointTrie): StringAlternative {
    return {
      kind: 'string',
      id: this.alternativeCount++,
      dfa: CodePointDfa.any(),
      free: true,
      minLength: 0,
      maxLength: Infinity,
      exclude: excluded,
      height: 1,
    };
  }

  /** The string languages a propertyNames schema allows (non-string alternatives never apply to keys). */
  private keyLanguages(set: LocationSet): { dfa: CodePointDfa; minLength: number; maxLength: number }[] {
    const out: { dfa: CodePointDfa; minLength: number; maxLength: number }[] = [];
    for (const typed of this.denoteSet(set)) {
      if (typed.type !== 'string') continue;
      if (typed.literals !== undefined) {
        const dfa = CodePointDfa.literals(typed.literals.filter((value) => this.satisfiesTyped(value, typed)) as string[], this.options.automatonWork);
        if (dfa.start >= 0) out.push({ dfa, minLength: 0, maxLength: Infinity });
        continue;
      }
      for (const alternative of this.lowerString(typed)) out.push({ dfa: alternative.dfa, minLength: alternative.minLength, maxLength: alternative.maxLength });
    }
    return out;
  }

  /** minProperties, maxProperties, patternProperties, propertyNames, dependentRequired and draft-7 dependencies with array values. */
  private applyObjectKeywords(typed: Typed, location: Location, schema: Record<string, unknown>): void {
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    const escape = (name: string): string => name.replaceAll('~', '~0').replaceAll('/', '~1');
    for (const keyword of ['minProperties', 'maxProperties'] as const) {
      if (!has(keyword)) continue;
      const value = schema[keyword];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.invalid(pointer, `"${keyword}" must be a non-negative integer`);
      typed[keyword] = value as number;
    }
    if (has('propertyNames')) typed.propertyNames = this.child(location, 'propertyNames', schema.propertyNames);
    if (has('patternProperties')) {
      if (!isPlainObject(schema.patternProperties)) this.invalid(pointer, '"patternProperties" must be an object');
      const rules: PatternGroup['rules'][number][] = [];
      let unsupported = false;
      for (const [source, value] of Object.entries(schema.patternProperties)) {
        try {
          rules.push({
            source,
            set: this.child(location, 'patternProperties', value, `/${escape(source)}`),
            dfa: this.options.cache.pattern(source, false, this.options.automatonWork),
          });
        } catch (error) {
          if (!(error instanceof RegexUnsupportedError)) throw error;
          this.refuse('patternProperties', `${pointer}/patternProperties/${escape(source)}`, `the regex uses ${error.message}`);
          unsupported = true;
        }
      }
      if (unsupported) {
        // lenient: neither the patterns nor additionalProperties constrain undeclared keys (a looser language)
        typed.additional = TRUE_SET;
      } else {
        for (const name of typed.order) {
          for (const rule of rules) if (rule.dfa.matches(name)) typed.properties.set(name, unionSets(typed.properties.get(name)!, rule.set));
        }
        typed.patternGroups.push({ rules, additional: typed.additional });
        typed.additional = TRUE_SET;
      }
    }
    for (const keyword of ['dependentRequired', 'dependencies'] as const) {
      if (!has(keyword)) continue;
      if (!isPlainObject(schema[keyword])) this.invalid(pointer, `"${keyword}" must be an object`);
      for (const [name, value] of Object.entries(schema[keyword] as Record<string, unknown>)) {
        if (Array.isArray(value)) {
          if (value.some((dependent) => typeof dependent !== 'string')) this.invalid(pointer, `"${keyword}/${name}" must be an array of strings`);
          const dependents = typed.dependencies.get(name) ?? new Set<string>();
          for (const dependent of value as string[]) dependents.add(dependent);
          typed.dependencies.set(name, dependents);
        } else if (keyword === 'dependentRequired') {
          this.invalid(pointer, `"dependentRequired/${name}" must be an array of strings`);
        }
        // a schema-valued draft-7 dependency is a dependentSchemas entry: applyDependencies splits the alternatives for it
      }
    }
  }

  // ---- values: satisfaction and layout -------------------------------------------------

  private satisfiesSet(value: unknown, set: LocationSet): boolean {
    return this.denoteSet(set).some((typed) => this.satisfiesTyped(value, typed));
  }

  private satisfiesTyped(value: unknown, typed: Typed): boolean {
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
            alternative.patterns.every((source) => this.options.cache.pattern(source, language.ignoreCase).matches(text));
          if (!language.alternatives.some(matches)) return false;
        }
        for (const language of typed.languages) if (!language.matches(text)) return false;
        for (const pattern of typed.patterns) {
          try {
            if (!this.options.cache.pattern(pattern.source, false, this.options.automatonWork).matches(text)) return false;
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
        return typed.multiples.every((divisor) => ajvMultipleOf(number, divisor));
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
        return Object.entries(object).every(([name, item]) => this.satisfiesSet(item, valueSetFor(typed, name)));
      }
      default:
        return true;
    }
  }

  private serialize(value: unknown, set: LocationSet): string | undefined {
    for (const typed of this.denoteSet(set)) {
      if (!this.satisfiesTyped(value, typed)) continue;
      if (typed.literals !== undefined) return literalText(typed.literals.find((literal) => jsonEqual(literal, value)));
      switch (typed.type) {
        case 'array': {
          const parts: string[] = [];
          for (const [index, item] of (value as unknown[]).entries()) {
            const text = this.serialize(item, typed.prefix[index] ?? typed.items);
            if (text === undefined) return undefined;
            parts.push(text);
          }
          return `[${parts.join(',')}]`;
        }
        case 'object': {
          const object = value as Record<string, unknown>;
          const layout = layoutNames(typed);
          const names = layout.filter((name) => Object.prototype.hasOwnProperty.call(object, name));
          const declared = new Set(layout);
          for (const name of Object.keys(object)) if (!declared.has(name)) names.push(name);
          const parts: string[] = [];
          for (const name of names) {
            const text = this.serialize(object[name], valueSetFor(typed, name));
            if (text === undefined) return undefined;
            parts.push(`${JSON.stringify(name)}:${text}`);
          }
          return `{${parts.join(',')}}`;
        }
        default:
          return literalText(value);
      }
    }
    return undefined;
  }
}

// ---- typed helpers -------------------------------------------------------------------

function blank(type: JsonType, pointer: string): Typed {
  return {
    type,
    integer: false,
    fractional: false,
    literals: undefined,
    minLength: 0,
    maxLength: Infinity,
    patterns: [],
    languages: [],
    formats: [],
    minimum: -Infinity,
    exclusiveMinimum: false,
    maximum: Infinity,
    exclusiveMaximum: false,
    multiples: [],
    prefix: [],
    items: TRUE_SET,
    minItems: 0,
    maxItems: Infinity,
    uniqueItems: false,
    contains: [],
    order: [],
    properties: new Map(),
    required: new Set(),
    additional: TRUE_SET,
    minProperties: 0,
    maxProperties: Infinity,
    propertyNames: TRUE_SET,
    patternGroups: [],
    dependencies: new Map(),
    pointer,
  };
}

function tightenLow(typed: Typed, value: number, exclusive: boolean): void {
  if (value > typed.minimum || (value === typed.minimum && exclusive)) {
    typed.minimum = value;
    typed.exclusiveMinimum = exclusive;
  }
}

function tightenHigh(typed: Typed, value: number, exclusive: boolean): void {
  if (value < typed.maximum || (value === typed.maximum && exclusive)) {
    typed.maximum = value;
    typed.exclusiveMaximum = exclusive;
  }
}

function sameSet(left: LocationSet, right: LocationSet): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

/** The largest count of `rule` told apart: past its maxContains nothing is written, past its minContains alone counts are alike. */
function countCap(rule: ContainsRule): number {
  return rule.max === Infinity ? rule.min : rule.max;
}

function unionSets(left: LocationSet, right: LocationSet): LocationSet {
  if (left[0] === FALSE_LOCATION || right[0] === FALSE_LOCATION) return FALSE_SET;
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  return [...new Set([...left, ...right])].sort((a, b) => a - b);
}

function intersectTyped(a: Typed, b: Typed): Typed | undefined {
  if (a.type !== b.type) return undefined;
  const merged = blank(a.type, a.pointer);
  merged.integer = a.integer || b.integer;
  merged.fractional = a.fractional || b.fractional;
  if (merged.integer && merged.fractional) return undefined;
  if (a.literals !== undefined && b.literals !== undefined)
    merged.literals = a.literals.filter((value) => b.literals!.some((other) => jsonEqual(value, other)));
  else merged.literals = a.literals ?? b.literals;
  if (merged.literals !== undefined && merged.literals.length === 0) return undefined;
  merged.minLength = Math.max(a.minLength, b.minLength);
  merged.maxLength = Math.min(a.maxLength, b.maxLength);
  merged.patterns = [...a.patterns, ...b.patterns];
  merged.languages = [...a.languages, ...b.languages];
  merged.formats = [...a.formats, ...b.formats];
  merged.minimum = a.minimum;
  merged.exclusiveMinimum = a.exclusiveMinimum;
  merged.maximum = a.maximum;
  merged.exclusiveMaximum = a.exclusiveMaximum;
  tightenLow(merged, b.minimum, b.exclusiveMinimum);
  tightenHigh(merged, b.maximum, b.exclusiveMaximum);
  merged.multiples = [...a.multiples, ...b.multiples];
  const length = Math.max(a.prefix.length, b.prefix.length);
  for (let index = 0; index < length; index++) merged.prefix.push(unionSets(a.prefix[index] ?? a.items, b.prefix[index] ?? b.items));
  merged.items = unionSets(a.items, b.items);
  merged.minItems = Math.max(a.minItems, b.minItems);
  merged.maxItems = Math.min(a.maxItems, b.maxItems);
  merged.uniqueItems = a.uniqueItems || b.uniqueItems;
  merged.contains = [...a.contains];
  for (const rule of b.contains) {
    // the same schema counted twice is one counter with both bounds
    const same = merged.contains.findIndex((other) => sameSet(other.set, rule.set));
    if (same < 0) merged.contains.push(rule);
    else {
      const other = merged.contains[same]!;
      merged.contains[same] = { ...other, min: Math.max(other.min, rule.min), max: Math.min(other.max, rule.max) };
    }
  }
  merged.order = [...a.order, ...b.order.filter((name) => !a.properties.has(name))];
  for (const name of new Set([...a.order, ...b.order])) {
    merged.properties.set(name, unionSets(valueSetFor(a, name), valueSetFor(b, name)));
  }
  merged.required = new Set([...a.required, ...b.required]);
  merged.additional = unionSets(a.additional, b.additional);
  merged.minProperties = Math.max(a.minProperties, b.minProperties);
  merged.maxProperties = Math.min(a.maxProperties, b.maxProperties);
  merged.propertyNames = unionSets(a.propertyNames, b.propertyNames);
  merged.patternGroups = [...a.patternGroups, ...b.patternGroups];
  for (const source of [a.dependencies, b.dependencies]) {
    for (const [name, dependents] of source) merged.dependencies.set(name, new Set([...(merged.dependencies.get(name) ?? []), ...dependents]));
  }
  return merged;
}

/** Subsets of `n` values with at most `maxItems` elements (capped once past the budget). */
function reachableSets(n: number, maxItems: number): number {
  let total = 0;
  let choose = 1;
  for (let k = 0; k <= Math.min(n, maxItems) && total <= UNIQUE_ITEMS_MAX_SETS; k++) {
    total += choose;
    choose = (choose * (n - k)) / (k + 1);
  }
  return total;
}

/** The value schema of property `name`: declared, else the patterns it matches, else additionalProperties. */
function valueSetFor(typed: Typed, name: string): LocationSet {
  const declared = typed.properties.get(name);
  if (declared !== undefined) return declared;
  let set = typed.additional;
  for (const group of typed.patternGroups) {
    const matching = group.rules.filter((rule) => rule.dfa.matches(name));
    set = matching.length === 0 ? unionSets(set, group.additional) : matching.reduce((result, rule) => unionSets(result, rule.set), set);
  }
  return set;
}

/** Property layout order: `properties`, then names only `required` or `dependentRequired` mention. */
function layoutNames(typed: Typed): string[] {
  const names = [...typed.order];
  const seen = new Set(names);
  const add = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    names.push(name);
  };
  for (const name of typed.required) add(name);
  for (const [name, dependents] of typed.dependencies) {
    add(name);
    for (const dependent of dependents) add(dependent);
  }
  return names;
}

function stringFeasible(alternative: StringAlternative): boolean {
  const { dfa, minLength, maxLength } = alternative;
  // breadth-first over lengths: is some accepting state reachable at a length in [min, max]?
  const limit = Math.min(maxLength, minLength + dfa.stateCount + 1);
  let frontier = new Set([dfa.start]);
  for (let length = 0; length <= limit; length++) {
    if (length >= minLength) for (const state of frontier) if (dfa.accepting[state] === 1) return true;
    const next = new Set<number>();
    for (const state of frontier) {
      const ranges = dfa.transitions[state]!;
      for (let index = 2; index < ranges.length; index += 3) next.add(ranges[index]!);
    }
    if (next.size === 0) return false;
    frontier = next;
  }
  return false;
}

/** Fewest frames each node needs (Infinity: no finite value), by fixpoint from Infinity downwards. */
function computeHeights(nodes: readonly ValueNode[]): void {
  for (const node of nodes) {
    for (const alternative of node.alternatives) if (alternative.kind === 'object' || alternative.kind === 'array') alternative.height = Infinity;
    node.height = node.literals === null ? Infinity : 1;
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const node of nodes) {
      let best = node.literals === null ? Infinity : 1;
      for (const alternative of node.alternatives) {
        let height = alternative.height;
        if (alternative.kind === 'object') {
          height = objectMinHeight(alternative);
        } else if (alternative.kind === 'array' && alternative.unique?.contains != null) {
          // literal items (height 1 each): 1 when the empty array will do
          height = !uniqueCanClose(alternative, 0, 0) ? Infinity : uniqueSatisfied(alternative, 0, 0) ? 1 : 2;
        } else if (alternative.kind === 'array' && alternative.contains !== null) {
          height = containsMinHeight(alternative);
        } else if (alternative.kind === 'array') {
          height = alternative.minItems > alternative.maxItems ? Infinity : 1;
          for (let index = 0; index < alternative.minItems; index++) {
            const item = alternative.prefix[index] ?? alternative.items;
            height = Math.max(height, item === null ? Infinity : 1 + item.height);
          }
        }
        if (height < alternative.height) {
          (alternative as ObjectAlternative | ArrayAlternative).height = height;
          changed = true;
        }
        best = Math.min(best, alternative.height);
      }
      if (best < node.height) {
        node.height = best;
        changed = true;
      }
    }
  }
}

// ---- JSON helpers ------------------------------------------------------------------

function jsonTypeOf(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : undefined;
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return undefined;
}

/** JSON equality: numbers by value (1 equals 1.0), objects regardless of key order. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left === 'number' && typeof right === 'number') return left === right;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && jsonEqual(left[key], right[key]));
  }
  return false;
}

/** Compact JSON with numbers in plain decimal: the engine's layout for literal values. */
export function literalText(value: unknown): string {
  if (typeof value === 'number') return toPlainDecimal(value);
  if (Array.isArray(value)) return `[${value.map(literalText).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${literalText(item)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
