/**
 * The strict rewrite: a tool's JSON Schema (2020-12) becomes the subset OpenAI
 * accepts with `strict: true`, every change reported as a {@link FormatWarning},
 * together with the plan that maps the nulls the rewrite invites back to "absent"
 * (`restore.ts`), so a caller computes both once per schema.
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
import { METADATA_KEYWORDS } from '../../shared/json-schema/keywords.js';
import { isPlainObject } from '../../shared/own.js';
import type { JsonSchema, JsonSchemaObject } from '../../tools/types.js';
import type { FormatWarning, SchemaProvider } from '../../protocol/format-warning.js';
import { nullRestorePlan, type NullRestorePlan } from './restore.js';
import { pointer, setOwn, typeList } from './schema-shape.js';

/** The result of {@link toOpenAIStrictSchema}. */
export interface StrictSchemaConversion {
  /** The rewritten schema: every object closed, every property required, optional ones nullable. */
  schema: JsonSchemaObject;
  /** Every change and loss, in the order met. */
  warnings: FormatWarning[];
  /** Maps the arguments a model sends for {@link schema} back to the original schema's shape (the nulls of optional properties removed). */
  readonly restorePlan: NullRestorePlan;
}

/** The plan is a getter, built on first use (and shared through the cache), so a conversion stays plain data when compared or serialised. */
class StrictConversionResult implements StrictSchemaConversion {
  readonly #original: JsonSchemaObject;

  constructor(
    public schema: JsonSchemaObject,
    public warnings: FormatWarning[],
    original: JsonSchemaObject,
  ) {
    this.#original = original;
  }

  get restorePlan(): NullRestorePlan {
    return nullRestorePlan(this.#original);
  }
}

const STRICT: SchemaProvider = 'openai-strict';

/**
 * What one provider's strict mode accepts; the converter below applies them. OpenAI's are the module's constants;
 * Anthropic's (`anthropic-strict.ts`) differ where its documented limits differ.
 */
export interface StrictRules {
  provider: SchemaProvider;
  /** Keywords that only describe, kept as they are. */
  annotations: ReadonlySet<string>;
  /** Validation keywords kept as they are (unless {@link StrictRules.refusedValue} refuses the value). */
  keptConstraints: ReadonlySet<string>;
  /** The string formats kept. */
  supportedFormats: ReadonlySet<string>;
  /** Whether every property must be listed in `required` (OpenAI); if not, optional properties stay optional (Anthropic). */
  everyPropertyRequired: boolean;
  /** Whether `$schema` and `$id` may stay at the root. */
  rootIdentifiers: boolean;
  /** A kept constraint whose value the provider still refuses (Anthropic's `minItems` above 1): the reason it is removed. */
  refusedValue?: (keyword: string, value: unknown) => string | undefined;
  /** Why a keyword is removed, where a specific reason helps more than the generic one. */
  removalReasons: Readonly<Record<string, string>>;
  /** The provider's name in messages. */
  who: string;
}

/** Keywords that only describe; kept as they are (`default` is not: strict mode rejects it, see below). */
const ANNOTATIONS = new Set([...METADATA_KEYWORDS.filter((keyword) => keyword !== 'default'), '$comment']);

/** Constraints the guide lists as supported ("Supported properties"), plus enum and const. */
const KEPT_CONSTRAINTS = new Set([
  'enum',
  'const',
  'pattern',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);

/** The string formats the guide lists as supported. */
const SUPPORTED_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Handled by the object, array and composition code below rather than copied. */
const STRUCTURAL = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  '$schema',
  '$id',
  'format',
  'default',
]);

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

/** OpenAI's Structured Outputs rules, as the module comment cites them. */
const OPENAI_STRICT_RULES: StrictRules = {
  provider: STRICT,
  annotations: ANNOTATIONS,
  keptConstraints: KEPT_CONSTRAINTS,
  supportedFormats: SUPPORTED_FORMATS,
  everyPropertyRequired: true,
  rootIdentifiers: true,
  removalReasons: REMOVAL_REASONS,
  who: 'OpenAI',
};

const ENFORCEMENT_NOTE = 'decoding no longer enforces it; the registry still checks the original schema and tells the model when a value breaks it';

function anyScalarSchema(): JsonSchemaObject {
  return { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };
}

function hasObjectKeywords(schema: JsonSchemaObject): boolean {
  return ['properties', 'required', 'additionalProperties', 'patternProperties'].some((key) => key in schema);
}

/** Deeper schemas than this (far past OpenAI's own limit) are cut, so a hostile imported schema cannot exhaust the stack. */
const MAX_CONVERT_DEPTH = 128;

class StrictConverter {
  readonly warnings: FormatWarning[] = [];
  #depth = 0;

  constructor(readonly rules: StrictRules = OPENAI_STRICT_RULES) {}

  warn(type: FormatWarning['type'], feature: string, path: string, details: string): void {
    this.warnings.push({ type, provider: this.rules.provider, feature, path, details });
  }

  convert(node: unknown, path: string): JsonSchema {
    if (this.#depth >= MAX_CONVERT_DEPTH) {
      this.warn(
        'unsupported',
        'nesting-depth',
        path,
        `the schema nests deeper than ${MAX_CONVERT_DEPTH} levels; this part was replaced by a schema that accepts a string, number, boolean or null`,
      );
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
      this.warn(
        'rewritten',
        'any',
        path,
        'a schema that accepts anything cannot be strict; it now accepts a string, number, boolean or null, not objects or arrays',
      );
      return anyScalarSchema();
    }
    if (node === false) {
      this.warn(
        'unsupported',
        'false-schema',
        path,
        `a \`false\` schema (nothing is valid) cannot be expressed in strict mode; ${this.rules.who} will reject it, so remove that part of the schema`,
      );
      return false;
    }
    if (!isPlainObject(node)) {
      this.warn(
        'unsupported',
        'invalid-schema',
        path,
        `expected a schema object, got ${node === null ? 'null' : typeof node}; replaced by a schema that accepts a string, number, boolean or null`,
      );
      return anyScalarSchema();
    }
    const source = this.#mergeAllOf(node, path);
    const out: JsonSchemaObject = {};

    const rules = this.rules;
    for (const [key, value] of Object.entries(source)) {
      const refused = rules.keptConstraints.has(key) ? rules.refusedValue?.(key, value) : undefined;
      if (refused !== undefined) {
        this.warn('unsupported', key, pointer(path, key), `removed \`${key}: ${JSON.stringify(value)}\`: ${refused}; ${ENFORCEMENT_NOTE}`);
      } else if (rules.annotations.has(key) || rules.keptConstraints.has(key)) {
        out[key] = value;
      } else if (!STRUCTURAL.has(key)) {
        const reason = rules.removalReasons[key] ?? `\`${key}\` is not among the keywords strict mode supports`;
        this.warn('unsupported', key, pointer(path, key), `removed: ${reason}; ${ENFORCEMENT_NOTE}`);
      }
    }

    if ('$schema' in source || '$id' in source) {
      for (const key of ['$schema', '$id'] as const) {
        if (!(key in source)) continue;
        if (path === '' && rules.rootIdentifiers) out[key] = source[key];
        else if (path === '')
          this.warn(
            'rewritten',
            key,
            pointer(path, key),
            `removed \`${key}\`: ${rules.who}'s strict mode does not take it; the schema is read as JSON Schema 2020-12`,
          );
        else this.warn('unsupported', key, pointer(path, key), `removed: \`${key}\` is allowed only at the root of a strict schema`);
      }
    }
    if ('default' in source && !rules.everyPropertyRequired) {
      this.warn(
        'unsupported',
        'default',
        pointer(path, 'default'),
        `removed \`default: ${JSON.stringify(source.default)}\`: ${rules.who}'s strict mode does not take \`default\`; apply the default in the tool when the value is absent`,
      );
    } else if ('default' in source) {
      this.warn(
        'unsupported',
        'default',
        pointer(path, 'default'),
        `removed \`default: ${JSON.stringify(source.default)}\`: strict mode rejects \`default\` ("'default' is not permitted"; Azure OpenAI still does) and every property is required anyway; apply the default in the tool when the value is absent`,
      );
    }
    if ('format' in source) {
      const format = source.format;
      if (typeof format === 'string' && rules.supportedFormats.has(format)) out.format = format;
      else
        this.warn(
          'unsupported',
          'format',
          pointer(path, 'format'),
          `removed \`format: ${JSON.stringify(format)}\`: strict mode supports only ${[...rules.supportedFormats].join(', ')}; ${ENFORCEMENT_NOTE}`,
        );
    }

    let types = typeList(source);
    if ('type' in source) {
      if (types) out.type = source.type;
      else
        this.warn(
          'unsupported',
          'type',
          pointer(path, 'type'),
          `removed \`type: ${JSON.stringify(source.type)}\`: it is not a type name or a list of type names`,
        );
    }
    if (types === undefined && hasObjectKeywords(source)) {
      types = ['object'];
      out.type = 'object';
      this.warn(
        'rewritten',
        'type',
        pointer(path, 'type'),
        'added `type: "object"`: the schema has object keywords but no type, and strict mode needs one (a non-object value is no longer accepted here)',
      );
    }

    if ('$ref' in source) {
      const ref = source.$ref;
      out.$ref = ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) {
        this.warn(
          'unsupported',
          '$ref',
          pointer(path, '$ref'),
          `\`$ref: ${JSON.stringify(ref)}\` is not a local reference ("#…"); ${this.rules.who} cannot fetch it, so inline the schema or move it into $defs`,
        );
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
        if (key in source)
          this.warn('rewritten', key, pointer(path, key), `removed \`${key}\`: the type ${JSON.stringify(source.type)} excludes objects, so it never applied`);
      }
    }

    if ('items' in source) {
      const items = source.items;
      if (Array.isArray(items)) {
        this.warn(
          'unsupported',
          'items',
          pointer(path, 'items'),
          'removed tuple-form `items` (an array of schemas): strict mode takes one schema for every item',
        );
      } else {
        out.items = this.convert(items, pointer(path, 'items'));
      }
    }
    if (types?.includes('array') && out.items === undefined) {
      out.items = anyScalarSchema();
      this.warn(
        'unsupported',
        'items',
        pointer(path, 'items'),
        'the array has no single `items` schema, which strict mode requires; its items now accept a string, number, boolean or null',
      );
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
        if (!required.has(name) && this.rules.everyPropertyRequired) {
          if (directlyAcceptsNull(converted)) {
            this.warn(
              'rewritten',
              'optional-property',
              at,
              `optional property "${name}" is now required (strict mode requires every property); it already accepts null, so the model sends null when it has no value, and that null is kept`,
            );
          } else {
            converted = makeNullable(converted);
            this.warn(
              'rewritten',
              'optional-property',
              at,
              `optional property "${name}" is now required and nullable (strict mode requires every property); the model sends null for "no value", and restoreOptionalNulls removes that null before validation`,
            );
          }
        }
        setOwn(properties, name, converted);
        names.push(name);
      }
    }
    for (const name of required) {
      if (!names.includes(name) && !(isPlainObject(rawProperties) && Object.hasOwn(rawProperties, name))) {
        this.warn(
          'unsupported',
          'required',
          pointer(path, 'required'),
          `removed "${name}" from \`required\`: it is not declared in \`properties\`, so the closed strict object cannot carry it; declare it in \`properties\``,
        );
      }
    }

    const additional = source.additionalProperties;
    if (additional === undefined) {
      if (rawProperties === undefined) {
        this.warn(
          'unsupported',
          'open-object',
          path,
          'an object without declared properties accepts any keys, which strict mode cannot express; it now accepts only the empty object {}, so declare its properties',
        );
      } else {
        this.warn(
          'rewritten',
          'additionalProperties',
          pointer(path, 'additionalProperties'),
          'added `additionalProperties: false` (strict mode requires it): keys that are not declared can no longer be sent',
        );
      }
    } else if (additional !== false) {
      const what = additional === true ? '`additionalProperties: true`' : 'an `additionalProperties` schema';
      this.warn(
        'unsupported',
        'additionalProperties',
        pointer(path, 'additionalProperties'),
        `${what} makes an open object, which strict mode cannot express; set to false, so only the declared properties (${names.length === 0 ? 'none' : names.join(', ')}) can be sent`,
      );
    }

    out.properties = properties;
    out.required = this.rules.everyPropertyRequired ? names : names.filter((name) => required.has(name));
    out.additionalProperties = false;
  }

  /** Folds `allOf` into its parent when the branches do not conflict; otherwise removes it with a warning. */
  #mergeAllOf(node: JsonSchemaObject, path: string): JsonSchemaObject {
    if (!('allOf' in node)) return node;
    const { allOf, ...rest } = node;
    const at = pointer(path, 'allOf');
    if (!Array.isArray(allOf) || !allOf.every(isPlainObject)) {
      this.warn(
        'unsupported',
        'allOf',
        at,
        `removed \`allOf\`: strict mode does not support it, and its branches could not be merged into one schema; ${ENFORCEMENT_NOTE}`,
      );
      return rest;
    }
    const merged: JsonSchemaObject = { ...rest };
    for (const branch of allOf) {
      for (const [key, value] of Object.entries(branch)) {
        if (key === 'properties' && isPlainObject(value) && (merged.properties === undefined || isPlainObject(merged.properties))) {
          const target: Record<string, unknown> = { ...(merged.properties as Record<string, unknown> | undefined) };
          for (const [name, schema] of Object.entries(value)) {
            if (Object.hasOwn(target, name) && JSON.stringify(target[name]) !== JSON.stringify(schema))
              return this.#allOfConflict(rest, at, `property "${name}"`);
            setOwn(target, name, schema);
          }
          merged.properties = target;
        } else if (key === 'required' && Array.isArray(value) && (merged.required === undefined || Array.isArray(merged.required))) {
          merged.required = [...new Set([...((merged.required as unknown[] | undefined) ?? []), ...value])];
        } else if (this.rules.annotations.has(key)) {
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
    this.warn(
      'unsupported',
      'allOf',
      at,
      `removed \`allOf\`: strict mode does not support it, and its branches disagree on ${what}, so they cannot be merged; ${ENFORCEMENT_NOTE}`,
    );
    return rest;
  }
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
  return toStrictSchema(schema, OPENAI_STRICT_RULES);
}

/** {@link toOpenAIStrictSchema} under another provider's {@link StrictRules} (Anthropic's: `anthropic-strict.ts`). */
export function toStrictSchema(schema: JsonSchemaObject, rules: StrictRules): StrictSchemaConversion {
  const converter = new StrictConverter(rules);
  const who = rules.who;
  if (!isPlainObject(schema)) {
    converter.warn('unsupported', 'root-type', '', 'the schema is not an object; it became an object without properties');
    return new StrictConversionResult({ type: 'object', properties: {}, required: [], additionalProperties: false }, converter.warnings, schema);
  }
  const rootTypes = typeList(schema);
  if (rootTypes !== undefined && !(rootTypes.length === 1 && rootTypes[0] === 'object')) {
    converter.warn(
      'unsupported',
      'root-type',
      pointer('', 'type'),
      `the root schema has type ${JSON.stringify(schema.type)}; ${who} requires \`type: "object"\` at the root, so wrap the value in an object property`,
    );
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (key in schema)
      converter.warn(
        'unsupported',
        'root-union',
        pointer('', key),
        `${who} rejects \`${key}\` at the root of a function's parameters; make the root one object and move the alternatives into a property`,
      );
  }
  let root = schema;
  if (rootTypes === undefined && !('anyOf' in schema) && !('oneOf' in schema) && !('$ref' in schema)) {
    converter.warn('rewritten', 'type', pointer('', 'type'), `added \`type: "object"\` at the root, which ${who} requires`);
    root = { type: 'object', ...schema };
  }
  const converted = converter.convert(root, '');
  if (typeof converted === 'boolean')
    return new StrictConversionResult({ type: 'object', properties: {}, required: [], additionalProperties: false }, converter.warnings, schema);
  return new StrictConversionResult(converted, converter.warnings, schema);
}
