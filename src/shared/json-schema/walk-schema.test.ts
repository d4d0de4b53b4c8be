import { describe, expect, it } from 'vitest';
import { CORE_KEYWORDS, keywordKind, subschemaShape, SUBSCHEMA_ARRAY_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from './keywords.js';
import { listSubschemas, subschemaSlots, walkSubschemas } from './walk-schema.js';

describe('keyword tables', () => {
  it('classify 2020-12 keywords and the draft-7 forms', () => {
    expect(keywordKind('properties')).toBe('applicator');
    expect(keywordKind('dependencies')).toBe('applicator');
    expect(keywordKind('minLength')).toBe('validation');
    expect(keywordKind('format')).toBe('format');
    expect(keywordKind('description')).toBe('metadata');
    expect(keywordKind('contentSchema')).toBe('content');
    expect(keywordKind('definitions')).toBe('core');
    expect(keywordKind('x-vendor')).toBe('unknown');
    expect(CORE_KEYWORDS).toContain('$dynamicAnchor');
  });

  it('tell how a keyword holds subschemas, `items` by its shape', () => {
    expect(subschemaShape('items', {})).toBe('single');
    expect(subschemaShape('items', [{}])).toBe('array');
    expect(subschemaShape('$defs', {})).toBe('map');
    expect(subschemaShape('enum', [{}])).toBeUndefined();
    expect(subschemaShape('default', {})).toBeUndefined();
    for (const keyword of [...SUBSCHEMA_KEYWORDS, ...SUBSCHEMA_ARRAY_KEYWORDS, ...SUBSCHEMA_MAP_KEYWORDS]) expect(keywordKind(keyword)).not.toBe('unknown');
  });
});

describe('walkSubschemas', () => {
  it('visits every subschema in document order with its pointer and the keyword that holds it', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b': { type: 'string' }, 'm~n': { items: [{ type: 'number' }, true] } },
      additionalProperties: { not: { const: 1 } },
      dependencies: { x: ['y'], z: { required: ['w'] } },
      contentSchema: { type: 'object' },
      $defs: { node: { anyOf: [{ $ref: '#' }] } },
      enum: [{ type: 'not a subschema' }],
      default: { properties: {} },
    };
    const visits = listSubschemas(schema, { rootPointer: '#' });
    expect(visits.map((visit) => [visit.pointer, visit.keyword, visit.key])).toEqual([
      ['#', undefined, undefined],
      ['#/properties/a~1b', 'properties', 'a/b'],
      ['#/properties/m~0n', 'properties', 'm~n'],
      ['#/properties/m~0n/items/0', 'items', 0],
      ['#/additionalProperties', 'additionalProperties', undefined],
      ['#/additionalProperties/not', 'not', undefined],
      ['#/dependencies/z', 'dependencies', 'z'],
      ['#/contentSchema', 'contentSchema', undefined],
      ['#/$defs/node', '$defs', 'node'],
      ['#/$defs/node/anyOf/0', 'anyOf', 0],
    ]);
    expect(visits[3]!.parent?.pointer).toBe('#/properties/m~0n');
  });

  it('does not follow $ref and visits a shared or recursive schema once', () => {
    const shared = { type: 'string' };
    const tree: Record<string, unknown> = { type: 'object', properties: { left: shared, right: shared } };
    (tree.properties as Record<string, unknown>).self = tree;
    expect(listSubschemas(tree).map((visit) => visit.pointer)).toEqual(['', '/properties/left']);
    expect(listSubschemas({ $ref: '#/$defs/a', $defs: { a: { $ref: '#' } } }).map((visit) => visit.pointer)).toEqual(['', '/$defs/a']);
  });

  it('enters the object values of unknown keywords only when asked, never their arrays nor data keywords', () => {
    const root = { 'x-lib': { a: { type: 'string' } }, 'x-list': [{ type: 'null' }], const: { b: {} }, properties: { p: {} } };
    const pointers = (unknownKeywords: boolean): string[] => listSubschemas(root, { unknownKeywords }).map((visit) => visit.pointer);
    expect(pointers(false)).toEqual(['', '/properties/p']);
    expect(pointers(true)).toEqual(['', '/x-lib', '/x-lib/a', '/properties/p']);
  });

  it('walks a very deep schema without exhausting the stack', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 50_000; level++) deep = { items: deep };
    let count = 0;
    walkSubschemas(deep, () => count++);
    expect(count).toBe(50_001);
  });

  it('shares the seen set between walks', () => {
    const common = { type: 'string' };
    const seen = new Set<object>();
    expect(listSubschemas({ items: common }, { seen })).toHaveLength(2);
    expect(listSubschemas({ items: common }, { seen })).toHaveLength(1);
  });

  it('lists the direct slots, leaving out data keywords and dependency arrays', () => {
    expect(subschemaSlots({ if: {}, then: true, enum: [{}], dependencies: { a: ['b'], c: {} } }).map((slot) => `${slot.keyword}:${String(slot.key)}`)).toEqual([
      'if:undefined',
      'then:undefined',
      'dependencies:c',
    ]);
  });
});
