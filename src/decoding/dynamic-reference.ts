/**
 * `$dynamicRef` (and draft 2019-09 `$recursiveRef`) as the registry's Ajv resolves them, turned into static
 * references per context. Ajv does not follow the specification's dynamic scope: it keeps one map from anchor names
 * to validate functions per validation, fills an entry the first time any `$dynamicAnchor` of that name *runs*
 * (in evaluation order, across branches that fail, and never unset), and otherwise calls the function whose code
 * holds the reference: the document root, or the target of the `$ref` (or dynamic reference) that entered it, since
 * Ajv compiles every `$ref` target holding a reference keyword as a function of its own. So `$dynamicRef: "#name"`
 * resolves, without approximation, to
 * - the document root, when the root object declares `$dynamicAnchor: name` (it runs first, so the map entry is
 *   the root for the whole validation) and the reference's function is the root or itself declares
 *   `$dynamicAnchor: name` (which marks the name as dynamic before the reference is compiled);
 * - the reference's function, when no `$dynamicAnchor: name` can run (none sits in a subschema reachable through
 *   applicators and `$ref` targets);
 * and is refused otherwise (which anchor the map holds then depends on the instance or on Ajv's compile order).
 * That target is used only where the specification names the same schema (the reference's own target when it lacks
 * a matching `$dynamicAnchor`, else the root when the root declares it); where the two differ the reference is
 * refused, so the mask never accepts a value the registry or the specification rejects.
 * The lowering compiles a schema holding a dynamic reference once per function it is reached in (its "frame"),
 * at most `maxDynamicSpecializations` times in all (`decoding-limits.ts`): each (schema, frame) pair is a location denoted
 * once, about the cost of one more copy of that subschema.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { SUBSCHEMA_ARRAY_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from '../shared/json-schema/keywords.js';
import type { SchemaRegistry } from '../shared/json-schema/schema-registry.js';

/** The keywords that resolve like a dynamic reference in the registry's Ajv. */
export const DYNAMIC_REFERENCE_KEYWORDS = ['$dynamicRef', '$recursiveRef'] as const;

/** Where a dynamic reference leads, why it is refused, or why the registry cannot compile it. */
export type DynamicResolution =
  | { readonly kind: 'target'; readonly schema: Record<string, unknown> }
  | { readonly kind: 'refused'; readonly details: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** Definitions are not applied: an anchor inside them runs only when a reference leads there (followed separately). */
const DEFINITION_KEYWORDS = new Set(['$defs', 'definitions']);

export class DynamicReferences {
  private readonly holding = new WeakMap<object, boolean>();
  private reachableAnchors: Map<string, string> | undefined;

  constructor(
    private readonly root: unknown,
    private readonly registry: SchemaRegistry,
  ) {}

  /** True when the schema's raw text holds a dynamic reference anywhere: then Ajv compiles it as a function when referenced. */
  holdsDynamicReference(schema: unknown): boolean {
    if (typeof schema !== 'object' || schema === null) return false;
    const known = this.holding.get(schema);
    if (known !== undefined) return known;
    // a cycle in the object graph is not JSON; assume the worst while visiting it
    this.holding.set(schema, true);
    let holds = false;
    for (const [key, value] of Object.entries(schema)) {
      if ((!Array.isArray(schema) && (key === '$dynamicRef' || key === '$recursiveRef')) || this.holdsDynamicReference(value)) {
        holds = true;
        break;
      }
    }
    this.holding.set(schema, holds);
    return holds;
  }

  /**
   * Resolves `reference` (the value of `keyword`) met at `base` in the function that starts at `frame`: the schema both
   * the registry's Ajv and the specification resolve it to, or a refusal where they differ or Ajv's choice is not static.
   */
  resolve(keyword: string, reference: unknown, base: string, frame: Record<string, unknown>): DynamicResolution {
    if (typeof reference !== 'string') return { kind: 'invalid', message: `"${keyword}" must be a string` };
    if (!reference.startsWith('#'))
      return {
        kind: 'invalid',
        message: `"${keyword}" ${JSON.stringify(reference)} is not a fragment: the registry's Ajv only supports "#name" (it refuses the schema)`,
      };
    const name = reference.slice(1);
    const registry = this.registryTarget(name, frame);
    if (registry.kind !== 'target') return registry;
    const specification = this.specificationTarget(keyword, reference, name, base);
    if (specification.kind !== 'target') return specification;
    if (registry.schema === specification.schema) return registry;
    return {
      kind: 'refused',
      details: `the registry's Ajv resolves it to ${this.describe(registry.schema)} but the specification to ${this.describe(specification.schema)}; the engine enforces neither`,
    };
  }

  private registryTarget(name: string, frame: Record<string, unknown>): DynamicResolution {
    if (isPlainObject(this.root) && this.root.$dynamicAnchor === name) {
      if (frame === this.root || frame.$dynamicAnchor === name) return { kind: 'target', schema: this.root };
      return {
        kind: 'refused',
        details: `the root declares $dynamicAnchor "${name}", but this reference sits in a $ref target that does not: the registry's Ajv resolves it to the root or to that target depending on the order it compiles them`,
      };
    }
    const anchor = this.anchors().get(name);
    if (anchor !== undefined)
      return {
        kind: 'refused',
        details: `$dynamicAnchor "${name}" at ${anchor} can run during validation: the registry's Ajv then binds the name to whichever such anchor runs first (in evaluation order, even in a failing branch), which depends on the instance`,
      };
    return { kind: 'target', schema: frame };
  }

  /**
   * The specification's target where it is static here: the reference's own target when that lacks a matching
   * `$dynamicAnchor` (a pointer, an `$anchor`, `$recursiveRef` without `$recursiveAnchor`), else the root when the root
   * declares the anchor (the outermost resource of every dynamic scope).
   */
  private specificationTarget(keyword: string, reference: string, name: string, base: string): DynamicResolution {
    const initial = this.registry.resolve(reference, base);
    if (initial === undefined) return { kind: 'refused', details: `cannot resolve "${reference}"` };
    if (!isPlainObject(initial.schema)) return { kind: 'refused', details: `"${reference}" names a boolean schema, which the registry's Ajv does not follow` };
    const bookended = keyword === '$dynamicRef' && !name.startsWith('/') && initial.schema.$dynamicAnchor === name;
    if (!bookended) return { kind: 'target', schema: initial.schema };
    if (isPlainObject(this.root) && this.root.$dynamicAnchor === name) return { kind: 'target', schema: this.root };
    return {
      kind: 'refused',
      details: `"${reference}" lands on a $dynamicAnchor the root does not declare: the specification resolves it through the dynamic scope, which the registry's Ajv does not follow`,
    };
  }

  private describe(schema: Record<string, unknown>): string {
    if (schema === this.root) return 'the root';
    return this.registry.placeOf(schema)?.pointer ?? 'a $ref target';
  }

  /** Names of `$dynamicAnchor`s outside the root object that validation can run into, with the pointer of one. */
  private anchors(): Map<string, string> {
    if (this.reachableAnchors !== undefined) return this.reachableAnchors;
    const anchors = new Map<string, string>();
    const seen = new Set<object>();
    const visit = (schema: unknown, base: string, pointer: string): void => {
      if (!isPlainObject(schema) || seen.has(schema)) return;
      seen.add(schema);
      const place = this.registry.placeOf(schema);
      base = place?.base ?? base;
      pointer = place?.pointer ?? pointer;
      if (schema !== this.root && typeof schema.$dynamicAnchor === 'string' && !anchors.has(schema.$dynamicAnchor)) anchors.set(schema.$dynamicAnchor, pointer);
      for (const [key, value] of Object.entries(schema)) {
        if (DEFINITION_KEYWORDS.has(key)) continue;
        if (SUBSCHEMA_KEYWORDS.includes(key)) visit(value, base, `${pointer}/${key}`);
        if (SUBSCHEMA_ARRAY_KEYWORDS.includes(key) && Array.isArray(value)) value.forEach((part, index) => visit(part, base, `${pointer}/${key}/${index}`));
        if (SUBSCHEMA_MAP_KEYWORDS.includes(key) && isPlainObject(value))
          for (const [name, part] of Object.entries(value)) visit(part, base, `${pointer}/${key}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      }
      if (typeof schema.$ref === 'string') {
        const target = this.registry.resolve(schema.$ref, base);
        if (target !== undefined) visit(target.schema, target.place.base, target.place.pointer);
      }
      // a dynamic reference leads to the root or to a $ref target, both visited from their own reference
    };
    visit(this.root, this.registry.placeOf(this.root)?.base ?? '', '#');
    this.reachableAnchors = anchors;
    return anchors;
  }
}
