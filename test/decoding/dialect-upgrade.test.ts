/**
 * Older-dialect schemas read the same way by the registry and the token mask: each schema
 * below is tagged with draft-04, -07 or 2019-09 and uses a keyword whose meaning changed in
 * 2020-12. The registry sees it through `defineTool` (which rewrites it with
 * `upgradeSchemaDialect`), the mask through `compileJsonSchema` given the tagged schema as it
 * is. Hand-labelled instances check the draft's own meaning on both sides; boundary instances
 * (the `bench:coverage` check, `checkSchema`) check that the two agree everywhere else.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../bench/coverage/check-schema.js';
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';

const vocabulary = byteVocabulary();
const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';

interface DialectCase {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** Valid under the schema's own draft. */
  readonly valid: readonly unknown[];
  /** Invalid under the schema's own draft. */
  readonly invalid: readonly unknown[];
}

const CASES: readonly DialectCase[] = [
  {
    name: 'draft-04 boolean exclusive bounds',
    schema: {
      $schema: DRAFT_04,
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
        m: { type: 'integer', minimum: 0, exclusiveMinimum: false },
      },
      required: ['n'],
      additionalProperties: false,
    },
    valid: [{ n: 1 }, { n: 9 }, { n: 5, m: 0 }],
    invalid: [{ n: 0 }, { n: 10 }, { n: 5, m: -1 }],
  },
  {
    name: 'draft-04 id, with $ref resolved by id and by plain-name fragment',
    schema: {
      $schema: DRAFT_04,
      id: 'http://example.com/order.json',
      type: 'object',
      definitions: { sku: { id: '#sku', type: 'string', maxLength: 4 } },
      properties: { a: { $ref: '#sku' }, b: { $ref: 'http://example.com/order.json#/definitions/sku' } },
      required: ['a'],
      additionalProperties: false,
    },
    valid: [{ a: 'ab' }, { a: 'abcd', b: 'x' }],
    invalid: [{ a: 'abcde' }, { a: 1 }, { a: 'a', b: 'abcde' }],
  },
  {
    name: 'draft-07 array items and additionalItems',
    schema: {
      $schema: DRAFT_07,
      type: 'object',
      properties: {
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
        flags: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'boolean' }, maxItems: 3 },
      },
      additionalProperties: false,
    },
    valid: [{ pair: ['a', 1] }, { pair: ['a'] }, { pair: [] }, { flags: ['x', true, false] }],
    invalid: [{ pair: ['a', 1, 2] }, { pair: [1, 'a'] }, { flags: ['x', 1] }],
  },
  {
    name: 'draft-07 $ref with siblings, which that draft ignores',
    schema: {
      $schema: DRAFT_07,
      type: 'object',
      definitions: { name: { type: 'string', maxLength: 6 } },
      properties: { n: { $ref: '#/definitions/name', maxLength: 2, description: 'A name.' } },
      required: ['n'],
      additionalProperties: false,
    },
    valid: [{ n: 'abcdef' }, { n: '' }],
    invalid: [{ n: 'abcdefg' }, { n: 5 }, {}],
  },
  {
    name: 'draft-07 dependencies, both forms',
    schema: {
      $schema: DRAFT_07,
      type: 'object',
      properties: { card: { type: 'string' }, billing: { type: 'string' }, gift: { type: 'boolean' }, note: { type: 'string' } },
      dependencies: { card: ['billing'], gift: { required: ['note'] } },
      additionalProperties: false,
    },
    valid: [{}, { card: 'x', billing: 'y' }, { gift: true, note: 'n' }, { billing: 'y' }],
    invalid: [{ card: 'x' }, { gift: true }, { card: 'x', gift: false }],
  },
  {
    name: '2019-09 $recursiveRef in the root resource',
    schema: {
      $schema: DRAFT_2019,
      $recursiveAnchor: true,
      type: 'object',
      properties: { name: { type: 'string', maxLength: 3 }, children: { type: 'array', items: { $recursiveRef: '#' }, maxItems: 2 } },
      required: ['name'],
      additionalProperties: false,
    },
    valid: [{ name: 'a' }, { name: 'a', children: [{ name: 'b', children: [] }] }],
    invalid: [
      { name: 'a', children: [{}] },
      { name: 'a', children: [{ name: 1 }] },
      { name: 'a', children: [{ name: 'b', x: 1 }] },
    ],
  },
];

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

describe('older JSON Schema dialects: the registry and the mask read the same rewrite', () => {
  it.each(CASES.map((entry) => [entry.name, entry] as const))('%s: both follow the draft on hand-labelled instances', (_name, entry) => {
    const tool = defineTool({ name: 'dialect_case', description: 'A dialect case.', effect: 'read', inputSchema: entry.schema, execute: () => 'ok' });
    const validator = compileSchema(tool.inputSchema);
    const grammar = compileJsonSchema(entry.schema, vocabulary);
    for (const value of entry.valid) {
      expect({ value, registry: validator.validate(value).success }).toEqual({ value, registry: true });
      const text = grammar.format(value);
      expect({ value, mask: text !== undefined && accepts(grammar, text) }).toEqual({ value, mask: true });
    }
    for (const value of entry.invalid) {
      expect({ value, registry: validator.validate(value).success }).toEqual({ value, registry: false });
      expect({ value, mask: accepts(grammar, JSON.stringify(value)) }).toEqual({ value, mask: false });
    }
  });

  it.each(CASES.map((entry) => [entry.name, entry] as const))('%s: the mask accepts exactly the boundary instances the registry accepts', (_name, entry) => {
    const result = checkSchema({ name: entry.name, schema: entry.schema, layout: 'compact', maxInstances: 200, seed: 1 }, vocabulary);
    expect(result.outcome).toBe('compiled');
    const counts = result.instances!;
    expect(counts.valid).toBeGreaterThan(0);
    expect(counts.invalid).toBeGreaterThan(0);
    expect({ validAccepted: counts.validAccepted, invalidAccepted: counts.invalidAccepted, unlabeled: counts.unlabeled }).toEqual({
      validAccepted: counts.valid,
      invalidAccepted: 0,
      unlabeled: 0,
    });
  });

  it('reads an untagged schema under `schemaDialect` the way defineTool does', () => {
    const tuple = { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }], additionalItems: false } }, required: ['pair'] };
    const grammar = compileJsonSchema(tuple, vocabulary, { schemaDialect: 'draft-07' });
    expect(accepts(grammar, '{"pair":["a"]}')).toBe(true);
    expect(accepts(grammar, '{"pair":["a","b"]}')).toBe(false);
    const validator = compileSchema(
      defineTool({ name: 'pair', description: 'd', effect: 'read', inputSchema: tuple, schemaDialect: 'draft-07', execute: () => 'ok' }).inputSchema,
    );
    expect([validator.validate({ pair: ['a'] }).success, validator.validate({ pair: ['a', 'b'] }).success]).toEqual([true, false]);
  });

  it('reads each schema of the `schemas` option under its own root $schema', () => {
    const schemas = { 'http://example.com/count.json': { $schema: DRAFT_04, type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 9 } };
    const grammar = compileJsonSchema({ type: 'object', properties: { n: { $ref: 'http://example.com/count.json' } }, required: ['n'] }, vocabulary, {
      schemas,
    });
    expect(['{"n":0}', '{"n":1}', '{"n":9}'].map((text) => accepts(grammar, text))).toEqual([false, true, true]);
  });

  it('refuses a draft-04 "id" in an untagged schema with the fix, on both sides', () => {
    const legacy = { id: 'http://example.com/a.json', type: 'object' };
    expect(() => compileJsonSchema(legacy, vocabulary)).toThrow('Add "$schema": "http://json-schema.org/draft-04/schema#" at its root');
    expect(() => defineTool({ name: 'legacy', description: 'd', effect: 'read', inputSchema: legacy, execute: () => 'ok' })).toThrow(
      'Add "$schema": "http://json-schema.org/draft-04/schema#" at its root',
    );
    expect(accepts(compileJsonSchema({ $schema: DRAFT_04, ...legacy }, vocabulary), '{}')).toBe(true);
  });
});
