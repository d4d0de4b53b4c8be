/**
 * JSON Schema (2020-12) → value nodes (`grammar-ir.ts`), in three stages over one shared context (`lower-context.ts`):
 * reference resolution gives every schema reached a location (`lower-references.ts`); the set algebra denotes each
 * set of locations as a union of typed alternatives, intersecting for `allOf`, `$ref` and sibling keywords, uniting
 * for `anyOf` and disjoint `oneOf` branches (`lower-set-algebra.ts`, `lower-keywords.ts`); node emission lowers them
 * to the grammar's nodes (`lower-emit.ts`). A keyword that cannot be enforced exactly is an `UnsupportedSchemaError`
 * naming it and its JSON pointer.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { ValueNode } from './grammar-ir.js';
import { LoweringContext, type LowerOptions } from './lower-context.js';
import { NodeEmitter } from './lower-emit.js';
import { rejectNonUnicodePatterns, SchemaLocations } from './lower-references.js';
import { followShortTupleSkips } from './short-tuple-skips.js';
import { SetAlgebra } from './lower-set-algebra.js';
import { jsonEqual, layoutNames, literalText, valueSetFor, type LocationSet, type RelaxedKeyword, type Typed } from './lower-typed.js';

export type { LowerOptions } from './lower-context.js';
export { jsonEqual, literalText, type RelaxedKeyword } from './lower-typed.js';

export interface LoweredSchema {
  readonly root: ValueNode;
  readonly nodes: readonly ValueNode[];
  readonly relaxed: readonly RelaxedKeyword[];
  /** The engine-layout text of a value, or undefined when the schema rejects it. */
  serialize(value: unknown): string | undefined;
  /** Whether the schema (as the engine enforces it) accepts the value. */
  accepts(value: unknown): boolean;
}

export function lowerJsonSchema(schema: unknown, options: LowerOptions): LoweredSchema {
  let context = new LoweringContext(schema, options);
  rejectNonUnicodePatterns(context);
  const asAjvRuns = followShortTupleSkips(context);
  if (asAjvRuns !== schema) context = new LoweringContext(asAjvRuns, options);
  const references = new SchemaLocations(context);
  const algebra = new SetAlgebra(context, references);
  const rootSchema = context.root;
  const rootPlace = context.registry.placeOf(rootSchema) ?? { base: '', pointer: '#' };
  const rootSet = references.locate(rootSchema, rootPlace, isPlainObject(rootSchema) ? rootSchema : undefined);
  const { root, nodes } = new NodeEmitter(context, references, algebra).emit(rootSet);
  uncheckBesideRememberedStrings(nodes, context);
  return {
    root,
    nodes,
    relaxed: context.relaxed,
    serialize: (value) => serialize(algebra, value, rootSet),
    accepts: (value) => algebra.satisfiesSet(value, rootSet),
  };
}

/**
 * A decimal `multipleOf` checked at run time (`written-numbers.ts`) beside strings or items remembered at run time
 * (`written-strings.ts`): each memory walks tokens by its own rule only, so together a token could pass one and not the
 * other. Refused (lenient: the numbers go unchecked, the exact multiples of the range offered).
 */
function uncheckBesideRememberedStrings(nodes: readonly ValueNode[], context: LoweringContext): void {
  const alternatives = nodes.flatMap((node) => node.alternatives);
  const remembers = alternatives.some(
    (alternative) =>
      (alternative.kind === 'array' && (alternative.uniqueStrings || alternative.uniqueContainers || alternative.uniqueNumbers)) ||
      (alternative.kind === 'object' && alternative.distinctKeys),
  );
  if (!remembers) return;
  for (const node of nodes) {
    node.alternatives = node.alternatives.map((alternative) => {
      if (alternative.kind !== 'number' || alternative.check === undefined) return alternative;
      context.refuse(
        'multipleOf',
        alternative.check.pointer,
        `a multipleOf of ${alternative.check.divisor} on a range this wide is checked as each number is written, which this engine does not combine with uniqueItems over strings, integers, objects or arrays, or distinct undeclared keys`,
      );
      return { ...alternative, check: undefined };
    });
  }
}

/**
 * Undeclared keys with a witness last: the automaton closes an object with key witnesses only after an undeclared key
 * that fails every witness no declared key (outside the witness's names) fails already.
 */
function witnessLast(algebra: SetAlgebra, typed: Typed, object: Record<string, unknown>, declared: readonly string[], undeclared: string[]): string[] {
  const open = typed.witnesses.filter((witness) => !declared.some((name) => algebra.witnesses(witness, name, object[name])));
  if (open.length === 0) return undeclared;
  const last = undeclared.findLastIndex((name) => open.every((witness) => algebra.witnesses(witness, name, object[name])));
  return last < 0 ? undeclared : [...undeclared.slice(0, last), ...undeclared.slice(last + 1), undeclared[last]!];
}

/** The engine-layout text of `value` under `set` (declared properties in layout order, then the rest), or undefined when rejected. */
function serialize(algebra: SetAlgebra, value: unknown, set: LocationSet): string | undefined {
  for (const typed of algebra.denoteSet(set)) {
    if (!algebra.satisfiesTyped(value, typed)) continue;
    if (typed.literals !== undefined) return literalText(typed.literals.find((literal) => jsonEqual(literal, value)));
    switch (typed.type) {
      case 'array': {
        const parts: string[] = [];
        for (const [index, item] of (value as unknown[]).entries()) {
          const text = serialize(algebra, item, typed.prefix[index] ?? typed.items);
          if (text === undefined) return undefined;
          parts.push(text);
        }
        return `[${parts.join(',')}]`;
      }
      case 'object': {
        const object = value as Record<string, unknown>;
        const layout = layoutNames(typed);
        const names = layout.filter((name) => Object.prototype.hasOwnProperty.call(object, name));
        const declared = new Set(layout);
        const undeclared = Object.keys(object).filter((name) => !declared.has(name));
        names.push(...witnessLast(algebra, typed, object, names, undeclared));
        const parts: string[] = [];
        for (const name of names) {
          const text = serialize(algebra, object[name], valueSetFor(typed, name));
          if (text === undefined) return undefined;
          parts.push(`${JSON.stringify(name)}:${text}`);
        }
        return `{${parts.join(',')}}`;
      }
      default:
        return literalText(value);
    }
  }
  return undefined;
}
