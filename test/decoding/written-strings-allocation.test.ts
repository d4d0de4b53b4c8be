/**
 * A mask inside strings the matcher remembers (`uniqueItems` over strings) allocates nothing that grows with the masks
 * taken, whichever vocabularies the process has used before: with a per-mask lookup of the vocabulary's quote tables it
 * allocated about 40 bytes a mask once a second vocabulary had been seen (bench:mask's written-strings rows).
 * Heap growth is counted, not time.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { loadTestTokenizer } from './test-tokenizer.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const schema = { type: 'array', items: { type: 'string' }, uniqueItems: true };
const items = Array.from({ length: 40 }, (_, index) => `packages/core/src/module-${index % 7}/file-${index}.ts`);
// the text stops inside a new item that begins like held ones, where the mask looks at the held strings
const text = `[${items.map((item) => JSON.stringify(item)).join(', ')}, "packages/core/src/mod`;

function heapGrowthOverMasks(vocabulary: ReturnType<typeof byteVocabulary>, ids: readonly number[], masks: number): number {
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
  it('allocate nothing per mask on a second and third vocabulary of the process', () => {
    const bytes = byteVocabulary();
    const qwen3 = loadTestTokenizer('qwen3');
    const llama3 = loadTestTokenizer('llama3');
    const masks = 20_000;
    const growth = [
      heapGrowthOverMasks(bytes, [...new TextEncoder().encode(text)], masks),
      heapGrowthOverMasks(qwen3.vocabulary, qwen3.encode(text), masks),
      heapGrowthOverMasks(llama3.vocabulary, llama3.encode(text), masks),
    ];
    // 40 bytes a mask would be 800,000; a few KiB are the heap's own bookkeeping
    for (const bytesGrown of growth) expect(bytesGrown).toBeLessThan(64 * 1024);
  }, 120_000);
});
