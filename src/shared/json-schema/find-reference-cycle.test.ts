import { describe, expect, it } from 'vitest';
import { findReferenceCycle } from './find-reference-cycle.js';
import { JSON_VALUE_SCHEMA, LINKED_LIST_SCHEMA } from '../../../test/fixtures/recursive-schemas.js';

describe('findReferenceCycle', () => {
  it.each([
    ['a property that refers to itself', { type: 'object', properties: { a: { $ref: '#/properties/a' } } }, ['#/properties/a', '#/properties/a']],
    ['the root referring to itself beside its own keywords', { $ref: '#', type: 'object' }, ['#', '#']],
    ['the root applied again through allOf', { type: 'object', allOf: [{ $ref: '#' }] }, ['#', '#/allOf/0', '#']],
    [
      'two definitions through anyOf, used under a property',
      { type: 'object', properties: { p: { $ref: '#/$defs/x' } }, $defs: { x: { anyOf: [{ $ref: '#/$defs/y' }] }, y: { $ref: '#/$defs/x' } } },
      ['#/$defs/x', '#/$defs/x/anyOf/0', '#/$defs/y', '#/$defs/x'],
    ],
    ['a loop through not', { type: 'object', not: { $ref: '#' } }, ['#', '#/not', '#']],
    ['a loop through then', { type: 'object', if: { required: ['a'] }, then: { $ref: '#' } }, ['#', '#/then', '#']],
    ['a loop through if', { type: 'object', if: { $ref: '#' }, else: false }, ['#', '#/if', '#']],
    ['a loop through dependentSchemas', { type: 'object', dependentSchemas: { a: { $ref: '#' } } }, ['#', '#/dependentSchemas/a', '#']],
    [
      'an $anchor',
      { type: 'object', properties: { p: { $ref: '#a' } }, $defs: { x: { $anchor: 'a', allOf: [{ $ref: '#a' }] } } },
      ['#/$defs/x', '#/$defs/x/allOf/0', '#/$defs/x'],
    ],
    [
      '"#" inside an embedded resource ($id), which names that resource',
      { $id: 'https://example.test/root', type: 'object', properties: { p: { $ref: 'other' } }, $defs: { o: { $id: 'other', oneOf: [{ $ref: '#' }] } } },
      ['#/$defs/o', '#/$defs/o/oneOf/0', '#/$defs/o'],
    ],
    [
      'a $dynamicRef back to the root that declares its anchor',
      { $dynamicAnchor: 'node', type: 'object', anyOf: [{ $dynamicRef: '#node' }] },
      ['#', '#/anyOf/0', '#'],
    ],
    [
      'a pointer into a value keyword, which Ajv follows too',
      { type: 'object', properties: { p: { $ref: '#/default' } }, default: { $ref: '#/default' } },
      ['#/default', '#/default'],
    ],
  ])('finds %s, with the path of the loop', (_name, schema, path) => {
    expect(findReferenceCycle(schema)).toEqual(path);
  });

  it('finds the $dynamicRef that Ajv resolves to the function holding it (a $ref target), though the specification would not loop', () => {
    // JSON-Schema-Test-Suite, dynamicRef.json "$dynamicRef avoids the root of each schema, but scopes are still registered": Ajv overflows on every value
    const schema = {
      $id: 'https://example.test/base',
      type: 'object',
      properties: { text: { $ref: 'first#/$defs/stuff' } },
      $defs: {
        first: { $id: 'first', $defs: { stuff: { $ref: 'second#/$defs/stuff' } } },
        second: { $id: 'second', $defs: { stuff: { $ref: 'third#/$defs/stuff' }, length: { $dynamicAnchor: 'length', maxLength: 2 } } },
        third: { $id: 'third', $defs: { stuff: { $dynamicRef: '#length' }, length: { $dynamicAnchor: 'length', maxLength: 3 } } },
      },
    };
    expect(findReferenceCycle(schema)).toEqual(['#/$defs/third/$defs/stuff', '#/$defs/third/$defs/stuff']);
  });

  it('finds a $dynamicRef to an anchor nothing declares, which Ajv resolves to the function holding it', () => {
    const schema = { type: 'object', properties: { p: { $ref: '#/$defs/a' } }, $defs: { a: { $dynamicAnchor: 'n', allOf: [{ $dynamicRef: '#m' }] } } };
    expect(findReferenceCycle(schema)).toEqual(['#/$defs/a', '#/$defs/a/allOf/0', '#/$defs/a']);
  });

  it('finds a $dynamicRef that lands on the dynamic anchor holding it (the specification loops there; Ajv only once the anchor has run)', () => {
    const schema = { type: 'object', properties: { p: { $dynamicRef: '#n' } }, $defs: { a: { $dynamicAnchor: 'n', allOf: [{ $dynamicRef: '#n' }] } } };
    expect(findReferenceCycle(schema)).toEqual(['#/$defs/a', '#/$defs/a/allOf/0', '#/$defs/a']);
  });

  it.each([
    ['a tree', { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } }],
    ['a linked list', LINKED_LIST_SCHEMA],
    ['any JSON value', JSON_VALUE_SCHEMA],
    [
      'references through prefixItems, patternProperties, contains and propertyNames',
      { type: 'object', prefixItems: [{ $ref: '#' }], patternProperties: { '^x': { $ref: '#' } }, contains: { $ref: '#' }, propertyNames: { $ref: '#' } },
    ],
    [
      'references through unevaluatedProperties and unevaluatedItems (they apply to properties and items)',
      { type: ['object', 'array'], unevaluatedProperties: { $ref: '#' }, unevaluatedItems: { $ref: '#' } },
    ],
    [
      'a tree extended with $dynamicRef',
      { $dynamicAnchor: 'node', type: 'object', properties: { children: { type: 'array', items: { $dynamicRef: '#node' } } } },
    ],
    [
      'a chain of references that ends',
      { type: 'object', properties: { p: { $ref: '#/$defs/a' } }, $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { type: 'string' } } },
    ],
    ['"if" alone, and "then" without "if" (neither is applied)', { type: 'object', anyOf: [{ if: { $ref: '#' } }, { then: { $ref: '#' } }] }],
    ['a loop only in a definition nothing uses', { type: 'object', $defs: { x: { $ref: '#/$defs/y' }, y: { $ref: '#/$defs/x' } } }],
    ['a reference that resolves to nothing (Ajv refuses it on its own)', { type: 'object', allOf: [{ $ref: '#/$defs/missing' }] }],
    ['boolean schemas and non-objects', true],
  ])('accepts %s', (_name, schema) => {
    expect(findReferenceCycle(schema)).toBeUndefined();
  });

  it('walks a schema nested 100,000 levels deep without exhausting the stack', () => {
    let schema: Record<string, unknown> = { allOf: [{ $ref: '#' }] };
    for (let depth = 0; depth < 100_000; depth++) schema = { allOf: [schema] };
    const cycle = findReferenceCycle(schema);
    expect(cycle?.[0]).toBe('#');
    expect(cycle).toHaveLength(100_003);
  });
});
