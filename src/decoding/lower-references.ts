/**
 * Stage 1 of the lowering (`lower-json-schema.ts`), reference resolution: every schema reached (through a keyword, a
 * `$ref`, a dynamic reference in its frame) gets one location id, and a set of ids is the conjunction the later stages
 * denote. The complements that `not`, `if` and `contains` need are locations of their own, made here too. Before any
 * of it, `rejectNonUnicodePatterns` refuses the schemas the registry's validator refuses for their regexes.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { escapePointer } from '../shared/json-schema/json-pointer.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import { subschemaSlots } from '../shared/json-schema/walk-schema.js';
import type { LoweringContext } from './lower-context.js';
import { FALSE_LOCATION, FALSE_SET, jsonEqual, TRUE_SET, unionSets, type Location, type LocationSet } from './lower-typed.js';

/**
 * The registry's Ajv compiles every `pattern` and `patternProperties` key it reaches (all subschemas but unreferenced
 * definitions) as `new RegExp(source, "u")`, and a regex that is not valid under the `u` flag (`\:`, a lone `]`)
 * fails the whole schema, whether a value ever gets there or not. The engine refuses the same schemas the same way.
 */
export function rejectNonUnicodePatterns(context: LoweringContext): void {
  const check = (source: unknown, pointer: string): void => {
    if (typeof source !== 'string') return;
    try {
      new RegExp(source, 'u');
    } catch (error) {
      context.invalid(
        pointer,
        `the pattern ${JSON.stringify(source)} is not a valid regular expression with the "u" flag (${(error as Error).message}), so the registry's validator refuses the schema too; escape only syntax characters (write ":" for "\\:") and escape a literal "]" or "}"`,
      );
    }
  };
  const seen = new Set<object>();
  const work: { schema: unknown; place: SchemaPlace }[] = [
    { schema: context.root, place: context.registry.placeOf(context.root) ?? { base: '', pointer: '#' } },
  ];
  while (work.length > 0) {
    const { schema, place } = work.pop()!;
    if (!isPlainObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    check(schema.pattern, `${place.pointer}/pattern`);
    if (isPlainObject(schema.patternProperties))
      for (const source of Object.keys(schema.patternProperties)) check(source, `${place.pointer}/patternProperties`);
    for (const slot of subschemaSlots(schema)) {
      // Ajv compiles a definition only where a $ref reaches it, and never contentSchema (an annotation)
      if (slot.keyword === '$defs' || slot.keyword === 'definitions' || slot.keyword === 'contentSchema') continue;
      const pointer = `${place.pointer}/${slot.keyword}${slot.key === undefined ? '' : `/${escapePointer(String(slot.key))}`}`;
      work.push({ schema: slot.schema, place: context.registry.placeOf(slot.schema) ?? { base: place.base, pointer } });
    }
    if (typeof schema.$ref === 'string') {
      const target = context.registry.resolve(schema.$ref, place.base);
      if (target !== undefined) work.push(target);
    }
  }
}

/** The locations of one lowering: one id per schema reached (per frame, for a schema holding a dynamic reference). */
export class SchemaLocations {
  private readonly locationOf = new Map<unknown, number>();
  /** Locations of schemas holding a dynamic reference, by schema then frame (see `dynamic-reference.ts`). */
  private readonly framedLocationOf = new Map<unknown, Map<unknown, number>>();
  private framedLocationCount = 0;
  private readonly complementLocations = new Map<string, LocationSet>();
  private readonly literalLocations = new Map<string, LocationSet>();

  constructor(private readonly context: LoweringContext) {}

  locate(schema: unknown, place: SchemaPlace, frame?: Record<string, unknown>): LocationSet {
    if (schema === true) return TRUE_SET;
    if (schema === false) return FALSE_SET;
    if (!isPlainObject(schema)) this.context.invalid(place.pointer, 'a schema must be an object or a boolean');
    if (frame !== undefined && this.context.dynamicReferences.holdsDynamicReference(schema)) return this.locateFramed(schema, place, frame);
    let id = this.locationOf.get(schema);
    if (id === undefined) {
      id = this.context.locations.length;
      this.context.locations.push({ id, schema, place: this.context.registry.placeOf(schema) ?? place });
      this.locationOf.set(schema, id);
    }
    return [id];
  }

  /** One location per (schema, frame): a dynamic reference inside resolves by its frame, so each frame is a copy. */
  private locateFramed(schema: Record<string, unknown>, place: SchemaPlace, frame: Record<string, unknown>): LocationSet {
    let byFrame = this.framedLocationOf.get(schema);
    if (byFrame === undefined) {
      byFrame = new Map();
      this.framedLocationOf.set(schema, byFrame);
    }
    let id = byFrame.get(frame);
    if (id === undefined) {
      const resolvedPlace = this.context.registry.placeOf(schema) ?? place;
      if (++this.framedLocationCount > this.context.limits.maxDynamicSpecializations) {
        this.context.refuse(
          '$dynamicRef',
          resolvedPlace.pointer,
          `the schemas holding dynamic references need more than ${this.context.limits.maxDynamicSpecializations} copies, one per $ref target they are reached through (limits.maxDynamicSpecializations)`,
        );
        // lenient: one copy without a frame, whose dynamic references are dropped (looser than the schema)
        return this.locate(schema, place);
      }
      id = this.context.locations.length;
      this.context.locations.push({ id, schema, place: resolvedPlace, frame });
      byFrame.set(frame, id);
    }
    return [id];
  }

  child(location: Location, keyword: string, value: unknown, suffix = ''): LocationSet {
    return this.locate(value, { base: location.place.base, pointer: `${location.place.pointer}/${keyword}${suffix}` }, location.frame);
  }

  /** A location set that denotes one JSON value, as `{ "const": value }` at `pointer` (complements of array and object literals use them). */
  literalSet(value: unknown, pointer: string): LocationSet {
    const key = `${pointer}\u0000${JSON.stringify(value)}`;
    let set = this.literalLocations.get(key);
    if (set === undefined) {
      set = this.locate({ const: value }, { base: '', pointer });
      this.literalLocations.set(key, set);
    }
    return set;
  }

  /** A location set that denotes every JSON value `set` rejects. */
  complementSet(set: LocationSet): LocationSet {
    if (set.length === 0) return FALSE_SET;
    if (set[0] === FALSE_LOCATION) return TRUE_SET;
    // ¬¬S is S: denoting it as the complement of a complement would multiply the pieces of both
    const negated = this.plainComplementOf(set);
    if (negated !== undefined) return negated;
    const key = set.join(',');
    let complement = this.complementLocations.get(key);
    if (complement === undefined) {
      const place = this.context.locations[set[0]!]!.place;
      const id = this.context.locations.length;
      this.context.locations.push({ id, schema: {}, place: { base: place.base, pointer: `${place.pointer}` }, complementOf: set });
      complement = [id];
      this.complementLocations.set(key, complement);
    }
    return complement;
  }

  /** A location denoting the values of `within` that `set` rejects; a complement it cannot build refuses `keyword` at `pointer`. */
  differenceSet(within: LocationSet, set: LocationSet, keyword: string, pointer: string): LocationSet {
    if (within[0] === FALSE_LOCATION || set.length === 0) return FALSE_SET;
    if (set[0] === FALSE_LOCATION) return within;
    // W ∧ ¬¬S is W ∧ S (a `contains` of an item's complement, counted per cell)
    const negated = this.plainComplementOf(set);
    if (negated !== undefined) return unionSets(within, negated);
    const key = `${within.join(',')}\u0000${set.join(',')}\u0000${keyword}\u0000${pointer}`;
    let difference = this.complementLocations.get(key);
    if (difference === undefined) {
      const place = this.context.locations[set[0]!]!.place;
      const id = this.context.locations.length;
      this.context.locations.push({ id, schema: {}, place: { base: place.base, pointer }, complementOf: set, within, keyword });
      difference = [id];
      this.complementLocations.set(key, difference);
    }
    return difference;
  }

  /** The set `set` is the complement of, when `set` is one location denoting every value of that set's complement; else undefined. */
  private plainComplementOf(set: LocationSet): LocationSet | undefined {
    if (set.length !== 1) return undefined;
    const location = this.context.locations[set[0]!]!;
    return location.complementOf !== undefined && location.within === undefined ? location.complementOf : undefined;
  }

  sameSchemas(left: LocationSet, right: LocationSet): boolean {
    if (left.length !== right.length) return false;
    return left.every((id, index) => {
      const [a, b] = [this.context.locations[id]!, this.context.locations[right[index]!]!];
      return (
        a.complementOf === undefined && b.complementOf === undefined && a.frame === b.frame && a.place.base === b.place.base && jsonEqual(a.schema, b.schema)
      );
    });
  }
}
