/**
 * Unicode property escapes (`\p{…}`, `\P{…}`) in `pattern` and `patternProperties`, refused before: on the Qwen3,
 * Llama 3 and Gemma 3 vocabularies, the mask accepts a sampled instance, whole and token by token, exactly when the
 * registry (which runs `new RegExp(pattern, 'u')`'s language in linear time) accepts it.
 */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { createRandom, instanceDisagreements } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

/** ASCII, Latin with accents, Greek, Cyrillic, Han, Arabic digits, a combining mark, astral letters and emoji. */
const ALPHABET = ['a', 'Z', '_', ' ', '-', '7', '!', 'é', 'Ü', 'Ω', 'λ', 'ж', '中', '文', '٣', '\u0301', '\u00a0', '\u{1D400}', '\u{20000}', '😀', '✅'];

function sampleStrings(count: number, seed: number): string[] {
  const next = createRandom(seed);
  const strings = ['', ...ALPHABET];
  for (let index = 0; index < count; index++) {
    const length = 1 + Math.floor(next() * 5);
    strings.push(Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]!).join(''));
  }
  return strings;
}

const CASES: { name: string; schema: Record<string, unknown>; instances: unknown[] }[] = [
  { name: 'pattern ^[\\p{L}\\p{N}_ -]+$', schema: { type: 'string', pattern: '^[\\p{L}\\p{N}_ -]+$' }, instances: sampleStrings(60, 1) },
  { name: 'pattern ^\\p{L}+$', schema: { type: 'string', pattern: '^\\p{L}+$' }, instances: sampleStrings(60, 2) },
  { name: 'unanchored \\p{Script=Greek}|\\P{L}\\P{L}', schema: { type: 'string', pattern: '\\p{Script=Greek}|\\P{L}\\P{L}' }, instances: sampleStrings(60, 3) },
  {
    name: 'pattern [^\\p{Emoji_Presentation}\\p{Ll}]$',
    schema: { type: 'string', pattern: '[^\\p{Emoji_Presentation}\\p{Ll}]$' },
    instances: sampleStrings(60, 4),
  },
  {
    name: 'patternProperties ^\\p{Lu}\\P{Script=Han}*$',
    schema: {
      type: 'object',
      patternProperties: { '^\\p{Lu}\\P{Script=Han}*$': { type: 'number' } },
      additionalProperties: { type: 'string' },
    },
    instances: sampleStrings(40, 5).flatMap((key) => [{ [key]: 1 }, { [key]: 'text' }]),
  },
];

describe('Unicode property escapes in the mask', () => {
  it('samples both verdicts of the registry for every case (the fixtures prove something)', () => {
    for (const testCase of CASES) {
      const validator = compileSchema(testCase.schema as never);
      const labels = testCase.instances.map((value) => validator.validate(value).success);
      expect(labels.filter(Boolean).length, testCase.name).toBeGreaterThan(10);
      expect(labels.filter((label) => !label).length, testCase.name).toBeGreaterThan(10);
    }
  });

  for (const vocabularyName of ['qwen3', 'llama3', 'gemma3'] as const)
    it(`${vocabularyName}: the mask accepts a sampled instance exactly when the registry does`, () => {
      expect(instanceDisagreements(CASES, loadTestTokenizer(vocabularyName))).toEqual([]);
    }, 300_000);
});
