/**
 * JSON Schema validators, one isolated Ajv per compiled schema.
 *
 * Isolation: Ajv resolves `$ref` and `$id` against every schema its instance
 * holds, so one instance shared by all tools lets one tool's schema (say, from a
 * remote MCP server) answer for another's `$id`. Each schema therefore compiles in
 * an Ajv of its own, which holds that schema and the standard meta-schemas only.
 * What makes a fresh Ajv costly is compiling the 2020-12 meta-schema to check the
 * schema itself; that check runs in one shared instance that never holds a tool's
 * schema, and the per-schema instance skips it. Unknown `$ref`s fail to compile;
 * nothing is ever fetched.
 *
 * Reference loops: a schema whose `$ref`s (or in-place applicators) lead back to it without entering a property or
 * item is refused before Ajv sees it ({@link SchemaReferenceCycleError}), since Ajv overflows the stack on it; any
 * stack overflow left (compiling, or checking a value) becomes a typed error that says what to change.
 *
 * Linear-time patterns: Ajv runs `pattern` and `patternProperties` through
 * toolwright's lazily determinized automaton instead of the backtracking `RegExp`,
 * so no argument can make validation take more than linear time.
 *
 * Linear-time `uniqueItems`: Ajv compares items pairwise with a deep equality unless the items are declared scalars,
 * which makes 10,000 objects cost 50 million comparisons (seconds of blocked event loop from 119 KB of arguments).
 * Each Ajv here replaces the keyword with one that numbers items by their canonical JSON ({@link CanonicalIds}) and
 * finds repeats in a Map, and reports the same pair of items Ajv's pairwise loop reports.
 *
 * Without code generation: where `new Function` is forbidden, or when {@link useSchemaValidator} asks for it, schemas
 * are checked by the interpreter in `schema-interpreter.ts` instead, which gives Ajv's verdicts and errors in Ajv's shape.
 * @module
 */
import { _, Ajv2020, str, type CodeKeywordDefinition, type KeywordCxt, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CanonicalIds } from '../shared/canonical-json.js';
import { SchemaCompileError, SchemaEvaluationError, SchemaReferenceCycleError, ToolwrightError, UnsafePatternError } from '../shared/errors.js';
import { findReferenceCycle } from '../shared/json-schema/find-reference-cycle.js';
import { isPlainObject } from '../shared/own.js';
import type { LinearRegExp } from '../shared/regex/linear-regexp.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { escapePointer } from '../shared/safe-json.js';
import { linearPattern, listSchemaPatterns } from './schema-patterns.js';
import type { JsonSchema } from './types.js';
import { issuesFromAjv, type ValidationResult } from './validation-issues.js';
import { ajvMetaSchema } from './ajv-vocabulary.js';
import { interpretSchema, type InterpretedValidateFunction } from './schema-interpreter.js';
import { schemaValidatorKind, type SchemaValidatorKind } from './validator-kind.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** Thrown from inside Ajv's compilation, caught by {@link compileSchema}, which knows the tool and where the pattern sits. */
class RefusedPattern extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`the pattern ${JSON.stringify(pattern)} cannot be checked in linear time: ${reason}`);
  }
}

function linearRegExpForAjv(pattern: string, flags: string): LinearRegExp {
  try {
    return linearPattern(pattern, flags);
  } catch (error) {
    if (!(error instanceof RegexUnsupportedError)) throw error;
    // Not a regex at all is a schema error, as it was with the native engine; only valid-but-unsupported is "unsafe".
    try {
      new RegExp(pattern, flags);
    } catch (syntaxError) {
      throw new Error(`the pattern ${JSON.stringify(pattern)} is not a valid regular expression with the "${flags}" flag (${(syntaxError as Error).message})`, {
        cause: syntaxError,
      });
    }
    throw new RefusedPattern(pattern, error.message);
  }
}
// Ajv reads `code` only when generating standalone modules, which toolwright never does; any value but "new RegExp" makes it call the function.
linearRegExpForAjv.code = 'toolwrightLinearRegExp';

const AJV_OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strict: false,
  allowUnionTypes: true,
  validateFormats: true,
  unicodeRegExp: true,
  code: { regExp: linearRegExpForAjv },
  // Ajv's default logger writes "unknown format … ignored" to the console for every schema that names one: a library
  // prints nothing to its user's terminal; an unknown format constrains nothing, in the registry and in the token mask alike
  logger: false,
};

/** Checks schemas against their meta-schema; it never compiles or holds a tool's schema. */
let metaAjv: Ajv2020 | undefined;

function createAjv(options: Options): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...options });
  addFormats(ajv);
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(UNIQUE_ITEMS);
  return ajv;
}

/**
 * The numbering shared by every `uniqueItems` of one validation, so that an array nested in an array is numbered once,
 * not once per level that holds it. Validation is synchronous: {@link compileSchema}'s `validate` sets it for the call.
 */
let validationIds: CanonicalIds | undefined;

/**
 * Where the items repeat, as Ajv's pairwise loop reports it: `i`, the last item equal to an earlier one, and `j`, the
 * nearest earlier item equal to it; undefined when all differ. Equal means equal canonical JSON, which is JSON Schema's
 * equality on JSON values (1 and 1.0, 0 and -0 are equal; key order does not count; array order does).
 */
export function findRepeatedItems(items: readonly unknown[], ids: CanonicalIds = validationIds ?? new CanonicalIds()): { i: number; j: number } | undefined {
  const lastIndexOf = new Map<number, number>();
  let repeated: { i: number; j: number } | undefined;
  for (let index = 0; index < items.length; index++) {
    const id = ids.idOf(items[index]);
    const earlier = lastIndexOf.get(id);
    if (earlier !== undefined) repeated = { i: index, j: earlier };
    lastIndexOf.set(id, index);
  }
  return repeated;
}

/** Ajv's `uniqueItems` (same keyword, error message and params), checked by {@link findRepeatedItems}. */
const UNIQUE_ITEMS: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    if (schema !== true) return;
    const find = gen.scopeValue('func', { ref: findRepeatedItems });
    const repeated = gen.const('repeated', _`${data}.length > 1 ? ${find}(${data}) : undefined`);
    cxt.setParams({ i: _`${repeated}.i`, j: _`${repeated}.j` });
    cxt.fail(_`${repeated} !== undefined`);
  },
};

/** A compiled JSON Schema; validation returns issues instead of throwing. */
export interface SchemaValidator<T = unknown> {
  readonly schema: JsonSchema;
  validate(value: unknown): ValidationResult<T>;
}

export interface CompileSchemaOptions {
  /** JSON Pointer of the schema inside its owner (`/inputSchema`), prefixed to the pointers in errors. Default `''`. */
  pointer?: string;
}

/**
 * Validators compiled so far, by schema object, with the schema's JSON text when it was compiled: a registry built
 * again from the same tool objects (`runAgent({ tools: [...] })` builds one per run) compiles nothing, and a schema
 * changed in place since (its text differs) compiles again. Failures are not kept: their errors name the owner.
 */
const compiled = new WeakMap<object, { text: string; kind: SchemaValidatorKind; validate: ValidateFunction | InterpretedValidateFunction }>();

/**
 * Compiles a schema in an Ajv instance of its own, once per schema object (see {@link compiled}). Throws
 * {@link SchemaCompileError} for an invalid schema and {@link UnsafePatternError} for a pattern the linear-time engine cannot run.
 */
export function compileSchema<T = unknown>(schema: JsonSchema, owner?: string, options: CompileSchemaOptions = {}): SchemaValidator<T> {
  const text = typeof schema === 'object' && schema !== null ? schemaText(schema) : undefined;
  const kind = schemaValidatorKind();
  const cached = text === undefined ? undefined : compiled.get(schema as object);
  const validateFunction =
    cached !== undefined && cached.text === text && cached.kind === kind ? cached.validate : compileValidateFunction(schema, owner, options, kind);
  if (text !== undefined && cached?.validate !== validateFunction) compiled.set(schema as object, { text, kind, validate: validateFunction });
  return {
    schema,
    validate(value: unknown): ValidationResult<T> {
      let valid: boolean;
      validationIds = new CanonicalIds();
      try {
        valid = validateFunction(value) as boolean;
      } catch (error) {
        // a loop the compile-time check cannot see (Ajv's own $dynamicRef resolution) or a value nested past the stack
        if (error instanceof RangeError) throw new SchemaEvaluationError(owner, { cause: error });
        throw error;
      } finally {
        validationIds = undefined;
      }
      if (valid) return { success: true, data: value as T };
      return { success: false, issues: issuesFromAjv(validateFunction.errors ?? []) };
    },
  };
}

function compileValidateFunction(
  schema: JsonSchema,
  owner: string | undefined,
  options: CompileSchemaOptions,
  kind: SchemaValidatorKind,
): ValidateFunction | InterpretedValidateFunction {
  try {
    if (typeof schema !== 'boolean') {
      const metaErrors = kind === 'ajv' ? metaSchemaErrorsByAjv(schema) : metaSchemaErrorsByInterpreter(schema);
      if (metaErrors !== undefined) throw new Error(`schema is invalid: ${metaErrors}`);
      const cycle = findReferenceCycle(schema);
      if (cycle !== undefined) throw new SchemaReferenceCycleError(owner, cycle, options.pointer ? { pointer: options.pointer } : {});
    }
    if (kind === 'interpreter') return interpretSchema(typeof schema === 'boolean' ? schema : { ...schema }, INTERPRETER_OPTIONS);
    return createAjv({ validateSchema: false }).compile(typeof schema === 'boolean' ? schema : { ...schema });
  } catch (error) {
    if (error instanceof RefusedPattern)
      throw new UnsafePatternError(owner, locatePattern(schema, error.pattern, options.pointer ?? ''), error.pattern, error.reason, { cause: error });
    if (ToolwrightError.isInstance(error)) throw error;
    if (error instanceof RangeError)
      throw new SchemaCompileError(
        owner,
        'compiling it overflowed the stack: it nests subschemas thousands of levels deep, or refers to itself without entering a property or item. ' +
          'Flatten it (move repeated parts into $defs and refer to them), and make every $ref, $dynamicRef or allOf/anyOf/oneOf/not/if chain that leads back to a schema on it pass through properties, items or another keyword that descends into the value',
        { cause: error },
      );
    throw new SchemaCompileError(owner, (error as Error).message, { cause: error });
  }
}

function metaSchemaErrorsByAjv(schema: object): string | undefined {
  metaAjv ??= createAjv({});
  return metaAjv.validateSchema(schema) ? undefined : metaAjv.errorsText(metaAjv.errors, { dataVar: 'schema' });
}

/** The interpreter's own uniqueItems numbering and linear-time patterns, as each Ajv here has them. */
const INTERPRETER_OPTIONS = { regExp: linearRegExpForAjv, findRepeatedItems: (items: readonly unknown[]) => findRepeatedItems(items) };

/** Checks schemas against the meta-schemas by interpretation, one per meta-schema `$id`; they never hold a tool's schema. */
const metaInterpreters = new Map<string, InterpretedValidateFunction>();

/**
 * The meta-schema check without code generation, as Ajv's `validateSchema` does it: against the meta-schema the
 * schema's `$schema` names (2020-12 by default; one Ajv does not hold is an error), its errors worded as Ajv's `errorsText` words them.
 */
function metaSchemaErrorsByInterpreter(schema: object): string | undefined {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && typeof declared !== 'string') throw new Error('$schema must be a string');
  const id = (declared ?? 'https://json-schema.org/draft/2020-12/schema').replace(/#$/, '');
  let validate = metaInterpreters.get(id);
  if (validate === undefined) {
    const meta = ajvMetaSchema(id);
    if (meta === undefined) throw new Error(`no schema with key or ref "${declared}"`);
    validate = interpretSchema(meta, { ...INTERPRETER_OPTIONS, dynamicRef: true, formats: false });
    metaInterpreters.set(id, validate);
  }
  if (validate(schema)) return undefined;
  return (validate.errors ?? []).map((error) => `schema${error.instancePath} ${error.message ?? 'is invalid'}`).join(', ');
}

/** The schema's JSON text, or `undefined` when it has none (a cycle, a BigInt): such a schema is compiled every time. */
function schemaText(schema: object): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

/** Where the refused pattern sits: in a subschema where it is a keyword, else anywhere Ajv could have reached it through `$ref`. */
function locatePattern(schema: JsonSchema, pattern: string, rootPointer: string): string | undefined {
  const site = listSchemaPatterns(schema, rootPointer).find((candidate) => candidate.pattern === pattern);
  if (site) return site.pointer;
  const seen = new Set<unknown>();
  const search = (node: unknown, pointer: string): string | undefined => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return undefined;
    seen.add(node);
    if (isPlainObject(node)) {
      if (node.pattern === pattern) return `${pointer}/pattern`;
      if (isPlainObject(node.patternProperties) && Object.hasOwn(node.patternProperties, pattern))
        return `${pointer}/patternProperties/${escapePointer(pattern)}`;
    }
    for (const [key, child] of Object.entries(node)) {
      const found = search(child, `${pointer}/${escapePointer(key)}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return search(schema, rootPointer);
}
