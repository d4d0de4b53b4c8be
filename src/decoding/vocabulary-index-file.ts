/**
 * A vocabulary and its whole mask index (token bytes, the byte trie, the string statistics
 * and their tries) in one binary file, so that a process that has seen a tokenizer before
 * skips parsing it and building the index (0.5–1.9 s for Qwen3–Gemma 3): the stored typed
 * arrays are used as views over one read, what follows from them (subtree ends, same-bytes
 * chains) is derived while they are checked. A load reads only what a first mask needs (the
 * token bytes, the vocabulary trie); the string statistics (per-token facts, tries, length
 * lists) are read when first used, each group under its own CRC-32 and built instead when
 * it no longer reads back, and the token spellings, which only messages read, when first
 * asked for.
 *
 * The file is named and checked by a SHA-256 over the tokenizer's own bytes (the
 * `tokenizer.json` and its `tokenizer_config.json`, or a GGUF file's metadata section),
 * the options that change the vocabulary, and this format's version: a changed tokenizer,
 * option or format is a different file. A file that does not read back consistently (its
 * CRC-32, its structure) is rebuilt; a folder that cannot be written only costs the next
 * process the build.
 *
 * Hashing an 11 MB `tokenizer.json` costs more than reading the index, so a small memo
 * beside the index (`<hash of path and options>.memo.json`) remembers which index file the
 * tokenizer had when it was last hashed, by the file's identity (device, inode, size,
 * mtime and ctime in ns; for a `tokenizer.json`, its `tokenizer_config.json`'s too). When
 * all of them match, the index is found without hashing; the index content is checked all
 * the same. A tokenizer rewritten in place with the same size, mtime and ctime is the known
 * limit (a memo is not written while the tokenizer is younger than `MEMO_SETTLE_MS`, so
 * that a write in the same timestamp tick cannot go unseen).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { safeParseJson } from '../shared/safe-json.js';
import { toolwrightHome } from '../shared/toolwright-home.js';
import { VocabularyError } from './decoding-errors.js';
import { nodeModuleFor } from './node-files.js';
import { readGgufMetadata } from './read-gguf-metadata.js';
import type { StringStatsTrieName } from './string-token-stats.js';
import {
  addTrieSections,
  align8,
  checkCuts,
  CORE_GROUP,
  isGroupEntry,
  layOutGroup,
  LENGTH_LIST_FIELDS,
  LENGTH_LISTS_GROUP,
  lengthListsFromSections,
  STRING_FACTS_GROUP,
  sectionTaker,
  trieFromSections,
  viewGroup,
  writeGroup,
  type GroupEntry,
  type StoredArray,
  type TakeSection,
} from './vocabulary-index-sections.js';
import { Vocabulary, type TokenEncoding, type TokenTexts, type VocabularyOptions } from './vocabulary.js';

/** Bumped whenever the stored layout or what the index holds changes: old files are then simply not found. */
const FORMAT_VERSION = 4;
const MAGIC = new TextEncoder().encode('TWVOCIX\0');
/** Magic, version, header length, CRC-32 of the header and the core group (the other groups and the token spellings carry their own), padding to 8. */
const PREAMBLE_BYTES = MAGIC.length + 16;
const CRC_OFFSET = MAGIC.length + 8;
/** A tokenizer changed less than this before a memo is written could change again within the same mtime/ctime tick unseen. */
const MEMO_SETTLE_MS = 2_000;
/** A memo is a few hundred bytes; anything much larger is not one of ours. */
const MEMO_MAX_BYTES = 4_096;

// Node's modules are fetched when an index is read or written, not imported, so the decoding entry bundles for a browser.
const nodeFs = () => nodeModuleFor('node:fs', 'loadVocabulary');
const nodePath = () => nodeModuleFor('node:path', 'loadVocabulary');
const nodeCrypto = () => nodeModuleFor('node:crypto', 'loadVocabulary');
const nodeZlib = () => nodeModuleFor('node:zlib', 'loadVocabulary');

export interface LoadVocabularyOptions extends VocabularyOptions {
  /**
   * Folder of index files. Default: `vocabulary-index` in the toolwright home
   * (`$TOOLWRIGHT_HOME` or `~/.toolwright`). `false`: build the index, read and write nothing.
   */
  indexDir?: string | false;
}

export interface LoadedVocabulary {
  /** The vocabulary with its index: built (`buildIndex()` done), or read, the parts a first mask does not need read when first used. */
  vocabulary: Vocabulary;
  /** `read`: from an index file; `built`: from the tokenizer (and written when `file` is set and `saveError` is not). */
  index: 'read' | 'built';
  /** The index file read or written; undefined with `indexDir: false`. */
  file?: string;
  /** Why an existing index file was not used (damaged, inconsistent), when one was there. */
  readError?: string;
  /** Why the built index could not be written (a read-only folder, a full disk); the vocabulary is fine. */
  saveError?: string;
  /** `memo`: the index file was named by the memo, without hashing the tokenizer; `hash`: by hashing it. Undefined with `indexDir: false`. */
  keyedBy?: 'memo' | 'hash';
  /** Why an existing memo was not used (the tokenizer changed, the memo or the index it names is damaged or missing). */
  memoError?: string;
  /** Where the time went, in milliseconds, for benchmarks and logs; a step that did not run is 0. */
  timings: {
    /** Finding the index file: the memo and the tokenizer's file identity, or hashing the tokenizer. */
    locateMs: number;
    /** Reading the index file's header and core group (the other groups and the token spellings are read later, when first used). */
    readMs: number;
    /** The checksum of its header and core group. */
    checksumMs: number;
    /** The vocabulary trie's structure checks, with its subtree ends and same-bytes chains derived in the same passes. */
    structureMs: number;
    /** Its header, the views over the read bytes and the vocabulary over them. */
    decodeMs: number;
    /** Parsing the tokenizer and building the index, when no index file was read. */
    buildMs: number;
    /** Writing the index file and the memo after a build. */
    saveMs: number;
  };
}

type VocabularyLoadTimings = LoadedVocabulary['timings'];

/**
 * Loads the vocabulary of a Hugging Face `tokenizer.json` or of a GGUF model file with its
 * mask index, from the index file when this tokenizer (with these options) was seen before,
 * else by building it and writing the file for the next process.
 */
export function loadVocabulary(path: string, options: LoadVocabularyOptions = {}): LoadedVocabulary {
  const { indexDir = nodePath().join(toolwrightHome(), 'vocabulary-index'), ...vocabularyOptions } = options;
  const timings: VocabularyLoadTimings = { locateMs: 0, readMs: 0, checksumMs: 0, structureMs: 0, decodeMs: 0, buildMs: 0, saveMs: 0 };
  let clock = performance.now();
  const lap = (step: keyof VocabularyLoadTimings): void => {
    const at = performance.now();
    timings[step] += at - clock;
    clock = at;
  };
  const gguf = isGguf(path);
  const build = (): Vocabulary => {
    lap('locateMs');
    const built = (gguf ? Vocabulary.fromGguf(path, vocabularyOptions) : Vocabulary.fromTokenizerJson(path, vocabularyOptions)).buildIndex();
    lap('buildMs');
    return built;
  };
  if (indexDir === false) return { vocabulary: build(), index: 'built', timings };
  const memoFile = nodePath().join(indexDir, memoName(path, gguf, vocabularyOptions));
  const identity = tokenizerIdentity(path, gguf);
  const memo = readMemo(memoFile, identity);
  let memoError = memo.reason;
  let failedKey: string | undefined;
  let readError: string | undefined;
  if (memo.key !== undefined) {
    const file = indexFileFor(indexDir, memo.key);
    try {
      lap('locateMs');
      return { vocabulary: readIndexFile(file, memo.key, gguf, vocabularyOptions, lap), index: 'read', file, keyedBy: 'memo', timings };
    } catch (error) {
      failedKey = memo.key;
      readError = (error as Error).message;
      memoError = `the memo names the index "${file}", which did not read back: ${readError}`;
    }
  }
  const key = indexKey(path, gguf, vocabularyOptions);
  const file = indexFileFor(indexDir, key);
  const withMemo = memoError === undefined ? {} : { memoError };
  // the file the memo named already failed; reading it again would only fail again
  if (key !== failedKey) {
    readError = undefined;
    if (nodeFs().existsSync(file)) {
      try {
        lap('locateMs');
        const vocabulary = readIndexFile(file, key, gguf, vocabularyOptions, lap);
        writeMemo(memoFile, identity, key);
        lap('saveMs');
        return { vocabulary, index: 'read', file, keyedBy: 'hash', ...withMemo, timings };
      } catch (error) {
        readError = (error as Error).message;
      }
    }
  }
  const vocabulary = build();
  let saveError: string | undefined;
  try {
    writeIndexFile(file, key, gguf, vocabularyOptions, vocabulary);
    writeMemo(memoFile, identity, key);
  } catch (error) {
    saveError = `Cannot write the vocabulary index "${file}": ${(error as Error).message}. The next process builds it again; pass indexDir to use a writable folder.`;
  }
  lap('saveMs');
  return {
    vocabulary,
    index: 'built',
    file,
    keyedBy: 'hash',
    ...withMemo,
    ...(readError === undefined ? {} : { readError }),
    ...(saveError === undefined ? {} : { saveError }),
    timings,
  };
}

function indexFileFor(indexDir: string, key: string): string {
  return nodePath().join(indexDir, `${key.slice(0, 40)}.twvi`);
}

/** What identifies the tokenizer's files on disk without reading them; `null` for a `tokenizer_config.json` that is absent. */
interface FileIdentity {
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
}

interface TokenizerIdentity {
  tokenizer: FileIdentity;
  config: FileIdentity | null;
}

function fileIdentity(path: string): FileIdentity | null {
  const stat = nodeFs().statSync(path, { bigint: true, throwIfNoEntry: false });
  if (stat === undefined) return null;
  return { dev: String(stat.dev), ino: String(stat.ino), size: String(stat.size), mtimeNs: String(stat.mtimeNs), ctimeNs: String(stat.ctimeNs) };
}

function tokenizerIdentity(path: string, gguf: boolean): TokenizerIdentity {
  // isGguf opened the file a moment ago, so it exists
  const tokenizer = fileIdentity(path)!;
  return { tokenizer, config: gguf ? null : fileIdentity(nodePath().join(nodePath().dirname(path), 'tokenizer_config.json')) };
}

/** The memo's file name: the tokenizer's absolute path and the options that change the vocabulary, so that each has its own. */
function memoName(path: string, gguf: boolean, options: VocabularyOptions): string {
  const hash = nodeCrypto().createHash('sha256');
  hash.update(`toolwright-vocabulary-memo ${FORMAT_VERSION} ${gguf ? 'gguf' : 'tokenizer.json'}\n${nodePath().resolve(path)}\n${optionsText(options)}`);
  return `${hash.digest('hex').slice(0, 40)}.memo.json`;
}

const IDENTITY_FIELDS = ['dev', 'ino', 'size', 'mtimeNs', 'ctimeNs'] as const;

function sameIdentity(stored: unknown, current: FileIdentity | null): boolean {
  if (current === null) return stored === null;
  return isPlainObject(stored) && IDENTITY_FIELDS.every((field) => stored[field] === current[field]);
}

/**
 * The index key the memo holds when the memo is ours, of this format, and the tokenizer's
 * files are the ones it describes; otherwise why not. The memo is read as hostile text:
 * it can only name an index file, whose content is checked as any other.
 */
function readMemo(memoFile: string, identity: TokenizerIdentity): { key?: string; reason?: string } {
  let text: string;
  try {
    const data = readBounded(memoFile, MEMO_MAX_BYTES);
    if (data === undefined) return { reason: `the memo "${memoFile}" is over ${MEMO_MAX_BYTES} bytes, so not one toolwright wrote` };
    text = data.toString('utf8');
  } catch (error) {
    // no memo yet is the ordinary first visit, not a fault
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { reason: `the memo "${memoFile}" cannot be read: ${(error as Error).message}` };
  }
  const parsed = safeParseJson(text, { maxDepth: 4, maxChars: MEMO_MAX_BYTES });
  if (!parsed.success) return { reason: `the memo "${memoFile}" is not valid JSON: ${parsed.error.message}` };
  const memo = parsed.value;
  if (!isPlainObject(memo) || memo.version !== FORMAT_VERSION || typeof memo.key !== 'string' || !/^[0-9a-f]{64}$/.test(memo.key))
    return { reason: `the memo "${memoFile}" is not a toolwright vocabulary memo of format ${FORMAT_VERSION}` };
  if (!sameIdentity(memo.tokenizer, identity.tokenizer) || !sameIdentity(memo.config, identity.config))
    return { reason: 'the tokenizer changed since the memo was written (device, inode, size, mtime or ctime differ)' };
  return { key: memo.key };
}

/** Best effort: a memo that cannot be written only costs the next process a hash. */
function writeMemo(memoFile: string, identity: TokenizerIdentity, key: string): void {
  const settledBefore = BigInt(Date.now() - MEMO_SETTLE_MS) * 1_000_000n;
  for (const file of [identity.tokenizer, identity.config]) {
    if (file !== null && (BigInt(file.mtimeNs) > settledBefore || BigInt(file.ctimeNs) > settledBefore)) return;
  }
  try {
    writeAtomically(memoFile, Buffer.from(JSON.stringify({ version: FORMAT_VERSION, key, ...identity }), 'utf8'));
  } catch {
    // the index itself was written or read; only the shortcut is lost
  }
}

/** The file's bytes, or undefined when it holds more than `maxBytes`. */
function readBounded(file: string, maxBytes: number): Buffer | undefined {
  const fd = nodeFs().openSync(file, 'r');
  try {
    const size = nodeFs().fstatSync(fd).size;
    if (size > maxBytes) return undefined;
    const data = Buffer.alloc(size);
    readFully(fd, data);
    return data;
  } finally {
    nodeFs().closeSync(fd);
  }
}

/** Fills `into` from the file at `position`. */
function readFully(fd: number, into: Uint8Array, position = 0): void {
  let at = 0;
  while (at < into.length) {
    const read = nodeFs().readSync(fd, into, at, into.length - at, position + at);
    if (read === 0) throw new Error(`the file ended after ${at} of ${into.length} bytes`);
    at += read;
  }
}

function writeAtomically(file: string, data: Uint8Array): void {
  nodeFs().mkdirSync(nodePath().dirname(file), { recursive: true });
  // a reader never sees a half-written file: write beside it, then rename over
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    nodeFs().writeFileSync(temporary, data);
    nodeFs().renameSync(temporary, file);
  } catch (error) {
    nodeFs().rmSync(temporary, { force: true });
    throw error;
  }
}

function isGguf(path: string): boolean {
  let fd: number;
  try {
    fd = nodeFs().openSync(path, 'r');
  } catch (error) {
    throw new VocabularyError(`Cannot read the tokenizer at "${path}": ${(error as Error).message}. Pass a tokenizer.json or a .gguf model file.`, {
      cause: error,
    });
  }
  try {
    const magic = Buffer.alloc(4);
    return nodeFs().readSync(fd, magic, 0, 4, 0) === 4 && magic.toString('latin1') === 'GGUF';
  } finally {
    nodeFs().closeSync(fd);
  }
}

/** SHA-256 (hex) of what determines the vocabulary: the tokenizer's bytes, the options that change it, the format version. */
function indexKey(path: string, gguf: boolean, options: VocabularyOptions): string {
  const hash = nodeCrypto().createHash('sha256');
  hash.update(`toolwright-vocabulary-index ${FORMAT_VERSION} ${gguf ? 'gguf' : 'tokenizer.json'}\n`);
  hash.update(optionsText(options));
  if (gguf) {
    const { metadataEnd } = readGgufMetadata(path, new Set());
    const metadata = Buffer.alloc(metadataEnd);
    const fd = nodeFs().openSync(path, 'r');
    try {
      nodeFs().readSync(fd, metadata, 0, metadataEnd, 0);
    } finally {
      nodeFs().closeSync(fd);
    }
    hash.update(metadata);
  } else {
    hash.update(nodeFs().readFileSync(path));
    const config = nodePath().join(nodePath().dirname(path), 'tokenizer_config.json');
    hash.update(nodeFs().existsSync(config) ? nodeFs().readFileSync(config) : Buffer.alloc(0));
  }
  return hash.digest('hex');
}

function optionsText(options: VocabularyOptions): string {
  return JSON.stringify({
    vocabSize: options.vocabSize ?? null,
    eosTokenIds: options.eosTokenIds ?? null,
    disallowedTokenIds: options.disallowedTokenIds === undefined ? null : [...options.disallowedTokenIds].sort((left, right) => left - right),
  });
}

interface IndexHeader {
  key: string;
  /** What the key was computed over besides the tokenizer's bytes, so that a memo naming another option set's file is caught. */
  source: 'gguf' | 'tokenizer.json';
  options: string;
  size: number;
  tokenCount: number;
  encoding: TokenEncoding;
  eosTokenIds: number[];
  textTokenCount: number;
  maxConsumed: number;
  plainContentCount: number;
  trieDepths: Record<string, number>;
  /** The section groups, `core` first at offset 0 (read at load, under the preamble's CRC-32), then those read on first use. */
  groups: GroupEntry[];
  /** Where the token spellings start after the groups: `tokenCount + 1` u32 offsets, then the UTF-8 bytes; read on first use. */
  spellings: { offset: number; bytes: number; crc: number };
}

/** The string statistics' tries, each a group of its own read when a walk first needs it. */
const STRING_TRIES: readonly StringStatsTrieName[] = ['remainder', 'quoteTrie', 'contentTrie'];

function writeIndexFile(file: string, key: string, gguf: boolean, options: VocabularyOptions, vocabulary: Vocabulary): void {
  const parts = vocabulary.toParts();
  const stats = parts.stringStats;
  const spellings = encodeSpellings(parts.texts);
  const trieDepths: Record<string, number> = { trie: parts.trie.maxDepth };
  const groupArrays = new Map<string, Map<string, StoredArray>>();
  const core = new Map<string, StoredArray>([
    ['tokenBytesFlat', parts.tokenBytesFlat],
    ['tokenOffsets', parts.tokenOffsets],
    ['textTokens', parts.textTokens],
  ]);
  addTrieSections(core, 'trie', parts.trie);
  groupArrays.set(CORE_GROUP, core);
  groupArrays.set(
    STRING_FACTS_GROUP,
    new Map<string, StoredArray>([
      ['stats.consumed', stats.consumed],
      ['stats.closes', stats.closes],
      ['stats.plainContent', stats.plainContent],
    ]),
  );
  for (const name of STRING_TRIES) {
    const arrays = new Map<string, StoredArray>();
    addTrieSections(arrays, name, stats[name]);
    trieDepths[name] = stats[name].maxDepth;
    groupArrays.set(name, arrays);
  }
  groupArrays.set(LENGTH_LISTS_GROUP, new Map(LENGTH_LIST_FIELDS.map((field) => [`stats.${field}`, stats[field]])));
  const groups: GroupEntry[] = [];
  let offset = 0;
  for (const [name, arrays] of groupArrays) {
    const group = layOutGroup(name, offset, arrays);
    groups.push(group);
    offset = align8(offset + group.bytes);
  }
  const header: IndexHeader = {
    key,
    source: gguf ? 'gguf' : 'tokenizer.json',
    options: optionsText(options),
    size: parts.size,
    tokenCount: parts.tokenCount,
    encoding: parts.encoding,
    eosTokenIds: [...parts.eosTokenIds],
    textTokenCount: parts.textTokenCount,
    maxConsumed: stats.maxConsumed,
    plainContentCount: stats.plainContentCount,
    trieDepths,
    groups,
    spellings: { offset, bytes: spellings.length, crc: nodeZlib().crc32(spellings) },
  };
  // the groups' CRCs go into the header, so the sections are laid out in a scratch buffer first
  const sections = new Uint8Array(offset);
  for (const group of groups) {
    writeGroup(sections, group.offset, group, groupArrays.get(group.name)!);
    if (group.name !== CORE_GROUP) group.crc = nodeZlib().crc32(sections.subarray(group.offset, group.offset + group.bytes));
  }
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const dataStart = align8(PREAMBLE_BYTES + headerBytes.length);
  const output = Buffer.alloc(dataStart + offset + spellings.length);
  output.set(MAGIC, 0);
  output.writeUInt32LE(FORMAT_VERSION, MAGIC.length);
  output.writeUInt32LE(headerBytes.length, MAGIC.length + 4);
  headerBytes.copy(output, PREAMBLE_BYTES);
  output.set(sections, dataStart);
  output.set(spellings, dataStart + offset);
  output.writeUInt32LE(nodeZlib().crc32(output.subarray(PREAMBLE_BYTES, dataStart + groups[0]!.bytes)), CRC_OFFSET);
  writeAtomically(file, output);
}

function readIndexFile(file: string, key: string, gguf: boolean, options: VocabularyOptions, lap: (step: keyof VocabularyLoadTimings) => void): Vocabulary {
  const { bytes, header, dataStart } = readCore(file, key, gguf, options);
  lap('readMs');
  const size = header.size;
  const maskWords = Math.ceil(size / 32);
  const take = sectionTaker(viewGroup(bytes.buffer, dataStart, header.groups[0]!));
  const tokenOffsets = take('tokenOffsets', Uint32Array, size + 1);
  const tokenBytesFlat = take('tokenBytesFlat', Uint8Array, tokenOffsets[size]);
  lap('decodeMs');
  // Only what bounds a loop is checked here (the subtree ends derived from the depths, the ascending chains, and in the
  // groups read later the cuts of the length lists): a token offset or an id out of place gives a wrong mask, not an
  // endless walk, and the checksum catches it. Checking every id and offset too, in code the JIT has not optimized yet,
  // cost a cold process more than reading them.
  const trie = trieFromSections(take, 'trie', header.trieDepths.trie, size);
  lap('structureMs');
  // the structure checks keep a walk inside its arrays; only the checksum can tell a flipped token byte or mask bit, which would give a wrong mask
  if (nodeZlib().crc32(bytes.subarray(PREAMBLE_BYTES)) !== Buffer.from(bytes.buffer, 0, PREAMBLE_BYTES).readUInt32LE(CRC_OFFSET))
    throw new Error('the checksum does not match: the file is damaged');
  lap('checksumMs');
  // read later from the same file should the process change its working folder meanwhile
  const absolute = nodePath().resolve(file);
  const later = groupReadOnUse(absolute, dataStart, header);
  const vocabulary = Vocabulary.fromParts(
    {
      size,
      tokenCount: header.tokenCount,
      encoding: header.encoding,
      eosTokenIds: header.eosTokenIds,
      textTokenCount: header.textTokenCount,
      tokenBytesFlat,
      tokenOffsets,
      textTokens: take('textTokens', Uint32Array, maskWords),
      texts: spellingsReadOnUse(absolute, dataStart + header.spellings.offset, header.tokenCount, header.spellings),
      trie,
      stringStats: {
        maxConsumed: header.maxConsumed,
        plainContentCount: header.plainContentCount,
        // token ids and counts in them are left to the checksum: a wrong one gives a wrong mask, not an endless walk
        readFacts: () =>
          later(STRING_FACTS_GROUP, (groupTake) => ({
            consumed: groupTake('stats.consumed', Uint16Array, size),
            closes: groupTake('stats.closes', Uint8Array, size),
            plainContent: groupTake('stats.plainContent', Uint32Array, maskWords),
          })),
        readTrie: (name) => later(name, (groupTake) => trieFromSections(groupTake, name, header.trieDepths[name], size)),
        readLengthLists: () => later(LENGTH_LISTS_GROUP, (groupTake) => lengthListsFromSections(groupTake, header.maxConsumed, maskWords)),
      },
    },
    options,
  );
  lap('decodeMs');
  return vocabulary;
}

/**
 * The groups after `core`, read from the file when first used (a mask walk that needs the
 * content trie, a length-bounded string's first narrowing): each into a fresh `ArrayBuffer`,
 * checked against the CRC-32 the header was read with, then its structure as at load. A
 * group that does not read back (the file removed, replaced or damaged since the load) is
 * `undefined`, and its parts are built from the vocabulary, as without a file, so a mask
 * never waits on a damaged file nor trusts one; a damaged file is removed so that the next
 * `loadVocabulary` writes it again.
 */
function groupReadOnUse(file: string, dataStart: number, header: IndexHeader) {
  return <T>(name: string, decode: (take: TakeSection) => T): T | undefined => {
    const group = header.groups.find((entry) => entry.name === name);
    if (group === undefined) return undefined;
    const bytes = new Uint8Array(group.bytes);
    try {
      const fd = nodeFs().openSync(file, 'r');
      try {
        readFully(fd, bytes, dataStart + group.offset);
      } finally {
        nodeFs().closeSync(fd);
      }
    } catch {
      return undefined;
    }
    try {
      if (nodeZlib().crc32(bytes) !== group.crc) throw new Error('checksum');
      return decode(sectionTaker(viewGroup(bytes.buffer, 0, group)));
    } catch {
      nodeFs().rmSync(file, { force: true });
      return undefined;
    }
  };
}

/**
 * The preamble, header and `core` group of an index file, read into one fresh `ArrayBuffer`
 * (offset 0, so every section's view is aligned): the sections become views over it, never
 * copies. The other groups and the token spellings after them are not read here. Throws
 * when the file is not a whole index of this tokenizer, these options and this format.
 */
function readCore(file: string, key: string, gguf: boolean, options: VocabularyOptions): { bytes: Uint8Array; header: IndexHeader; dataStart: number } {
  const fd = nodeFs().openSync(file, 'r');
  try {
    const fileBytes = nodeFs().fstatSync(fd).size;
    const preamble = Buffer.alloc(PREAMBLE_BYTES);
    if (
      fileBytes < PREAMBLE_BYTES ||
      nodeFs().readSync(fd, preamble, 0, PREAMBLE_BYTES, 0) !== PREAMBLE_BYTES ||
      !preamble.subarray(0, MAGIC.length).equals(MAGIC)
    )
      throw new Error('not a toolwright vocabulary index');
    if (preamble.readUInt32LE(MAGIC.length) !== FORMAT_VERSION) throw new Error('an index of another format version');
    const headerLength = preamble.readUInt32LE(MAGIC.length + 4);
    if (PREAMBLE_BYTES + headerLength > fileBytes) throw new Error('the header runs past the end of the file');
    const headerBytes = Buffer.alloc(headerLength);
    readFully(fd, headerBytes, PREAMBLE_BYTES);
    const header = JSON.parse(headerBytes.toString('utf8')) as IndexHeader;
    if (!isPlainObject(header) || header.key !== key) throw new Error('the index belongs to another tokenizer');
    if (header.source !== (gguf ? 'gguf' : 'tokenizer.json') || header.options !== optionsText(options))
      throw new Error('the index was built for another kind of tokenizer file or other vocabulary options');
    const { groups, spellings } = header;
    if (
      !Array.isArray(groups) ||
      !groups.every(isGroupEntry) ||
      groups[0]?.name !== CORE_GROUP ||
      groups[0].offset !== 0 ||
      !isPlainObject(header.trieDepths) ||
      !Number.isSafeInteger(header.size) ||
      header.size < 0 ||
      !Number.isSafeInteger(header.tokenCount) ||
      header.tokenCount < 0 ||
      !isPlainObject(spellings) ||
      !Number.isSafeInteger(spellings.offset) ||
      !Number.isSafeInteger(spellings.bytes) ||
      groups.some((group) => group.offset + group.bytes > spellings.offset) ||
      spellings.offset % 8 !== 0 ||
      spellings.bytes < (header.tokenCount + 1) * 4
    )
      throw new Error('the header is damaged');
    const dataStart = align8(PREAMBLE_BYTES + headerLength);
    if (dataStart + spellings.offset + spellings.bytes > fileBytes) throw new Error('the sections or token spellings lie outside the file');
    const bytes = new Uint8Array(dataStart + groups[0].bytes);
    readFully(fd, bytes);
    // the header parsed above must be the one these sections were written with, should the file have been replaced in between
    if (!headerBytes.equals(bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength))) throw new Error('the file changed while it was read');
    return { bytes, header, dataStart };
  } finally {
    nodeFs().closeSync(fd);
  }
}

function encodeSpellings(texts: TokenTexts): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const offsets = new Uint32Array(texts.count + 1);
  let total = 0;
  for (let id = 0; id < texts.count; id++) {
    const bytes = encoder.encode(texts.text(id));
    chunks.push(bytes);
    total += bytes.length;
    offsets[id + 1] = total;
  }
  const region = new Uint8Array(offsets.byteLength + total);
  region.set(new Uint8Array(offsets.buffer), 0);
  let at = offsets.byteLength;
  for (const chunk of chunks) {
    region.set(chunk, at);
    at += chunk.length;
  }
  return region;
}

/**
 * Token spellings read from the index file when first asked for (only messages read them, so
 * a mask never waits for them), checked against the CRC-32 the header was read with. A file
 * that no longer holds them (removed, damaged) cannot give them back: the error says so,
 * and a damaged file is removed so that the next `loadVocabulary` builds it again.
 */
function spellingsReadOnUse(file: string, start: number, count: number, stored: IndexHeader['spellings']): TokenTexts {
  let spellings: { offsets: Uint32Array; blob: Uint8Array } | undefined;
  const decoder = new TextDecoder();
  const read = (): { offsets: Uint32Array; blob: Uint8Array } => {
    if (spellings !== undefined) return spellings;
    const region = new Uint8Array(stored.bytes);
    let reason: string | undefined;
    try {
      const fd = nodeFs().openSync(file, 'r');
      try {
        readFully(fd, region, start);
      } finally {
        nodeFs().closeSync(fd);
      }
    } catch (error) {
      reason = (error as Error).message;
    }
    if (reason === undefined && nodeZlib().crc32(region) !== stored.crc) {
      reason = 'their checksum does not match: the file is damaged, and was removed';
      nodeFs().rmSync(file, { force: true });
    }
    const offsets = new Uint32Array(region.buffer, 0, count + 1);
    const blob = region.subarray(offsets.byteLength);
    if (reason === undefined) {
      try {
        checkCuts('textOffsets', offsets, blob.length);
      } catch (error) {
        reason = (error as Error).message;
      }
    }
    if (reason !== undefined)
      throw new VocabularyError(
        `The token spellings in the vocabulary index "${file}" cannot be read back: ${reason}. Masks never read spellings; call loadVocabulary again to get a vocabulary whose spellings read.`,
      );
    spellings = { offsets, blob };
    return spellings;
  };
  return {
    count,
    text: (id) => {
      const { offsets, blob } = read();
      return decoder.decode(blob.subarray(offsets[id], offsets[id + 1]));
    },
  };
}
