/**
 * A JSON Schema (draft 2020-12) validator that interprets the schema instead of generating code, for runtimes that
 * forbid `new Function` (Cloudflare Workers, Vercel's edge runtime, a page under a CSP without `unsafe-eval`).
 *
 * Its target is not the specification but Ajv as toolwright configures it (`schema-validator.ts`), because the
 * registry and the token mask both follow Ajv: the same keyword order, the same evaluated-properties and
 * evaluated-items bookkeeping (`contains` marks every item evaluated; what `if` evaluated counts only with the clause
 * that ran and passed, an `else` beside a `then` excepted), the same `nullable`, the same formats (ajv-formats' own
 * definitions), the same equality, the same code-point string lengths, and errors in Ajv's shape (keyword, params,
 * schemaPath, verbose data), so that `issuesFromAjv` turns them into the same recovery texts for the model. Patterns
 * run through toolwright's linear-time engine as in Ajv. Where Ajv departs from the specification in ways not
 * reproduced here (`$dynamicRef`, `$recursiveRef`, `$id` beside a `"#…"` `$ref` in a subschema, `unevaluatedItems` beside
 * `anyOf`/`oneOf`/`if`), the schema is refused at definition ({@link InterpreterRefusal}).
 * `bench/validators/run.ts` measures the agreement on JSON-Schema-Test-Suite and a JSONSchemaBench sample;
 * `src/tools/schema-interpreter.test.ts` pins it.
 * @module
 */
import type { ErrorObject } from 'ajv';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { DEFAULT_BASE, SchemaRegistry, type SchemaPlace } from '../shared/json-schema/schema-registry.js';
import { walkSubschemas } from '../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../shared/own.js';
import type { LinearRegExp } from '../shared/regex/linear-regexp.js';
import {
  ajvMetaSchemas,
  alwaysValid,
  ARRAY_KEYWORDS,
  deepEqual,
  FORMAT_LIMITS,
  formatCheck,
  formatDefinition,
  hasDataType,
  LIMIT_COMPARISON,
  NUMBER_KEYWORDS,
  OBJECT_KEYWORDS,
  REFUSED_KEYWORDS,
  refuseAmbiguousIds,
  RULES,
  schemaTypes,
  STRING_KEYWORDS,
  unwrap,
} from './ajv-vocabulary.js';

const ucs2length = unwrap(ucs2lengthModule) as unknown as (text: string) => number;

/** The validate function's shape, as Ajv's: a verdict, and the errors of the last call. */
export interface InterpretedValidateFunction {
  (value: unknown): boolean;
  errors: ErrorObject[] | null;
}

export interface InterpretSchemaOptions {
  /** Compiles a `pattern` or `patternProperties` key; throws to refuse it (the caller's linear-time engine). */
  regExp(pattern: string, flags: string): LinearRegExp;
  /** Where an array's items repeat, as Ajv's pairwise `uniqueItems` loop reports it; undefined when all differ. */
  findRepeatedItems(items: readonly unknown[]): { i: number; j: number } | undefined;
  /** Asserts `format` (default true); Ajv's meta-schema check asserts none, so the meta-schema interpreters turn it off. */
  formats?: boolean;
  /** Evaluates `$dynamicRef` by the specification (for the meta-schemas, which use it the way Ajv reads it too); otherwise it is refused. */
  dynamicRef?: boolean;
}

/** A schema the interpreter will not check because Ajv would judge it differently; the caller turns it into a SchemaCompileError. */
export class InterpreterRefusal extends Error {
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`the validator without code generation (used where new Function is unavailable) cannot check ${reason} (at ${pointer || '/'})`);
  }
}

/** What a subschema evaluated, for `unevaluatedProperties` and `unevaluatedItems`: Ajv's bookkeeping, not the specification's. */
interface Evaluated {
  props: Set<string> | true;
  /** How many leading items were evaluated, or all of them. */
  items: number | true;
}

function appendPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const GROUP_TYPES = ['number', 'string', 'array', 'object'] as const;

interface NodePlan {
  readonly types: string[];
  readonly groups: (typeof GROUP_TYPES)[number][];
  readonly singleTypeGroup: boolean;
  readonly onlyRef: boolean;
}

/** Shared by every subschema when nothing reads what was evaluated: "everything" already, so merging into it changes nothing. */
const EVALUATES_NOTHING_TRACKED: Evaluated = { props: true, items: true };

/** A schema place met while validating: the schema, its base URI, and the resources entered on the way (the dynamic scope). */
interface Scope {
  readonly base: string;
  readonly dynamic: readonly string[];
}

class Interpreter {
  private readonly registry: SchemaRegistry;
  private readonly patterns = new Map<string, LinearRegExp>();
  private readonly nodeTypes = new Map<object, string[]>();
  private readonly plans = new Map<object, NodePlan>();
  /** Whether any schema here has `unevaluatedProperties` or `unevaluatedItems`, the only readers of what was evaluated. */
  private tracksEvaluation = false;
  /**
   * Resolutions by base and reference, so that validation resolves nothing twice, and a stack overflow deep in a value
   * surfaces as the RangeError it is, not as an unresolvable reference (URL parsing inside the resolver swallows errors).
   */
  private readonly resolutions = new Map<string, { schema: unknown; place: SchemaPlace } | undefined>();
  errors: ErrorObject[] = [];

  constructor(
    private readonly root: unknown,
    private readonly options: InterpretSchemaOptions,
  ) {
    this.registry = new SchemaRegistry(root, ajvMetaSchemas());
    this.prepare();
  }

  /**
   * What Ajv does at compile time: every pattern compiled, every `$ref` resolved, `nullable`, `enum` and the `id`
   * keyword checked; throws where Ajv's compile throws. Then the constructs where Ajv's evaluation departs from the
   * specification in ways this interpreter does not reproduce are refused ({@link InterpreterRefusal}), so that no
   * schema gets a different verdict from the two validators.
   */
  private prepare(): void {
    refuseAmbiguousIds(this.root);
    // every subschema, and every schema a $ref reaches outside them (under an unknown keyword, say), as Ajv compiles those too
    const seen = new Set<object>();
    const pending: { schema: unknown; pointer: string }[] = [{ schema: this.root, pointer: '' }];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) this.prepareFrom(next.schema, next.pointer, seen, pending);
  }

  private prepareFrom(start: unknown, startPointer: string, seen: Set<object>, pending: { schema: unknown; pointer: string }[]): void {
    walkSubschemas(
      start,
      ({ schema, pointer }) => {
        if (schema.unevaluatedProperties !== undefined || schema.unevaluatedItems !== undefined) this.tracksEvaluation = true;
        this.nodeTypes.set(schema, schemaTypes(schema));
        if (schema.id !== undefined) throw new Error('NOT SUPPORTED: keyword "id", use "$id" for schema ID');
        if (Array.isArray(schema.enum) && schema.enum.length === 0) throw new Error('enum must have non-empty array');
        // keywords the meta-schema does not describe, checked as Ajv checks their definitions
        if (schema.nullable !== undefined && typeof schema.nullable !== 'boolean') throw new Error('nullable value must be ["boolean"]');
        for (const keyword of Object.keys(FORMAT_LIMITS)) {
          if (schema[keyword] === undefined) continue;
          if (schema.format === undefined) throw new Error(`parent schema must have dependencies of ${keyword}: format`);
          if (typeof schema[keyword] !== 'string') throw new Error(`${keyword} value must be ["string"]`);
          const definition = formatDefinition(schema.format);
          if (definition === undefined || definition === true) continue;
          if (typeof definition !== 'object' || definition instanceof RegExp || typeof definition.compare !== 'function')
            throw new Error(`"${keyword}": format "${String(schema.format)}" does not define "compare" function`);
        }
        if (typeof schema.pattern === 'string') this.pattern(schema.pattern);
        if (isPlainObject(schema.patternProperties)) for (const key of Object.keys(schema.patternProperties)) this.pattern(key);
        const place = this.registry.placeOf(schema);
        for (const keyword of ['$ref', '$dynamicRef'] as const) {
          const reference = schema[keyword];
          if (typeof reference !== 'string') continue;
          const target = this.resolve(reference, place?.base ?? DEFAULT_BASE);
          if (target === undefined) throw new Error(`can't resolve reference ${reference} from id ${place?.base ?? ''}`);
          // Ajv's own meta-schemas are not the tool's: their $dynamicRef is evaluated as Ajv reads it, and nothing in them is refused
          const isMetaSchema = Object.hasOwn(ajvMetaSchemas(), target.place.base);
          if (isPlainObject(target.schema) && !seen.has(target.schema) && !isMetaSchema) pending.push({ schema: target.schema, pointer: target.place.pointer });
        }
        const refused = REFUSED_KEYWORDS.find((keyword) => schema[keyword] !== undefined);
        if (refused !== undefined)
          throw new InterpreterRefusal(
            pointer,
            `${refused}: draft 2019-09's recursive references are not implemented by the interpreter. Use $ref to a $defs entry instead`,
          );
        if (this.options.dynamicRef !== true && (schema.$dynamicRef !== undefined || schema.$dynamicAnchor !== undefined))
          throw new InterpreterRefusal(
            pointer,
            `${schema.$dynamicRef !== undefined ? '$dynamicRef' : '$dynamicAnchor'}: Ajv resolves dynamic references its own way (only "#name" fragments, and not always to the outermost anchor), which the interpreter does not reproduce. Use $ref to a $defs entry instead`,
          );
        // a fragment-only $ref beside a subschema's own $id is where Ajv misresolves (JSON-Schema-Test-Suite ref.json #15, #28)
        const fragmentReference = typeof schema.$ref === 'string' && schema.$ref.startsWith('#');
        if (schema !== this.root && typeof schema.$id === 'string' && !schema.$id.startsWith('#') && fragmentReference)
          throw new InterpreterRefusal(
            pointer,
            'a subschema with both $id and a "#…" $ref: Ajv resolves that $ref in a way the interpreter does not reproduce (its compile overflows the stack on some). Move the $ref into allOf: [{ "$ref": … }]',
          );
        if (schema.unevaluatedItems !== undefined && (schema.anyOf !== undefined || schema.oneOf !== undefined || schema.if !== undefined))
          throw new InterpreterRefusal(
            pointer,
            'unevaluatedItems beside anyOf, oneOf or if: Ajv counts the items those evaluate in a way the interpreter does not reproduce. Declare the items with prefixItems and items instead',
          );
      },
      { rootPointer: startPointer, seen },
    );
  }

  private resolve(reference: string, base: string) {
    const key = `${base}\n${reference}`;
    if (this.resolutions.has(key)) return this.resolutions.get(key);
    const resolved = this.registry.resolve(reference, base);
    this.resolutions.set(key, resolved);
    return resolved;
  }

  private pattern(source: string): LinearRegExp {
    let compiled = this.patterns.get(source);
    if (compiled === undefined) this.patterns.set(source, (compiled = this.options.regExp(source, 'u')));
    return compiled;
  }

  run(value: unknown): boolean {
    this.errors = [];
    const place = this.registry.placeOf(this.root);
    const base = place?.base ?? DEFAULT_BASE;
    return this.validate(this.root, value, '', '#', { base, dynamic: [base] }, this.fresh());
  }

  private fail(
    keyword: string,
    params: Record<string, unknown>,
    message: string,
    schema: unknown,
    parent: unknown,
    data: unknown,
    at: string,
    schemaPath: string,
  ) {
    this.errors.push({ instancePath: at, schemaPath, keyword, params, message, schema, parentSchema: parent as never, data });
  }

  /** Validates `data` against `schema`, adding what it evaluated to `evaluated`. */
  private validate(schema: unknown, data: unknown, at: string, schemaPath: string, scope: Scope, evaluated: Evaluated): boolean {
    if (schema === true) return true;
    if (schema === false) {
      this.fail('false schema', {}, 'boolean schema is false', false, false, data, at, schemaPath);
      return false;
    }
    if (!isPlainObject(schema)) return true;
    const place = this.registry.placeOf(schema);
    if (place !== undefined && place.base !== scope.base) scope = { base: place.base, dynamic: [...scope.dynamic, place.base] };
    const start = this.errors.length;
    const plan = this.planOf(schema);
    const types = plan.types;
    if (types.length > 0 && !plan.singleTypeGroup && !types.some((type) => hasDataType(type, data)))
      this.fail('type', { type: types.join(',') }, `must be ${types.join(',')}`, schema.type, schema, data, at, `${schemaPath}/type`);
    if (plan.onlyRef) {
      this.reference(schema, '$ref', data, at, schemaPath, scope, evaluated);
      return this.errors.length === start;
    }
    this.groupZero(schema, data, at, schemaPath, scope, evaluated);
    for (const type of plan.groups) {
      if (hasDataType(type, data)) {
        if (type === 'number') this.numberKeywords(schema, data as number, at, schemaPath);
        else if (type === 'string') this.stringKeywords(schema, data as string, at, schemaPath);
        else if (type === 'array') this.arrayKeywords(schema, data as unknown[], at, schemaPath, scope, evaluated);
        else this.objectKeywords(schema, data as Record<string, unknown>, at, schemaPath, scope, evaluated);
      } else if (plan.singleTypeGroup && types[0] === type) {
        this.fail('type', { type }, `must be ${type}`, schema.type, schema, data, at, `${schemaPath}/type`);
      }
    }
    return this.errors.length === start;
  }

  /** What a schema object needs, worked out once: its types, which keyword groups it uses, whether the type error waits for its group. */
  private planOf(schema: Record<string, unknown>): NodePlan {
    let plan = this.plans.get(schema);
    if (plan !== undefined) return plan;
    const types = this.nodeTypes.get(schema) ?? schemaTypes(schema);
    const groups = GROUP_TYPES.filter((type) => this.hasRulesFor(schema, type));
    plan = {
      types,
      groups,
      singleTypeGroup: types.length === 1 && (groups as string[]).includes(types[0]!),
      onlyRef: typeof schema.$ref === 'string' && !Object.keys(schema).some((key) => key !== '$ref' && RULES.has(key)),
    };
    this.plans.set(schema, plan);
    return plan;
  }

  /** A new record of what a subschema evaluates, or, for a schema with no `unevaluated*` anywhere, one shared record that records nothing. */
  private fresh(): Evaluated {
    return this.tracksEvaluation ? { props: new Set(), items: 0 } : EVALUATES_NOTHING_TRACKED;
  }

  private hasRulesFor(schema: Record<string, unknown>, type: string): boolean {
    const keywords = type === 'number' ? NUMBER_KEYWORDS : type === 'string' ? STRING_KEYWORDS : type === 'array' ? ARRAY_KEYWORDS : OBJECT_KEYWORDS;
    return keywords.some((keyword) => schema[keyword] !== undefined);
  }

  /** A subschema validated with its errors dropped afterwards (`not`, `if`, a failed alternative that the keyword sums up). */
  private quietly<T>(run: () => T): T {
    const mark = this.errors.length;
    try {
      return run();
    } finally {
      this.errors.length = mark;
    }
  }

  private reference(
    schema: Record<string, unknown>,
    keyword: '$ref' | '$dynamicRef',
    data: unknown,
    at: string,
    schemaPath: string,
    scope: Scope,
    evaluated: Evaluated,
  ) {
    const reference = schema[keyword] as string;
    const resolved = this.resolve(reference, scope.base);
    if (resolved === undefined) throw new Error(`can't resolve reference ${reference} from id ${scope.base}`);
    let target = resolved;
    if (keyword === '$dynamicRef') target = this.dynamicTarget(reference, resolved, scope) ?? resolved;
    const inner: Evaluated = this.fresh();
    const targetPath = reference.startsWith('#') ? reference : `${schemaPath}/${keyword}`;
    const entered: Scope = {
      base: target.place.base,
      dynamic: scope.dynamic.includes(target.place.base) ? scope.dynamic : [...scope.dynamic, target.place.base],
    };
    const valid = this.validate(target.schema, data, at, targetPath, entered, inner);
    mergeEvaluated(evaluated, inner);
    return valid;
  }

  /** `$dynamicRef`: when the statically resolved schema has the named `$dynamicAnchor`, the outermost resource in the dynamic scope that has one too. */
  private dynamicTarget(reference: string, resolved: { schema: unknown; place: SchemaPlace }, scope: Scope) {
    const hash = reference.indexOf('#');
    const anchor = hash >= 0 ? reference.slice(hash + 1) : '';
    if (anchor === '' || anchor.startsWith('/') || !isPlainObject(resolved.schema) || resolved.schema.$dynamicAnchor !== anchor) return undefined;
    for (const resource of scope.dynamic) {
      const candidate = this.resolve(`#${anchor}`, resource);
      if (candidate !== undefined && isPlainObject(candidate.schema) && candidate.schema.$dynamicAnchor === anchor) return candidate;
    }
    return undefined;
  }

  private groupZero(schema: Record<string, unknown>, data: unknown, at: string, path: string, scope: Scope, evaluated: Evaluated) {
    if (typeof schema.$dynamicRef === 'string') this.reference(schema, '$dynamicRef', data, at, path, scope, evaluated);
    if (typeof schema.$ref === 'string') this.reference(schema, '$ref', data, at, path, scope, evaluated);
    if (schema.const !== undefined && !deepEqual(data, schema.const))
      this.fail('const', { allowedValue: schema.const }, 'must be equal to constant', schema.const, schema, data, at, `${path}/const`);
    if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => deepEqual(data, allowed)))
      this.fail('enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values', schema.enum, schema, data, at, `${path}/enum`);
    if (schema.not !== undefined) {
      // Ajv fails `not` over an always-valid schema without evaluating it
      const matches = alwaysValid(schema.not) || this.quietly(() => this.validate(schema.not, data, at, `${path}/not`, scope, this.fresh()));
      if (matches) this.fail('not', {}, 'must NOT be valid', schema.not, schema, data, at, `${path}/not`);
    }
    if (Array.isArray(schema.anyOf)) this.anyOf(schema, data, at, path, scope, evaluated);
    if (Array.isArray(schema.oneOf)) this.oneOf(schema, data, at, path, scope, evaluated);
    if (Array.isArray(schema.allOf))
      schema.allOf.forEach((branch, index) => {
        const inner: Evaluated = this.fresh();
        this.validate(branch, data, at, `${path}/allOf/${index}`, scope, inner);
        mergeEvaluated(evaluated, inner);
      });
    if (schema.if !== undefined) this.ifThenElse(schema, data, at, path, scope, evaluated);
  }

  private anyOf(schema: Record<string, unknown>, data: unknown, at: string, path: string, scope: Scope, evaluated: Evaluated) {
    const branches = schema.anyOf as unknown[];
    const mark = this.errors.length;
    let valid = false;
    for (let index = 0; index < branches.length; index++) {
      const inner: Evaluated = this.fresh();
      if (this.validate(branches[index], data, at, `${path}/anyOf/${index}`, scope, inner)) {
        valid = true;
        mergeEvaluated(evaluated, inner);
        // as Ajv: the first passing branch settles it, unless what the others evaluate counts too
        if (!this.tracksEvaluation) break;
      }
    }
    if (valid) this.errors.length = mark;
    else this.fail('anyOf', {}, 'must match a schema in anyOf', branches, schema, data, at, `${path}/anyOf`);
  }

  private oneOf(schema: Record<string, unknown>, data: unknown, at: string, path: string, scope: Scope, evaluated: Evaluated) {
    const branches = schema.oneOf as unknown[];
    const mark = this.errors.length;
    let passing: number | [number, number] | null = null;
    let valid = false;
    for (let index = 0; index < branches.length; index++) {
      const inner: Evaluated = this.fresh();
      const branchValid = this.validate(branches[index], data, at, `${path}/oneOf/${index}`, scope, inner);
      if (!branchValid) continue;
      if (valid) {
        valid = false;
        passing = [passing as number, index];
        break;
      }
      valid = true;
      passing = index;
      mergeEvaluated(evaluated, inner);
    }
    if (valid) this.errors.length = mark;
    else this.fail('oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf', branches, schema, data, at, `${path}/oneOf`);
  }

  private ifThenElse(schema: Record<string, unknown>, data: unknown, at: string, path: string, scope: Scope, evaluated: Evaluated) {
    const hasThen = schema.then !== undefined && !alwaysValid(schema.then);
    const hasElse = schema.else !== undefined && !alwaysValid(schema.else);
    if (!hasThen && !hasElse) return;
    const ifEvaluated: Evaluated = this.fresh();
    const condition = this.quietly(() => this.validate(schema.if, data, at, `${path}/if`, scope, ifEvaluated));
    const clause = condition ? 'then' : 'else';
    if ((clause === 'then' && !hasThen) || (clause === 'else' && !hasElse)) return;
    const clauseEvaluated: Evaluated = this.fresh();
    if (this.validate(schema[clause], data, at, `${path}/${clause}`, scope, clauseEvaluated)) {
      // what `if` evaluated counts, in Ajv, with the clause that ran and passed, except an `else` beside a `then`
      if (clause === 'then' || !hasThen) mergeEvaluated(evaluated, ifEvaluated);
      mergeEvaluated(evaluated, clauseEvaluated);
    } else this.fail('if', { failingKeyword: clause }, `must match "${clause}" schema`, schema.if, schema, data, at, `${path}/if`);
  }

  private numberKeywords(schema: Record<string, unknown>, data: number, at: string, path: string) {
    for (const keyword of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      const comparison = LIMIT_COMPARISON[keyword]!;
      const ok = comparison === '<=' ? data <= limit : comparison === '>=' ? data >= limit : comparison === '<' ? data < limit : data > limit;
      if (!ok) this.fail(keyword, { comparison, limit }, `must be ${comparison} ${limit}`, limit, schema, data, at, `${path}/${keyword}`);
    }
    const divisor = schema.multipleOf;
    if (typeof divisor === 'number') {
      const ratio = data / divisor;
      if (divisor === 0 || ratio !== parseInt(String(ratio)))
        this.fail('multipleOf', { multipleOf: divisor }, `must be multiple of ${divisor}`, divisor, schema, data, at, `${path}/multipleOf`);
    }
    this.format(schema, data, 'number', at, path);
  }

  private stringKeywords(schema: Record<string, unknown>, data: string, at: string, path: string) {
    for (const keyword of ['maxLength', 'minLength'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      const length = ucs2length(data);
      if (keyword === 'maxLength' ? length > limit : length < limit)
        this.fail(
          keyword,
          { limit },
          `must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${limit} characters`,
          limit,
          schema,
          data,
          at,
          `${path}/${keyword}`,
        );
    }
    if (typeof schema.pattern === 'string' && !this.pattern(schema.pattern).test(data))
      this.fail('pattern', { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`, schema.pattern, schema, data, at, `${path}/pattern`);
    this.format(schema, data, 'string', at, path);
    if (this.options.formats === false) return;
    for (const [keyword, limit] of Object.entries(FORMAT_LIMITS)) {
      if (schema[keyword] === undefined) continue;
      const definition = formatDefinition(schema.format);
      if (definition === undefined || definition === true || typeof definition !== 'object' || definition instanceof RegExp || !definition.compare) continue;
      const order = definition.compare(data, schema[keyword] as string);
      if (order !== undefined && limit.fails(order))
        this.fail(
          keyword,
          { comparison: limit.comparison, limit: schema[keyword] },
          `should be ${limit.comparison} ${String(schema[keyword])}`,
          schema[keyword],
          schema,
          data,
          at,
          `${path}/${keyword}`,
        );
    }
  }

  private format(schema: Record<string, unknown>, data: string | number, type: 'string' | 'number', at: string, path: string) {
    if (typeof schema.format !== 'string' || this.options.formats === false) return;
    const format = formatCheck(formatDefinition(schema.format));
    // an unknown format constrains nothing (Ajv with strict: false)
    if (format === undefined || format.type !== type) return;
    if (!format.check(data))
      this.fail('format', { format: schema.format }, `must match format "${schema.format}"`, schema.format, schema, data, at, `${path}/format`);
  }

  private arrayKeywords(schema: Record<string, unknown>, data: unknown[], at: string, path: string, scope: Scope, evaluated: Evaluated) {
    for (const keyword of ['maxItems', 'minItems'] as const) {
      const limit = schema[keyword];
      if (typeof limit === 'number' && (keyword === 'maxItems' ? data.length > limit : data.length < limit))
        this.fail(
          keyword,
          { limit },
          `must NOT have ${keyword === 'maxItems' ? 'more' : 'fewer'} than ${limit} items`,
          limit,
          schema,
          data,
          at,
          `${path}/${keyword}`,
        );
    }
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]) : [];
    prefix.forEach((item, index) => {
      if (index < data.length) this.validate(item, data[index], appendPointer(at, index), `${path}/prefixItems/${index}`, scope, this.fresh());
    });
    if (prefix.length > 0 && evaluated.items !== true) evaluated.items = Math.max(evaluated.items, prefix.length);
    if (schema.items !== undefined) {
      evaluated.items = true;
      if (schema.items === false && prefix.length > 0) {
        if (data.length > prefix.length)
          this.fail('items', { limit: prefix.length }, `must NOT have more than ${prefix.length} items`, false, schema, data, at, `${path}/items`);
      } else if (!alwaysValid(schema.items)) {
        for (let index = prefix.length; index < data.length; index++)
          this.validate(schema.items, data[index], appendPointer(at, index), `${path}/items`, scope, this.fresh());
      }
    }
    if (schema.contains !== undefined) this.contains(schema, data, at, path, scope, evaluated);
    if (schema.uniqueItems === true && data.length > 1) {
      const repeated = this.options.findRepeatedItems(data);
      if (repeated)
        this.fail(
          'uniqueItems',
          repeated,
          `must NOT have duplicate items (items ## ${repeated.j} and ${repeated.i} are identical)`,
          true,
          schema,
          data,
          at,
          `${path}/uniqueItems`,
        );
    }
    if (schema.unevaluatedItems !== undefined && evaluated.items !== true) {
      const from = evaluated.items;
      if (schema.unevaluatedItems === false) {
        if (data.length > from)
          this.fail('unevaluatedItems', { len: from }, `must NOT have more than ${from} items`, false, schema, data, at, `${path}/unevaluatedItems`);
      } else if (!alwaysValid(schema.unevaluatedItems)) {
        for (let index = from; index < data.length; index++)
          this.validate(schema.unevaluatedItems, data[index], appendPointer(at, index), `${path}/unevaluatedItems`, scope, this.fresh());
      }
      evaluated.items = true;
    }
  }

  /** Ajv's `contains` with `minContains`/`maxContains`: a failed one keeps its items' errors, and a non-trivial one marks every item evaluated. */
  private contains(schema: Record<string, unknown>, data: unknown[], at: string, path: string, scope: Scope, evaluated: Evaluated) {
    const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
    const max = typeof schema.maxContains === 'number' ? schema.maxContains : undefined;
    const params = { min, max };
    const message = max === undefined ? `must contain at least ${min} valid item(s)` : `must contain at least ${min} and no more than ${max} valid item(s)`;
    const report = () => this.fail('contains', params, message, schema.contains, schema, data, at, `${path}/contains`);
    if (max === undefined && min === 0) return;
    if (max !== undefined && min > max) return report();
    if (alwaysValid(schema.contains)) {
      if (!(data.length >= min && (max === undefined || data.length <= max))) report();
      return;
    }
    evaluated.items = true;
    const mark = this.errors.length;
    let valid = min === 0;
    if (!(min === 0 && data.length === 0)) {
      let count = 0;
      for (let index = 0; index < data.length; index++) {
        if (!this.validate(schema.contains, data[index], appendPointer(at, index), `${path}/contains`, scope, this.fresh())) continue;
        count++;
        if (max === undefined) {
          if (count >= min) {
            valid = true;
            break;
          }
        } else {
          if (count > max) {
            valid = false;
            break;
          }
          if (count >= min) valid = true;
        }
      }
    }
    if (valid) this.errors.length = mark;
    else report();
  }

  private objectKeywords(schema: Record<string, unknown>, data: Record<string, unknown>, at: string, path: string, scope: Scope, evaluated: Evaluated) {
    const count = Object.keys(data).length;
    for (const keyword of ['maxProperties', 'minProperties'] as const) {
      const limit = schema[keyword];
      if (typeof limit === 'number' && (keyword === 'maxProperties' ? count > limit : count < limit))
        this.fail(
          keyword,
          { limit },
          `must NOT have ${keyword === 'maxProperties' ? 'more' : 'fewer'} than ${limit} properties`,
          limit,
          schema,
          data,
          at,
          `${path}/${keyword}`,
        );
    }
    // Ajv tests presence as `data[name] !== undefined`, which an inherited name such as "constructor" passes
    const present = (name: string) => (data as Record<string, unknown>)[name] !== undefined;
    if (Array.isArray(schema.required))
      for (const name of schema.required as string[])
        if (!present(name))
          this.fail('required', { missingProperty: name }, `must have required property '${name}'`, schema.required, schema, data, at, `${path}/required`);
    if (schema.propertyNames !== undefined && !alwaysValid(schema.propertyNames)) {
      for (const key in data) {
        const valid = this.validate(schema.propertyNames, key, at, `${path}/propertyNames`, scope, this.fresh());
        if (!valid)
          this.fail('propertyNames', { propertyName: key }, 'property name must be valid', schema.propertyNames, schema, data, at, `${path}/propertyNames`);
      }
    }
    const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
    const patternKeys = isPlainObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
    if (schema.additionalProperties !== undefined) {
      for (const key in data) {
        if (properties && Object.hasOwn(properties, key)) continue;
        if (patternKeys.some((pattern) => this.pattern(pattern).test(key))) continue;
        if (schema.additionalProperties === false)
          this.fail(
            'additionalProperties',
            { additionalProperty: key },
            'must NOT have additional properties',
            false,
            schema,
            data,
            at,
            `${path}/additionalProperties`,
          );
        else if (!alwaysValid(schema.additionalProperties))
          this.validate(schema.additionalProperties, data[key], appendPointer(at, key), `${path}/additionalProperties`, scope, this.fresh());
      }
    }
    if (isPlainObject(schema.dependencies)) this.dependencies(schema, schema.dependencies, 'dependencies', data, at, path, scope, evaluated, present, 'both');
    if (properties) {
      for (const [name, subschema] of Object.entries(properties)) {
        if (alwaysValid(subschema) || !present(name)) continue;
        this.validate(subschema, data[name], appendPointer(at, name), `${path}/properties/${escapeSegment(name)}`, scope, this.fresh());
      }
    }
    for (const pattern of patternKeys) {
      const subschema = (schema.patternProperties as Record<string, unknown>)[pattern];
      for (const key in data) {
        if (!this.pattern(pattern).test(key)) continue;
        if (evaluated.props !== true) evaluated.props.add(key);
        if (!alwaysValid(subschema))
          this.validate(subschema, data[key], appendPointer(at, key), `${path}/patternProperties/${escapeSegment(pattern)}`, scope, {
            props: new Set(),
            items: 0,
          });
      }
    }
    if (properties && evaluated.props !== true) for (const name of Object.keys(properties)) evaluated.props.add(name);
    if (schema.additionalProperties !== undefined) evaluated.props = true;
    if (isPlainObject(schema.dependentRequired))
      this.dependencies(schema, schema.dependentRequired, 'dependentRequired', data, at, path, scope, evaluated, present, 'names');
    if (isPlainObject(schema.dependentSchemas))
      this.dependencies(schema, schema.dependentSchemas, 'dependentSchemas', data, at, path, scope, evaluated, present, 'schemas');
    if (schema.unevaluatedProperties !== undefined && evaluated.props !== true) {
      const seen = evaluated.props;
      for (const key in data) {
        if (seen.has(key)) continue;
        if (schema.unevaluatedProperties === false)
          this.fail(
            'unevaluatedProperties',
            { unevaluatedProperty: key },
            'must NOT have unevaluated properties',
            false,
            schema,
            data,
            at,
            `${path}/unevaluatedProperties`,
          );
        else if (!alwaysValid(schema.unevaluatedProperties))
          this.validate(schema.unevaluatedProperties, data[key], appendPointer(at, key), `${path}/unevaluatedProperties`, scope, {
            props: new Set(),
            items: 0,
          });
      }
      evaluated.props = true;
    }
  }

  private dependencies(
    schema: Record<string, unknown>,
    table: Record<string, unknown>,
    keyword: string,
    data: Record<string, unknown>,
    at: string,
    path: string,
    scope: Scope,
    evaluated: Evaluated,
    present: (name: string) => boolean,
    kinds: 'names' | 'schemas' | 'both',
  ) {
    // Ajv checks the property lists first, then the schemas
    if (kinds !== 'schemas') {
      for (const [property, names] of Object.entries(table)) {
        if (!Array.isArray(names) || names.length === 0 || !present(property)) continue;
        for (const missing of names as string[])
          if (!present(missing))
            this.fail(
              keyword,
              { property, missingProperty: missing, depsCount: names.length, deps: names.join(', ') },
              `must have ${names.length === 1 ? 'property' : 'properties'} ${names.join(', ')} when property ${property} is present`,
              table,
              schema,
              data,
              at,
              `${path}/${keyword}`,
            );
      }
    }
    if (kinds !== 'names') {
      for (const [property, subschema] of Object.entries(table)) {
        if (Array.isArray(subschema) || alwaysValid(subschema) || !present(property)) continue;
        const inner: Evaluated = this.fresh();
        if (this.validate(subschema, data, at, `${path}/${keyword}/${escapeSegment(property)}`, scope, inner)) mergeEvaluated(evaluated, inner);
      }
    }
  }
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function mergeEvaluated(into: Evaluated, from: Evaluated): void {
  if (into.props !== true) {
    if (from.props === true) into.props = true;
    else for (const name of from.props) into.props.add(name);
  }
  if (into.items !== true) into.items = from.items === true ? true : Math.max(into.items, from.items);
}

/**
 * Prepares `schema` for validation by interpretation: resolves every reference and compiles every pattern now, and
 * throws where Ajv's compile would (an unresolvable `$ref`, `nullable` without `type`, a pattern `options.regExp` refuses).
 */
export function interpretSchema(schema: unknown, options: InterpretSchemaOptions): InterpretedValidateFunction {
  const interpreter = new Interpreter(schema, options);
  const validate = ((value: unknown) => {
    const valid = interpreter.run(value);
    validate.errors = valid ? null : interpreter.errors;
    return valid;
  }) as InterpretedValidateFunction;
  validate.errors = null;
  return validate;
}
