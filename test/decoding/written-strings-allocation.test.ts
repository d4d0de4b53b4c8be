/**
 * A mask inside strings the matcher remembers (`uniqueItems` over strings) allocates nothing that grows with the masks
 * taken, whichever vocabularies the process has used before: with a per-mask lookup of the vocabulary's quote tables it
 * allocated about 40 bytes a mask once a second vocabulary had been seen (bench:mask's written-strings rows). So does a
 * mask where a token can close an object item of a `uniqueItems` array (its canonical text known from the mask before):
 * the list of items a trial closed was emptied by setting its length to 0, and the next push allocated a backing store
 * per walk. So does a mask inside a number a decimal `multipleOf` checks as it is written, and one inside a decimal of a
 * `uniqueItems` array over numbers (held-numbers.ts), under a range too (held-ranges.ts). Heap growth is counted, not time.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { loadTestTokenizer } from './test-tokenizer.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const strings = { type: 'array', items: { type: 'string' }, uniqueItems: true };
const items = Array.from({ length: 40 }, (_, index) => `packages/core/src/module-${index % 7}/file-${index}.ts`);
// the text stops inside a new item that begins like held ones, where the mask looks at the held strings
const stringsText = `[${items.map((item) => JSON.stringify(item)).join(', ')}, "packages/core/src/mod`;

const objects = { type: 'array', items: { type: 'object' }, uniqueItems: true };
const records = Array.from({ length: 40 }, (_, index) => JSON.stringify({ id: index, tags: ['alpha', `group-${index % 5}`] }));
// the text stops where `}` (alone or in a longer token) closes a new item: every mask walks those closes
const objectsText = `[${records.join(', ')}, {"id":40,"tags":["alpha"]`;

const decimals = { type: 'array', items: { type: 'number' }, uniqueItems: true };
const decimalItems = Array.from({ length: 40 }, (_, index) => `1234567890.${1000 + index}`);
// the text stops inside a decimal that begins like held ones (1234567890.104, not held): a digit token takes it to 14
// digits, whose ten completions the walk counts among the held values (held-numbers.ts)
const decimalsText = `[${decimalItems.join(', ')}, 1234567890.104`;

// the same under a range (held-ranges.ts): each interval is clipped to the range by binary search
const rangedDecimals = { type: 'array', items: { type: 'number', minimum: -1e10, maximum: 1234567890.1045 }, uniqueItems: true };

const amounts = { type: 'array', items: { type: 'number', multipleOf: 0.01, minimum: 0 } };
// the text stops inside `4.1`, which Ajv's quotient test rejects under 0.01: its close is refused, and so is every digit
// that leaves no passing completion (the run-time check of a decimal multipleOf, written-numbers.ts)
const amountsText = `[12.50, 0.30, 1999.99, 4.1`;

function heapGrowthOverMasks(schema: unknown, vocabulary: ReturnType<typeof byteVocabulary>, ids: readonly number[], masks: number): number {
  const grammar = compileJsonSchema(schema, vocabulary, { layout: 'flexible' });
  const matcher = grammar.matcher();
  for (const id of ids) expect(matcher.accept(id)).toBe(true);
  const mask = new Uint32Array(vocabulary.maskWords);
  for (let repeat = 0; repeat < masks; repeat++) matcher.fillMask(mask); // warm: the JIT's own allocations are not the mask's
  // the least of three windows: what the masks allocate shows in each, what the engine adds once (code the optimizing
  // compiler finishes late on a loaded machine) in one at most
  let least = Infinity;
  for (let window = 0; window < 3; window++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let repeat = 0; repeat < masks; repeat++) matcher.fillMask(mask);
    least = Math.min(least, process.memoryUsage().heapUsed - before);
  }
  return least;
}

describe('masks inside remembered strings', () => {
  const masks = 20_000;
  // loaded once for the four tests (each load parses the tokenizer again: about 2 s each): the masks measured run after
  // 20,000 warming ones on their own grammar, so what an earlier test left in the vocabulary's caches changes nothing
  let loaded: { qwen3: ReturnType<typeof loadTestTokenizer>; llama3: ReturnType<typeof loadTestTokenizer> } | undefined;
  const growthOnEveryVocabulary = (schema: unknown, text: string): number[] => {
    loaded ??= { qwen3: loadTestTokenizer('qwen3'), llama3: loadTestTokenizer('llama3') };
    const { qwen3, llama3 } = loaded;
    return [
      heapGrowthOverMasks(schema, byteVocabulary(), [...new TextEncoder().encode(text)], masks),
      heapGrowthOverMasks(schema, qwen3.vocabulary, qwen3.encode(text), masks),
      heapGrowthOverMasks(schema, llama3.vocabulary, llama3.encode(text), masks),
    ];
  };

  it('allocate nothing per mask on a second and third vocabulary of the process', () => {
    // 40 bytes a mask would be 800,000; a few KiB are the heap's own bookkeeping
    for (const bytesGrown of growthOnEveryVocabulary(strings, stringsText)) expect(bytesGrown).toBeLessThan(64 * 1024);
  }, 120_000);

  it('allocate nothing per mask where a token closes an object item of a uniqueItems array', () => {
    for (const bytesGrown of growthOnEveryVocabulary(objects, objectsText)) expect(bytesGrown).toBeLessThan(64 * 1024);
  }, 120_000);

  it('allocate nothing per mask inside a decimal of a uniqueItems array over numbers', () => {
    for (const bytesGrown of growthOnEveryVocabulary(decimals, decimalsText)) expect(bytesGrown).toBeLessThan(64 * 1024);
  }, 120_000);

  it('allocate nothing per mask inside a decimal of a uniqueItems array over numbers under a range', () => {
    for (const bytesGrown of growthOnEveryVocabulary(rangedDecimals, decimalsText)) expect(bytesGrown).toBeLessThan(64 * 1024);
  }, 120_000);

  it('allocate nothing per mask inside a number a decimal multipleOf checks as it is written', () => {
    for (const bytesGrown of growthOnEveryVocabulary(amounts, amountsText)) expect(bytesGrown).toBeLessThan(64 * 1024);
  }, 120_000);
});
