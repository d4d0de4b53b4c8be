/**
 * The real tokenizers the decoding tests run under (Qwen3, Llama 3, Gemma 3, from the
 * `@lenml/tokenizer-*` packages): the mask's vocabulary with its index built, and the
 * tokenizer's own encoding, so a test can feed text token by token as the model would (spelling the text exactly:
 * where the tokenizer's normalizer would rewrite it, the code points are encoded one at a time).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TokenizerLoader } from '@lenml/tokenizers';
import { Vocabulary } from '../../src/decoding/index.js';

export type TestTokenizerName = 'qwen3' | 'llama3' | 'gemma3';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function loadTestTokenizer(name: TestTokenizerName): { vocabulary: Vocabulary; encode: (text: string) => number[] } {
  const folder = resolve(repoRoot, `node_modules/@lenml/tokenizer-${name}/models`);
  const json = JSON.parse(readFileSync(resolve(folder, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  const config = JSON.parse(readFileSync(resolve(folder, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const vocabulary = Vocabulary.fromTokenizerJson(json).buildIndex();
  const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON: json as never, tokenizerConfig: config as never }) as unknown as {
    encode(text: string, options: { add_special_tokens: boolean }): number[];
  };
  const encodeExactly = (text: string): number[] => {
    const ids = tokenizer.encode(text, { add_special_tokens: false });
    if (spells(vocabulary, ids, text)) return ids;
    // The tokenizer's normalizer (NFC for Qwen3) rewrote the text (`a` + U+0301 becomes `á`), but a model can write
    // those code points token by token; encode them one by one so the tokens spell the text as given.
    const pieces = Array.from(text).flatMap((character) => tokenizer.encode(character, { add_special_tokens: false }));
    if (spells(vocabulary, pieces, text)) return pieces;
    throw new Error(`The ${name} tokenizer cannot spell ${JSON.stringify(text)} exactly, not even one code point at a time`);
  };
  return { vocabulary, encode: encodeExactly };
}

function spells(vocabulary: Vocabulary, ids: readonly number[], text: string): boolean {
  const bytes = ids.flatMap((id) => Array.from(vocabulary.tokenBytes(id)));
  return Buffer.from(bytes).equals(Buffer.from(text, 'utf8'));
}
