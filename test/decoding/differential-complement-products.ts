/**
 * Complements whose pieces multiplied past the alternatives budget (issue #32, part B), written for this repository in
 * the shapes real schemas use: a `oneOf` of object shapes without `type` (so its branches overlap only on the other
 * types) under `not`, and a `oneOf` of two item schemas, one holding the complement of the other (the difference of
 * the arrays is a `contains` of the item's complement, whose cells take the complement of that complement). Both were
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
];
