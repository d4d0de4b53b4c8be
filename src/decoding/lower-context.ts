/**
 * The state the lowering's stages share for one schema (`lower-json-schema.ts`): the options, the schema registry, the
 * table of locations, the keywords relaxed so far and which denotations they touched, and the alternative ids handed
 * out. Each stage keeps its own caches; what more than one stage reads or writes lives here, passed to each.
 * @module
 */
import { SchemaCompileError } from '../shared/errors.js';
import { SchemaRegistry } from '../shared/json-schema/schema-registry.js';
import type { AutomatonWork } from '../shared/regex/code-point-dfa.js';
import type { DecodingLimits } from './decoding-limits.js';
import { UnsupportedSchemaError } from './decoding-errors.js';
import { DynamicReferences } from './dynamic-reference.js';
import type { GrammarCache } from './grammar-cache.js';
import { FALSE_LOCATION, type Location, type RelaxedKeyword } from './lower-typed.js';

export interface LowerOptions {
  readonly lenient: boolean;
  /** `any`: declared properties may come in any order, each at most once. Default `schema`. */
  readonly propertyOrder?: 'schema' | 'any';
  readonly schemas: Readonly<Record<string, unknown>>;
  /** Where pattern, format and number automata are kept between compiles. */
  readonly cache: GrammarCache;
  /** Meters every automaton built for this schema (a cached one costs nothing); unmetered when absent. */
  readonly automatonWork?: AutomatonWork;
  /** The budgets this compile works within (`decoding-limits.ts`). */
  readonly limits: DecodingLimits;
}

export class LoweringContext {
  readonly registry: SchemaRegistry;
  readonly limits: DecodingLimits;
  readonly dynamicReferences: DynamicReferences;
  /** Every schema location by id; id 0 is the `false` schema. */
  readonly locations: Location[] = [{ id: FALSE_LOCATION, schema: false, place: { base: '', pointer: '#' } }];
  /** Locations being denoted now (a `$ref` cycle reaches one again). */
  readonly inProgress = new Set<number>();
  /** Nesting of disjointness probes; inside one, reaching a location being denoted abandons the probe instead of refusing. */
  probing = 0;
  /** Locations whose denotation dropped a keyword (lenient): negating them would be stricter than the schema, not looser. */
  readonly relaxedDenotations = new Set<number>();
  readonly relaxed: RelaxedKeyword[] = [];
  readonly #relaxedKeys = new Set<string>();
  /** Ids of the lowered alternatives, unique across the grammar. */
  alternativeCount = 0;

  constructor(
    readonly root: unknown,
    readonly options: LowerOptions,
  ) {
    this.registry = new SchemaRegistry(root, options.schemas);
    this.limits = options.limits;
    this.dynamicReferences = new DynamicReferences(root, this.registry);
  }

  /** Refuses a keyword, or (lenient) records it as relaxed and returns so the caller skips it. */
  refuse(keyword: string, pointer: string, details: string): void {
    if (!this.options.lenient) throw new UnsupportedSchemaError(keyword, pointer, details);
    for (const id of this.inProgress) this.relaxedDenotations.add(id);
    const key = `${keyword}\u0000${pointer}\u0000${details}`;
    if (this.#relaxedKeys.has(key)) return;
    this.#relaxedKeys.add(key);
    this.relaxed.push({ keyword, pointer, details });
  }

  invalid(pointer: string, message: string): never {
    throw new SchemaCompileError(undefined, `${message} at ${pointer}`);
  }
}
