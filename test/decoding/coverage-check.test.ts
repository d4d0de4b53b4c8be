/**
 * The per-schema check behind `npm run bench:coverage` (bench/coverage/check-schema.ts), on the byte vocabulary:
 * outcomes, refusal grouping and instance counts.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema, type SchemaJob } from '../../bench/coverage/check-schema.js';
import { manyToolsTable, measureManyTools } from '../../bench/coverage/many-tools.js';
import { byteVocabulary } from './byte-vocabulary.js';

const vocabulary = byteVocabulary();
const job = (schema: unknown, extra: Partial<SchemaJob> = {}): SchemaJob => ({ name: 'case', schema, layout: 'compact', maxInstances: 200, seed: 1, ...extra });

describe('bench:coverage schema check', () => {
  it('compiles an enforced schema, times it, and counts generated instances on both sides, accepting exactly the valid ones', () => {
    const result = checkSchema(
      job({ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 9 }, s: { type: 'string', maxLength: 3 } }, required: ['n'] }),
      vocabulary,
    );
    expect(result.outcome).toBe('compiled');
    expect(result.compileMs).toBeGreaterThanOrEqual(0);
    const counts = result.instances!;
    expect(counts.valid).toBeGreaterThan(3);
    expect(counts.invalid).toBeGreaterThan(3);
    expect({ validAccepted: counts.validAccepted, invalidAccepted: counts.invalidAccepted }).toEqual({ validAccepted: counts.valid, invalidAccepted: 0 });
  });

  it('groups a refusal by its first keyword and lists every keyword a lenient compile relaxes', () => {
    const result = checkSchema(
      job({
        type: 'object',
        minProperties: 2,
        // keys of at most 8 characters beside declared properties: the distinct keys are not counted
        propertyNames: { maxLength: 8 },
        // arrays of unique strings: the complement its contains cells need (of uniqueItems) is not built
        properties: { d: { not: { uniqueItems: true } }, l: { type: 'array', contains: { type: 'array', uniqueItems: true, items: { type: 'string' } } } },
      }),
      vocabulary,
    );
    expect(result.outcome).toBe('refused');
    expect(result.relaxed).toEqual(expect.arrayContaining(['minProperties', 'contains', 'not']));
    expect(result.relaxed).toContain(result.reason);
    expect(result.unknownFormats).toEqual([]);
    // what --list-refused prints: the first refusal's keyword and pointer as the engine reported them
    expect(result.refusal).toMatchObject({ keyword: result.reason, pointer: expect.stringMatching(/^#/) });
    expect(result.refusal!.details.length).toBeGreaterThan(10);
  });

  it('counts a pattern the registry cannot compile under the u flag as a schema error, not a refusal', () => {
    const result = checkSchema(job({ type: 'object', properties: { text: { type: 'string', pattern: '^Agenda\\:[0-9]+$' } } }), vocabulary);
    expect(result).toMatchObject({ outcome: 'schema-error', reason: expect.stringContaining('"u" flag') });
  });

  it('tells schema errors from refusals, and checks given instances instead of generated ones', () => {
    expect(checkSchema(job({ id: 'draft-4', type: 'string' }), vocabulary).outcome).toBe('schema-error');
    const given = checkSchema(job({ type: 'string', maxLength: 2 }, { instances: ['ab', 'abc', 3] }), vocabulary);
    expect(given.instances).toEqual({ valid: 1, validAccepted: 1, invalid: 2, invalidAccepted: 0, unlabeled: 0 });
  });

  it('labels nothing for a root "$async" schema, whose registry validator reads every value as valid', () => {
    const result = checkSchema(job({ $async: true, type: 'integer' }, { instances: [1, 'x'] }), vocabulary);
    expect(result.instances).toEqual({ valid: 0, validAccepted: 0, invalid: 0, invalidAccepted: 0, unlabeled: 2 });
  });
});

describe('bench:coverage many-tools row', () => {
  it('compiles every third-party tool in one process, in file order, and names the slowest and the first', () => {
    const rows = measureManyTools(byteVocabulary(), { precomputeWork: 0 });
    expect(rows.map((row) => [row.fixture, row.servers, row.tools])).toEqual([
      ['test/fixtures/third-party/real-servers.json', 16, 193],
      ['test/fixtures/third-party/mcp-tools.json', 6, 22],
    ]);
    for (const row of rows) {
      expect(row.compiled + row.failed.length).toBe(row.tools);
      expect(row.perToolMs.p50).toBeLessThanOrEqual(row.perToolMs.p99);
      expect(row.perToolMs.p99).toBeLessThanOrEqual(row.perToolMs.max);
      expect(row.perToolMs.maxTool).toMatch(/^[\w-]+\/[\w-]+$/);
    }
    expect(rows[0]!.first.tool).toBe('filesystem/read_file');
    // github/create_issue (uniqueItems over any strings) was the one refusal until the matcher remembered item strings
    expect(rows.flatMap((row) => row.failed)).toEqual([]);
    const table = manyToolsTable(rows);
    expect(table).toContain('| real-servers.json | 16 | 193 | 193 |');
    expect(table).toContain('| mcp-tools.json | 6 | 22 | 22 |');
    expect(table).not.toContain('not compiled');
  });
});
