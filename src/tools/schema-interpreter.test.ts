import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchSampleCases, compareWithAjv, suiteCases, verdictsOf, type Agreement } from '../../test/validators/agreement.js';
import { SchemaCompileError } from '../shared/errors.js';
import { defineTool } from './define-tool.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { INERT_KEYWORDS, INTERPRETED_KEYWORDS, REFUSED_KEYWORDS } from './ajv-vocabulary.js';
import { compileSchema } from './schema-validator.js';
import { ToolRegistry } from './tool-registry.js';
import { schemaValidatorKind, useSchemaValidator } from './validator-kind.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

afterEach(() => {
  useSchemaValidator('auto');
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** A disagreement is allowed only as a refusal at definition, with the interpreter's reason and what to do instead. */
function unexplained(agreement: Agreement) {
  return agreement.disagreements.filter(
    (disagreement) =>
      !(
        disagreement.other === 'refused' &&
        disagreement.detail.includes('the validator without code generation (used where new Function is unavailable) cannot check')
      ),
  );
}

describe('the interpreter against Ajv (as toolwright configures it), case by case', () => {
  it('JSON-Schema-Test-Suite (draft 2020-12): the same verdict on every case but the schemas it refuses at definition', () => {
    const agreement = compareWithAjv(suiteCases(root));
    expect(unexplained(agreement)).toEqual([]);
    expect({ cases: agreement.cases, agreements: agreement.agreements, refusedByInterpreter: agreement.disagreements.length }).toEqual({
      cases: 2225,
      agreements: 2177,
      refusedByInterpreter: 48,
    });
    // the refusals are the constructs named in docs/architecture.md, nothing else
    const refusedGroups = new Set(agreement.disagreements.map((disagreement) => disagreement.key.split('#')[0]));
    expect([...refusedGroups].sort()).toEqual(['dynamicRef.json', 'optional/dynamicRef.json', 'unevaluatedItems.json']);
  }, 60_000);

  it('the JSONSchemaBench sample (120 schemas, instances at every constraint boundary): the same verdict and the same issues everywhere', () => {
    const agreement = compareWithAjv(benchSampleCases(root));
    expect(agreement.disagreements).toEqual([]);
    expect(agreement.cases).toBe(3424);
    expect(agreement.sameIssues).toBe(agreement.cases);
  }, 60_000);

  it('refuses at definition what it would judge differently, saying why and what to write instead', () => {
    const schema = { type: 'object', properties: { list: { $dynamicRef: '#items' } }, $defs: { items: { $dynamicAnchor: 'items', type: 'array' } } };
    useSchemaValidator('ajv');
    expect(() => compileSchema(schema, 'lists')).not.toThrow();
    useSchemaValidator('interpreter');
    let thrown: unknown;
    try {
      compileSchema(schema, 'lists');
    } catch (error) {
      thrown = error;
    }
    expect(SchemaCompileError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toContain('Tool "lists" schema does not compile: the validator without code generation');
    expect((thrown as Error).message).toContain('Use $ref to a $defs entry instead');
  });
});

describe('the recovery texts the model reads', () => {
  const searchTool = () =>
    defineTool({
      name: 'search_flights',
      description: 'Search flights.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: {
          from: { type: 'string', pattern: '^[A-Z]{3}$' },
          to: { type: 'string', pattern: '^[A-Z]{3}$' },
          cabin: { enum: ['economy', 'business'] },
          passengers: { type: 'integer', minimum: 1, maximum: 9 },
          note: { type: 'string', maxLength: 10 },
        },
        required: ['from', 'to'],
        additionalProperties: false,
      },
      execute: () => 'ok',
    });
  const mistakes: [string, Record<string, unknown>, string][] = [
    ['missing required', { from: 'OSL' }, 'missing required property "to"'],
    ['wrong type', { from: 'OSL', to: 'CDG', passengers: 'two' }, 'must be an integer'],
    ['enum', { from: 'OSL', to: 'CDG', cabin: 'first' }, 'must be one of "economy", "business"'],
    ['pattern', { from: 'Oslo', to: 'CDG' }, 'must match the pattern ^[A-Z]{3}$'],
    ['additionalProperties', { from: 'OSL', to: 'CDG', date: 'today' }, 'has the unknown property "date"'],
    ['minimum', { from: 'OSL', to: 'CDG', passengers: 0 }, 'must be at least 1'],
    ['maximum', { from: 'OSL', to: 'CDG', passengers: 12 }, 'must be at most 9'],
    ['maxLength', { from: 'OSL', to: 'CDG', note: 'a note far too long' }, 'must have at most 10 characters'],
    ['several at once', { to: 3, cabin: 'first', extra: true }, 'missing required property "from"'],
  ];

  for (const [mistake, args, expected] of mistakes) {
    it(`${mistake}: the same message from both validators`, () => {
      const messages = (['ajv', 'interpreter'] as const).map((kind) => {
        useSchemaValidator(kind);
        const prepared = new ToolRegistry([searchTool()]).prepare({ id: 'c1', name: 'search_flights', arguments: args });
        return prepared.success ? 'accepted' : prepared.failure.message;
      });
      expect(messages[0]).toContain(expected);
      expect(messages[1]).toBe(messages[0]);
    });
  }
});

describe('choosing the validator', () => {
  it('picks the interpreter by itself where new Function throws, and validates without calling it', async () => {
    vi.resetModules();
    const forbidden = vi.fn(function forbiddenFunction() {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    vi.stubGlobal('Function', forbidden);
    const fresh = await import('./validator-kind.js');
    const { compileSchema: freshCompile } = await import('./schema-validator.js');
    expect(fresh.schemaValidatorKind()).toBe('interpreter');
    const validator = freshCompile({ type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] }, 'weather');
    expect(validator.validate({ city: 'Oslo' }).success).toBe(true);
    expect(validator.validate({ city: 'O' })).toMatchObject({ success: false, issues: [{ code: 'too_short', path: ['city'] }] });
    expect(forbidden).toHaveBeenCalledTimes(1); // the probe, once
  });

  it('forced to the interpreter, never probes new Function (a probe under a CSP is reported as a violation)', async () => {
    vi.resetModules();
    const probe = vi.fn(function probedFunction() {
      return () => 1;
    });
    vi.stubGlobal('Function', probe);
    const fresh = await import('./validator-kind.js');
    const { compileSchema: freshCompile } = await import('./schema-validator.js');
    fresh.useSchemaValidator('interpreter');
    expect(freshCompile({ type: 'string', pattern: '^a' }, 'probe').validate('b').success).toBe(false);
    expect(probe).not.toHaveBeenCalled();
  });

  it('uses Ajv where code generation works, and the interpreter when asked; a bad kind is refused', () => {
    expect(schemaValidatorKind()).toBe('ajv');
    expect(useSchemaValidator('interpreter')).toBe('interpreter');
    expect(schemaValidatorKind()).toBe('interpreter');
    expect(useSchemaValidator('auto')).toBe('ajv');
    expect(() => useSchemaValidator('eval' as never)).toThrow(/expected 'auto', 'ajv' or 'interpreter'/);
  });
});

describe("the interpreter's keywords", () => {
  it('covers every keyword Ajv (2020, ajv-formats) acts on: evaluated, refused at definition, or inert; a new one fails here until handled', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const addFormats = ((await import('ajv-formats')) as unknown as { default: (ajv: unknown) => void }).default;
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const known = new Set([...INTERPRETED_KEYWORDS, ...REFUSED_KEYWORDS, ...INERT_KEYWORDS]);
    expect(Object.keys(ajv.RULES.all).filter((keyword) => !known.has(keyword))).toEqual([]);
  });

  // $recursiveAnchor is refused by Ajv too: its meta-schema wants a string, its keyword a boolean
  it('refuses $recursiveRef at definition, which Ajv evaluates', () => {
    expect(REFUSED_KEYWORDS).toEqual(['$recursiveRef', '$recursiveAnchor']);
    const schema = { type: 'object', properties: { child: { $recursiveRef: '#' } } };
    useSchemaValidator('ajv');
    expect(() => compileSchema(schema, 'nested')).not.toThrow();
    useSchemaValidator('interpreter');
    expect(() => compileSchema(schema, 'nested')).toThrow('cannot check $recursiveRef: ');
  });

  it("every ajv-formats format, and the format bounds (formatMaximum…): the same verdicts and issues as Ajv's", () => {
    const strings = ['', 'a', 'x y', '2026-01-31', '2026-02-30', '2026-01-31T14:30:00Z', '2026-01-31T25:00:00Z', '14:30:00Z', '23:59:60Z', 'P3DT4H', 'P']
      .concat(['name@example.com', 'name@', 'https://example.com/path', '/path?q=1', 'http://[::1', '192.0.2.1', '256.0.0.1', '2001:db8::1', 'example.com'])
      .concat(['-bad-.com', '123e4567-e89b-12d3-a456-426614174000', '/a/b~0', 'a/b', '1/a', '^a+$', '(', 'aGVsbG8=', 'aGVsbG8', '{+x}']);
    const numbers = [0, 1, -1, 1.5, 2147483647, 2147483648, -2147483649, 9007199254740991, 1e300];
    const cases = Object.keys(fullFormats).flatMap((format) => [
      { source: 'JSON-Schema-Test-Suite' as const, key: `format ${format}`, schema: { format }, instances: [...strings, ...numbers] },
      ...['formatMaximum', 'formatMinimum', 'formatExclusiveMaximum', 'formatExclusiveMinimum'].map((keyword) => ({
        source: 'JSON-Schema-Test-Suite' as const,
        key: `${keyword} ${format}`,
        schema: { format, [keyword]: format.includes('time') ? '2026-01-31T14:30:00Z' : format === 'date' ? '2026-01-31' : '14:30:00Z' },
        instances: strings,
      })),
    ]);
    // and the definitions Ajv checks at compile: a bound without format, a bound that is not a string, a format without compare
    const misdefined = [
      { type: 'string', formatMaximum: '2024-01-01' },
      { format: 'date', formatMaximum: 5 },
      { format: 'email', formatMinimum: 'a' },
      { type: 'string', nullable: 'yes' },
    ];
    const refusedByBoth = misdefined.map((schema) => ({ source: 'JSON-Schema-Test-Suite' as const, key: JSON.stringify(schema), schema, instances: ['x'] }));
    const agreement = compareWithAjv([...cases, ...refusedByBoth]);
    expect(agreement.disagreements).toEqual([]);
    expect(agreement.sameIssues).toBe(agreement.cases);
    expect(verdictsOf('interpreter', misdefined[3], ['x']).details[0]).toContain('nullable value must be ["boolean"]');
  });
});
