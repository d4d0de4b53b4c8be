/**
 * Differential schemas for complements of objects (issue #32, part K1): `not`, `oneOf` and `if` over objects whose
 * undeclared keys are constrained by `additionalProperties` or `patternProperties` on an open object, and complements
 * of object literals (`enum`/`const`), in the shapes the JSONSchemaBench corpus uses them. Checked by
 * `differential-soundness.test.ts` like the rest of `DIFFERENTIAL_CASES`.
 */
import type { DifferentialCase } from './differential-schemas.js';

/** A closed object that holds `name` only, its value in `value`. */
function closedWith(name: string, value: unknown): Record<string, unknown> {
  return { type: 'object', properties: { [name]: value }, required: [name], additionalProperties: false };
}

/** Six closed objects, each with one required key of its own: a union whose complement multiplies six sets of failures. */
const SIX_CLOSED = [
  closedWith('a', { type: 'integer' }),
  closedWith('b', { type: 'string', maxLength: 2 }),
  closedWith('c', { type: 'boolean' }),
  closedWith('d', { maximum: 5 }),
  closedWith('e', { minLength: 3 }),
  closedWith('f', { type: 'null' }),
];

export const OBJECT_COMPLEMENT_CASES: readonly DifferentialCase[] = [
  {
    name: 'not additionalProperties of a type on an open object with a declared property',
    keywords: ['not', 'additionalProperties'],
    schema: { type: 'object', properties: { id: { type: 'integer' } }, not: { additionalProperties: { type: 'string', maxLength: 2 } } },
  },
  {
    name: 'not additionalProperties: false (some undeclared key exists)',
    keywords: ['not', 'additionalProperties'],
    schema: { type: 'object', properties: { id: { type: 'integer' }, tag: { type: 'string' } }, not: { additionalProperties: false } },
  },
  {
    name: 'overlapping oneOf of an open and a closed object',
    keywords: ['oneOf', 'additionalProperties', 'required'],
    schema: {
      oneOf: [
        { type: 'object', properties: { kind: { type: 'string', maxLength: 3 } }, required: ['kind'] },
        { type: 'object', properties: { kind: { type: 'string' }, size: { type: 'integer', minimum: 0 } }, required: ['kind'], additionalProperties: false },
      ],
    },
  },
  {
    name: 'not patternProperties with additionalProperties beside declared names',
    keywords: ['not', 'patternProperties', 'additionalProperties'],
    schema: {
      type: 'object',
      properties: { name: { type: 'string' }, 'x-b': { type: 'integer' } },
      not: { properties: { name: { maxLength: 3 } }, patternProperties: { '^x-': { type: 'integer' } }, additionalProperties: { type: 'boolean' } },
    },
  },
  {
    name: 'overlapping oneOf of pattern-keyed objects (scale selectors), open and closed',
    keywords: ['oneOf', 'patternProperties', 'additionalProperties'],
    schema: {
      oneOf: [
        { type: 'object', patternProperties: { '^[0-9]x$': { type: 'string', maxLength: 2 } }, additionalProperties: false, minProperties: 1 },
        { type: 'object', patternProperties: { '^[a-z]+$': { type: 'integer' } } },
      ],
    },
  },
  {
    name: 'not of additionalProperties on an object whose own patternProperties constrain keys',
    keywords: ['not', 'patternProperties', 'additionalProperties'],
    schema: { type: 'object', patternProperties: { '^n': { type: 'number' } }, not: { additionalProperties: { type: 'number', maximum: 5 } } },
  },
  {
    name: 'a property declared beside the complement (allOf): the declared key or an undeclared one fails',
    keywords: ['not', 'allOf', 'additionalProperties'],
    schema: { type: 'object', allOf: [{ not: { additionalProperties: { type: 'integer' } } }, { properties: { q: { type: 'string', maxLength: 2 } } }] },
  },
  {
    name: 'complement of object literals (enum) on an open object',
    keywords: ['not', 'enum'],
    schema: { type: 'object', properties: { a: { type: 'integer' } }, not: { enum: [{ a: 1 }, { a: 2, b: true }] } },
  },
  {
    name: 'if a const object then, else on an open object',
    keywords: ['if', 'const', 'then', 'else', 'required'],
    schema: {
      type: 'object',
      properties: { mode: { enum: ['a', 'b'] }, n: { type: 'integer', minimum: 0 } },
      if: { const: { mode: 'a' } },
      then: { maxProperties: 1 },
      else: { required: ['n'] },
    },
  },
  {
    name: 'two complements: some undeclared key, and some key failing additionalProperties',
    keywords: ['not', 'allOf', 'additionalProperties'],
    schema: { type: 'object', allOf: [{ not: { additionalProperties: false } }, { not: { additionalProperties: { type: 'string' } } }], maxProperties: 3 },
  },
  {
    name: 'complement of a key witness: a recursive open object as the condition of if (not split)',
    keywords: ['if', 'else', 'not', 'additionalProperties', '$ref'],
    schema: {
      $defs: { open: { type: 'object', properties: { next: { $ref: '#/$defs/open' } }, not: { additionalProperties: { type: 'integer', maximum: 5 } } } },
      if: { $ref: '#/$defs/open' },
      else: { type: 'object', maxProperties: 1 },
    },
    // the condition holds by its last undeclared key: written in another order, another key may come last
    propertyOrders: ['schema'],
  },
  {
    name: 'complement of a key witness: overlapping pattern-keyed oneOf whose values refer back to it',
    keywords: ['oneOf', 'patternProperties', 'additionalProperties', '$ref'],
    schema: {
      $defs: { node: { oneOf: [{ type: 'integer' }, { $ref: '#' }] } },
      oneOf: [
        { type: 'object', patternProperties: { '^[a-z]+$': { $ref: '#/$defs/node' } }, additionalProperties: false },
        { type: 'object', patternProperties: { '^[a-z0-9]+$': { type: ['integer', 'string'], maxLength: 2 } }, additionalProperties: false },
      ],
    },
    propertyOrders: ['schema'],
  },
  {
    name: 'not anyOf six closed objects, one key each (split by the key each requires)',
    keywords: ['not', 'anyOf', 'required', 'additionalProperties'],
    schema: { type: 'object', not: { anyOf: SIX_CLOSED } },
  },
  {
    name: 'not of a recursive oneOf of closed objects told apart by their keys',
    keywords: ['not', 'oneOf', 'required', 'additionalProperties', '$ref'],
    schema: {
      $defs: { expression: { oneOf: [closedWith('a', { $ref: '#/$defs/expression' }), ...SIX_CLOSED.slice(1)] } },
      type: 'object',
      not: { $ref: '#/$defs/expression' },
    },
  },
  {
    name: 'if a recursive oneOf of closed objects told apart by their keys, else some key',
    keywords: ['if', 'then', 'else', 'oneOf', 'required', 'additionalProperties', '$ref'],
    schema: {
      $defs: { expression: { oneOf: [closedWith('a', { $ref: '#/$defs/expression' }), ...SIX_CLOSED.slice(1)] } },
      type: 'object',
      if: { $ref: '#/$defs/expression' },
      then: { maxProperties: 1 },
      else: { minProperties: 1 },
    },
  },
];
