/**
 * Complements whose pieces multiplied past the alternatives budget (issue #32, part B), written for this repository in
 * the shapes real schemas use: a `oneOf` of object shapes without `type` (so its branches overlap only on the other
 * types) under `not`, and a `oneOf` of two item schemas, one holding the complement of the other (the difference of
 * the arrays is a `contains` of the item's complement, whose cells take the complement of that complement), , and the
 * complements of a `not` and of an overlapping `oneOf`, split over the negated schema's structure. All four were
 * refused at 256 alternatives; they are spread into the differential soundness cases.
 */
import type { DifferentialCase } from './differential-schemas.js';

const fileKinds = {
  oneOf: [
    {
      required: ['kind', 'size', 'mode'],
      properties: { kind: { const: 'file' }, size: { type: 'integer', minimum: 0 }, mode: { type: 'string', pattern: '^[0-7]{3}$' } },
    },
    {
      required: ['kind', 'size', 'files'],
      properties: { kind: { const: 'dir' }, size: { type: 'integer', minimum: 0 }, files: { type: 'integer', minimum: 1 } },
    },
    { required: ['kind'], properties: { kind: { const: 'link' } } },
  ],
};

export const COMPLEMENT_PRODUCT_CASES: readonly DifferentialCase[] = [
  {
    name: 'not of a oneOf of object shapes without a type (branches overlap only on the other types)',
    keywords: ['not', 'oneOf', 'required', 'const', 'pattern'],
    schema: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['file', 'dir', 'link'] } },
      not: {
        required: ['user', 'group'],
        properties: { user: { type: 'string', minLength: 1 }, group: { type: 'string', minLength: 1 } },
        ...fileKinds,
      },
    },
  },
  {
    name: 'oneOf of two item schemas, one holding the complement of the other (a contains of a complement of a complement)',
    keywords: ['oneOf', 'items', 'not', 'allOf', '$ref'],
    schema: {
      type: 'array',
      maxItems: 2,
      $defs: {
        named: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        extracted: { required: ['user'], properties: { user: { type: 'string', minLength: 1 } }, ...fileKinds },
      },
      oneOf: [
        {
          items: {
            allOf: [
              { $ref: '#/$defs/named' },
              { required: ['kind'], properties: { kind: { enum: ['file', 'dir', 'link'] } }, not: { $ref: '#/$defs/extracted' } },
            ],
          },
        },
        { items: { allOf: [{ $ref: '#/$defs/named' }, { $ref: '#/$defs/extracted' }] } },
      ],
    },
  },
  {
    name: 'not of a not of an object of nine optional properties (the complement of a complement)',
    keywords: ['not', 'minimum'],
    schema: {
      type: 'object',
      not: {
        description: 'no property fails',
        not: { type: 'object', properties: Object.fromEntries([...'abcdefghi'].map((name) => [name, { type: 'integer', minimum: 0 }])) },
      },
    },
  },
  {
    name: 'not of an overlapping oneOf of four open object shapes (none of them, or some two)',
    keywords: ['not', 'oneOf', 'required'],
    schema: {
      type: 'object',
      not: { oneOf: [...'abcd'].map((name) => ({ required: [name], properties: { [name]: { type: 'integer' }, note: { type: 'string' } } })) },
    },
  },
];
