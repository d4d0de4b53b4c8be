import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileJsonSchema } from './compile-json-schema.js';
import { VocabularyError } from './decoding-errors.js';
import { Vocabulary } from './vocabulary.js';

const folder = mkdtempSync(join(tmpdir(), 'toolwright-vocabulary-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A byte-level BPE tokenizer.json in the shape Qwen and Llama 3 ship. */
function byteLevelJson(): Record<string, unknown> {
  return {
    model: { type: 'BPE', vocab: { '{"': 0, Ġhello: 1, 'Ã©': 2, 'ä¸': 3, Ċ: 4, '"}': 5, a: 6 }, merges: [] },
    added_tokens: [
      { id: 7, content: '<|endoftext|>', special: true },
      { id: 8, content: '<|im_end|>', special: true },
      { id: 9, content: '<think>', special: false },
    ],
    decoder: { type: 'ByteLevel', add_prefix_space: false },
  };
}

/** A SentencePiece tokenizer.json with byte fallback, as Gemma and Llama 2 ship. */
function sentencePieceJson(): Record<string, unknown> {
  return {
    model: {
      type: 'BPE',
      byte_fallback: true,
      unk_token: '<unk>',
      vocab: { '<pad>': 0, '<eos>': 1, '<unk>': 2, '<0x0A>': 3, '<0xC3>': 4, '▁hello': 5, '{"': 6, '\n': 7 },
      merges: [],
    },
    added_tokens: [
      { id: 0, content: '<pad>', special: true },
      { id: 1, content: '<eos>', special: true },
      { id: 2, content: '<unk>', special: true },
      { id: 7, content: '\n', special: false },
    ],
    decoder: { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }] },
  };
}

describe('Vocabulary.fromTokenizerJson', () => {
  it('decodes byte-level tokens to their exact bytes, partial UTF-8 included', () => {
    const vocabulary = Vocabulary.fromTokenizerJson(byteLevelJson());
    expect(vocabulary.encoding).toBe('byte-level');
    expect(text(vocabulary.tokenBytes(1))).toBe(' hello');
    expect([...vocabulary.tokenBytes(2)]).toEqual([0xc3, 0xa9]);
    expect([...vocabulary.tokenBytes(3)]).toEqual([0xe4, 0xb8]);
    expect([...vocabulary.tokenBytes(4)]).toEqual([0x0a]);
    expect(text(vocabulary.tokenBytes(9))).toBe('<think>');
  });

  it('never lets special tokens emit text, and takes well-known end tokens as EOS', () => {
    const vocabulary = Vocabulary.fromTokenizerJson(byteLevelJson());
    expect(vocabulary.isTextToken(7)).toBe(false);
    expect(vocabulary.isTextToken(8)).toBe(false);
    expect(vocabulary.isTextToken(9)).toBe(true);
    expect(vocabulary.eosTokenIds).toEqual([7, 8]);
    expect(vocabulary.textTokenCount).toBe(8);
  });

  it('decodes SentencePiece ▁ as a space and <0xNN> as the raw byte', () => {
    const vocabulary = Vocabulary.fromTokenizerJson(sentencePieceJson());
    expect(vocabulary.encoding).toBe('sentencepiece');
    expect(text(vocabulary.tokenBytes(5))).toBe(' hello');
    expect([...vocabulary.tokenBytes(3)]).toEqual([0x0a]);
    expect([...vocabulary.tokenBytes(4)]).toEqual([0xc3]);
    expect([...vocabulary.tokenBytes(7)]).toEqual([0x0a]);
    expect(vocabulary.eosTokenIds).toEqual([1]);
    expect([0, 1, 2].map((id) => vocabulary.isTextToken(id))).toEqual([false, false, false]);
  });

  it('keeps tokens with identical bytes apart in the trie (byte fallback duplicates)', () => {
    const vocabulary = Vocabulary.fromTokenizerJson(sentencePieceJson());
    const trie = vocabulary.trie;
    const newline = [...Array(trie.nodeCount).keys()].find((node) => trie.nodeDepth[node] === 1 && trie.nodeByte[node] === 0x0a)!;
    const first = trie.nodeToken[newline]!;
    expect([first, trie.nextSameBytes[first]]).toEqual([3, 7]);
  });

  it('sizes masks to the model logits (padding ids are never allowed)', () => {
    const vocabulary = Vocabulary.fromTokenizerJson(byteLevelJson(), { vocabSize: 70 });
    expect([vocabulary.size, vocabulary.maskWords, vocabulary.tokenCount]).toEqual([70, 3, 10]);
    const grammar = compileJsonSchema({ type: 'object' }, vocabulary);
    const mask = new Uint32Array(3).fill(0xffffffff);
    grammar.matcher().fillMask(mask);
    // '{"' is the only token that can start an object here; nothing beyond id 9 is ever set
    expect([...mask]).toEqual([1, 0, 0]);
    expect(() => Vocabulary.fromTokenizerJson(byteLevelJson(), { vocabSize: 5 })).toThrow(VocabularyError);
  });

  it('honours explicit EOS ids and disallowed tokens', () => {
    const vocabulary = Vocabulary.fromTokenizerJson(byteLevelJson(), { eosTokenIds: [8], disallowedTokenIds: [9] });
    expect(vocabulary.eosTokenIds).toEqual([8]);
    expect(vocabulary.isTextToken(9)).toBe(false);
  });

  it('reads a path and takes the sibling tokenizer_config.json eos_token', () => {
    const json = byteLevelJson();
    (json.added_tokens as unknown[]).push({ id: 10, content: '<|custom_end|>', special: true });
    (json.model as { vocab: Record<string, number> }).vocab.b = 11;
    writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(json));
    writeFileSync(join(folder, 'tokenizer_config.json'), JSON.stringify({ eos_token: '<|custom_end|>' }));
    const vocabulary = Vocabulary.fromTokenizerJson(join(folder, 'tokenizer.json'));
    expect(vocabulary.eosTokenIds).toEqual([7, 8, 10]);
  });

  it('refuses tokenizers whose bytes cannot be known', () => {
    expect(() => Vocabulary.fromTokenizerJson({ model: { type: 'WordPiece', vocab: { a: 0 } }, decoder: { type: 'WordPiece' } })).toThrow(VocabularyError);
    expect(() => Vocabulary.fromTokenizerJson('{ not json')).toThrow(/not valid JSON/);
    expect(() => Vocabulary.fromTokenizerJson({})).toThrow(/no "model" object/);
  });
});
