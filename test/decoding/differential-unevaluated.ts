/**
 * Differential schemas for `unevaluatedProperties` whose evaluated names depend on which branch passes (issue #32,
 * item 1): closed unions through `oneOf`/`anyOf`, overlapping `anyOf` branches, `if`/`then`/`else` (and an `if` Ajv
 * ignores), `dependentSchemas`, a nested `unevaluatedProperties`, one with a schema. The registry's Ajv is the
 * reference, quirks included (the names `allOf` evaluated are lost where a `then` holding `properties` does not
 * apply). Checked exhaustively on small flat objects by `object-complements.test.ts`, and (nested ones too) on boundary instances under the
 * three vocabularies by `differential-soundness.test.ts`.
 */
import type { DifferentialCase } from './differential-schemas.js';

const KEYWORDS = ['unevaluatedProperties'];

export const UNEVALUATED_BRANCH_CASES: readonly DifferentialCase[] = [
  {
    name: 'unevaluatedProperties: false over a oneOf discriminated by a const (closed union)',
    keywords: [...KEYWORDS, 'oneOf'],
    schema: {
      type: 'object',
      oneOf: [
        { properties: { kind: { const: 'ab' }, x: { type: 'integer' } }, required: ['kind'] },
        { properties: { kind: { const: 'abcd' }, y: { type: 'boolean' } }, required: ['kind'] },
      ],
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false over an anyOf discriminated by a const',
    keywords: [...KEYWORDS, 'anyOf'],
    schema: {
      type: 'object',
      anyOf: [
        { properties: { kind: { const: 'ab' }, x: { type: 'integer' } }, required: ['kind'] },
        { properties: { kind: { const: 'abcd' }, y: { type: 'boolean' } }, required: ['kind'] },
      ],
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false over overlapping anyOf branches (both pass: both evaluate)',
    keywords: [...KEYWORDS, 'anyOf'],
    schema: {
      type: 'object',
      properties: { zz: { type: 'boolean' } },
      anyOf: [{ properties: { a: { type: 'integer' } } }, { properties: { b: { type: 'string' } } }],
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties with a schema over overlapping oneOf branches',
    keywords: [...KEYWORDS, 'oneOf'],
    schema: {
      oneOf: [
        { properties: { a: { type: 'integer' } }, required: ['a'] },
        { properties: { b: { maxLength: 2 } }, minProperties: 2 },
      ],
      unevaluatedProperties: { type: 'string' },
    },
  },
  {
    name: 'unevaluatedProperties: false beside an if without then or else (Ajv ignores the if)',
    keywords: [...KEYWORDS, 'if'],
    schema: { type: 'object', properties: { b: {} }, if: { properties: { a: { const: 1 } } }, unevaluatedProperties: false },
  },
  {
    name: 'unevaluatedProperties: false over if/then/else each holding properties',
    keywords: [...KEYWORDS, 'if', 'then', 'else'],
    schema: {
      type: 'object',
      if: { properties: { a: { const: 1 } }, required: ['a'] },
      then: { properties: { b: { type: 'integer' } } },
      else: { properties: { c: { type: 'string' } } },
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false, allOf names then an if whose then holds properties (Ajv loses them where the if fails)',
    keywords: [...KEYWORDS, 'allOf', 'if', 'then'],
    schema: {
      type: 'object',
      allOf: [{ properties: { a: {} } }],
      if: { required: ['b'] },
      then: { properties: { b: { type: 'integer' } } },
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false over dependentSchemas holding properties',
    keywords: [...KEYWORDS, 'dependentSchemas'],
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' } },
      dependentSchemas: { a: { properties: { b: { type: 'boolean' } } } },
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false over a oneOf with an unevaluatedProperties of its own in a branch',
    keywords: [...KEYWORDS, 'oneOf'],
    schema: {
      oneOf: [
        { properties: { kind: { const: 'ab' } }, required: ['kind'], unevaluatedProperties: { type: 'integer' } },
        { properties: { kind: { const: 'abcd' }, y: {} }, required: ['kind'] },
      ],
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false over a oneOf of $refs to $defs (closed union, the targets inlined by Ajv)',
    keywords: [...KEYWORDS, 'oneOf', '$ref'],
    schema: {
      type: 'object',
      $defs: {
        integerKind: { properties: { kind: { const: 'ab' }, x: { type: 'integer' } }, required: ['kind'] },
        booleanKind: { allOf: [{ properties: { kind: { const: 'abcd' } } }], properties: { y: { type: 'boolean' } }, required: ['kind'] },
      },
      oneOf: [{ $ref: '#/$defs/integerKind' }, { $ref: '#/$defs/booleanKind' }],
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false beside a $ref and an anyOf',
    keywords: [...KEYWORDS, 'anyOf', '$ref'],
    schema: {
      $defs: { base: { properties: { zz: { type: 'integer' } } } },
      $ref: '#/$defs/base',
      anyOf: [{ properties: { a: { type: 'integer' } }, required: ['a'] }, { properties: { b: { type: 'string' } } }],
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedProperties: false over seven anyOf branches told apart by a const (127 sets of branches, 7 that can pass together)',
    keywords: [...KEYWORDS, 'anyOf'],
    schema: {
      type: 'object',
      anyOf: [1, 9, 'ab', 'abcd', true, 'c', 'd'].map((kind, index) => ({
        properties: { kind: { const: kind }, [`x${index}`]: { type: 'integer' } },
        required: ['kind'],
      })),
      unevaluatedProperties: false,
    },
  },
];

/** Unions closed by `unevaluatedProperties` below the top (values no flat object holds): boundary instances only. */
export const UNEVALUATED_NESTED_CASES: readonly DifferentialCase[] = [
  {
    name: 'a closed anyOf union nested in a property',
    keywords: [...KEYWORDS, 'anyOf'],
    schema: {
      type: 'object',
      properties: {
        n1: {
          anyOf: [{ properties: { a: { type: 'integer' } } }, { properties: { b: { type: 'boolean' } }, required: ['b'] }],
          unevaluatedProperties: false,
        },
      },
    },
  },
];
