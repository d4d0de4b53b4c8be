/**
 * The complements of `date-time` and `time` (`not`, and so `else`, overlapping `oneOf`…), built in parts
 * (`formatComplement` in string-formats.ts): the complement of a superset of the format, plus the superset's strings that
 * ajv-formats rejects (ordinary seconds that round to 60 off the leap-second relation, any that round to 61).
 *
 * For `{"not": {"type": "string", "format": X}}`, `{"type": "string", "not": {"format": X}}` and an object whose required
 * property has format X (under `not`), X `date-time` and `time`: several hundred probe strings (times at hours, minutes
 * and seconds around each bound, with offsets that make a leap second and their neighbours, fractions on either side of
 * the doubles 60 and 61, dates around month lengths and leap years, every separator; and near-misses of valid ones: one
 * character changed, every prefix, a character more) are accepted by the mask exactly when the registry accepts the
 * instance, on the byte vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies, both layouts, whole and token by
 * token (bytes and Qwen3; the other two whole); random generations of the formats themselves are all refused by their
 * complements, and random generations of the complements end valid; byte walks from prefixes near the bounds find no
 * dead end and no mask bit that disagrees with accept(). `iso-time` and `iso-date-time` take the same probes on the byte
 * vocabulary, whole and token by token.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom, feed, generate, prefixWalkProblems, randomGenerationProblems, registryVerdict, type EncodingVocabulary } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const FORMATS = ['date-time', 'time'] as const;
type TimeFormat = (typeof FORMATS)[number];

const schemasOf = (format: TimeFormat): Record<string, Record<string, unknown>> => ({
  [`not ${format}`]: { not: { type: 'string', format } },
  [`string, not ${format}`]: { type: 'string', not: { format } },
  [`not an object with a ${format}`]: { not: { type: 'object', properties: { a: { type: 'string', format } }, required: ['a'] } },
});

const two = (value: number): string => String(value).padStart(2, '0');
/** `1 − 2^-48`: past `59.` (`60.`), ajv-formats' `+text` gives 60 (61) from this fraction on. */
const LIMIT = '999999999999996447286321199499070644378662109375';
const SECONDS = [
  '00',
  '59',
  '60',
  '61',
  '59.5',
  '60.5',
  '59.999999999999999',
  `59.${LIMIT}`,
  `59.${LIMIT.slice(0, -1)}`,
  `60.${LIMIT}`,
  `60.${LIMIT.slice(0, -2)}`,
];
/** Local hours and minutes: 23:59 and its neighbours, the wrap-arounds of a leap second (24:59, 47:00…), ordinary ones. */
const HOURS_MINUTES: readonly [number, number][] = [
  [23, 59],
  [0, 59],
  [15, 59],
  [0, 0],
  [22, 58],
  [23, 0],
  [24, 59],
  [47, 0],
  [12, 30],
  [99, 99],
];
/** Dates and separators: valid ones (leap days, month ends, each separator) first, then invalid ones. */
const DATES = ['2024-02-29T', '2024-04-30t', '2000-02-29 ', '2024-12-31\t', '2023-02-28T', '2023-02-29T', '2024-04-31T', '1900-02-29T', '2024-01-01x'];

/** The offsets that make `hours:minutes` a leap second (each sign's rule), their neighbours, and every offset form. */
function offsetsFor(hours: number, minutes: number): string[] {
  const offsets = new Set(['Z', 'z', '', '+00:00', '-00:00', '+24:00', '+00:60', '+1:00']);
  const add = (sign: '+' | '-', offsetHours: number, offsetMinutes: number): void => {
    for (const [h, m] of [
      [offsetHours, offsetMinutes],
      [offsetHours + 1, offsetMinutes],
      [offsetHours, offsetMinutes + 1],
      [offsetHours - 1, offsetMinutes],
    ] as const) {
      if (h < 0 || m < 0 || h > 99 || m > 99) continue;
      offsets.add(`${sign}${two(h)}:${two(m)}`);
      offsets.add(`${sign}${two(h)}${two(m)}`);
      if (m === 0) offsets.add(`${sign}${two(h)}`);
    }
  };
  add('-', 23 - hours, 59 - minutes);
  if (minutes === 59) add('+', hours + 1, 0);
  add('+', hours, minutes + 1);
  return [...offsets];
}

/** Each `hh:mm:ss` with each of its offsets, some of them sampled (seeded): about 300 times. */
function times(random: () => number): string[] {
  const out: string[] = [];
  for (const [hours, minutes] of HOURS_MINUTES)
    for (const seconds of SECONDS)
      for (const offset of offsetsFor(hours, minutes)) if (random() < 0.14) out.push(`${two(hours)}:${two(minutes)}:${seconds}${offset}`);
  return out;
}

/** Every prefix, one character changed at each position, a character more. */
function nearMisses(text: string): string[] {
  const out: string[] = [];
  for (let end = 0; end < text.length; end++) out.push(text.slice(0, end));
  for (let index = 0; index < text.length; index++) out.push(`${text.slice(0, index)}${'09!:'[index % 4]}${text.slice(index + 1)}`);
  out.push(`${text}Z`, `${text}0`, `${text} `, `${text}:00`);
  return out;
}

const VALID_TIMES = ['23:59:60Z', '15:59:60.25-08:00', '00:00:60+00:01', `12:00:59.${LIMIT.slice(0, -1)}+0530`, '23:59:59.999999999999999z', '24:59:60+01'];

function probes(format: TimeFormat): string[] {
  const random = createRandom(format === 'time' ? 7 : 8);
  const sampled = times(random);
  if (format === 'time') return [...new Set([...sampled, ...VALID_TIMES.flatMap((time) => [time, ...nearMisses(time)])])];
  // four in five dates valid, so that the time decides
  const dated = sampled.map((time) => `${DATES[random() < 0.8 ? Math.floor(random() * 5) : 5 + Math.floor(random() * 4)]!}${time}`);
  const valid = VALID_TIMES.map((time, index) => `${DATES[index % 6]!}${time}`);
  return [...new Set([...dated, ...valid.flatMap((text) => [text, ...nearMisses(text)])])];
}

/** A probe as the instance of each schema: the string itself, or the object holding it. */
const instanceOf = (name: string, text: string): unknown => (name.startsWith('not an object') ? { a: text } : text);

function written(value: unknown, flexible: boolean): string {
  if (typeof value === 'string' || !flexible) return JSON.stringify(value);
  return `{ "a" : ${JSON.stringify((value as { a: string }).a)} }`;
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;
/**
 * The probes fed token by token as well as whole: every one in the compact layout on the byte vocabulary, a few on
 * Qwen3, compact too (a complement's string positions let most of a large vocabulary through, so each new one is a walk of its whole
 * trie: 20–80 ms, as for any complement).
 */
const tokenByToken = (vocabulary: string, layout: string, index: number): boolean =>
  layout === 'compact' && (vocabulary === 'bytes' || (vocabulary === 'qwen3' && index % 200 === 0));

describe('the complements of date-time and time against the registry', { timeout: 300_000 }, () => {
  const tokenizers = new Map<string, EncodingVocabulary>();
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });
  for (const name of VOCABULARIES) tokenizers.set(name, loadTestTokenizer(name));

  it.each(FORMATS)('%s: each probe is accepted exactly when the registry accepts it (three schemas, both layouts, four vocabularies)', (format) => {
    const texts = probes(format);
    const failures: string[] = [];
    const counts: string[] = [];
    for (const [name, schema] of Object.entries(schemasOf(format))) {
      const verdict = registryVerdict(schema);
      const values = texts.map((text) => instanceOf(name, text));
      const expected = values.map(verdict);
      // at least a hundred probes on each side of each schema
      const valid = expected.filter(Boolean).length;
      if (Math.min(valid, texts.length - valid) < 100) counts.push(`${name}: ${valid} of ${texts.length} valid`);
      for (const [vocabularyName, tokenizer] of tokenizers)
        for (const layout of ['compact', 'flexible'] as const) {
          const grammar = compileJsonSchema(schema, tokenizer.vocabulary, { layout });
          values.forEach((value, index) => {
            const text = written(value, layout === 'flexible');
            const matcher = grammar.matcher();
            const whole = matcher.acceptString(text) && matcher.canTerminate();
            const tokens = tokenByToken(vocabularyName, layout, index) ? feed(grammar, tokenizer.encode(text)) === -1 : whole;
            if (whole !== expected[index] || tokens !== expected[index])
              failures.push(`${name} ${vocabularyName} ${layout} ${text}: registry ${expected[index]}, whole ${whole}, tokens ${tokens}`);
          });
        }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(counts).toEqual([]);
  });

  it.each([
    ['iso-time', 'time'],
    ['iso-date-time', 'date-time'],
  ] as const)('%s (an offset may be left out): the probes of %s on the byte vocabulary, whole and token by token', (format, probed) => {
    const schema = { type: 'string', not: { format } };
    const verdict = registryVerdict(schema);
    const grammar = compileJsonSchema(schema, bytes);
    const texts = probes(probed);
    const failures = texts.filter((text) => {
      const matcher = grammar.matcher();
      const whole = matcher.acceptString(JSON.stringify(text)) && matcher.canTerminate();
      const tokens = feed(grammar, [...new TextEncoder().encode(JSON.stringify(text))]) === -1;
      return whole !== verdict(text) || tokens !== verdict(text);
    });
    expect(failures.slice(0, 20)).toEqual([]);
    // a hundred or more of them are iso times, which the complement refuses
    expect(texts.filter((text) => !verdict(text)).length).toBeGreaterThan(100);
  });

  it('a date-time beside the complement of a date-time, and two complements of one: overlapping oneOf, items and maxContains, not anyOf, not with a pattern (byte vocabulary)', () => {
    const schemas: Record<string, { schema: Record<string, unknown>; instance: (text: string) => unknown }> = {
      'oneOf a date-time or one of at most 25 characters': {
        schema: {
          oneOf: [
            { type: 'string', format: 'date-time' },
            { type: 'string', format: 'date-time', maxLength: 25 },
          ],
        },
        instance: (text) => text,
      },
      'items and at most one contains, both date-time': {
        schema: { type: 'array', items: { type: 'string', format: 'date-time' }, contains: { type: 'string', format: 'date-time' }, maxContains: 1 },
        instance: (text) => (text.length % 2 === 0 ? [text] : [text, text]),
      },
      'not anyOf two objects with a date-time (each part of one complement met with each of the other)': {
        schema: {
          not: {
            anyOf: [
              { type: 'object', properties: { d: { type: 'string', format: 'date-time' } }, required: ['v'] },
              { type: 'object', properties: { d: { type: 'string', format: 'date-time' } }, required: ['w'] },
            ],
          },
        },
        instance: (text) => [{ d: text }, { d: text, v: 1 }, { d: text, w: 1 }][text.length % 3],
      },
      'a date-time not ending in Z': { schema: { type: 'string', format: 'date-time', not: { format: 'date-time', pattern: 'Z$' } }, instance: (text) => text },
    };
    // the format's own leap-second widening (Known limits): seconds of 60.f that round to 61, accepted as a date-time
    const roundsTo61 = (text: string): boolean => Number(/:(60\.\d+)/.exec(text)?.[1] ?? 0) >= 61;
    const texts = probes('date-time').filter((text) => !roundsTo61(text));
    const failures: string[] = [];
    for (const [name, { schema, instance }] of Object.entries(schemas)) {
      const verdict = registryVerdict(schema);
      const grammar = compileJsonSchema(schema, bytes);
      let valid = 0;
      for (const text of texts) {
        const written = JSON.stringify(instance(text));
        const expected = verdict(instance(text));
        if (expected) valid++;
        const matcher = grammar.matcher();
        const whole = matcher.acceptString(written) && matcher.canTerminate();
        const tokens = feed(grammar, [...new TextEncoder().encode(written)]) === -1;
        if (whole !== expected || tokens !== expected) failures.push(`${name} ${written}: registry ${expected}, whole ${whole}, tokens ${tokens}`);
      }
      if (Math.min(valid, texts.length - valid) < 50) failures.push(`${name}: ${valid} of ${texts.length} valid`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('refuses every random generation of the format itself, and random generations of the complements end valid', () => {
    const problems: string[] = [];
    const qwen3 = tokenizers.get('qwen3')!.vocabulary;
    for (const format of FORMATS) {
      const positive = compileJsonSchema({ type: 'string', format }, qwen3);
      const complement = compileJsonSchema(schemasOf(format)[`string, not ${format}`], qwen3);
      const random = createRandom(11);
      for (let run = 0; run < 40; run++) {
        const { text } = generate(positive, random, 6 + (run % 16));
        const matcher = complement.matcher();
        if (matcher.acceptString(text) && matcher.canTerminate()) problems.push(`not ${format} accepts ${text}`);
      }
      problems.push(...randomGenerationProblems(bytes, schemasOf(format), { seed: 5, runs: 8, randomSteps: 24, validatorOf: registryVerdict }));
    }
    expect(problems).toEqual([]);
  });

  it('leaves no dead end near the bounds (byte walks over digits, separators and offsets)', () => {
    const problems: string[] = [];
    const walked = '0159:.+-Zz"';
    for (const [format, prefixes] of [
      ['time', ['"', '"23:59:5', '"23:59:59.99999999999999', '"23:59:60.99999999999999', '"12:00:59.999999999999996447286321199499070644378662109375']],
      ['date-time', ['"2024-02-29T23:59:', '"2023-02-29T00:00:60']],
    ] as const) {
      const grammar: CompiledGrammar = compileJsonSchema(schemasOf(format)[`string, not ${format}`], bytes);
      for (const prefix of prefixes) problems.push(...prefixWalkProblems(grammar, prefix, walked, 3));
    }
    expect(problems).toEqual([]);
  });
});
