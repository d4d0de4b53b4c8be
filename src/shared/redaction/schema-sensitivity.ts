/**
 * Which parts of a tool's arguments its input schema marks secret: a property
 * with `writeOnly: true` or `x-sensitive: true`, found through `$ref`s within the
 * schema (pointers, `$anchor`s, `$id`s; never fetched), `allOf`/`anyOf`/`oneOf`, nested
 * `properties`, `additionalProperties`, `patternProperties`, `items` and
 * `prefixItems`. Expansion is bounded, so recursive or huge schemas cost a
 * fixed amount; what lies past the bound is left to the name and value rules.
 * @module
 */
import { SchemaRegistry } from '../json-schema/schema-registry.js';
import { isPlainObject } from '../own.js';

export interface SensitivityNode {
  /** The value at this place is secret. */
  sensitive: boolean;
  properties: Map<string, SensitivityNode>;
  /** Any other property (`additionalProperties`, `patternProperties`). */
  anyProperty: SensitivityNode | undefined;
  /** Array items (`items`, `prefixItems`). */
  items: SensitivityNode | undefined;
  /** The names of every sensitive property of the tool, for argument text that does not parse. */
  names: Set<string>;
}

const MAX_EXPANSION_DEPTH = 32;
const MAX_EXPANSIONS = 5000;

/** The sensitivity tree of a schema, or `undefined` when nothing in it is marked secret. */
export function schemaSensitivity(schema: unknown): SensitivityNode | undefined {
  const names = new Set<string>();
  const root = newNode(names);
  const budget = { left: MAX_EXPANSIONS };
  const registry = new SchemaRegistry(schema);
  const rootBase = registry.placeOf(schema)?.base;
  const resolve: RefResolver = (holder, ref) => registry.resolve(ref, registry.placeOf(holder)?.base ?? rootBase)?.schema;
  apply(root, schema, resolve, 0, budget, undefined);
  return hasSensitive(root) ? root : undefined;
}

function newNode(names: Set<string>): SensitivityNode {
  return { sensitive: false, properties: new Map(), anyProperty: undefined, items: undefined, names };
}

/** The schema a `$ref` written in `holder` names, within the tool's schema. */
type RefResolver = (holder: Record<string, unknown>, ref: string) => unknown;

function apply(node: SensitivityNode, schema: unknown, resolve: RefResolver, depth: number, budget: { left: number }, propertyName: string | undefined): void {
  if (!isPlainObject(schema) || depth > MAX_EXPANSION_DEPTH || budget.left-- <= 0) return;
  if (schema.writeOnly === true || schema['x-sensitive'] === true) {
    node.sensitive = true;
    if (propertyName !== undefined) node.names.add(propertyName);
  }
  if (typeof schema.$ref === 'string') apply(node, resolve(schema, schema.$ref), resolve, depth + 1, budget, propertyName);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const sub of list) apply(node, sub, resolve, depth + 1, budget, propertyName);
  }
  if (isPlainObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      let child = node.properties.get(key);
      if (!child) node.properties.set(key, (child = newNode(node.names)));
      apply(child, sub, resolve, depth + 1, budget, key);
    }
  }
  const others = [schema.additionalProperties, ...(isPlainObject(schema.patternProperties) ? Object.values(schema.patternProperties) : [])];
  for (const sub of others) {
    if (!isPlainObject(sub)) continue;
    node.anyProperty ??= newNode(node.names);
    apply(node.anyProperty, sub, resolve, depth + 1, budget, undefined);
  }
  const itemSchemas = [...(Array.isArray(schema.items) ? schema.items : [schema.items]), ...(Array.isArray(schema.prefixItems) ? schema.prefixItems : [])];
  for (const sub of itemSchemas) {
    if (!isPlainObject(sub)) continue;
    node.items ??= newNode(node.names);
    apply(node.items, sub, resolve, depth + 1, budget, undefined);
  }
}

function hasSensitive(node: SensitivityNode | undefined): boolean {
  if (!node) return false;
  if (node.sensitive) return true;
  for (const child of node.properties.values()) if (hasSensitive(child)) return true;
  return hasSensitive(node.anyProperty) || hasSensitive(node.items);
}
