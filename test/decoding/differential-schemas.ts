/**
 * Schemas for the differential soundness test, one or more per keyword of issue #14 (and a
 * few the engine already enforces, as controls), written for this repository in the shapes
 * the JSONSchemaBench corpus uses them: small, so that every boundary instance of each is
 * checked on every run. `keywords` names what the schema is there to exercise.
 */
import { COMPLEMENT_PRODUCT_CASES } from './differential-complement-products.js';
import { OBJECT_COMPLEMENT_CASES } from './differential-object-complements.js';
import { UNEVALUATED_BRANCH_CASES, UNEVALUATED_NESTED_CASES } from './differential-unevaluated.js';
import type { DecodingLimits } from '../../src/decoding/decoding-limits.js';

export interface DifferentialCase {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly schema: Record<string, unknown>;
  /** Budgets for this case's compile (a small one reaches, on a small schema, the path a large schema takes at the default). */
  readonly limits?: Partial<DecodingLimits>;
  /** The property orders the case is compiled under, of those the build supports (default: all). */
  readonly propertyOrders?: readonly ('schema' | 'any')[];
  /** Valid instances the mask refuses as a known limit that docs/decoding.md states: each must be refused, not accepted. */
  readonly knownLimit?: { readonly limit: string; readonly applies: (value: unknown) => boolean };
}

/** Six declared properties of mixed kinds, for the objects whose written set has fewer bits than properties. */
const SIX_PAYMENT_PROPERTIES = {
  id: { type: 'integer', maximum: 9 },
  card: { type: 'string', maxLength: 2 },
  note: { type: 'string', maxLength: 1 },
  cvv: { type: 'string', pattern: '^[0-9]{3}$' },
  tag: { enum: ['a', 'b'] },
  expiry: { type: 'string', maxLength: 2 },
};

/** Whether an object's `expression` holds an escape the `format: "regex"` subset leaves out (`\\` + a newline, `\\a`). */
function hasEscapeOutsideRegexSubset(value: unknown): boolean {
  const expression = typeof value === 'object' && value !== null ? (value as { expression?: unknown }).expression : undefined;
  if (typeof expression !== 'string') return false;
  for (let index = 0; index < expression.length; index++) {
    if (expression[index] !== '\\') continue;
    if (!'dDwWsSnrtfv\\/.*+?()[]{}|^$-'.includes(expression[index + 1] ?? '')) return true;
    index++;
  }
  return false;
}

export const DIFFERENTIAL_CASES: readonly DifferentialCase[] = [
  // ---- controls: enforced today --------------------------------------------------------
  {
    name: 'tool arguments: required, enum, bounds, lengths, pattern, additionalProperties',
    keywords: ['required', 'enum', 'minimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'additionalProperties'],
    schema: {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^usr_[a-z0-9]{4}$' },
        plan: { enum: ['free', 'pro', 'team'] },
        seats: { type: 'integer', minimum: 1, exclusiveMaximum: 100 },
        note: { type: 'string', minLength: 2, maxLength: 5 },
      },
      required: ['id', 'plan'],
      additionalProperties: false,
    },
  },
  {
    name: 'const, nested arrays, prefixItems, boolean schema',
    keywords: ['const', 'prefixItems', 'items', 'minItems', 'maxItems'],
    schema: {
      type: 'array',
      prefixItems: [{ const: 'point' }, { type: 'number', minimum: -1, maximum: 1 }],
      items: { type: 'array', items: { type: 'boolean' }, maxItems: 2 },
      minItems: 2,
      maxItems: 4,
    },
  },
  {
    name: 'disjoint oneOf, anyOf, allOf, not around type, $ref recursion',
    keywords: ['oneOf', 'anyOf', 'allOf', 'not', '$ref'],
    schema: {
      $defs: { leaf: { type: 'string', maxLength: 3 }, node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } }, additionalProperties: false } },
      type: 'object',
      properties: {
        shape: { oneOf: [{ type: 'null' }, { type: 'integer', minimum: 0 }, { $ref: '#/$defs/leaf' }] },
        either: {
          anyOf: [
            { type: 'string', minLength: 2 },
            { type: 'string', maxLength: 1 },
          ],
        },
        both: { allOf: [{ type: 'number', minimum: 0 }, { maximum: 10 }] },
        notText: { not: { type: 'string' } },
        tree: { $ref: '#/$defs/node' },
      },
    },
  },
  // ---- issue #14 keywords ---------------------------------------------------------------
  {
    name: 'patternProperties with additionalProperties false',
    keywords: ['patternProperties', 'additionalProperties'],
    schema: {
      type: 'object',
      properties: { name: { type: 'string' } },
      patternProperties: { '^x-[a-z]+$': { type: 'integer', minimum: 0 }, '^tag_': { type: 'boolean' } },
      additionalProperties: false,
    },
  },
  {
    name: 'patternProperties overlapping a declared property',
    keywords: ['patternProperties'],
    schema: { type: 'object', properties: { aa: { type: 'string', maxLength: 2 } }, patternProperties: { '^a': { type: 'string', minLength: 1 } } },
  },
  {
    name: 'propertyNames pattern and maxLength',
    keywords: ['propertyNames'],
    schema: { type: 'object', propertyNames: { pattern: '^[a-z][a-z0-9_]*$', maxLength: 6 }, additionalProperties: { type: 'integer' } },
  },
  {
    name: 'propertyNames enum',
    keywords: ['propertyNames', 'enum'],
    schema: { type: 'object', propertyNames: { enum: ['red', 'green', 'blue'] } },
  },
  {
    name: 'minProperties and maxProperties with optional properties',
    keywords: ['minProperties', 'maxProperties'],
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'boolean' } },
      minProperties: 1,
      maxProperties: 2,
    },
  },
  {
    name: 'minProperties with additional properties',
    keywords: ['minProperties'],
    schema: { type: 'object', additionalProperties: { type: 'number' }, minProperties: 2 },
  },
  {
    name: 'dependentRequired',
    keywords: ['dependentRequired'],
    schema: {
      type: 'object',
      properties: { card: { type: 'string' }, cvv: { type: 'string', pattern: '^[0-9]{3}$' }, expiry: { type: 'string' } },
      dependentRequired: { card: ['cvv', 'expiry'] },
    },
  },
  {
    name: 'dependentSchemas',
    keywords: ['dependentSchemas'],
    schema: {
      type: 'object',
      properties: { mode: { enum: ['fast', 'safe'] }, retries: { type: 'integer' } },
      dependentSchemas: { retries: { properties: { retries: { maximum: 3 } }, required: ['mode'] } },
    },
  },
  {
    name: 'draft-7 dependencies (both forms)',
    keywords: ['dependencies'],
    schema: {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } },
      dependencies: { street: ['city'], zip: { required: ['city'], properties: { zip: { pattern: '^[0-9]{5}$' } } } },
    },
  },
  {
    name: 'if/then/else on a discriminator',
    keywords: ['if', 'then', 'else'],
    schema: {
      type: 'object',
      properties: { kind: { enum: ['us', 'ca'] }, postal: { type: 'string' } },
      required: ['kind', 'postal'],
      if: { properties: { kind: { const: 'us' } } },
      then: { properties: { postal: { pattern: '^[0-9]{5}$' } } },
      else: { properties: { postal: { pattern: '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$' } } },
    },
  },
  {
    name: 'if/then without else on numbers',
    keywords: ['if', 'then'],
    schema: { type: 'integer', if: { minimum: 10 }, then: { multipleOf: 5 } },
    knownLimit: { limit: 'multipleOf offers only multiples within ±2^53', applies: (value) => typeof value === 'number' && Math.abs(value) >= 2 ** 53 },
  },
  {
    name: 'contains with minContains and maxContains',
    keywords: ['contains', 'minContains', 'maxContains'],
    schema: { type: 'array', items: { type: 'integer' }, contains: { minimum: 10 }, minContains: 2, maxContains: 3, maxItems: 6 },
  },
  {
    name: 'contains alone',
    keywords: ['contains'],
    schema: { type: 'array', contains: { const: 'admin' } },
  },
  {
    name: 'contains over objects with prefixItems',
    keywords: ['contains', 'maxContains', 'prefixItems'],
    schema: {
      type: 'array',
      prefixItems: [{ type: 'object', properties: { role: { enum: ['owner', 'admin'] } }, required: ['role'] }],
      items: {
        type: 'object',
        properties: { role: { type: 'string' }, name: { type: 'string', maxLength: 4 } },
        required: ['role'],
        additionalProperties: false,
      },
      contains: { properties: { role: { const: 'admin' } } },
      maxContains: 1,
      maxItems: 4,
    },
  },
  {
    name: 'contains on patterned strings, minContains 0',
    keywords: ['contains', 'minContains', 'maxContains'],
    schema: { type: 'array', items: { type: 'string', maxLength: 6 }, contains: { pattern: '^#' }, minContains: 0, maxContains: 2 },
  },
  {
    name: 'contains with uniqueItems over an enum',
    keywords: ['contains', 'minContains', 'uniqueItems'],
    schema: { type: 'array', items: { enum: ['read', 'write', 'admin', 'owner'] }, uniqueItems: true, contains: { enum: ['admin', 'owner'] }, minContains: 1 },
  },
  {
    name: 'contains under not, and unevaluatedItems beside contains',
    keywords: ['contains', 'not', 'unevaluatedItems'],
    schema: {
      type: 'object',
      properties: {
        noAdmins: { type: 'array', not: { contains: { const: 'admin' } } },
        tagged: { type: 'array', prefixItems: [{ type: 'boolean' }], contains: { type: 'string' }, unevaluatedItems: false },
      },
    },
  },
  {
    name: 'two contains on patterned strings (one admin, at most two guests) and some item failing items under not',
    keywords: ['contains', 'maxContains', 'not'],
    schema: {
      type: 'array',
      items: { type: 'string', maxLength: 8 },
      allOf: [{ contains: { const: 'admin' } }, { contains: { pattern: '^guest' }, maxContains: 2 }],
      not: { items: { maxLength: 4 } },
      maxItems: 6,
    },
  },
  {
    name: 'two contains over objects with prefixItems: at most one admin, two active',
    keywords: ['contains', 'minContains', 'maxContains', 'prefixItems'],
    schema: {
      type: 'array',
      prefixItems: [{ type: 'string', maxLength: 4 }],
      items: {
        type: 'object',
        properties: { role: { enum: ['user', 'admin'] }, active: { type: 'boolean' } },
        required: ['role', 'active'],
        additionalProperties: false,
      },
      allOf: [
        { contains: { type: 'object', properties: { role: { const: 'admin' } } }, minContains: 0, maxContains: 1 },
        { contains: { type: 'object', properties: { active: { const: true } } }, minContains: 2 },
      ],
      maxItems: 5,
    },
  },
  {
    name: 'two contains over a uniqueItems enum (the set written decides both counts)',
    keywords: ['contains', 'minContains', 'maxContains', 'uniqueItems'],
    schema: {
      type: 'array',
      items: { enum: ['read', 'write', 'admin', 1, 2] },
      uniqueItems: true,
      allOf: [
        { contains: { type: 'string' }, minContains: 2 },
        { contains: { type: 'integer' }, maxContains: 1 },
      ],
    },
  },
  {
    name: 'multipleOf on integers',
    keywords: ['multipleOf'],
    schema: { type: 'integer', multipleOf: 7, minimum: -30, maximum: 100 },
  },
  {
    name: 'not multipleOf on integers (the non-multiples)',
    keywords: ['not', 'multipleOf'],
    schema: { type: 'integer', minimum: -50, not: { multipleOf: 4 } },
    knownLimit: { limit: 'multipleOf offers only non-multiples within ±2^53', applies: (value) => typeof value === 'number' && Math.abs(value) >= 2 ** 53 },
  },
  {
    name: 'oneOf of two divisors on integers (overlapping at 15)',
    keywords: ['oneOf', 'multipleOf'],
    schema: { type: 'integer', maximum: 100, oneOf: [{ multipleOf: 3 }, { multipleOf: 5 }] },
    knownLimit: { limit: 'multipleOf offers only values within ±2^53', applies: (value) => typeof value === 'number' && Math.abs(value) >= 2 ** 53 },
  },
  {
    name: 'multipleOf on decimals',
    keywords: ['multipleOf'],
    schema: { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 5 },
  },
  {
    name: 'multipleOf unbounded decimal',
    keywords: ['multipleOf'],
    schema: { type: 'number', multipleOf: 0.5 },
  },
  {
    name: 'general not',
    keywords: ['not'],
    schema: { type: 'string', not: { pattern: '^admin' }, maxLength: 8 },
  },
  {
    name: 'not of an object shape',
    keywords: ['not', 'required'],
    schema: { type: 'object', properties: { a: { type: 'integer' } }, not: { required: ['a'], properties: { a: { minimum: 5 } } } },
  },
  {
    name: 'not of integer (the non-integers), bounded and not',
    keywords: ['not', 'type'],
    schema: {
      type: 'object',
      properties: {
        ratio: { type: 'number', minimum: -1, maximum: 2, not: { type: 'integer' } },
        amount: { not: { type: 'integer' } },
      },
      required: ['ratio'],
    },
  },
  {
    name: 'not of array and object literals',
    keywords: ['not', 'enum', 'const'],
    schema: {
      type: 'object',
      properties: {
        changes: { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 3, not: { enum: [['deleted'], [], ['a', 'b']] } },
        kind: {
          type: 'object',
          properties: { type: { enum: ['void', 'list', 'map'] }, size: { type: 'integer', minimum: 0, maximum: 3 } },
          additionalProperties: false,
          not: { enum: [{ type: 'void' }, { type: 'list', size: 2 }] },
        },
      },
      required: ['changes'],
    },
  },
  {
    name: 'not of property counts',
    keywords: ['not', 'minProperties', 'maxProperties'],
    schema: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string' }, c: { type: 'boolean' } },
      additionalProperties: false,
      not: { minProperties: 1, maxProperties: 2 },
    },
  },
  {
    name: 'not of patternProperties on a closed object',
    keywords: ['not', 'patternProperties'],
    schema: {
      type: 'object',
      properties: { x1: { type: 'integer' }, x2: { type: 'integer' }, y: { type: 'integer' } },
      additionalProperties: false,
      not: { properties: { x2: { minimum: 0 } }, patternProperties: { '^x': { maximum: 5 } }, additionalProperties: { maximum: 9 } },
    },
  },
  {
    name: 'oneOf whose branch refers back to it through a property',
    keywords: ['oneOf', '$ref'],
    schema: {
      $defs: {
        resource: { oneOf: [{ type: 'string', maxLength: 3 }, { $ref: '#/$defs/selector' }] },
        selector: {
          oneOf: [
            { type: 'object', properties: { ios: { $ref: '#/$defs/resource' } }, required: ['ios'], additionalProperties: false },
            { type: 'object', properties: { ios: { type: 'string' }, ref: { type: 'string' } }, required: ['ref'], additionalProperties: false },
          ],
        },
      },
      $ref: '#/$defs/resource',
    },
  },
  {
    name: 'overlapping oneOf',
    keywords: ['oneOf'],
    schema: {
      oneOf: [
        { type: 'integer', minimum: 0, maximum: 10 },
        { type: 'integer', minimum: 5, maximum: 20 },
      ],
    },
  },
  {
    name: 'overlapping oneOf on objects',
    keywords: ['oneOf', 'required'],
    schema: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    },
  },
  {
    name: 'unevaluatedProperties after allOf',
    keywords: ['unevaluatedProperties', 'allOf'],
    schema: {
      allOf: [{ type: 'object', properties: { a: { type: 'string' } } }],
      properties: { b: { type: 'integer' } },
      unevaluatedProperties: false,
    },
  },
  {
    name: 'unevaluatedItems after prefixItems',
    keywords: ['unevaluatedItems', 'prefixItems'],
    schema: { type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: { type: 'integer' }, maxItems: 4 },
  },
  {
    name: 'uniqueItems on an enumerable item language',
    keywords: ['uniqueItems'],
    schema: { type: 'array', items: { enum: ['a', 'b', 'c', 1] }, uniqueItems: true },
  },
  {
    name: 'uniqueItems on booleans with minItems',
    keywords: ['uniqueItems', 'minItems'],
    schema: { type: 'array', items: { type: 'boolean' }, uniqueItems: true, minItems: 1 },
  },
  {
    name: 'number formats int32, int64, float, double',
    keywords: ['format'],
    schema: {
      type: 'object',
      properties: {
        small: { type: 'integer', format: 'int32' },
        big: { type: 'integer', format: 'int64' },
        f: { type: 'number', format: 'float' },
        d: { type: 'number', format: 'double' },
      },
    },
  },
  {
    name: 'string formats',
    keywords: ['format'],
    schema: {
      type: 'object',
      properties: {
        day: { type: 'string', format: 'date' },
        mail: { type: 'string', format: 'email' },
        host: { type: 'string', format: 'hostname' },
        ip: { type: 'string', format: 'ipv4' },
        id: { type: 'string', format: 'uuid' },
        span: { type: 'string', format: 'duration' },
      },
    },
  },
  {
    name: 'format url (lookaheads excluding private IPv4 hosts)',
    keywords: ['format'],
    schema: {
      type: 'object',
      properties: { link: { type: 'string', format: 'url' }, mirror: { type: 'string', format: 'url', maxLength: 24 } },
      required: ['link'],
    },
  },
  {
    name: 'strict tree: $dynamicRef rebound by the extending schema, unevaluatedProperties at every level',
    keywords: ['$dynamicRef', '$dynamicAnchor', 'unevaluatedProperties'],
    schema: {
      $id: 'https://example.com/strict-tree',
      $dynamicAnchor: 'node',
      $ref: '#/$defs/tree',
      unevaluatedProperties: false,
      $defs: {
        tree: {
          $id: 'https://example.com/tree',
          $dynamicAnchor: 'node',
          type: 'object',
          properties: { data: { type: 'integer', minimum: 0 }, children: { type: 'array', items: { $dynamicRef: '#node' }, maxItems: 2 } },
          required: ['data'],
        },
      },
    },
  },
  {
    name: 'generic list whose item type the outer schema sets ($dynamicRef), and $recursiveRef',
    keywords: ['$dynamicRef', '$recursiveRef'],
    schema: {
      $id: 'https://example.com/tags',
      $dynamicAnchor: 'T',
      anyOf: [
        { type: 'string', maxLength: 4 },
        { $ref: '#/$defs/list' },
        { type: 'object', properties: { wrap: { $recursiveRef: '#' } }, required: ['wrap'], additionalProperties: false },
      ],
      $defs: { list: { $id: 'https://example.com/list', $dynamicAnchor: 'T', type: 'array', items: { $dynamicRef: '#T' }, maxItems: 3 } },
    },
  },
  {
    name: 'format regex, offered as a regular subset of the texts that compile',
    keywords: ['format'],
    schema: { type: 'object', properties: { expression: { type: 'string', format: 'regex' } } },
    knownLimit: { limit: 'format regex offers only the escapes of its subset', applies: (value) => hasEscapeOutsideRegexSubset(value) },
  },
  // ---- issue #32: objects with more declared properties than the written set has bits --------------------------
  {
    name: 'dependentRequired on an object with more declared properties than tracked bits (only the named ones tracked)',
    keywords: ['dependentRequired', 'required'],
    limits: { maxTrackedProperties: 3 },
    propertyOrders: ['schema'],
    schema: {
      type: 'object',
      properties: SIX_PAYMENT_PROPERTIES,
      required: ['id', 'tag'],
      dependentRequired: { card: ['cvv', 'expiry'] },
    },
  },
  {
    name: 'dependentRequired chained, on 32 declared properties (the default budget, 30 bits)',
    keywords: ['dependentRequired', 'required', 'additionalProperties'],
    propertyOrders: ['schema'],
    schema: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 32 }, (_, index) => [`p${index}`, { type: 'integer', minimum: 0, maximum: 3 }])),
      required: ['p5'],
      dependentRequired: { p3: ['p20'], p20: ['p31'], p0: ['p2'] },
      additionalProperties: false,
    },
  },
  {
    name: 'dependentRequired past the tracked bits with minProperties above the required properties',
    keywords: ['dependentRequired', 'required', 'minProperties', 'additionalProperties'],
    limits: { maxTrackedProperties: 3 },
    propertyOrders: ['schema'],
    schema: {
      type: 'object',
      properties: SIX_PAYMENT_PROPERTIES,
      required: ['id'],
      minProperties: 3,
      dependentRequired: { card: ['cvv', 'expiry'] },
      additionalProperties: false,
    },
  },
  {
    name: 'dependentRequired of a required property on 32 of 40 declared properties (itself and 31 dependents), beside maxProperties',
    keywords: ['dependentRequired', 'required', 'maxProperties'],
    propertyOrders: ['schema'],
    schema: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`p${index}`, { type: 'integer', minimum: 0, maximum: 2 }])),
      required: ['p0'],
      maxProperties: 36,
      dependentRequired: { p0: Array.from({ length: 31 }, (_, index) => `p${index + 1}`), p35: ['p2', 'p0'] },
    },
  },
  // ---- issue #32: a complement whose pieces meet in contradictions or include one another ------------------------
  {
    name: 'not over a conjunction with a oneOf of three objects (the complement pruned to fit the alternatives budget)',
    keywords: ['not', 'oneOf', 'required', 'enum', 'const'],
    schema: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { enum: ['file', 'dir', 'link'] } },
      not: {
        required: ['user'],
        properties: { user: { type: 'string', minLength: 1 } },
        oneOf: [
          { required: ['kind', 'size'], properties: { kind: { const: 'file' }, size: { type: 'integer', minimum: 0 } } },
          { required: ['kind', 'files'], properties: { kind: { const: 'dir' }, files: { type: 'integer', minimum: 1 } } },
          { required: ['kind'], properties: { kind: { const: 'link' } } },
        ],
      },
    },
  },
  ...OBJECT_COMPLEMENT_CASES,
  ...COMPLEMENT_PRODUCT_CASES,
  ...UNEVALUATED_BRANCH_CASES,
  ...UNEVALUATED_NESTED_CASES,
];
