/**
 * One schema for every backend: rewrites a tool's JSON Schema (2020-12) into the
 * subset OpenAI accepts with `strict: true`, reports every change as a
 * {@link FormatWarning}, maps the nulls that rewrite invites back to "absent",
 * and lists what each provider would ignore or reject.
 *
 * The rules follow OpenAI's Structured Outputs guide, "Supported schemas"
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
 * also at https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas)
 * and the keyword list the official SDK rejects (`openai@6` `src/lib/transform.ts`,
 * `JSON_SCHEMA_UNSUPPORTED_SCHEMA_KEYWORDS`).
 *
 * Removing a validation keyword only loses enforcement *while decoding*: the
 * registry still validates arguments against the original schema and tells the
 * model what to fix.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { escapePointer } from '../shared/safe-json.js';
import type { JsonSchema, JsonSchemaObject } from '../tools/types.js';
import type { FormatWarning, SchemaProvider } from '../protocol/format-warning.js';

/** The result of {@link toOpenAIStrictSchema}. */
export interface StrictSchemaConversion {
  /** The rewritten schema: every object closed, every property required, optional ones nullable. */
  schema: JsonSchemaObject;
  /** Every change and loss, in the order met. */
  warnings: FormatWarning[];
}

/**
 * OpenAI's documented size limits for a strict schema, from the Structured
 * Outputs guide, "Objects have limitations on nesting depth and size" and the
 * paragraphs after it:
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
export const OPENAI_STRICT_LIMITS = {
  /** Levels of object nesting, the root object counting as one. */
  maxNestingDepth: 10,
  /** Object properties in the whole schema. */
  maxTotalProperties: 5000,
  /** Enum values across all enums. */
  maxTotalEnumValues: 1000,
  /** Characters in all property names, definition names, enum values and const values together. */
  maxTotalStringLength: 120_000,
  /** A string enum with more values than this falls under {@link OPENAI_STRICT_LIMITS.maxLargeEnumStringLength}. */
  largeEnumValueCount: 250,
  /** Characters in the values of one string enum that has more than 250 values. */
  maxLargeEnumStringLength: 15_000,
} as const;

const STRICT: SchemaProvider = 'openai-strict';

/** Keywords that only describe; kept as they are. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/** Constraints the guide lists as supported ("Supported properties"), plus enum and const. */
const KEPT_CONSTRAINTS = new Set(['enum', 'const', 'pattern', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems']);

/** The string formats the guide lists as supported. */
const SUPPORTED_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Handled by the object, array and composition code below rather than copied. */
const STRUCTURAL = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions', '$schema', '$id', 'format', 'default']);

/** Why a keyword is removed, where a specific reason helps more than the generic one. */
const REMOVAL_REASONS: Record<string, string> = {
  minLength: 'strict mode supports only `pattern` and `format` on strings',
  maxLength: 'strict mode supports only `pattern` and `format` on strings',
  uniqueItems: 'strict mode supports only `minItems` and `maxItems` on arrays',
  contains: 'strict mode supports only `minItems` and `maxItems` on arrays',
  minContains: 'strict mode supports only `minItems` and `maxItems` on arrays',
  maxContains: 'strict mode supports only `minItems` and `maxItems` on arrays',
  unevaluatedItems: 'strict mode supports only `minItems` and `maxItems` on arrays',
  prefixItems: 'strict mode has no tuples: arrays take one `items` schema',
  patternProperties: 'strict objects are closed (`additionalProperties: false`), so keys matched by a pattern cannot be sent',
  propertyNames: 'strict objects are closed, so only the declared property names can be sent',
  minProperties: 'every property of a strict object is required, so the count is fixed',
  maxProperties: 'every property of a strict object is required, so the count is fixed',
  unevaluatedProperties: 'strict objects are closed with `additionalProperties: false` instead',
  dependentRequired: 'strict mode does not support conditional requirements',
  dependentSchemas: 'strict mode does not support conditional schemas',
  dependencies: 'strict mode does not support conditional schemas',
  not: 'strict mode does not support `not`',
  if: 'strict mode does not support `if`/`then`/`else`',
  then: 'strict mode does not support `if`/`then`/`else`',
  else: 'strict mode does not support `if`/`then`/`else`',
  contentEncoding: 'strict mode does not support content keywords',
  contentMediaType: 'strict mode does not support content keywords',
  contentSchema: 'strict mode does not support content keywords',
  $anchor: 'strict mode resolves only local `$ref` pointers',
  $dynamicRef: 'strict mode resolves only local `$ref` pointers',
  $dynamicAnchor: 'strict mode resolves only local `$ref` pointers',
  $recursiveRef: 'strict mode resolves only local `$ref` pointers',
  $recursiveAnchor: 'strict mode resolves only local `$ref` pointers',
};

const ENFORCEMENT_NOTE = 'decoding no longer enforces it; the registry still checks the original schema and tells the model when a value breaks it';

function anyScalarSchema(): JsonSchemaObject {
  return { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };
}

function pointer(path: string, ...segments: (string | number)[]): string {
  return path + segments.map((segment) => `/${escapePointer(String(segment))}`).join('');
}

function typeList(schema: JsonSchemaObject): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((entry): entry is string => typeof entry === 'string')) return type;
  return undefined;
}

function hasObjectKeywords(schema: JsonSchemaObject): boolean {
  return ['properties', 'required', 'additionalProperties', 'patternProperties'].some((key) => key in schema);
}

/** Deeper schemas than this (far past OpenAI's own limit) are cut, so a hostile imported schema cannot exhaust the stack. */
const MAX_CONVERT_DEPTH = 128;

class StrictConverter {
  readonly warnings: FormatWarning[] = [];
  #depth = 0;

  warn(type: FormatWarning['type'], feature: string, path: string, details: string): void {
    this.warnings.push({ type, provider: STRICT, feature, path, details });
  }

  convert(node: unknown, path: string): JsonSchema {
    if (this.#depth >= MAX_CONVERT_DEPTH) {
      this.warn('unsupported', 'nesting-depth', path, `the schema nests deeper than ${MAX_CONVERT_DEPTH} levels; this part was replaced by a schema that accepts a string, number, boolean or null`);
      return anyScalarSchema();
    }
    this.#depth++;
    try {
      return this.#convert(node, path);
    } finally {
      this.#depth--;
    }
  }

  #convert(node: unknown, path: string): JsonSchema {
    if (node === true) {
      this.warn('rewritten', 'any', path, 'a schema that accepts anything cannot be strict; it now accepts a string, number, boolean or null, not objects or arrays');
      return anyScalarSchema();
    }
    if (node === false) {
      this.warn('unsupported', 'false-schema', path, 'a `false` schema (nothing is valid) cannot be expressed in strict mode; OpenAI will reject it, so remove that part of the schema');
      return false;
    }
    if (!isPlainObject(node)) {
      this.warn('unsupported', 'invalid-schema', path, `expected a schema object, got ${node === null ? 'null' : typeof node}; replaced by a schema that accepts a string, number, boolean or null`);
      return anyScalarSchema();
    }
    const source = this.#mergeAllOf(node, path);
    const out: JsonSchemaObject = {};

    for (const [key, value] of Object.entries(source)) {
      if (ANNOTATIONS.has(key) || KEPT_CONSTRAINTS.has(key)) {
        out[key] = value;
      } else if (!STRUCTURAL.has(key)) {
        const reason = REMOVAL_REASONS[key] ?? `\`${key}\` is not among the keywords strict mode supports`;
        this.warn('unsupported', key, pointer(path, key), `removed: ${reason}; ${ENFORCEMENT_NOTE}`);
      }
    }

    if ('$schema' in source || '$id' in source) {
      for (const key of ['$schema', '$id'] as const) {
        if (!(key in source)) continue;
        if (path === '') out[key] = source[key];
        else this.warn('unsupported', key, pointer(path, key), `removed: \`${key}\` is allowed only at the root of a strict schema`);
      }
    }
    if ('default' in source) {
      this.warn(
        'unsupported',
        'default',
        pointer(path, 'default'),
        `removed \`default: ${JSON.stringify(source.default)}\`: strict mode rejects \`default\` ("'default' is not permitted"; Azure OpenAI still does) and every property is required anyway; apply the default in the tool when the value is absent`,
      );
    }
    if ('format' in source) {
      const format = source.format;
      if (typeof format === 'string' && SUPPORTED_FORMATS.has(format)) out.format = format;
      else this.warn('unsupported', 'format', pointer(path, 'format'), `removed \`format: ${JSON.stringify(format)}\`: strict mode supports only ${[...SUPPORTED_FORMATS].join(', ')}; ${ENFORCEMENT_NOTE}`);
    }

    let types = typeList(source);
    if ('type' in source) {
      if (types) out.type = source.type;
      else this.warn('unsupported', 'type', pointer(path, 'type'), `removed \`type: ${JSON.stringify(source.type)}\`: it is not a type name or a list of type names`);
    }
    if (types === undefined && hasObjectKeywords(source)) {
      types = ['object'];
      out.type = 'object';
      this.warn('rewritten', 'type', pointer(path, 'type'), 'added `type: "object"`: the schema has object keywords but no type, and strict mode needs one (a non-object value is no longer accepted here)');
    }

    if ('$ref' in source) {
      const ref = source.$ref;
      out.$ref = ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) {
        this.warn('unsupported', '$ref', pointer(path, '$ref'), `\`$ref: ${JSON.stringify(ref)}\` is not a local reference ("#…"); OpenAI cannot fetch it, so inline the schema or move it into $defs`);
      }
    }
    for (const key of ['$defs', 'definitions'] as const) {
      if (!(key in source)) continue;
      const defs = source[key];
      if (!isPlainObject(defs)) {
        this.warn('unsupported', key, pointer(path, key), `removed \`${key}\`: it must be an object of named schemas`);
        continue;
      }
      const converted: Record<string, JsonSchema> = {};
      for (const [name, def] of Object.entries(defs)) setOwn(converted, name, this.convert(def, pointer(path, key, name)));
      out[key] = converted;
    }

    if ('anyOf' in source || 'oneOf' in source) this.#convertUnion(source, out, path);

    if (types?.includes('object')) this.#convertObject(source, out, path);
    else if (hasObjectKeywords(source)) {
      // `type` excludes objects, so these keywords never apply.
      for (const key of ['properties', 'required', 'additionalProperties']) {
        if (key in source) this.warn('rewritten', key, pointer(path, key), `removed \`${key}\`: the type ${JSON.stringify(source.type)} excludes objects, so it never applied`);
      }
    }

    if ('items' in source) {
      const items = source.items;
      if (Array.isArray(items)) {
        this.warn('unsupported', 'items', pointer(path, 'items'), 'removed tuple-form `items` (an array of schemas): strict mode takes one schema for every item');
      } else {
        out.items = this.convert(items, pointer(path, 'items'));
      }
    }
    if (types?.includes('array') && out.items === undefined) {
      out.items = anyScalarSchema();
      this.warn('unsupported', 'items', pointer(path, 'items'), 'the array has no single `items` schema, which strict mode requires; its items now accept a string, number, boolean or null');
    }

    if (out.type === undefined && !('enum' in out) && !('const' in out) && out.anyOf === undefined && out.$ref === undefined) {
      this.warn('rewritten', 'any', path, 'a schema without a type cannot be strict; it now accepts a string, number, boolean or null, not objects or arrays');
      return { ...out, ...anyScalarSchema() };
    }
    return out;
  }

  #convertUnion(source: JsonSchemaObject, out: JsonSchemaObject, path: string): void {
    const branches: unknown[] = [];
    if ('anyOf' in source) {
      if (Array.isArray(source.anyOf)) source.anyOf.forEach((branch, index) => branches.push(this.convert(branch, pointer(path, 'anyOf', index))));
      else this.warn('unsupported', 'anyOf', pointer(path, 'anyOf'), 'removed `anyOf`: it must be an array of schemas');
    }
    if ('oneOf' in source) {
      if (Array.isArray(source.oneOf)) {
        source.oneOf.forEach((branch, index) => branches.push(this.convert(branch, pointer(path, 'oneOf', index))));
        this.warn(
          'rewritten',
          'oneOf',
          pointer(path, 'oneOf'),
          `\`oneOf\` became \`anyOf\`${'anyOf' in source ? ' (joined to the existing `anyOf`)' : ''}: strict mode supports only \`anyOf\`, so a value matching several branches is no longer refused while decoding`,
        );
      } else {
        this.warn('unsupported', 'oneOf', pointer(path, 'oneOf'), 'removed `oneOf`: it must be an array of schemas');
      }
    }
    if (branches.length > 0 || Array.isArray(source.anyOf)) out.anyOf = branches;
  }

  #convertObject(source: JsonSchemaObject, out: JsonSchemaObject, path: string): void {
    const required = new Set<string>();
    if ('required' in source) {
      if (Array.isArray(source.required)) {
        for (const name of source.required) if (typeof name === 'string') required.add(name);
      } else {
        this.warn('unsupported', 'required', pointer(path, 'required'), 'ignored `required`: it must be an array of property names');
      }
    }
    const rawProperties = source.properties;
    if (rawProperties !== undefined && !isPlainObject(rawProperties)) {
      this.warn('unsupported', 'properties', pointer(path, 'properties'), 'ignored `properties`: it must be an object of named schemas');
    }
    const properties: Record<string, JsonSchema> = {};
    const names: string[] = [];
    if (isPlainObject(rawProperties)) {
      for (const [name, schema] of Object.entries(rawProperties)) {
        const at = pointer(path, 'properties', name);
        if (schema === false) {
          this.warn('rewritten', 'false-property', at, `removed property "${name}", whose schema is \`false\`: the closed strict object already forbids it`);
          continue;
        }
        let converted = this.convert(schema, at);
        if (!required.has(name)) {
          if (directlyAcceptsNull(converted)) {
            this.warn('rewritten', 'optional-property', at, `optional property "${name}" is now required (strict mode requires every property); it already accepts null, so the model sends null when it has no value, and that null is kept`);
          } else {
            converted = makeNullable(converted);
            this.warn('rewritten', 'optional-property', at, `optional property "${name}" is now required and nullable (strict mode requires every property); the model sends null for "no value", and restoreOptionalNulls removes that null before validation`);
          }
        }
        setOwn(properties, name, converted);
        names.push(name);
      }
    }
    for (const name of required) {
      if (!names.includes(name) && !(isPlainObject(rawProperties) && Object.hasOwn(rawProperties, name))) {
        this.warn('unsupported', 'required', pointer(path, 'required'), `removed "${name}" from \`required\`: it is not declared in \`properties\`, so the closed strict object cannot carry it; declare it in \`properties\``);
      }
    }

    const additional = source.additionalProperties;
    if (additional === undefined) {
      if (rawProperties === undefined) {
        this.warn('unsupported', 'open-object', path, 'an object without declared properties accepts any keys, which strict mode cannot express; it now accepts only the empty object {}, so declare its properties');
      } else {
        this.warn('rewritten', 'additionalProperties', pointer(path, 'additionalProperties'), 'added `additionalProperties: false` (strict mode requires it): keys that are not declared can no longer be sent');
      }
    } else if (additional !== false) {
      const what = additional === true ? '`additionalProperties: true`' : 'an `additionalProperties` schema';
      this.warn('unsupported', 'additionalProperties', pointer(path, 'additionalProperties'), `${what} makes an open object, which strict mode cannot express; set to false, so only the declared properties (${names.length === 0 ? 'none' : names.join(', ')}) can be sent`);
    }

    out.properties = properties;
    out.required = names;
    out.additionalProperties = false;
  }

  /** Folds `allOf` into its parent when the branches do not conflict; otherwise removes it with a warning. */
  #mergeAllOf(node: JsonSchemaObject, path: string): JsonSchemaObject {
    if (!('allOf' in node)) return node;
    const { allOf, ...rest } = node;
    const at = pointer(path, 'allOf');
    if (!Array.isArray(allOf) || !allOf.every(isPlainObject)) {
      this.warn('unsupported', 'allOf', at, `removed \`allOf\`: strict mode does not support it, and its branches could not be merged into one schema; ${ENFORCEMENT_NOTE}`);
      return rest;
    }
    const merged: JsonSchemaObject = { ...rest };
    for (const branch of allOf) {
      for (const [key, value] of Object.entries(branch)) {
        if (key === 'properties' && isPlainObject(value) && (merged.properties === undefined || isPlainObject(merged.properties))) {
          const target: Record<string, unknown> = { ...(merged.properties as Record<string, unknown> | undefined) };
          for (const [name, schema] of Object.entries(value)) {
            if (Object.hasOwn(target, name) && JSON.stringify(target[name]) !== JSON.stringify(schema)) return this.#allOfConflict(rest, at, `property "${name}"`);
            setOwn(target, name, schema);
          }
          merged.properties = target;
        } else if (key === 'required' && Array.isArray(value) && (merged.required === undefined || Array.isArray(merged.required))) {
          merged.required = [...new Set([...((merged.required as unknown[] | undefined) ?? []), ...value])];
        } else if (ANNOTATIONS.has(key)) {
          if (!(key in merged)) merged[key] = value;
        } else if (key in merged && JSON.stringify(merged[key]) !== JSON.stringify(value)) {
          return this.#allOfConflict(rest, at, `\`${key}\``);
        } else {
          merged[key] = value;
        }
      }
    }
    this.warn('rewritten', 'allOf', at, 'merged the `allOf` branches into one schema (strict mode does not support `allOf`); the accepted values are the same');
    return 'allOf' in merged ? this.#mergeAllOf(merged, path) : merged;
  }

  #allOfConflict(rest: JsonSchemaObject, at: string, what: string): JsonSchemaObject {
    this.warn('unsupported', 'allOf', at, `removed \`allOf\`: strict mode does not support it, and its branches disagree on ${what}, so they cannot be merged; ${ENFORCEMENT_NOTE}`);
    return rest;
  }
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a property named "__proto__" stays a property.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether the schema itself admits null, without following `$ref`. */
function directlyAcceptsNull(schema: JsonSchema): boolean {
  if (typeof schema === 'boolean') return schema;
  const types = typeList(schema);
  if (types && !types.includes('null')) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ('const' in schema && schema.const !== null) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => directlyAcceptsNull(branch as JsonSchema))) return false;
  if (types) return true;
  return Array.isArray(schema.enum) || 'const' in schema || Array.isArray(schema.anyOf);
}

function makeNullable(schema: JsonSchema): JsonSchema {
  if (typeof schema === 'boolean') return schema ? schema : { type: 'null' };
  const types = typeList(schema);
  const hasConst = 'const' in schema;
  if (types && !hasConst && schema.anyOf === undefined && schema.$ref === undefined) {
    const next: JsonSchemaObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) next.enum = [...(schema.enum as unknown[]), null];
    return next;
  }
  if (Array.isArray(schema.anyOf) && Object.keys(schema).every((key) => key === 'anyOf' || ANNOTATIONS.has(key))) {
    return { ...schema, anyOf: [...(schema.anyOf as unknown[]), { type: 'null' }] };
  }
  // Keep the description on the outside, where the model reads it first.
  const inner: JsonSchemaObject = {};
  const outer: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(schema)) (key === 'title' || key === 'description' ? outer : inner)[key] = value;
  return { ...outer, anyOf: [inner, { type: 'null' }] };
}

/**
 * Rewrites a JSON Schema for OpenAI Structured Outputs (`strict: true`): closes
 * every object, lists every property in `required`, makes optional properties
 * nullable, removes keywords strict mode does not support, and reports each
 * change. Never throws; a schema OpenAI would still reject comes back with an
 * `unsupported` warning that says what to change.
 */
export function toOpenAIStrictSchema(schema: JsonSchemaObject): StrictSchemaConversion {
  const converter = new StrictConverter();
  if (!isPlainObject(schema)) {
    converter.warn('unsupported', 'root-type', '', 'the schema is not an object; it became an object without properties');
    return { schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, warnings: converter.warnings };
  }
  const rootTypes = typeList(schema);
  if (rootTypes !== undefined && !(rootTypes.length === 1 && rootTypes[0] === 'object')) {
    converter.warn('unsupported', 'root-type', pointer('', 'type'), `the root schema has type ${JSON.stringify(schema.type)}; OpenAI requires \`type: "object"\` at the root, so wrap the value in an object property`);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (key in schema) converter.warn('unsupported', 'root-union', pointer('', key), `OpenAI rejects \`${key}\` at the root of a function's parameters; make the root one object and move the alternatives into a property`);
  }
  let root = schema;
  if (rootTypes === undefined && !('anyOf' in schema) && !('oneOf' in schema) && !('$ref' in schema)) {
    converter.warn('rewritten', 'type', pointer('', 'type'), 'added `type: "object"` at the root, which OpenAI requires');
    root = { type: 'object', ...schema };
  }
  const converted = converter.convert(root, '');
  if (typeof converted === 'boolean') return { schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, warnings: converter.warnings };
  return { schema: converted, warnings: converter.warnings };
}

// ---------------------------------------------------------------------------
// null → absent on the way back in

const MAX_REF_DEPTH = 32;

interface ObjectView {
  properties: Map<string, unknown>;
  required: Set<string>;
}

function resolveRef(ref: unknown, root: JsonSchemaObject): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isPlainObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/** Whether a schema admits null, following local `$ref`s (JSON Schema semantics: no `type` means any type). */
export function schemaAcceptsNull(schema: unknown, root: JsonSchemaObject, depth = 0): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isPlainObject(schema) || depth > MAX_REF_DEPTH) return true;
  const types = typeList(schema);
  if (types && !types.includes('null')) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ('const' in schema && schema.const !== null) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => schemaAcceptsNull(branch, root, depth + 1))) return false;
  if (Array.isArray(schema.oneOf) && !schema.oneOf.some((branch) => schemaAcceptsNull(branch, root, depth + 1))) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((branch) => schemaAcceptsNull(branch, root, depth + 1))) return false;
  if ('$ref' in schema) {
    const target = resolveRef(schema.$ref, root);
    if (target !== undefined && !schemaAcceptsNull(target, root, depth + 1)) return false;
  }
  return true;
}

/** The properties and required names a schema gives an object value, gathered through `$ref` and `allOf`. */
function objectView(schema: unknown, root: JsonSchemaObject, value: Record<string, unknown>, depth = 0): ObjectView | undefined {
  if (!isPlainObject(schema) || depth > MAX_REF_DEPTH) return undefined;
  const view: ObjectView = { properties: new Map(), required: new Set() };
  let found = false;
  const add = (other: ObjectView | undefined) => {
    if (!other) return;
    found = true;
    for (const [name, sub] of other.properties) if (!view.properties.has(name)) view.properties.set(name, sub);
    for (const name of other.required) view.required.add(name);
  };
  if (isPlainObject(schema.properties)) {
    found = true;
    for (const [name, sub] of Object.entries(schema.properties)) view.properties.set(name, sub);
  }
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (typeof name === 'string') view.required.add(name);
  }
  if ('$ref' in schema) add(objectView(resolveRef(schema.$ref, root), root, value, depth + 1));
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) add(objectView(branch, root, value, depth + 1));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // The branch that declares most of the value's keys is the one the model meant.
    let best: ObjectView | undefined;
    let bestScore = -1;
    for (const branch of branches) {
      const candidate = objectView(branch, root, value, depth + 1);
      if (!candidate) continue;
      const score = Object.keys(value).filter((name) => candidate.properties.has(name)).length;
      if (score > bestScore) [best, bestScore] = [candidate, score];
    }
    add(best);
  }
  return found ? view : undefined;
}

function itemSchemas(schema: unknown, root: JsonSchemaObject, depth = 0): { prefix: unknown[]; items: unknown } | undefined {
  if (!isPlainObject(schema) || depth > MAX_REF_DEPTH) return undefined;
  if ('items' in schema || 'prefixItems' in schema) {
    return { prefix: Array.isArray(schema.prefixItems) ? schema.prefixItems : [], items: Array.isArray(schema.items) ? undefined : schema.items };
  }
  if ('$ref' in schema) return itemSchemas(resolveRef(schema.$ref, root), root, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const found = itemSchemas(branch, root, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function restore(value: unknown, schema: unknown, root: JsonSchemaObject, depth: number): unknown {
  if (depth > 256) return value;
  if (Array.isArray(value)) {
    const schemas = itemSchemas(schema, root);
    if (!schemas) return value;
    return value.map((item, index) => restore(item, index < schemas.prefix.length ? schemas.prefix[index] : schemas.items, root, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  const view = objectView(schema, root, value);
  if (!view) return value;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    const sub = view.properties.get(name);
    if (child === null && sub !== undefined && !view.required.has(name) && !schemaAcceptsNull(sub, root)) continue;
    setOwn(out, name, sub === undefined ? child : restore(child, sub, root, depth + 1));
  }
  return out;
}

/**
 * Undoes the nullable rewrite of {@link toOpenAIStrictSchema} on arguments that
 * come back: removes `null` from every property that was optional in
 * `originalSchema` and whose schema there does not accept null, through nested
 * objects and arrays. The input is not modified.
 */
export function restoreOptionalNulls(originalSchema: JsonSchemaObject, args: unknown): unknown {
  return restore(args, originalSchema, originalSchema, 0);
}

// ---------------------------------------------------------------------------
// What each provider ignores or rejects

function rootWarnings(schema: JsonSchemaObject, provider: SchemaProvider): FormatWarning[] {
  const warnings: FormatWarning[] = [];
  const who = provider === 'mcp' ? 'MCP' : provider === 'anthropic' ? 'Anthropic' : 'OpenAI';
  if (schema.type !== 'object') {
    const got = schema.type === undefined ? 'no `type`' : `type ${JSON.stringify(schema.type)}`;
    warnings.push({ type: 'unsupported', provider, feature: 'root-type', path: '', details: `the root has ${got}; ${who} requires \`type: "object"\` at the root of a tool's input schema` });
  }
  // OpenAI: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level";
  // Anthropic: "input_schema does not support oneOf, allOf, or anyOf at the top level".
  const banned = provider === 'anthropic' ? ['anyOf', 'oneOf', 'allOf'] : provider === 'mcp' ? [] : ['anyOf', 'oneOf', 'allOf', 'enum', 'not'];
  for (const key of banned) {
    if (key in schema) warnings.push({ type: 'unsupported', provider, feature: 'root-union', path: pointer('', key), details: `${who} rejects \`${key}\` at the top level of a tool's input schema; make the root one object and move the alternatives into a property` });
  }
  return warnings;
}

function externalRefWarnings(schema: unknown, provider: SchemaProvider, path: string, out: FormatWarning[], depth = 0): void {
  if (depth > 256) return;
  if (Array.isArray(schema)) {
    schema.forEach((entry, index) => externalRefWarnings(entry, provider, pointer(path, index), out, depth + 1));
    return;
  }
  if (!isPlainObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    // enum/const/default/examples hold values, not schemas.
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
      out.push({ type: 'unsupported', provider, feature: '$ref', path: pointer(path, key), details: `\`$ref: ${JSON.stringify(value)}\` points outside the schema; providers do not fetch references, so inline it or move it into $defs` });
    } else {
      externalRefWarnings(value, provider, pointer(path, key), out, depth + 1);
    }
  }
}

interface SizeTally {
  properties: number;
  enumValues: number;
  stringLength: number;
  deepest: { depth: number; path: string };
  largeEnums: { path: string; length: number; count: number }[];
}

function tally(schema: unknown, path: string, depth: number, sizes: SizeTally, guard: number): void {
  if (!isPlainObject(schema) || guard > 256) return;
  let level = depth;
  if (isPlainObject(schema.properties) || typeList(schema)?.includes('object')) {
    level = depth + 1;
    if (level > sizes.deepest.depth) sizes.deepest = { depth: level, path };
  }
  if (isPlainObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      sizes.properties += 1;
      sizes.stringLength += name.length;
      tally(sub, pointer(path, 'properties', name), level, sizes, guard + 1);
    }
  }
  if (Array.isArray(schema.enum)) {
    sizes.enumValues += schema.enum.length;
    let length = 0;
    for (const entry of schema.enum) if (typeof entry === 'string') length += entry.length;
    sizes.stringLength += length;
    if (schema.enum.length > OPENAI_STRICT_LIMITS.largeEnumValueCount && schema.enum.every((entry) => typeof entry === 'string')) {
      sizes.largeEnums.push({ path: pointer(path, 'enum'), length, count: schema.enum.length });
    }
  }
  if (typeof schema.const === 'string') sizes.stringLength += schema.const.length;
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (!isPlainObject(defs)) continue;
    for (const [name, def] of Object.entries(defs)) {
      sizes.stringLength += name.length;
      tally(def, pointer(path, key, name), depth, sizes, guard + 1);
    }
  }
  if (isPlainObject(schema.items)) tally(schema.items, pointer(path, 'items'), level, sizes, guard + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) branches.forEach((branch, index) => tally(branch, pointer(path, key, index), depth, sizes, guard + 1));
  }
}

/** OpenAI's documented size limits ({@link OPENAI_STRICT_LIMITS}) checked on a schema already in strict form. */
export function openAIStrictLimitWarnings(schema: JsonSchemaObject): FormatWarning[] {
  const sizes: SizeTally = { properties: 0, enumValues: 0, stringLength: 0, deepest: { depth: 0, path: '' }, largeEnums: [] };
  tally(schema, '', 0, sizes, 0);
  const limits = OPENAI_STRICT_LIMITS;
  const warnings: FormatWarning[] = [];
  const add = (feature: string, path: string, details: string) => warnings.push({ type: 'unsupported', provider: STRICT, feature, path, details });
  if (sizes.deepest.depth > limits.maxNestingDepth) {
    add('nesting-depth', sizes.deepest.path, `objects nest ${sizes.deepest.depth} levels deep; OpenAI strict mode allows at most ${limits.maxNestingDepth}, so flatten the schema`);
  }
  if (sizes.properties > limits.maxTotalProperties) {
    add('total-properties', '', `the schema declares ${sizes.properties} object properties in all; OpenAI strict mode allows at most ${limits.maxTotalProperties}`);
  }
  if (sizes.enumValues > limits.maxTotalEnumValues) {
    add('total-enum-values', '', `the schema has ${sizes.enumValues} enum values in all; OpenAI strict mode allows at most ${limits.maxTotalEnumValues}`);
  }
  if (sizes.stringLength > limits.maxTotalStringLength) {
    add('total-string-length', '', `property names, definition names, enum and const values add up to ${sizes.stringLength} characters; OpenAI strict mode allows at most ${limits.maxTotalStringLength}`);
  }
  for (const large of sizes.largeEnums) {
    if (large.length > limits.maxLargeEnumStringLength) {
      add('enum-string-length', large.path, `this enum has ${large.count} string values totalling ${large.length} characters; with more than ${limits.largeEnumValueCount} values OpenAI strict mode allows at most ${limits.maxLargeEnumStringLength} characters`);
    }
  }
  return warnings;
}

/**
 * What a provider would ignore, reject or change in this input schema. For
 * `openai-strict` this includes every change {@link toOpenAIStrictSchema}
 * makes and the documented size limits, measured on the rewritten schema.
 */
export function schemaCompatibilityWarnings(schema: JsonSchemaObject, provider: SchemaProvider): FormatWarning[] {
  if (!isPlainObject(schema)) {
    return [{ type: 'unsupported', provider, feature: 'root-type', path: '', details: 'the input schema is not a JSON object; every provider requires an object schema with `type: "object"`' }];
  }
  const warnings: FormatWarning[] = [];
  if (provider === 'openai-strict') {
    const converted = toOpenAIStrictSchema(schema);
    warnings.push(...converted.warnings, ...openAIStrictLimitWarnings(converted.schema));
    return warnings;
  }
  warnings.push(...rootWarnings(schema, provider));
  externalRefWarnings(schema, provider, '', warnings);
  return warnings;
}
