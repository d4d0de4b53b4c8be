/**
 * A vocabulary and its whole mask index (token bytes, the byte trie, the string statistics
 * and their tries) in one binary file, so that a process that has seen a tokenizer before
 * skips parsing it and building the index (0.5–1.9 s for Qwen3–Gemma 3) and maps the
 * stored typed arrays as they are.
 *
 * The file is named and checked by a SHA-256 over the tokenizer's own bytes (the
 * `tokenizer.json` and its `tokenizer_config.json`, or a GGUF file's metadata section),
 * the options that change the vocabulary, and this format's version: a changed tokenizer,
 * option or format is a different file. A file that does not read back consistently is
 * rebuilt; a folder that cannot be written only costs the next process the build.
 * @module
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { toolwrightHome } from '../shared/toolwright-home.js';
import { VocabularyError } from './decoding-errors.js';
import { readGgufMetadata } from './read-gguf-metadata.js';
import type { StringTokenStatsArrays } from './string-token-stats.js';
import type { TokenTrieArrays } from './token-trie.js';
import { Vocabulary, type TokenEncoding, type TokenTexts, type VocabularyOptions, type VocabularyParts } from './vocabulary.js';

/** Bumped whenever the stored layout or what the index holds changes: old files are then simply not found. */
const FORMAT_VERSION = 1;
const MAGIC = Buffer.from('TWVOCIX\0', 'latin1');
const PREAMBLE_BYTES = MAGIC.length + 8;

export interface LoadVocabularyOptions extends VocabularyOptions {
  /**
   * Folder of index files. Default: `vocabulary-index` in the toolwright home
   * (`$TOOLWRIGHT_HOME` or `~/.toolwright`). `false`: build the index, read and write nothing.
   */
  indexDir?: string | false;
}

export interface LoadedVocabulary {
  /** The vocabulary with its index built (`buildIndex()` already done). */
  vocabulary: Vocabulary;
  /** `read`: from an index file; `built`: from the tokenizer (and written when `file` is set and `saveError` is not). */
  index: 'read' | 'built';
  /** The index file read or written; undefined with `indexDir: false`. */
  file?: string;
  /** Why an existing index file was not used (damaged, inconsistent), when one was there. */
  readError?: string;
  /** Why the built index could not be written (a read-only folder, a full disk); the vocabulary is fine. */
  saveError?: string;
}

/**
 * Loads the vocabulary of a Hugging Face `tokenizer.json` or of a GGUF model file with its
 * mask index, from the index file when this tokenizer (with these options) was seen before,
 * else by building it and writing the file for the next process.
 */
export function loadVocabulary(path: string, options: LoadVocabularyOptions = {}): LoadedVocabulary {
  const { indexDir = join(toolwrightHome(), 'vocabulary-index'), ...vocabularyOptions } = options;
  const gguf = isGguf(path);
  const build = (): Vocabulary => (gguf ? Vocabulary.fromGguf(path, vocabularyOptions) : Vocabulary.fromTokenizerJson(path, vocabularyOptions)).buildIndex();
  if (indexDir === false) return { vocabulary: build(), index: 'built' };
  const key = indexKey(path, gguf, vocabularyOptions);
  const file = join(indexDir, `${key.slice(0, 40)}.twvi`);
  let readError: string | undefined;
  if (existsSync(file)) {
    try {
      return { vocabulary: readIndexFile(file, key, vocabularyOptions), index: 'read', file };
    } catch (error) {
      readError = (error as Error).message;
    }
  }
  const vocabulary = build();
  let saveError: string | undefined;
  try {
    writeIndexFile(file, key, vocabulary);
  } catch (error) {
    saveError = `Cannot write the vocabulary index "${file}": ${(error as Error).message}. The next process builds it again; pass indexDir to use a writable folder.`;
  }
  return { vocabulary, index: 'built', file, ...(readError === undefined ? {} : { readError }), ...(saveError === undefined ? {} : { saveError }) };
}

function isGguf(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new VocabularyError(`Cannot read the tokenizer at "${path}": ${(error as Error).message}. Pass a tokenizer.json or a .gguf model file.`, {
      cause: error,
    });
  }
  try {
    const magic = Buffer.alloc(4);
    return readSync(fd, magic, 0, 4, 0) === 4 && magic.toString('latin1') === 'GGUF';
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 (hex) of what determines the vocabulary: the tokenizer's bytes, the options that change it, the format version. */
function indexKey(path: string, gguf: boolean, options: VocabularyOptions): string {
  const hash = createHash('sha256');
  hash.update(`toolwright-vocabulary-index ${FORMAT_VERSION} ${gguf ? 'gguf' : 'tokenizer.json'}\n`);
  hash.update(
    JSON.stringify({
      vocabSize: options.vocabSize ?? null,
      eosTokenIds: options.eosTokenIds ?? null,
      disallowedTokenIds: options.disallowedTokenIds === undefined ? null : [...options.disallowedTokenIds].sort((left, right) => left - right),
    }),
  );
  if (gguf) {
    const { metadataEnd } = readGgufMetadata(path, new Set());
    const metadata = Buffer.alloc(metadataEnd);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, metadata, 0, metadataEnd, 0);
    } finally {
      closeSync(fd);
    }
    hash.update(metadata);
  } else {
    hash.update(readFileSync(path));
    const config = join(dirname(path), 'tokenizer_config.json');
    hash.update(existsSync(config) ? readFileSync(config) : Buffer.alloc(0));
  }
  return hash.digest('hex');
}

type ArrayKind = 'u8' | 'u16' | 'u32' | 'i32';
type StoredArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

interface SectionEntry {
  name: string;
  kind: ArrayKind;
  offset: number;
  length: number;
}

interface IndexHeader {
  key: string;
  size: number;
  tokenCount: number;
  encoding: TokenEncoding;
  eosTokenIds: number[];
  textTokenCount: number;
  maxConsumed: number;
  plainContentCount: number;
  trieDepths: Record<string, number>;
  sections: SectionEntry[];
}

const TRIE_FIELDS = ['nodeByte', 'nodeDepth', 'nodeEnd', 'nodeToken', 'nextSameBytes', 'tokenOrder', 'tokenStart'] as const;

function kindOf(array: StoredArray): ArrayKind {
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Uint32Array) return 'u32';
  return 'i32';
}

function writeIndexFile(file: string, key: string, vocabulary: Vocabulary): void {
  const parts = vocabulary.toParts();
  const arrays = new Map<string, StoredArray>();
  arrays.set('tokenBytesFlat', parts.tokenBytesFlat);
  arrays.set('tokenOffsets', parts.tokenOffsets);
  arrays.set('textTokens', parts.textTokens);
  const encoder = new TextEncoder();
  const textOffsets = new Uint32Array(parts.texts.count + 1);
  const textChunks: Uint8Array[] = [];
  let textBytes = 0;
  for (let id = 0; id < parts.texts.count; id++) {
    const bytes = encoder.encode(parts.texts.text(id));
    textChunks.push(bytes);
    textBytes += bytes.length;
    textOffsets[id + 1] = textBytes;
  }
  const textBlob = new Uint8Array(textBytes);
  let at = 0;
  for (const chunk of textChunks) {
    textBlob.set(chunk, at);
    at += chunk.length;
  }
  arrays.set('texts', textBlob);
  arrays.set('textOffsets', textOffsets);
  const stats = parts.stringStats;
  const trieDepths: Record<string, number> = {};
  const addTrie = (name: string, trie: TokenTrieArrays): void => {
    trieDepths[name] = trie.maxDepth;
    for (const field of TRIE_FIELDS) {
      const array = trie[field];
      if (array !== undefined) arrays.set(`${name}.${field}`, array);
    }
  };
  addTrie('trie', parts.trie);
  addTrie('remainder', stats.remainder);
  addTrie('quoteTrie', stats.quoteTrie);
  addTrie('contentTrie', stats.contentTrie);
  for (const name of [
    'consumed',
    'closes',
    'plainContent',
    'longestFirst',
    'longerThan',
    'closingShortestFirst',
    'closingShorterThan',
    'denseBudgets',
  ] as const)
    arrays.set(`stats.${name}`, stats[name]);

  const sections: SectionEntry[] = [];
  let offset = 0;
  for (const [name, array] of arrays) {
    offset = align8(offset);
    sections.push({ name, kind: kindOf(array), offset, length: array.length });
    offset += array.byteLength;
  }
  const header: IndexHeader = {
    key,
    size: parts.size,
    tokenCount: parts.tokenCount,
    encoding: parts.encoding,
    eosTokenIds: [...parts.eosTokenIds],
    textTokenCount: parts.textTokenCount,
    maxConsumed: stats.maxConsumed,
    plainContentCount: stats.plainContentCount,
    trieDepths,
    sections,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const dataStart = align8(PREAMBLE_BYTES + headerBytes.length);
  const output = Buffer.alloc(dataStart + offset);
  MAGIC.copy(output, 0);
  output.writeUInt32LE(FORMAT_VERSION, MAGIC.length);
  output.writeUInt32LE(headerBytes.length, MAGIC.length + 4);
  headerBytes.copy(output, PREAMBLE_BYTES);
  for (const section of sections) {
    const array = arrays.get(section.name)!;
    output.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), dataStart + section.offset);
  }
  mkdirSync(dirname(file), { recursive: true });
  // a reader never sees a half-written file: write beside it, then rename over
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, output);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function readIndexFile(file: string, key: string, options: VocabularyOptions): Vocabulary {
  let data = readFileSync(file);
  if (data.length < PREAMBLE_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a toolwright vocabulary index');
  if (data.readUInt32LE(MAGIC.length) !== FORMAT_VERSION) throw new Error('an index of another format version');
  const headerLength = data.readUInt32LE(MAGIC.length + 4);
  if (PREAMBLE_BYTES + headerLength > data.length) throw new Error('the header runs past the end of the file');
  const header = JSON.parse(data.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength).toString('utf8')) as IndexHeader;
  if (header.key !== key) throw new Error('the index belongs to another tokenizer');
  // typed views need their element alignment; a Buffer may start anywhere in its ArrayBuffer
  if (data.byteOffset % 8 !== 0) data = Buffer.from(new Uint8Array(data));
  const dataStart = align8(PREAMBLE_BYTES + headerLength);
  const arrays = new Map<string, StoredArray>();
  for (const section of header.sections) {
    const width = section.kind === 'u8' ? 1 : section.kind === 'u16' ? 2 : 4;
    const start = dataStart + section.offset;
    if (!Number.isSafeInteger(section.length) || section.length < 0 || section.offset % 8 !== 0 || start + section.length * width > data.length)
      throw new Error(`section ${section.name} lies outside the file`);
    const byteOffset = data.byteOffset + start;
    const view =
      section.kind === 'u8'
        ? new Uint8Array(data.buffer, byteOffset, section.length)
        : section.kind === 'u16'
          ? new Uint16Array(data.buffer, byteOffset, section.length)
          : section.kind === 'u32'
            ? new Uint32Array(data.buffer, byteOffset, section.length)
            : new Int32Array(data.buffer, byteOffset, section.length);
    arrays.set(section.name, view);
  }
  const take = <T extends StoredArray>(name: string, type: new (...args: never[]) => T, length?: number): T => {
    const array = arrays.get(name);
    if (!(array instanceof type)) throw new Error(`section ${name} is missing`);
    if (length !== undefined && array.length !== length) throw new Error(`section ${name} has ${array.length} entries, not ${length}`);
    return array;
  };
  const size = header.size;
  const maskWords = Math.ceil(size / 32);
  const tokenOffsets = take('tokenOffsets', Uint32Array, size + 1);
  const tokenBytesFlat = take('tokenBytesFlat', Uint8Array, tokenOffsets[size]);
  for (let id = 0; id < size; id++) if (tokenOffsets[id]! > tokenOffsets[id + 1]!) throw new Error('token offsets go backwards');
  const trie = (name: string): TokenTrieArrays => {
    const nodeByte = take(`${name}.nodeByte`, Uint8Array);
    const nodes = nodeByte.length;
    const tokenStart = arrays.has(`${name}.tokenStart`) ? take(`${name}.tokenStart`, Uint32Array, nodes + 1) : undefined;
    return checkTrie(name, size, {
      nodeByte,
      nodeDepth: take(`${name}.nodeDepth`, Uint16Array, nodes),
      nodeEnd: take(`${name}.nodeEnd`, Uint32Array, nodes),
      nodeToken: take(`${name}.nodeToken`, Int32Array, nodes),
      nextSameBytes: take(`${name}.nextSameBytes`, Int32Array, size),
      maxDepth: header.trieDepths[name] ?? 0,
      ...(tokenStart === undefined ? {} : { tokenStart, tokenOrder: take(`${name}.tokenOrder`, Int32Array, tokenStart[nodes]) }),
    });
  };
  const stringStats: StringTokenStatsArrays = {
    consumed: take('stats.consumed', Uint16Array, size),
    closes: take('stats.closes', Uint8Array, size),
    maxConsumed: header.maxConsumed,
    plainContent: take('stats.plainContent', Uint32Array, maskWords),
    plainContentCount: header.plainContentCount,
    remainder: trie('remainder'),
    quoteTrie: trie('quoteTrie'),
    contentTrie: trie('contentTrie'),
    longestFirst: take('stats.longestFirst', Uint32Array),
    longerThan: take('stats.longerThan', Int32Array, header.maxConsumed + 1),
    closingShortestFirst: take('stats.closingShortestFirst', Uint32Array),
    closingShorterThan: take('stats.closingShorterThan', Int32Array, header.maxConsumed + 2),
    denseBudgets: take('stats.denseBudgets', Uint32Array),
  };
  checkIds('stats.longestFirst', stringStats.longestFirst, size);
  checkIds('stats.closingShortestFirst', stringStats.closingShortestFirst, size);
  checkCuts('stats.longerThan', stringStats.longerThan, stringStats.longestFirst.length, true);
  checkCuts('stats.closingShorterThan', stringStats.closingShorterThan, stringStats.closingShortestFirst.length);
  if (stringStats.denseBudgets.length % Math.max(1, maskWords) !== 0) throw new Error('section stats.denseBudgets is not whole masks');
  const parts: VocabularyParts = {
    size,
    tokenCount: header.tokenCount,
    encoding: header.encoding,
    eosTokenIds: header.eosTokenIds,
    textTokenCount: header.textTokenCount,
    tokenBytesFlat,
    tokenOffsets,
    textTokens: take('textTokens', Uint32Array, maskWords),
    texts: storedTexts(take('texts', Uint8Array), take('textOffsets', Uint32Array, header.tokenCount + 1)),
    trie: trie('trie'),
    stringStats,
  };
  return Vocabulary.fromParts(parts, options);
}

/**
 * The invariants the mask walks rely on, so that a damaged file can make a walk neither
 * leave its arrays nor loop: subtrees end after their node, token ids are in range, and
 * chains of same-bytes tokens end.
 */
function checkTrie(name: string, size: number, trie: TokenTrieArrays): TokenTrieArrays {
  const nodes = trie.nodeByte.length;
  for (let node = 0; node < nodes; node++) {
    const end = trie.nodeEnd[node]!;
    const token = trie.nodeToken[node]!;
    const depth = trie.nodeDepth[node]!;
    if (end <= node || end > nodes || token < -1 || token >= size || depth < 1 || depth > trie.maxDepth) throw new Error(`${name} node ${node} is damaged`);
  }
  const seen = new Uint8Array(size);
  for (let node = 0; node < nodes; node++) {
    for (let token = trie.nodeToken[node]!; token >= 0; token = trie.nextSameBytes[token]!) {
      if (token >= size || seen[token] === 1) throw new Error(`${name} has a damaged same-bytes chain`);
      seen[token] = 1;
    }
  }
  if (trie.tokenStart !== undefined && trie.tokenOrder !== undefined) {
    checkCuts(`${name}.tokenStart`, trie.tokenStart, trie.tokenOrder.length);
    checkIds(`${name}.tokenOrder`, trie.tokenOrder, size);
  }
  return trie;
}

function checkIds(name: string, ids: Uint32Array | Int32Array, size: number): void {
  for (let index = 0; index < ids.length; index++) if (ids[index]! < 0 || ids[index]! >= size) throw new Error(`section ${name} holds an id out of range`);
}

/** Positions into a list of `length` entries, ascending unless `descending`. */
function checkCuts(name: string, cuts: Uint32Array | Int32Array, length: number, descending = false): void {
  for (let index = 0; index < cuts.length; index++) {
    const cut = cuts[index]!;
    const previous = index === 0 ? cut : cuts[index - 1]!;
    if (cut < 0 || cut > length || (descending ? cut > previous : cut < previous)) throw new Error(`section ${name} is damaged`);
  }
}

/** Token spellings decoded one at a time, on demand (only messages read them). */
function storedTexts(blob: Uint8Array, offsets: Uint32Array): TokenTexts {
  const decoder = new TextDecoder();
  return { count: offsets.length - 1, text: (id) => decoder.decode(blob.subarray(offsets[id], offsets[id + 1])) };
}

function align8(value: number): number {
  return (value + 7) & ~7;
}
