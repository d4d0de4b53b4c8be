/**
 * null → absent on the way back in. The strict rewrite makes optional properties
 * required and nullable; a model then sends `null` for "no value", which the
 * original schema may refuse. The plan records, once per original schema, which
 * properties are optional and which of their schemas refuse null, with every
 * `$ref` already resolved, so restoring a call's arguments walks only the value.
 * @module
 */
import { DEFAULT_BASE, SchemaRegistry } from '../../shared/json-schema/schema-registry.js';
import { isPlainObject } from '../../shared/own.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import { setOwn, typeList } from './schema-shape.js';

/** Deeper `$ref`/`allOf`/`anyOf` chains than this are treated as unconstrained (they also end `$ref` cycles). */
const MAX_REF_DEPTH = 32;
/** Deeper argument values than this are returned as they are. */
const MAX_VALUE_DEPTH = 256;

/** Resolves a `$ref` written in `holder` within one document; undefined when it names nothing there. */
type RefResolver = (holder: Record<string, unknown>, ref: unknown) => unknown;

function documentResolver(root: unknown): RefResolver {
  const registry = new SchemaRegistry(root);
  // A holder outside the document (a caller's own subschema) resolves against the root's base.
  const rootBase = registry.placeOf(root)?.base ?? DEFAULT_BASE;
  return (holder, ref) => (typeof ref === 'string' ? registry.resolve(ref, registry.placeOf(holder)?.base ?? rootBase)?.schema : undefined);
}

function acceptsNull(schema: unknown, resolve: RefResolver, depth: number): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isPlainObject(schema) || depth > MAX_REF_DEPTH) return true;
  const types = typeList(schema);
  if (types && !types.includes('null')) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if ('const' in schema && schema.const !== null) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((branch) => acceptsNull(branch, resolve, depth + 1))) return false;
  if (Array.isArray(schema.oneOf) && !schema.oneOf.some((branch) => acceptsNull(branch, resolve, depth + 1))) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((branch) => acceptsNull(branch, resolve, depth + 1))) return false;
  if ('$ref' in schema) {
    const target = resolve(schema, schema.$ref);
    if (target !== undefined && !acceptsNull(target, resolve, depth + 1)) return false;
  }
  return true;
}

const resolvers = new WeakMap<object, RefResolver>();

/**
 * Whether a schema admits null, following `$ref`s within `root` (JSON Schema
 * semantics: no `type` means any type). References are resolved like the
 * validator does: JSON pointers, `$anchor`s and `$id`s of the same document, never fetched.
 */
export function schemaAcceptsNull(schema: unknown, root: JsonSchemaObject, depth = 0): boolean {
  if (typeof root !== 'object' || root === null) return acceptsNull(schema, documentResolver(root), depth);
  let resolve = resolvers.get(root);
  if (resolve === undefined) {
    resolve = documentResolver(root);
    resolvers.set(root, resolve);
  }
  return acceptsNull(schema, resolve, depth);
}

/** One schema position of the original schema, its references resolved to other nodes. */
class PlanNode {
  /** Undefined for boolean and malformed schemas: they give a value neither properties nor items. */
  shape: NodeShape | undefined;
  #acceptsNull: boolean | undefined;
  #items: ItemsPlan | null | undefined;

  constructor(
    readonly schema: unknown,
    private readonly plan: PlanBuilder,
  ) {}

  get acceptsNull(): boolean {
    this.#acceptsNull ??= acceptsNull(this.schema, this.plan.resolve, 0);
    return this.#acceptsNull;
  }

  /** The schemas an array value's items follow, or null when this schema says nothing about items. */
  get items(): ItemsPlan | null {
    if (this.#items === undefined) this.#items = itemsOf(this, 0) ?? null;
    return this.#items;
  }
}

interface NodeShape {
  properties: Map<string, PlanNode> | undefined;
  required: readonly string[];
  /** Present when the schema has `$ref`; a node without shape when the reference names nothing. */
  ref: PlanNode | undefined;
  allOf: readonly PlanNode[] | undefined;
  anyOf: readonly PlanNode[] | undefined;
  oneOf: readonly PlanNode[] | undefined;
  /** Set when the schema has `items` or `prefixItems`: tuple positions, then the schema of every other item. */
  ownItems: ItemsPlan | undefined;
}

interface ItemsPlan {
  readonly prefix: readonly PlanNode[];
  readonly rest: PlanNode | undefined;
}

interface ObjectView {
  properties: Map<string, PlanNode>;
  required: Set<string>;
}

/** Builds every node reachable from the root once, registering each before its children so that cycles close. */
class PlanBuilder {
  readonly resolve: RefResolver;
  readonly #nodes = new Map<object, PlanNode>();
  readonly #pending: PlanNode[] = [];

  constructor(root: unknown) {
    this.resolve = documentResolver(root);
  }

  build(root: unknown): PlanNode {
    const rootNode = this.node(root);
    while (this.#pending.length > 0) this.fill(this.#pending.pop()!);
    return rootNode;
  }

  private node(schema: unknown): PlanNode {
    if (!isPlainObject(schema)) return new PlanNode(schema, this);
    let node = this.#nodes.get(schema);
    if (node === undefined) {
      node = new PlanNode(schema, this);
      this.#nodes.set(schema, node);
      this.#pending.push(node);
    }
    return node;
  }

  private fill(node: PlanNode): void {
    const schema = node.schema as Record<string, unknown>;
    const branches = (key: string): PlanNode[] | undefined =>
      Array.isArray(schema[key]) ? (schema[key] as unknown[]).map((branch) => this.node(branch)) : undefined;
    let properties: Map<string, PlanNode> | undefined;
    if (isPlainObject(schema.properties)) {
      properties = new Map();
      for (const [name, sub] of Object.entries(schema.properties)) properties.set(name, this.node(sub));
    }
    let ownItems: ItemsPlan | undefined;
    if ('items' in schema || 'prefixItems' in schema) {
      ownItems = {
        prefix: Array.isArray(schema.prefixItems) ? schema.prefixItems.map((item) => this.node(item)) : [],
        rest: Array.isArray(schema.items) || schema.items === undefined ? undefined : this.node(schema.items),
      };
    }
    node.shape = {
      properties,
      required: Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [],
      ref: '$ref' in schema ? this.node(this.resolve(schema, schema.$ref)) : undefined,
      allOf: branches('allOf'),
      anyOf: branches('anyOf'),
      oneOf: branches('oneOf'),
      ownItems,
    };
  }
}

/** The first `items`/`prefixItems` met through `$ref`, then `anyOf`, `oneOf`, `allOf` branches. */
function itemsOf(node: PlanNode | undefined, depth: number): ItemsPlan | undefined {
  const shape = node?.shape;
  if (shape === undefined || depth > MAX_REF_DEPTH) return undefined;
  if (shape.ownItems) return shape.ownItems;
  if (shape.ref) return itemsOf(shape.ref, depth + 1);
  for (const branches of [shape.anyOf, shape.oneOf, shape.allOf]) {
    for (const branch of branches ?? []) {
      const found = itemsOf(branch, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** The properties and required names a schema gives this object value, gathered through `$ref` and `allOf`, and the best-fitting `anyOf`/`oneOf` branch. */
function objectView(node: PlanNode, value: Record<string, unknown>, depth: number): ObjectView | undefined {
  const shape = node.shape;
  if (shape === undefined || depth > MAX_REF_DEPTH) return undefined;
  const view: ObjectView = { properties: new Map(shape.properties), required: new Set(shape.required) };
  let found = shape.properties !== undefined;
  const add = (other: ObjectView | undefined) => {
    if (!other) return;
    found = true;
    for (const [name, sub] of other.properties) if (!view.properties.has(name)) view.properties.set(name, sub);
    for (const name of other.required) view.required.add(name);
  };
  if (shape.ref) add(objectView(shape.ref, value, depth + 1));
  for (const branch of shape.allOf ?? []) add(objectView(branch, value, depth + 1));
  for (const branches of [shape.anyOf, shape.oneOf]) {
    if (branches === undefined) continue;
    // The branch that declares most of the value's keys is the one the model meant; this choice depends on the value.
    let best: ObjectView | undefined;
    let bestScore = -1;
    for (const branch of branches) {
      const candidate = objectView(branch, value, depth + 1);
      if (!candidate) continue;
      const score = Object.keys(value).filter((name) => candidate.properties.has(name)).length;
      if (score > bestScore) [best, bestScore] = [candidate, score];
    }
    add(best);
  }
  return found ? view : undefined;
}

function restoreValue(value: unknown, node: PlanNode | undefined, depth: number): unknown {
  if (node === undefined || depth > MAX_VALUE_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = node.items;
    if (!items) return value;
    return value.map((item, index) => restoreValue(item, index < items.prefix.length ? items.prefix[index] : items.rest, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  const view = objectView(node, value, 0);
  if (!view) return value;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    const sub = view.properties.get(name);
    if (child === null && sub !== undefined && !view.required.has(name) && !sub.acceptsNull) continue;
    setOwn(out, name, restoreValue(child, sub, depth + 1));
  }
  return out;
}

/**
 * Undoes the nullable rewrite of `toOpenAIStrictSchema` for one original schema:
 * `restore` removes `null` from every property that was optional there and whose
 * schema does not accept null, through nested objects and arrays. Built once per
 * schema ({@link nullRestorePlan}); the schema must not change afterwards.
 */
export class NullRestorePlan {
  readonly #root: PlanNode;

  constructor(originalSchema: JsonSchemaObject) {
    this.#root = new PlanBuilder(originalSchema).build(originalSchema);
  }

  /** The arguments with the rewrite's nulls removed; the input is not modified. */
  restore(args: unknown): unknown {
    return restoreValue(args, this.#root, 0);
  }
}

const plans = new WeakMap<object, NullRestorePlan>();

/** The restore plan of an original (not rewritten) schema, built on first use and kept while the schema object lives. */
export function nullRestorePlan(originalSchema: JsonSchemaObject): NullRestorePlan {
  if (typeof originalSchema !== 'object' || originalSchema === null) return new NullRestorePlan(originalSchema);
  let plan = plans.get(originalSchema);
  if (plan === undefined) {
    plan = new NullRestorePlan(originalSchema);
    plans.set(originalSchema, plan);
  }
  return plan;
}

/**
 * Undoes the nullable rewrite of `toOpenAIStrictSchema` on arguments that
 * come back: removes `null` from every property that was optional in
 * `originalSchema` and whose schema there does not accept null, through nested
 * objects and arrays. The input is not modified. Uses the schema's cached
 * {@link NullRestorePlan}.
 */
export function restoreOptionalNulls(originalSchema: JsonSchemaObject, args: unknown): unknown {
  return nullRestorePlan(originalSchema).restore(args);
}
