/**
 * `compileJsonSchema(schema, vocabulary)`: the entry point of the token-mask engine.
 * @module
 */
import { SchemaCompileError } from '../shared/errors.js';
import { upgradeSchemaDialect, type SchemaDialect } from '../shared/json-schema/upgrade-schema-dialect.js';
import { AutomatonWork, AutomatonWorkLimitError } from '../shared/regex/code-point-dfa.js';
import { CompiledGrammar, reachableWorkBudget } from './compiled-grammar.js';
import { DecodingLimitError } from './decoding-errors.js';
import { DEFAULT_DECODING_LIMITS, decodingLimits, type DecodingLimits } from './decoding-limits.js';
import { JsonAutomaton } from './json-automaton.js';
import { lowerJsonSchema } from './lower-json-schema.js';
import { metaSchemaProblem } from './meta-schema-check.js';
import type { Vocabulary } from './vocabulary.js';

export interface CompileJsonSchemaOptions {
  /**
   * `compact` (default): JSON with no whitespace, properties in schema order, strings
   * escaped as JSON.stringify does. `flexible`: also up to `maxWhitespace` whitespace
   * characters between tokens, and `\/` and `\uHHHH` escapes, as models often write.
   */
  layout?: 'compact' | 'flexible';
  /** Longest whitespace run the flexible layout allows. Default 16. */
  maxWhitespace?: number;
  /** Drop keywords the engine cannot enforce instead of refusing the schema; the grammar's `relaxed` lists them. Default false. */
  lenient?: boolean;
  /** Schemas that `$ref` may name by absolute URI (nothing is fetched). Each is read under its own root `$schema`, as `schema` is. */
  schemas?: Readonly<Record<string, unknown>>;
  /**
   * How to read a schema whose root `$schema` names no dialect: `draft-04`, `draft-06`, `draft-07` and `2019-09` are
   * rewritten into 2020-12 first (`upgradeSchemaDialect`), as `defineTool` does. Default `2020-12`. A root `$schema` wins.
   */
  schemaDialect?: SchemaDialect;
  /** Budget of automaton states per grammar (≈1 KiB each). Default 200,000. The same as `limits.maxStates`, and wins over it. */
  maxStates?: number;
  /**
   * Steps the compilation may spend building the regex, format and intersection automata it has not cached yet (an
   * NFA state visited, an edge split, a transition of a product or of a minimization round): a count, not a deadline,
   * so a schema compiles or is refused alike on every machine. Past it, {@link DecodingLimitError} (`maxAutomatonWork`).
   * Default {@link DEFAULT_MAX_AUTOMATON_WORK}. The same as `limits.maxAutomatonWork`, and wins over it.
   */
  maxAutomatonWork?: number;
  /**
   * Most nested frames (each object, array, string or number is one); deeper values are not offered. Default 32. The same
   * as `limits.maxDepth`, and wins over it.
   */
  maxDepth?: number;
  /**
   * Overrides of the compiler's budgets for this compile ({@link DEFAULT_DECODING_LIMITS} holds the defaults; docs/decoding.md
   * says what each bounds and what a schema past it gets). A field that is not a limit, or a value that is not a whole
   * number of 1 or more, throws `InvalidDecodingLimitsError` (`TW_INVALID_DECODING_LIMITS`).
   */
  limits?: Partial<DecodingLimits>;
  /**
   * `schema` (default): declared properties in the schema's order. `any`: in any order, each
   * at most once, with additional and pattern properties between them; an object must still
   * hold its required properties to close. `format()` keeps the schema's order either way.
   */
  propertyOrder?: 'schema' | 'any';
  /**
   * Work spent at compile time on the masks of the states a generation reaches first,
   * nearest first, so that its first tokens copy masks instead of walking the trie: a count
   * (a trie node visited is 1, an automaton transition computed 64), not a deadline, so a
   * schema precomputes the same masks on every machine. Default 5,000 for vocabularies up to
   * 151,669 tokens, proportionally less above; twice that under `propertyOrder: 'any'`, whose
   * objects have more states. The rest is computed on first use, or ahead of it by
   * `matcher.lookAhead(workUnits)` while the model computes the next token (docs/decoding.md
   * gives both costs). 0: nothing at compile; `Infinity`: every reachable state at compile.
   */
  precomputeWork?: number;
}

/** Default `maxAutomatonWork`: the `maxAutomatonWork` row of {@link DEFAULT_DECODING_LIMITS}, under the name it had first. */
export const DEFAULT_MAX_AUTOMATON_WORK = DEFAULT_DECODING_LIMITS.maxAutomatonWork;

/**
 * Compiles a JSON Schema into a grammar over `vocabulary`'s tokens. Compilation
 * computes the masks of the states nearest the start within `precomputeWork`; the others
 * are computed on first use or by `matcher.lookAhead`, and all are cached in the grammar,
 * which any number of matchers may share.
 * @throws UnsupportedSchemaError for a keyword or regex feature that cannot be enforced exactly.
 * @throws SchemaCompileError for a malformed schema or one that accepts no value.
 * @throws DecodingLimitError (`maxAutomatonWork`) for a pattern whose automaton takes too many steps to build.
 * @throws InvalidDecodingLimitsError for a `limits` field that is not a limit, or a value the engine cannot use.
 */
export function compileJsonSchema(schema: unknown, vocabulary: Vocabulary, options: CompileJsonSchemaOptions = {}): CompiledGrammar {
  const limits = decodingLimits(options.limits, shorthandLimits(options));
  const cache = vocabulary.grammarCache;
  const dialect = options.schemaDialect === undefined ? {} : { dialect: options.schemaDialect };
  const schemas: Record<string, unknown> = {};
  for (const [uri, remote] of Object.entries(options.schemas ?? {})) schemas[uri] = upgradeSchemaDialect(remote, { ...dialect, pointer: uri }).schema;
  const automatonWork = new AutomatonWork(limits.maxAutomatonWork);
  const upgraded = upgradeSchemaDialect(schema, dialect).schema;
  // the registry refuses a schema that fails its meta-schema (annotations and unused $defs included): so does the mask
  const problem = metaSchemaProblem(upgraded, schemas);
  if (problem !== undefined) throw new SchemaCompileError(undefined, problem);
  let lowered: ReturnType<typeof lowerJsonSchema>;
  try {
    lowered = lowerJsonSchema(upgraded, {
      lenient: options.lenient ?? false,
      schemas,
      cache,
      propertyOrder: options.propertyOrder ?? 'schema',
      automatonWork,
      limits,
    });
  } catch (error) {
    if (error instanceof AutomatonWorkLimitError) throw new DecodingLimitError('maxAutomatonWork', error.budget, error.subject, { cause: error });
    throw error;
  }
  if (lowered.root.height === Infinity) {
    throw new SchemaCompileError(undefined, 'it accepts no JSON value (a false schema, contradictory constraints, or only values deeper than maxDepth)');
  }
  const automaton = new JsonAutomaton(lowered.root, lowered.nodes, {
    flexible: options.layout === 'flexible',
    maxWhitespace: options.maxWhitespace ?? 16,
    maxStates: limits.maxStates,
    maxDepth: limits.maxDepth,
    tokenSpan: (alphabet) => vocabulary.stringStats.tokenSpan(alphabet),
    cache,
    uniqueItemsMaxStringBytes: limits.uniqueItemsMaxStringBytes,
  });
  return new CompiledGrammar(
    vocabulary,
    automaton,
    lowered.relaxed,
    lowered.serialize,
    lowered.accepts,
    options.precomputeWork ?? reachableWorkBudget(vocabulary.size) * (options.propertyOrder === 'any' ? 2 : 1),
  );
}

/** The limits given as options of their own (`maxStates`, `maxDepth`, `maxAutomatonWork`), which came before the table. */
function shorthandLimits(options: CompileJsonSchemaOptions): Partial<DecodingLimits> {
  const given: Partial<Record<keyof DecodingLimits, number>> = {};
  if (options.maxStates !== undefined) given.maxStates = options.maxStates;
  if (options.maxDepth !== undefined) given.maxDepth = options.maxDepth;
  if (options.maxAutomatonWork !== undefined) given.maxAutomatonWork = options.maxAutomatonWork;
  return given;
}
