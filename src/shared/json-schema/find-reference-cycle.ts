/**
 * Finds a reference cycle that validation would follow forever: a chain of `$ref`/`$dynamicRef`/`$recursiveRef`
 * and in-place applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`) that leads
 * back to where it started while the instance stays the same. The core specification leaves such a schema's
 * behaviour undefined ("Guarding Against Infinite Recursion"); Ajv overflows the stack on it, while compiling or
 * on the first value. A cycle through a keyword that descends into a property, an item or a property name
 * (`properties`, `items`, `additionalProperties`, `unevaluatedProperties`, `contains`, `propertyNames`…) ends
 * with the value's depth, so recursive schemas (trees, linked lists, any JSON value) are not cycles here.
 *
 * References resolve as everywhere else ({@link SchemaRegistry}: `$id`, `$anchor`, `$dynamicAnchor`, never
 * fetched). A dynamic reference may land on its static target, on any schema that declares its anchor
 * (`$dynamicAnchor` of that name, `$recursiveAnchor: true`), or, as Ajv resolves it when no such anchor has run,
 * on the function it sits in: the root or an enclosing `$ref` target. All of them count as targets. Only cycles that
 * validation can reach from the root count: an unused definition is never compiled. The search is iterative, so a
 * hostile schema cannot exhaust the stack.
 * @module
 */
import { isPlainObject } from '../own.js';
import { DEFAULT_BASE, SchemaRegistry, type SchemaPlace } from './schema-registry.js';
import { subschemaSlots, walkSubschemas, type SchemaRecord } from './walk-schema.js';

/** Applicators that apply their subschemas to the instance itself rather than to a part of it. */
export const IN_PLACE_APPLICATORS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependencies']);

/** Subschema keywords validation never applies: definitions are reached only through a reference, `contentSchema` is an annotation. */
const NOT_APPLIED: ReadonlySet<string> = new Set(['$defs', 'definitions', 'contentSchema']);

/**
 * The first reference cycle validation can reach that never descends into the instance, as the JSON pointers of the
 * schemas along it, the first repeated at the end (`['#/$defs/x', '#/$defs/y', '#/$defs/x']`); `undefined` when there is none.
 */
export function findReferenceCycle(root: unknown): string[] | undefined {
  if (!isPlainObject(root)) return undefined;
  const graph = new ReferenceGraph(root);
  const reachable = graph.reachableFromRoot();
  const state = new Map<SchemaRecord, 'open' | 'done'>();
  for (const start of reachable) {
    if (state.has(start)) continue;
    // depth-first over in-place edges only; `open` marks the schemas on the current path
    const path: { schema: SchemaRecord; next: SchemaRecord[]; index: number }[] = [{ schema: start, next: graph.inPlaceTargets(start), index: 0 }];
    state.set(start, 'open');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      if (top.index === top.next.length) {
        state.set(top.schema, 'done');
        path.pop();
        continue;
      }
      const target = top.next[top.index++]!;
      const seen = state.get(target);
      if (seen === 'done') continue;
      if (seen === 'open') {
        const from = path.findIndex((entry) => entry.schema === target);
        return [...path.slice(from).map((entry) => graph.pointerOf(entry.schema)), graph.pointerOf(target)];
      }
      state.set(target, 'open');
      path.push({ schema: target, next: graph.inPlaceTargets(target), index: 0 });
    }
  }
  return undefined;
}

/** Schemas as nodes, with edges for references and for the subschemas validation applies. */
class ReferenceGraph {
  private readonly registry: SchemaRegistry;
  private readonly places = new Map<SchemaRecord, SchemaPlace>();
  private readonly dynamicAnchors = new Map<string, SchemaRecord[]>();
  private readonly recursiveAnchors: SchemaRecord[] = [];
  private readonly parents = new Map<SchemaRecord, SchemaRecord>();
  /** Reference targets and dynamic anchors: Ajv compiles each (holding a reference) as a function of its own, which a dynamic reference inside may call. */
  private readonly referenced = new Set<SchemaRecord>();

  constructor(private readonly root: SchemaRecord) {
    this.registry = new SchemaRegistry(root);
    walkSubschemas(
      root,
      ({ schema, pointer, parent }) => {
        this.places.set(schema, this.registry.placeOf(schema) ?? { base: DEFAULT_BASE, pointer });
        if (parent !== undefined) this.parents.set(schema, parent.schema);
        if (typeof schema.$dynamicAnchor === 'string') {
          const named = this.dynamicAnchors.get(schema.$dynamicAnchor) ?? [];
          named.push(schema);
          this.dynamicAnchors.set(schema.$dynamicAnchor, named);
        }
        if (schema.$recursiveAnchor === true) this.recursiveAnchors.push(schema);
      },
      { rootPointer: '#' },
    );
    for (const schema of [...this.places.keys()]) {
      for (const keyword of ['$ref', '$dynamicRef', '$recursiveRef']) {
        const target = this.resolve(schema, schema[keyword]);
        if (target) this.referenced.add(target);
      }
      // Ajv compiles a dynamic anchor's schema as a function too, entered through the anchor map
      if (typeof schema.$dynamicAnchor === 'string' || schema.$recursiveAnchor === true) this.referenced.add(schema);
    }
  }

  pointerOf(schema: SchemaRecord): string {
    return this.places.get(schema)?.pointer ?? '#';
  }

  /** Every schema validation can apply, starting from the root, through any applicator or reference. */
  reachableFromRoot(): SchemaRecord[] {
    const reached = new Set<SchemaRecord>([this.root]);
    const work: SchemaRecord[] = [this.root];
    while (work.length > 0) {
      const schema = work.pop()!;
      const next = [...this.referenceTargets(schema)];
      for (const slot of subschemaSlots(schema)) if (!NOT_APPLIED.has(slot.keyword) && isPlainObject(slot.schema)) next.push(slot.schema);
      for (const target of next) {
        if (reached.has(target)) continue;
        reached.add(target);
        work.push(target);
      }
    }
    return [...reached];
  }

  /** The schemas applied to the same instance as `schema`: its in-place subschemas and what its references name. */
  inPlaceTargets(schema: SchemaRecord): SchemaRecord[] {
    const targets = this.referenceTargets(schema);
    // "if" without "then" or "else" decides nothing, and they nothing without it: neither the specification nor Ajv applies them
    const conditional = 'if' in schema && ('then' in schema || 'else' in schema);
    for (const slot of subschemaSlots(schema)) {
      if (!IN_PLACE_APPLICATORS.has(slot.keyword) || !isPlainObject(slot.schema)) continue;
      if ((slot.keyword === 'if' || slot.keyword === 'then' || slot.keyword === 'else') && !conditional) continue;
      targets.push(slot.schema);
    }
    return targets;
  }

  private resolve(schema: SchemaRecord, reference: unknown): SchemaRecord | undefined {
    if (typeof reference !== 'string') return undefined;
    const resolved = this.registry.resolve(reference, this.places.get(schema)?.base);
    if (resolved === undefined || !isPlainObject(resolved.schema)) return undefined;
    // a pointer into a value that is not a subschema position (`#/default`) is still followed by Ajv; it is met here first
    if (!this.places.has(resolved.schema)) {
      const pointer = resolved.place.pointer.startsWith(`${DEFAULT_BASE}#`) ? resolved.place.pointer.slice(DEFAULT_BASE.length) : resolved.place.pointer;
      this.places.set(resolved.schema, { base: resolved.place.base, pointer });
    }
    return resolved.schema;
  }

  private referenceTargets(schema: SchemaRecord): SchemaRecord[] {
    const targets: SchemaRecord[] = [];
    const referenced = this.resolve(schema, schema.$ref);
    if (referenced) targets.push(referenced);
    for (const keyword of ['$dynamicRef', '$recursiveRef'] as const) {
      const reference = schema[keyword];
      if (typeof reference !== 'string') continue;
      const initial = this.resolve(schema, reference);
      if (initial) targets.push(initial);
      if (keyword === '$dynamicRef') targets.push(...(this.dynamicAnchors.get(reference.slice(reference.indexOf('#') + 1)) ?? []));
      else targets.push(...this.recursiveAnchors);
      targets.push(...this.enclosingFunctions(schema));
    }
    return targets;
  }

  /** The root and every reference target or dynamic anchor that holds `schema` (itself included): the functions Ajv may have compiled it into. */
  private enclosingFunctions(schema: SchemaRecord): SchemaRecord[] {
    const functions: SchemaRecord[] = [];
    for (let at: SchemaRecord | undefined = schema; at !== undefined; at = this.parents.get(at))
      if (at === this.root || this.referenced.has(at)) functions.push(at);
    return functions;
  }
}
