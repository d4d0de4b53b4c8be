/**
 * The registry's meta-schema check, for the token mask: before compiling a tool's schema, the registry's Ajv checks it
 * against the 2020-12 meta-schema, every subschema included,
 * the unreferenced `$defs` and the annotations too, and refuses the tool when it fails. No value could then pass, so
 * the mask refuses the same schemas (`SchemaCompileError`). The registry's meta-schema check asserts no `format`
 * (`$id: "a b"` and a `pattern` of `(` in an unused definition pass it), so neither does this one. `toolwright/decoding` bundles with no package beside it
 * (no Ajv, whose meta-schema check generates code), so the meta-schema's rules are written out here, keyword by
 * keyword, as the meta-schema states them; `test/decoding/registry-refusals.test.ts` compares the verdicts with the
 * registry's on mutated schemas.
 * @module
 */
import { escapePointer } from '../shared/json-schema/json-pointer.js';
import { subschemaSlots } from '../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../shared/own.js';

/** The meta-schema `$schema` URIs the registry's Ajv holds whole (a vocabulary's own meta-schema checks less: not modelled). */
const FULL_META_SCHEMAS = new Set(['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/schema']);
const VOCABULARY_META_SCHEMA =
  /^https:\/\/json-schema\.org\/draft\/2020-12\/meta\/(?:core|applicator|unevaluated|validation|meta-data|format-annotation|content)$/;

const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/**
 * Why a `$ref` that names no schema of the document or of the `schemas` option is not compiled. The registry's Ajv
 * holds no other schema and fetches nothing, so it refuses the schema too (`invalid`), except for the meta-schemas it
 * holds (the 2020-12 one and its vocabularies'): it compiles those, whose `"$dynamicRef": "#meta"` binds at run time to
 * whichever `$dynamicAnchor` runs first, which depends on the instance (dynamic-reference.ts), so the mask refuses them.
 */
export function unresolvedReference(reference: string, base: string): { readonly kind: 'invalid' | 'refused'; readonly reason: string } {
  let resource: string | undefined;
  try {
    resource = new URL(reference, base).href.replace(/#.*$/s, '');
  } catch {
    resource = undefined;
  }
  if (resource !== undefined && (FULL_META_SCHEMAS.has(resource) || VOCABULARY_META_SCHEMA.test(resource))) {
    return {
      kind: 'refused',
      reason: `"${reference}" names a JSON Schema meta-schema, which the registry holds; the mask does not compile the meta-schemas (their "$dynamicRef": "#meta" binds at run time to whichever "$dynamicAnchor" runs first): describe the schema-valued property with the keywords you expect instead (an object with "type", "properties"…)`,
    };
  }
  return {
    kind: 'invalid',
    reason: `"$ref": "${reference}" names no schema in the document (the registry's validator refuses it too); define the target under $defs, or pass a remote schema in the "schemas" option, keyed by its URI`,
  };
}

type Rule = (value: unknown, pointer: string, check: MetaSchemaCheck) => void;

const string: Rule = (value, pointer, check) => check.expect(typeof value === 'string', pointer, 'must be string');
const number: Rule = (value, pointer, check) => check.expect(typeof value === 'number', pointer, 'must be number');
const boolean: Rule = (value, pointer, check) => check.expect(typeof value === 'boolean', pointer, 'must be boolean');
const nonNegativeInteger: Rule = (value, pointer, check) => {
  check.expect(typeof value === 'number' && Number.isInteger(value), pointer, 'must be integer');
  check.expect(typeof value !== 'number' || value >= 0, pointer, 'must be >= 0');
};
const anchor: Rule = (value, pointer, check) => {
  string(value, pointer, check);
  if (typeof value === 'string') check.expect(ANCHOR.test(value), pointer, `must match pattern "${ANCHOR.source}"`);
};
const stringArray: Rule = (value, pointer, check) => {
  if (!check.expect(Array.isArray(value), pointer, 'must be array')) return;
  (value as unknown[]).forEach((item, index) => string(item, `${pointer}/${index}`, check));
  check.expect(new Set(value as unknown[]).size === (value as unknown[]).length, pointer, 'must NOT have duplicate items');
};
const schema: Rule = (value, pointer, check) => check.schema(value, pointer);
const schemaArray: Rule = (value, pointer, check) => {
  if (!check.expect(Array.isArray(value), pointer, 'must be array')) return;
  check.expect((value as unknown[]).length >= 1, pointer, 'must NOT have fewer than 1 items');
  (value as unknown[]).forEach((item, index) => check.schema(item, `${pointer}/${index}`));
};
const mapOf =
  (each: Rule): Rule =>
  (value, pointer, check) => {
    if (!check.expect(isPlainObject(value), pointer, 'must be object')) return;
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) each(child, `${pointer}/${escapePointer(name)}`, check);
  };
const type: Rule = (value, pointer, check) => {
  if (typeof value === 'string') return void check.expect(SIMPLE_TYPES.has(value), pointer, 'must be equal to one of the allowed values');
  const ok = Array.isArray(value) && value.length >= 1 && value.every((item) => SIMPLE_TYPES.has(item as string)) && new Set(value).size === value.length;
  check.expect(ok, pointer, 'must be equal to one of the allowed values or a non-empty array of distinct ones');
};
const schemaOrStringArray: Rule = (value, pointer, check) => (Array.isArray(value) ? stringArray(value, pointer, check) : check.schema(value, pointer));

/** Each keyword the 2020-12 meta-schema constrains (its vocabularies and the deprecated forms it still lists), with its rule. */
const RULES: Readonly<Record<string, Rule>> = {
  // core
  $id: (value, pointer, check) => {
    string(value, pointer, check);
    if (typeof value === 'string') check.expect(/^[^#]*#?$/.test(value), pointer, 'must match pattern "^[^#]*#?$"');
  },
  $schema: string,
  $ref: string,
  $anchor: anchor,
  $dynamicRef: string,
  $dynamicAnchor: anchor,
  $vocabulary: mapOf(boolean),
  $comment: string,
  $defs: mapOf(schema),
  // applicator
  prefixItems: schemaArray,
  items: schema,
  contains: schema,
  additionalProperties: schema,
  properties: mapOf(schema),
  patternProperties: mapOf(schema),
  dependentSchemas: mapOf(schema),
  propertyNames: schema,
  if: schema,
  then: schema,
  else: schema,
  allOf: schemaArray,
  anyOf: schemaArray,
  oneOf: schemaArray,
  not: schema,
  // unevaluated
  unevaluatedItems: schema,
  unevaluatedProperties: schema,
  // validation
  type,
  enum: (value, pointer, check) => check.expect(Array.isArray(value), pointer, 'must be array'),
  multipleOf: (value, pointer, check) => {
    number(value, pointer, check);
    check.expect(typeof value !== 'number' || value > 0, pointer, 'must be > 0');
  },
  maximum: number,
  exclusiveMaximum: number,
  minimum: number,
  exclusiveMinimum: number,
  maxLength: nonNegativeInteger,
  minLength: nonNegativeInteger,
  pattern: string,
  maxItems: nonNegativeInteger,
  minItems: nonNegativeInteger,
  uniqueItems: boolean,
  maxContains: nonNegativeInteger,
  minContains: nonNegativeInteger,
  maxProperties: nonNegativeInteger,
  minProperties: nonNegativeInteger,
  required: stringArray,
  dependentRequired: mapOf(stringArray),
  // meta-data, format, content
  title: string,
  description: string,
  deprecated: boolean,
  readOnly: boolean,
  writeOnly: boolean,
  examples: (value, pointer, check) => check.expect(Array.isArray(value), pointer, 'must be array'),
  format: string,
  contentEncoding: string,
  contentMediaType: string,
  contentSchema: schema,
  // the deprecated forms the 2020-12 meta-schema still lists
  definitions: mapOf(schema),
  dependencies: mapOf(schemaOrStringArray),
  $recursiveAnchor: anchor,
  $recursiveRef: string,
};

class MetaSchemaCheck {
  readonly problems: string[] = [];
  private readonly pending: { value: unknown; pointer: string }[] = [];
  private readonly checked = new Set<object>();

  /** Records `message` at `pointer` unless `ok`; returns `ok`. */
  expect(ok: boolean, pointer: string, message: string): boolean {
    if (!ok) this.problems.push(`schema${pointer} ${message}`);
    return ok;
  }

  /** Queues a subschema: the walk is iterative, so a deeply nested schema cannot exhaust the stack. */
  schema(value: unknown, pointer: string): void {
    this.pending.push({ value, pointer });
  }

  run(root: unknown): void {
    this.schema(root, '');
    while (this.pending.length > 0 && this.problems.length === 0) {
      const { value, pointer } = this.pending.pop()!;
      if (typeof value === 'boolean') continue;
      if (!this.expect(isPlainObject(value), pointer, 'must be object,boolean')) continue;
      // the meta-schema's verdict on a subschema does not depend on where it sits: a shared object is checked once
      if (this.checked.has(value as object)) continue;
      this.checked.add(value as object);
      for (const [keyword, child] of Object.entries(value as Record<string, unknown>)) RULES[keyword]?.(child, `${pointer}/${escapePointer(keyword)}`, this);
    }
  }
}

/**
 * Why the registry's meta-schema check refuses `schema` (a schema read as 2020-12, after `upgradeSchemaDialect`), or
 * undefined when it passes. Like Ajv, a root `$schema` that is not a string, or names a meta-schema the registry does
 * not hold, is refused; one naming a single 2020-12 vocabulary's meta-schema, or one of `remotes` (the `schemas`
 * option), is left unchecked.
 */
export function metaSchemaProblem(schema: unknown, remotes: Readonly<Record<string, unknown>> = {}): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const declared = schema.$schema;
  if (declared !== undefined) {
    if (typeof declared !== 'string') return '$schema must be a string';
    const uri = declared.replace(/#$/, '');
    // a meta-schema of the caller's (the `schemas` option) is not modelled: its rules are left to it
    if (VOCABULARY_META_SCHEMA.test(uri) || Object.hasOwn(remotes, uri) || Object.hasOwn(remotes, `${uri}#`)) return undefined;
    if (!FULL_META_SCHEMAS.has(uri)) return `no schema with key or ref "${declared}"`;
  }
  const check = new MetaSchemaCheck();
  check.run(schema);
  if (check.problems.length > 0) return `schema is invalid: ${check.problems.join(', ')}`;
  return ambiguousIdentifier(schema);
}

/** Where a base URI is absent: identifiers are compared resolved against it, never fetched. */
const NO_BASE = 'https://toolwright.invalid/';
// json-schema-traverse, which Ajv's identifier scan runs with allKeys: these keywords' values are never entered
const SCAN_SKIPPED = new Set(['default', 'enum', 'const', 'required', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf']);
for (const keyword of ['maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties'])
  SCAN_SKIPPED.add(keyword);
const SCAN_ARRAYS = new Set(['items', 'allOf', 'anyOf', 'oneOf']);
const SCAN_MAPS = new Set(['$defs', 'definitions', 'properties', 'patternProperties', 'dependencies']);

/**
 * Ajv's identifier scan (`getSchemaRefs`), which runs on the whole schema when the registry adds it: an `$id` or an
 * anchor that names a second schema below the root ("resolves to more than one schema"), or an `$id` naming the root's
 * own URI, fails the compile, equal schemas or not, and so does an anchor that is not a plain name (wherever the scan
 * meets it). The scan enters what json-schema-traverse enters with `allKeys`
 * (unknown keywords' objects too, but not `prefixItems`), and resolves each identifier against the `$id`s above it.
 */
function ambiguousIdentifier(root: Record<string, unknown>): string | undefined {
  const resolve = (reference: string, base: string): string | undefined => {
    try {
      return new URL(reference, base).href.replace(/#$/, '');
    } catch {
      return undefined;
    }
  };
  const rootBase = typeof root.$id === 'string' ? (resolve(root.$id, NO_BASE) ?? NO_BASE) : NO_BASE;
  const named = new Set<string>();
  if (typeof root.$id === 'string') named.add(rootBase);
  const pending: { schema: Record<string, unknown>; base: string }[] = [];
  const enter = (value: unknown, base: string): void => {
    if (isPlainObject(value)) pending.push({ schema: value, base });
  };
  const children = (schema: Record<string, unknown>, base: string): void => {
    for (const [key, value] of Object.entries(schema)) {
      if (Array.isArray(value)) {
        if (SCAN_ARRAYS.has(key)) for (const item of value) enter(item, base);
      } else if (SCAN_MAPS.has(key)) {
        if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) enter(child, base);
      } else if (!SCAN_SKIPPED.has(key)) {
        enter(value, base);
      }
    }
  };
  children(root, rootBase);
  const scanned = new Set<object>();
  while (pending.length > 0) {
    const { schema, base } = pending.pop()!;
    // an object met twice (shared by reference) is scanned twice by Ajv too: its identifiers then clash; below it, stop
    const again = scanned.has(schema);
    scanned.add(schema);
    let here = base;
    const identifiers: string[] = [];
    if (typeof schema.$id === 'string') {
      const id = resolve(schema.$id, base);
      if (id !== undefined) identifiers.push((here = id));
    }
    for (const anchor of [schema.$anchor, schema.$dynamicAnchor]) {
      // the meta-schema check never sees an anchor under an unknown keyword; the scan checks its form there too
      if (typeof anchor === 'string' && !ANCHOR.test(anchor)) return `invalid anchor "${anchor}"`;
      const id = typeof anchor === 'string' ? resolve(`#${anchor}`, here) : undefined;
      if (id !== undefined) identifiers.push(id);
    }
    for (const id of identifiers) {
      if (named.has(id)) return `reference "${id.startsWith(NO_BASE) ? id.slice(NO_BASE.length) : id}" resolves to more than one schema`;
      named.add(id);
    }
    if (!again) children(schema, here);
  }
  return undefined;
}

/** The JSON types the registry's Ajv takes as each keyword's value when it compiles a subschema (its keyword definitions' `schemaType`). */
const KEYWORD_VALUE_TYPES: Readonly<Record<string, readonly string[]>> = {
  $ref: ['string'],
  $dynamicRef: ['string'],
  $dynamicAnchor: ['string'],
  $recursiveRef: ['string'],
  $recursiveAnchor: ['boolean'],
  type: ['string', 'array'],
  enum: ['array'],
  required: ['array'],
  uniqueItems: ['boolean'],
  nullable: ['boolean'],
  pattern: ['string'],
  format: ['string'],
  properties: ['object'],
  patternProperties: ['object'],
  dependencies: ['object'],
  dependentRequired: ['object'],
  dependentSchemas: ['object'],
  allOf: ['array'],
  anyOf: ['array'],
  oneOf: ['array'],
  prefixItems: ['array'],
};
for (const keyword of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'maxProperties', 'minProperties'])
  (KEYWORD_VALUE_TYPES as Record<string, readonly string[]>)[keyword] = ['number'];
for (const keyword of ['maxItems', 'minItems', 'maxContains', 'minContains']) (KEYWORD_VALUE_TYPES as Record<string, readonly string[]>)[keyword] = ['number'];
for (const keyword of ['not', 'if', 'then', 'else', 'propertyNames', 'additionalProperties', 'items', 'contains', 'unevaluatedProperties', 'unevaluatedItems'])
  (KEYWORD_VALUE_TYPES as Record<string, readonly string[]>)[keyword] = ['object', 'boolean'];
for (const keyword of ['formatMaximum', 'formatMinimum', 'formatExclusiveMaximum', 'formatExclusiveMinimum'])
  (KEYWORD_VALUE_TYPES as Record<string, readonly string[]>)[keyword] = ['string'];

function hasValueType(value: unknown, types: readonly string[]): boolean {
  return types.some((type) => (type === 'array' ? Array.isArray(value) : type === 'object' ? isPlainObject(value) : typeof value === type));
}

/**
 * Why the registry's Ajv refuses to compile `target`, a schema a `$ref` reaches, or undefined. The meta-schema check
 * never sees a target under a keyword no vocabulary defines (`"x-lib": {…}`, an older draft's section the dialect
 * upgrade leaves as it is); Ajv, compiling it, checks only the JSON type of each keyword's value
 * (`items value must be ["object","boolean"]`) in it and in the subschemas it compiles below it (not its definitions).
 * `checked` holds the schemas already checked in this compile, so each is walked once.
 */
export function referenceTargetProblem(target: unknown, pointer: string, checked: Set<object>): string | undefined {
  const pending: { value: unknown; pointer: string }[] = [{ value: target, pointer }];
  while (pending.length > 0) {
    const { value, pointer: at } = pending.pop()!;
    if (!isPlainObject(value) || checked.has(value)) continue;
    checked.add(value);
    for (const [keyword, child] of Object.entries(value)) {
      const types = KEYWORD_VALUE_TYPES[keyword];
      if (types !== undefined && !hasValueType(child, types))
        return `the registry's validator refuses the schema a $ref reaches at ${at}: its "${keyword}" must be ${types.join(' or ')} (JSON Schema 2020-12 reads it so; an older draft's form is rewritten only where a keyword of the dialect holds it); fix the value`;
    }
    for (const slot of subschemaSlots(value)) {
      // Ajv compiles a definition only where a $ref reaches it, and never contentSchema (an annotation)
      if (slot.keyword === '$defs' || slot.keyword === 'definitions' || slot.keyword === 'contentSchema') continue;
      pending.push({ value: slot.schema, pointer: `${at}/${slot.keyword}${slot.key === undefined ? '' : `/${escapePointer(String(slot.key))}`}` });
    }
  }
  return undefined;
}
