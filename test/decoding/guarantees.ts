/**
 * The engine's guarantees on one real vocabulary, as a reusable test body:
 * soundness (sampled outputs pass Ajv), completeness (valid values are accepted under
 * several tokenizations), no dead ends, and mask/accept agreement.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { createRandom, feed, generate, tokenizePerCharacter, tokenizeRandomly } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';
import { toolCases, type ToolCase } from './tool-schemas.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** Random generations per schema; `DECODING_STRESS_RUNS` raises it for a stress run. */
const RUNS = Number(process.env.DECODING_STRESS_RUNS ?? 6);

/** Structural schemas beyond the tool packs: recursion, unions, nested arrays, free JSON. */
const STRUCTURAL: ToolCase[] = [
  {
    name: 'recursive tree',
    schema: {
      $defs: {
        node: {
          type: 'object',
          properties: { name: { type: 'string', maxLength: 8 }, children: { type: 'array', items: { $ref: '#/$defs/node' }, maxItems: 3 } },
          required: ['name'],
          additionalProperties: false,
        },
      },
      $ref: '#/$defs/node',
    },
    instances: [{ name: 'root', children: [{ name: 'a' }, { name: 'b', children: [{ name: 'c', children: [] }] }] }],
  },
  {
    name: 'anyOf of shapes',
    schema: {
      anyOf: [
        { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number', exclusiveMinimum: 0 } }, required: ['kind', 'radius'] },
        {
          type: 'object',
          properties: { kind: { const: 'rect' }, w: { type: 'integer', minimum: 1 }, h: { type: 'integer', minimum: 1 } },
          required: ['kind', 'w', 'h'],
          additionalProperties: false,
        },
        { type: ['null', 'boolean'] },
      ],
    },
    instances: [
      { kind: 'circle', radius: 0.25, label: 'extra "quoted" key' },
      { kind: 'rect', w: 3, h: 12 },
    ],
  },
  {
    name: 'not, if/then/else, overlapping oneOf, dependentSchemas',
    schema: {
      type: 'object',
      properties: {
        user: { type: 'string', maxLength: 12, not: { enum: ['admin', 'root'] } },
        channel: { enum: ['email', 'sms', 'none'] },
        to: { type: 'string', maxLength: 24 },
        tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 6, not: { pattern: '^_' } } },
        payment: {
          oneOf: [
            { type: 'object', properties: { card: { type: 'string', pattern: '^[0-9]{4}$' } }, required: ['card'] },
            { type: 'object', properties: { iban: { type: 'string', minLength: 4, maxLength: 8 } }, required: ['iban'] },
          ],
        },
        retries: { type: 'integer', not: { minimum: 3, maximum: 5 }, maximum: 9 },
      },
      if: { properties: { channel: { const: 'email' } }, required: ['channel'] },
      then: { properties: { to: { pattern: '@' } }, required: ['to'] },
      else: { not: { required: ['to'] } },
      dependentSchemas: { payment: { required: ['tags'] } },
      required: ['user'],
      additionalProperties: false,
    },
    instances: [
      { channel: 'email', to: 'a@b.c', user: 'ann' },
      { user: 'administra', channel: 'sms', tags: ['x', 'y_'], payment: { card: '1234', iban: 'ab' }, retries: 7 },
      { channel: 'sms', tags: ['x', 'y_'], payment: { card: '1234', iban: 'ab' }, retries: 7, user: 'administra' },
      { payment: { iban: 'DE12345' }, tags: [], retries: -1, user: 'r' },
    ],
  },
  {
    name: 'unevaluatedProperties over allOf, unevaluatedItems over prefixItems',
    schema: {
      allOf: [
        { $ref: '#/$defs/base' },
        { properties: { items: { type: 'array', prefixItems: [{ type: 'integer' }], unevaluatedItems: { type: 'string', maxLength: 4 }, maxItems: 4 } } },
      ],
      $defs: { base: { type: 'object', properties: { id: { type: 'integer', minimum: 0 } }, required: ['id'] } },
      properties: { note: { type: 'string', maxLength: 10 } },
      if: { required: ['note'] },
      then: { required: ['items'] },
      unevaluatedProperties: false,
    },
    instances: [{ id: 1 }, { note: 'n', id: 7, items: [3, 'ab', 'cd'] }],
  },
  {
    name: 'multipleOf: integers, cents, quarters, whole numbers',
    schema: {
      type: 'object',
      properties: {
        count: { type: 'integer', multipleOf: 5, minimum: -1000, maximum: 1000 },
        price: { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 30 },
        quarter: { type: 'number', multipleOf: 0.25, minimum: -100, exclusiveMaximum: 100 },
        whole: { type: 'number', multipleOf: 1 },
        step: { type: 'number', multipleOf: 1e-8, minimum: 0, maximum: 0.00002 },
      },
      required: ['count', 'price', 'quarter', 'whole'],
      additionalProperties: false,
    },
    instances: [
      { count: -995, price: 29.99, quarter: 99.75, whole: 1e20, step: 0.00001234 },
      { count: 0, price: 0.3, quarter: -0.25, whole: -7 },
    ],
  },
  {
    name: 'multipleOf on unbounded ranges (cut to where Ajv is exact), uniqueItems over bounded integers',
    schema: {
      type: 'object',
      properties: {
        step: { type: 'integer', multipleOf: 5 },
        even: { multipleOf: 2 },
        half: { type: 'number', multipleOf: 0.5, minimum: 0 },
        months: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 12 }, uniqueItems: true },
        grid: { type: 'array', items: { type: 'number', multipleOf: 10, minimum: 0, maximum: 50 }, uniqueItems: true, minItems: 2 },
      },
      required: ['step', 'even', 'months'],
      additionalProperties: false,
    },
    instances: [
      { step: -9007199254740990, even: 9007199254740990, half: 99999999999999.5, months: [12, 1, 7], grid: [50, 0] },
      { step: 0, even: -2, months: [] },
    ],
  },
  {
    name: 'uniqueItems over enums, booleans and null',
    schema: {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { enum: ['red', 'green', 'blue', 'red-ish', 1, 2.5] }, uniqueItems: true, minItems: 1 },
        flags: { type: 'array', items: { type: ['boolean', 'null'] }, uniqueItems: true },
        pair: { type: 'array', items: { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] }, uniqueItems: true, maxItems: 2 },
      },
      required: ['tags', 'flags'],
      additionalProperties: false,
    },
    instances: [
      { tags: ['red', 'red-ish', 1, 2.5, 'blue', 'green'], flags: [null, false, true], pair: [20, 2] },
      { tags: ['green'], flags: [] },
    ],
  },
  {
    name: 'date bounds (formatMinimum, formatExclusiveMaximum)',
    schema: {
      type: 'object',
      properties: { from: { type: 'string', format: 'date', formatMinimum: '2020-02-29', formatExclusiveMaximum: '2030-01-01' } },
      required: ['from'],
    },
    instances: [{ from: '2020-02-29' }, { from: '2029-12-31' }],
  },
  {
    name: 'object keywords',
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 8 },
        tags: {
          type: 'object',
          patternProperties: { '^[a-z]+$': { type: 'integer' }, '^x': { minimum: 0 } },
          propertyNames: { maxLength: 6 },
          additionalProperties: { type: 'boolean' },
          maxProperties: 3,
        },
        limits: { type: 'object', properties: { low: { type: 'integer' }, high: { type: 'integer' } }, dependentRequired: { high: ['low'] }, minProperties: 1 },
      },
      required: ['name'],
      dependentRequired: { limits: ['tags'] },
    },
    instances: [
      { name: 'root', tags: { ab: 1, x: 2, 'A-1': true }, limits: { low: 1, high: 2 } },
      { name: 'é', limits: { low: -1 }, tags: {} },
    ],
  },
  {
    name: 'free JSON',
    schema: {},
    instances: [{ a: [1, -2.5e-7, 'x\u0001y', null, true, { é: {} }], b: 1.5e300 }],
  },
];

export function describeGuarantees(tokenizerName: 'qwen3' | 'llama3' | 'gemma3'): void {
  describe(`mask engine guarantees on the ${tokenizerName} vocabulary`, () => {
    let vocabulary: Vocabulary;
    let encode: (text: string) => number[];
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    addFormats(ajv);
    const cases = [...toolCases(), ...STRUCTURAL];
    const grammars = new Map<string, CompiledGrammar>();
    const grammarFor = (toolCase: ToolCase, flexible = false): CompiledGrammar => {
      const key = `${toolCase.name}|${flexible}`;
      let grammar = grammars.get(key);
      if (grammar === undefined) {
        grammar = compileJsonSchema(toolCase.schema, vocabulary, { layout: flexible ? 'flexible' : 'compact' });
        grammars.set(key, grammar);
      }
      return grammar;
    };

    beforeAll(() => {
      ({ vocabulary, encode } = loadTestTokenizer(tokenizerName));
    }, 120_000);

    it('has valid instances for every case (guards the fixtures themselves)', () => {
      for (const toolCase of cases) {
        const validate = ajv.compile(toolCase.schema as object);
        for (const instance of toolCase.instances) expect({ tool: toolCase.name, valid: validate(instance) }).toEqual({ tool: toolCase.name, valid: true });
      }
    });

    it('soundness and no dead ends: random-logit generations (compact and flexible layouts) always finish Ajv-valid, and every mask agrees with accept()', () => {
      const failures: string[] = [];
      for (const [toolCase, flexible] of cases.flatMap((entry): [ToolCase, boolean][] => [
        [entry, false],
        [entry, true],
      ])) {
        const grammar = grammarFor(toolCase, flexible);
        const validate = ajv.compile(toolCase.schema as object);
        const random = createRandom(toolCase.name.length * 977 + tokenizerName.length + (flexible ? 1 : 0));
        // the flexible layout gets half the runs: it shares everything but whitespace and escapes
        for (let run = 0; run < (flexible ? Math.ceil(RUNS / 2) : RUNS); run++) {
          const generation = generate(grammar, random, Math.floor(random() * 48));
          failures.push(...generation.disagreements.map((text) => `${toolCase.name}: ${text}`));
          let value: unknown;
          try {
            value = JSON.parse(generation.text) as unknown;
          } catch {
            failures.push(`${toolCase.name}: not JSON: ${generation.text.slice(0, 200)}`);
            continue;
          }
          if (!validate(value)) failures.push(`${toolCase.name}: Ajv rejects ${generation.text.slice(0, 200)}: ${ajv.errorsText(validate.errors)}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('completeness: valid values in the engine layout are accepted under the own, per-character and random tokenizations', () => {
      const failures: string[] = [];
      const random = createRandom(42);
      for (const toolCase of cases) {
        const grammar = grammarFor(toolCase);
        for (const instance of toolCase.instances) {
          const text = grammar.format(instance);
          if (text === undefined) {
            failures.push(`${toolCase.name}: no layout text for ${JSON.stringify(instance)}`);
            continue;
          }
          const tokenizations: [string, number[]][] = [
            ['own', encode(text)],
            ['per character', tokenizePerCharacter(vocabulary, text)],
            ['random', tokenizeRandomly(vocabulary, text, random)],
            ['random', tokenizeRandomly(vocabulary, text, random)],
          ];
          for (const [label, ids] of tokenizations) {
            const refused = feed(grammar, ids);
            if (refused !== -1)
              failures.push(`${toolCase.name} (${label}): refused token ${refused} ${JSON.stringify(vocabulary.tokenText(ids[refused] ?? -1))} of ${text}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('completeness of the layout: the tool instances serialize as compact JSON in schema property order', () => {
      const grammar = grammarFor(toolCases()[0]!);
      const instance = toolCases()[0]!.instances[1]!;
      const reordered = {
        effective_date: instance.effective_date,
        reason: instance.reason,
        billing_cycle: instance.billing_cycle,
        new_plan: instance.new_plan,
        user_id: instance.user_id,
      };
      expect(grammar.format(reordered)).toBe(JSON.stringify(instance));
    });

    it('flexible layout accepts pretty-printed model-style JSON under the own tokenization', () => {
      const failures: string[] = [];
      for (const toolCase of cases) {
        const grammar = grammarFor(toolCase, true);
        for (const instance of toolCase.instances) {
          const compact = grammar.format(instance)!;
          for (const text of [JSON.stringify(JSON.parse(compact), null, 2), JSON.stringify(JSON.parse(compact), null, 1).replaceAll('\n', ' ')]) {
            const refused = feed(grammar, encode(text));
            if (refused !== -1) failures.push(`${toolCase.name}: refused ${JSON.stringify(text)} at token ${refused}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('propertyOrder any: random-logit generations end Ajv-valid with masks agreeing with accept(), and instances with reversed keys are accepted under the own tokenization', () => {
      const failures: string[] = [];
      const random = createRandom(tokenizerName.length * 131);
      const reversed = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(reversed);
        if (value !== null && typeof value === 'object')
          return Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, item]) => [key, reversed(item)]),
          );
        return value;
      };
      for (const toolCase of cases.filter((entry) => entry.name !== 'free JSON')) {
        const grammar = compileJsonSchema(toolCase.schema, vocabulary, { propertyOrder: 'any' });
        // the test's shortest-completion search explores every state a few bytes away: a depth budget keeps it small
        const shallow = compileJsonSchema(toolCase.schema, vocabulary, { propertyOrder: 'any', maxDepth: 6 });
        const validate = ajv.compile(toolCase.schema as object);
        for (let run = 0; run < Math.ceil(RUNS / 2); run++) {
          const generation = generate(shallow, random, Math.floor(random() * 48));
          failures.push(...generation.disagreements.map((text) => `${toolCase.name}: ${text}`));
          if (!validate(JSON.parse(generation.text))) failures.push(`${toolCase.name}: Ajv rejects ${generation.text.slice(0, 200)}`);
        }
        for (const instance of toolCase.instances) {
          const text = JSON.stringify(reversed(instance));
          const refused = feed(grammar, encode(text));
          if (refused !== -1) failures.push(`${toolCase.name}: refused token ${refused} of ${text}`);
        }
      }
      expect(failures).toEqual([]);
      // a fixed, seeded amount of work: 15–26 s alone on the 2-core machine, past 30 s beside other files under load
    }, 120_000);

    it('samples of outputs re-enter under the tokenizer’s own tokenization (completeness on generated values)', () => {
      const failures: string[] = [];
      const random = createRandom(7);
      for (const toolCase of cases.slice(0, 6)) {
        const grammar = grammarFor(toolCase);
        const generation = generate(grammar, random, 24, 0);
        const refused = feed(grammar, encode(generation.text));
        if (refused !== -1) failures.push(`${toolCase.name}: own tokenization of a generated value refused at ${refused}: ${generation.text.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
    });
  });
}
