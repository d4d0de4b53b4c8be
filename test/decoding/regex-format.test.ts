/**
 * `format: "regex"`: the mask offers a regular subset of the texts ajv-formats accepts (`new RegExp(text)` compiles, no
 * `\Z` after a character other than a backslash). Every text of the subset must be accepted by the registry (checked on
 * every text up to 5 characters over an alphabet of the regex syntax's characters, and on random long texts of the
 * automaton); the mask, on the byte vocabulary and Qwen3, Llama 3 and Gemma 3, in both layouts, whole and token by
 * token, accepts a text exactly when the subset holds it; texts the registry accepts outside the subset are the
 * documented narrowing (docs/decoding.md "Known limits").
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { MAX_GROUP_DEPTH, REGEX_FORMAT_PATTERN } from '../../src/decoding/regex-format.js';
import { CodePointDfa } from '../../src/shared/regex/code-point-dfa.js';
import { parseRegex } from '../../src/shared/regex/parse-regex.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { acceptedBothWays, createRandom, prefixWalkProblems, randomGenerationProblems, registryVerdict, type EncodingVocabulary } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const ajvRegex = fullFormats.regex as (text: string) => boolean;
const subset = CodePointDfa.fromRegex(parseRegex(REGEX_FORMAT_PATTERN, {}));
const SCHEMA = { type: 'string', format: 'regex' };

/** The characters of the regex syntax, and a few others, that the exhaustive walk strings together. */
const ALPHABET = [...'a-\\[]()?:*{},10|^$.dZ=!9b'];

describe('format "regex": a regular subset of what ajv-formats accepts', () => {
  it('every text of up to 5 characters over the syntax alphabet that the subset holds is accepted by ajv-formats', () => {
    const wrong: string[] = [];
    let held = 0;
    const walk = (state: number, text: string, left: number): void => {
      if (subset.accepting[state] === 1) {
        held++;
        if (!ajvRegex(text)) wrong.push(text);
      }
      if (left === 0) return;
      for (const character of ALPHABET) {
        const next = subset.step(state, character.codePointAt(0)!);
        if (next >= 0) walk(next, text + character, left - 1);
      }
    };
    walk(subset.start, '', 5);
    expect(wrong.slice(0, 20)).toEqual([]);
    // not vacuous: most short texts of the syntax are offered
    expect(held).toBeGreaterThan(1_000_000);
  });

  it('random texts of the subset (random walks of its automaton, any code point its ranges allow) are accepted by ajv-formats', () => {
    const random = createRandom(20261207);
    const wrong: string[] = [];
    let walks = 0;
    while (walks < 4000) {
      let state = subset.start;
      let text = '';
      for (let step = 0; step < 60; step++) {
        if (subset.accepting[state] === 1 && random() < 0.08) break;
        const ranges = subset.transitions[state]!;
        if (ranges.length === 0) break;
        const at = Math.floor(random() * (ranges.length / 3)) * 3;
        const codePoint = ranges[at]! + Math.floor(random() * Math.min(ranges[at + 1]! - ranges[at]! + 1, 64));
        text += String.fromCodePoint(codePoint);
        state = ranges[at + 2]!;
      }
      if (subset.accepting[state] !== 1) continue;
      walks++;
      if (!ajvRegex(text)) wrong.push(text);
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it('holds the regexes tool arguments carry and leaves out the forms it names (the narrowing)', () => {
    const held = [
      '^[a-z]+$',
      '^(foo|bar)$',
      '^(?:a(b(c)?)?)+$',
      '\\d{2,10}',
      'a{0,999}',
      '[-a-z0-9_]+',
      '^[^\\s@]+@[^\\s@]+$',
      '^\\w+\\.json$',
      'v?\\d+(\\.\\d+)*',
      '[a-c-]',
      '(?=x)(?!y)z',
      '',
      '|',
      'é+😀*?',
      'a{3}b{4,}c{1,2}d{9,9}e{5,60}f{10,20}',
    ];
    const narrowed = ['((((a))))', '(?<=a)b', '(?<name>a)\\k<name>', '(a)\\1', '\\u0041', '\\x41', 'a{10,19}', ']', 'x{', '\\a', '\\Z'];
    const neither = ['[a-Z]', '(', '[', 'a**', '*', 'x{10,9}', '[z-a]', 'a\\Z', '\\', '(?<a)'];
    for (const text of held) expect([text, subset.matches(text), ajvRegex(text)]).toEqual([text, true, true]);
    for (const text of narrowed) expect([text, subset.matches(text), ajvRegex(text)]).toEqual([text, false, true]);
    for (const text of neither) expect([text, subset.matches(text), ajvRegex(text)]).toEqual([text, false, false]);
    expect(subset.matches(`${'('.repeat(MAX_GROUP_DEPTH)}a${')'.repeat(MAX_GROUP_DEPTH)}`)).toBe(true);
  });

  const TOKENIZERS = new Map<string, EncodingVocabulary>([
    ['bytes', { vocabulary: byteVocabulary().buildIndex(), encode: (text) => [...new TextEncoder().encode(text)] }],
    ...(['qwen3', 'llama3', 'gemma3'] as const).map((name): [string, EncodingVocabulary] => [name, loadTestTokenizer(name)]),
  ]);
  const TEXTS = ['^[a-z]+$', '^(foo|bar)$', '\\d{2,10}', '^\\w+\\.json$', '[^"\\\\]', '"quoted"', '((((a))))', '(?<=a)b', '(', 'a**', 'x{10,9}', 'a\\Z', '\\Z'];

  it('the mask accepts a regex text exactly when the subset holds it, and nothing the registry rejects, on four vocabularies', () => {
    const valid = registryVerdict(SCHEMA);
    const problems: string[] = [];
    for (const [name, tokenizer] of TOKENIZERS) {
      for (const layout of ['compact', 'flexible'] as const) {
        const grammar = compileJsonSchema(SCHEMA, tokenizer.vocabulary, { layout });
        for (const value of TEXTS) {
          const accepted = acceptedBothWays(grammar, tokenizer.encode, JSON.stringify(value), `${name} ${layout}`, problems);
          if (accepted !== subset.matches(value)) problems.push(`${name} ${layout} ${JSON.stringify(value)}: mask ${accepted}`);
          if (accepted && !valid(value)) problems.push(`${name} ${layout} ${JSON.stringify(value)}: INVALID accepted`);
        }
      }
    }
    expect(problems).toEqual([]);
    // the texts cover both answers of the registry and of the subset
    expect(TEXTS.filter((text) => subset.matches(text)).length).toBeGreaterThan(3);
    expect(TEXTS.filter((text) => !valid(text)).length).toBeGreaterThan(3);
  });

  it('leaves no dead end on the syntax bytes, and its mask agrees with accept() there', () => {
    const grammar = compileJsonSchema({ type: 'object', properties: { r: SCHEMA }, required: ['r'], additionalProperties: false }, byteVocabulary());
    expect(prefixWalkProblems(grammar, '{"r":"', '()[a\\*{1,|"', 5)).toEqual([]);
  }, 120_000);

  it('random generations on Qwen3 are valid under the registry', () => {
    const problems = randomGenerationProblems(
      TOKENIZERS.get('qwen3')!.vocabulary,
      { property: { type: 'object', properties: { pattern: SCHEMA }, required: ['pattern'] }, items: { type: 'array', items: SCHEMA, minItems: 2 } },
      { seed: 39, runs: 30, randomSteps: 40, validatorOf: registryVerdict },
    );
    expect(problems).toEqual([]);
  });
});
