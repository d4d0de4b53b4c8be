/**
 * A tiny vocabulary for language-level tests: one token per byte (ids 0–255), a few
 * multi-byte tokens, and an end-of-sequence id, so acceptance is about the grammar
 * and not about a tokenizer.
 */
import { Vocabulary, type VocabularyEntry } from '../../src/decoding/index.js';

const encoder = new TextEncoder();

/** Ids 0–255 are the single bytes, then `extra` texts in order, then the end token. */
export function byteVocabulary(extra: readonly string[] = []): Vocabulary {
  const entries: VocabularyEntry[] = [];
  for (let byte = 0; byte < 256; byte++) entries.push({ bytes: Uint8Array.of(byte), text: `<0x${byte.toString(16).padStart(2, '0')}>` });
  for (const text of extra) entries.push({ bytes: encoder.encode(text), text });
  entries.push({ bytes: undefined, text: '<eos>' });
  return Vocabulary.fromEntries(entries, 'sentencepiece', { eosTokenIds: [entries.length - 1] });
}
