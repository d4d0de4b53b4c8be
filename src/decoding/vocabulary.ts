/**
 * A model's vocabulary as the exact bytes each token emits, read from a Hugging Face
 * `tokenizer.json` or from a GGUF file's metadata.
 * @module
 */
import { getOwn, isPlainObject } from '../shared/own.js';
import { VocabularyError } from './decoding-errors.js';
import { nodeModuleFor } from './node-files.js';
import { readGgufMetadata } from './read-gguf-metadata.js';
import { ByteSink, TokenKind, type TokenEncoding, type TokenSource } from './token-text-decoding.js';
import { GrammarCache } from './grammar-cache.js';
import { StringTokenStats, type StoredStringTokenStats, type StringTokenStatsArrays } from './string-token-stats.js';
import { TokenTrie, type TokenTrieArrays } from './token-trie.js';

export type { TokenEncoding } from './token-text-decoding.js';

export interface VocabularyOptions {
  /**
   * Width of the model's logits row. Models often pad their embedding beyond the
   * tokenizer (Qwen3: 151,936 against 151,669 tokens); the padding ids are never allowed.
   * Default: the tokenizer's highest id + 1.
   */
  vocabSize?: number;
  /** End-of-sequence ids, allowed once the value is complete. Default: the file's declared EOS plus well-known end tokens present in it. */
  eosTokenIds?: readonly number[];
  /** Token ids never to allow although they are text (e.g. Qwen's `</tool_call>`, which would end the call's framing). */
  disallowedTokenIds?: readonly number[];
  /**
   * Estimated bytes the caches that grammars over this vocabulary share may hold: half for
   * pattern, format and number automata, half for the string-content masks and loop-class
   * tables. Beyond it the least recently used entries are dropped (and rebuilt on demand).
   * Default 128 MiB.
   */
  cacheBytes?: number;
}

/** Default of `VocabularyOptions.cacheBytes`. */
const DEFAULT_CACHE_BYTES = 128 * 1024 * 1024;

/** Token spellings, for messages: an array when decoded from a tokenizer, decoded on demand when read from an index file. */
export interface TokenTexts {
  readonly count: number;
  text(id: number): string;
}

/** @internal What a vocabulary is made of; an index file stores all of it, tries and string statistics included. */
export interface VocabularyParts extends VocabularyCore {
  readonly trie: TokenTrieArrays;
  readonly stringStats: StringTokenStatsArrays;
}

/** @internal A vocabulary as an index file gives it back: the string statistics' tries and length lists are read when first used. */
export interface StoredVocabulary extends VocabularyCore {
  readonly trie: TokenTrieArrays;
  readonly stringStats: StoredStringTokenStats;
}

/** @internal The tokens themselves, without the index. */
interface VocabularyCore {
  readonly size: number;
  readonly tokenCount: number;
  readonly encoding: TokenEncoding;
  readonly eosTokenIds: readonly number[];
  readonly textTokenCount: number;
  readonly tokenBytesFlat: Uint8Array;
  readonly tokenOffsets: Uint32Array;
  readonly textTokens: Uint32Array;
  readonly texts: TokenTexts;
}

/** One token as read from a tokenizer file. */
export interface VocabularyEntry {
  /** Bytes the token emits; `undefined` for tokens that never appear in text (special, control, unused). */
  bytes: Uint8Array | undefined;
  /** The token as spelled in the file, for messages and debugging. */
  text: string;
}

/** End tokens of the common chat models, used when the file names none. */
const KNOWN_END_TOKENS = new Set([
  '<|endoftext|>',
  '<|im_end|>',
  '<|end_of_text|>',
  '<|eot_id|>',
  '<|eom_id|>',
  '<eos>',
  '<end_of_turn>',
  '</s>',
  '<|end|>',
  '<|return|>',
  '<｜end▁of▁sentence｜>',
]);

export class Vocabulary {
  /** Number of mask bits: the model's logits width, padding included. */
  readonly size: number;
  /** `Uint32Array` words a mask needs: `ceil(size / 32)`. */
  readonly maskWords: number;
  /** Ids the tokenizer itself defines (highest id + 1). */
  readonly tokenCount: number;
  /** How the source spelled bytes. */
  readonly encoding: TokenEncoding;
  /** End-of-sequence ids the mask allows once the value is complete. */
  readonly eosTokenIds: readonly number[];
  /** Number of tokens that emit text (the rest are special, padding or disallowed). */
  readonly textTokenCount: number;
  /** @internal Every token's bytes back to back; token `i` is `tokenBytesFlat[tokenOffsets[i]..tokenOffsets[i+1]]`. */
  readonly tokenBytesFlat: Uint8Array;
  /** @internal */
  readonly tokenOffsets: Uint32Array;
  /** @internal Bitset of the tokens that emit text (length `maskWords`). */
  readonly textTokens: Uint32Array;
  private readonly texts: TokenTexts;
  private trieCache: TokenTrie | undefined;
  private statsCache: StringTokenStats | undefined;
  private grammarCacheInstance: GrammarCache | undefined;
  private readonly cacheBytes: number;

  private constructor(parts: VocabularyCore | StoredVocabulary, options: VocabularyOptions) {
    const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    if (!(cacheBytes > 0))
      throw new VocabularyError(
        `cacheBytes ${String(options.cacheBytes)} is not a positive number. Pass an estimate in bytes (default ${DEFAULT_CACHE_BYTES}).`,
      );
    this.cacheBytes = cacheBytes;
    this.size = parts.size;
    this.maskWords = Math.ceil(parts.size / 32);
    this.tokenCount = parts.tokenCount;
    this.encoding = parts.encoding;
    this.eosTokenIds = Object.freeze([...new Set(parts.eosTokenIds)].sort((left, right) => left - right));
    this.textTokenCount = parts.textTokenCount;
    this.tokenBytesFlat = parts.tokenBytesFlat;
    this.tokenOffsets = parts.tokenOffsets;
    this.textTokens = parts.textTokens;
    this.texts = parts.texts;
    if ('trie' in parts) {
      this.trieCache = TokenTrie.fromArrays(parts.trie);
      this.statsCache = new StringTokenStats(this, this.cacheBytes / 2, parts.stringStats);
    }
  }

  /** @internal A vocabulary over parts read back from an index file (`vocabulary-index-file.ts`), used as they are. */
  static fromParts(parts: StoredVocabulary, options: VocabularyOptions = {}): Vocabulary {
    return new Vocabulary(parts, options);
  }

  /** @internal Everything the index holds, its tries and string statistics built now if they were not. */
  toParts(): VocabularyParts {
    const { size, tokenCount, encoding, eosTokenIds, textTokenCount, tokenBytesFlat, tokenOffsets, textTokens, texts } = this;
    return {
      size,
      tokenCount,
      encoding,
      eosTokenIds,
      textTokenCount,
      tokenBytesFlat,
      tokenOffsets,
      textTokens,
      texts,
      trie: this.trie.toArrays(),
      stringStats: this.stringStats.toArrays(),
    };
  }

  private static decode(source: TokenSource, encoding: TokenEncoding, eosTokenIds: readonly number[], options: VocabularyOptions): Vocabulary {
    const tokenCount = source.texts.length;
    const size = options.vocabSize ?? tokenCount;
    if (!Number.isInteger(size) || size < tokenCount) {
      throw new VocabularyError(
        `vocabSize ${String(options.vocabSize)} is smaller than the tokenizer's ${tokenCount} ids. Pass the model's logits width (config.json "vocab_size"), which is at least the token count.`,
      );
    }
    const disallowed = new Set(options.disallowedTokenIds ?? []);
    const sink = new ByteSink(tokenCount * 8);
    const offsets = new Uint32Array(size + 1);
    const maskWords = Math.ceil(size / 32);
    const textTokens = new Uint32Array(maskWords);
    let textTokenCount = 0;
    for (let id = 0; id < tokenCount; id++) {
      const start = sink.length;
      offsets[id] = start;
      const kind = source.kinds[id]!;
      if (kind === TokenKind.None || disallowed.has(id)) continue;
      const text = source.texts[id]!;
      const written =
        kind === TokenKind.ByteLevel
          ? sink.writeByteLevel(text)
          : kind === TokenKind.SentencePiece
            ? sink.writeSentencePiece(text)
            : kind === TokenKind.Text
              ? sink.writeUtf8(text, false)
              : sink.writeBytes(source.raw?.[id]);
      if (!written || sink.length === start) {
        sink.length = start;
        continue;
      }
      textTokens[id >>> 5]! |= 1 << (id & 31);
      textTokenCount++;
    }
    for (let id = tokenCount; id <= size; id++) offsets[id] = sink.length;
    for (const id of eosTokenIds) {
      if (!Number.isInteger(id) || id < 0 || id >= size)
        throw new VocabularyError(`End-of-sequence id ${id} is outside the vocabulary (0..${size - 1}). Pass ids the tokenizer defines.`);
    }
    const texts = source.texts;
    return new Vocabulary(
      {
        size,
        tokenCount,
        encoding,
        eosTokenIds,
        textTokenCount,
        tokenBytesFlat: sink.bytes.slice(0, sink.length),
        tokenOffsets: offsets,
        textTokens,
        texts: { count: texts.length, text: (id) => texts[id] ?? '' },
      },
      options,
    );
  }

  /**
   * Reads a Hugging Face `tokenizer.json` (its parsed object, its text, or a file path).
   * Byte-level BPE (Qwen, Llama 3, GPT-4o style) and SentencePiece with byte fallback
   * (Gemma, Llama 2: `▁`, `<0xNN>`) are understood. Given a path, a sibling
   * `tokenizer_config.json` contributes its `eos_token`.
   */
  static fromTokenizerJson(source: unknown, options: VocabularyOptions = {}): Vocabulary {
    let json: unknown = source;
    let configEos: string | undefined;
    if (typeof source === 'string') {
      const text = source.trimStart().startsWith('{') ? source : readText(source);
      if (text !== source) configEos = readConfigEos(source);
      try {
        json = JSON.parse(text) as unknown;
      } catch (error) {
        throw new VocabularyError(`tokenizer.json is not valid JSON: ${(error as Error).message}. Pass the model's tokenizer.json unchanged.`, {
          cause: error,
        });
      }
    }
    if (!isPlainObject(json) || !isPlainObject(json.model))
      throw new VocabularyError('tokenizer.json has no "model" object. Pass a Hugging Face tokenizer.json.');
    const model = json.model;
    const encoding = detectEncoding(json);
    const modelType = model.type;
    let highest = -1;
    const added = Array.isArray(json.added_tokens) ? json.added_tokens : [];
    for (const token of added) if (isPlainObject(token) && typeof token.id === 'number' && token.id > highest) highest = token.id;
    if (modelType === 'WordPiece' || modelType === 'WordLevel') {
      throw new VocabularyError(`tokenizer.json model type ${modelType} cannot be decoded to exact bytes. Use a byte-level BPE or SentencePiece tokenizer.`);
    }
    const vocab = model.vocab;
    let keys: string[] | undefined;
    if (isPlainObject(vocab)) {
      keys = Object.keys(vocab);
      for (const key of keys) {
        const id = vocab[key];
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 0)
          throw new VocabularyError(`tokenizer.json model.vocab maps ${JSON.stringify(key)} to ${String(id)}, not a token id.`);
        if (id > highest) highest = id;
      }
    } else if (Array.isArray(vocab)) {
      if (vocab.length - 1 > highest) highest = vocab.length - 1;
    } else {
      throw new VocabularyError(`tokenizer.json model type ${String(modelType)} has no readable vocab. Supported: BPE and Unigram vocabularies.`);
    }
    // dense arrays: holes would put V8 in dictionary mode for 150k+ entries
    const texts: string[] = new Array<string>(highest + 1).fill('');
    const kinds = new Uint8Array(highest + 1);
    const modelKind = encoding === 'byte-level' ? TokenKind.ByteLevel : TokenKind.SentencePiece;
    if (keys !== undefined) {
      const map = vocab as Record<string, number>;
      for (const key of keys) {
        const id = map[key]!;
        texts[id] = key;
        kinds[id] = modelKind;
      }
    } else {
      (vocab as unknown[]).forEach((item, id) => {
        const text = Array.isArray(item) ? item[0] : item;
        if (typeof text !== 'string') throw new VocabularyError(`tokenizer.json model.vocab[${id}] is not a [piece, score] pair.`);
        texts[id] = text;
        kinds[id] = modelKind;
      });
    }
    const special = new Set<number>();
    for (const token of added) {
      if (!isPlainObject(token) || typeof token.id !== 'number' || typeof token.content !== 'string') continue;
      if (token.special === true) {
        special.add(token.id);
        texts[token.id] = token.content;
      } else if (kinds[token.id] !== modelKind) {
        // an added token outside the model vocabulary is literal text
        kinds[token.id] = TokenKind.Text;
        texts[token.id] = token.content;
      }
    }
    if (typeof model.unk_token === 'string' && keys !== undefined) {
      const unknown = getOwn(vocab as Record<string, unknown>, model.unk_token);
      if (typeof unknown === 'number') special.add(unknown);
    }
    if (Array.isArray(vocab) && typeof model.unk_id === 'number') special.add(model.unk_id);
    for (const id of special) kinds[id] = TokenKind.None;
    const eos = options.eosTokenIds ?? defaultEos(texts, special, configEos);
    return Vocabulary.decode({ texts, kinds }, encoding, eos, options);
  }

  /**
   * Reads the token list and token types from a GGUF file's metadata
   * (`tokenizer.ggml.tokens`, `tokenizer.ggml.token_type`), as node-llama-cpp models ship.
   */
  static fromGguf(path: string, options: VocabularyOptions = {}): Vocabulary {
    const keys = new Set([
      'tokenizer.ggml.model',
      'tokenizer.ggml.tokens',
      'tokenizer.ggml.token_type',
      'tokenizer.ggml.eos_token_id',
      'tokenizer.ggml.eot_token_id',
      'tokenizer.ggml.eom_token_id',
    ]);
    const { metadata } = readGgufMetadata(path, keys);
    const model = metadata.get('tokenizer.ggml.model');
    const tokens = metadata.get('tokenizer.ggml.tokens');
    if (!Array.isArray(tokens) || tokens.some((token) => typeof token !== 'string')) {
      throw new VocabularyError(`"${path}" has no tokenizer.ggml.tokens string array. Pass a GGUF model file that embeds its tokenizer.`);
    }
    let encoding: TokenEncoding;
    if (model === 'gpt2') encoding = 'byte-level';
    else if (model === 'llama' || model === 't5') encoding = 'sentencepiece';
    else
      throw new VocabularyError(
        `"${path}" uses tokenizer model "${String(model)}"; only "gpt2" (byte-level BPE) and "llama" (SentencePiece) vocabularies can be decoded to bytes.`,
      );
    const typeValue = metadata.get('tokenizer.ggml.token_type');
    const types = typeValue instanceof Int32Array || typeValue instanceof Uint32Array ? typeValue : undefined;
    const texts = tokens as string[];
    const kinds = new Uint8Array(texts.length);
    const special = new Set<number>();
    for (let id = 0; id < texts.length; id++) {
      // llama.cpp token types: 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte
      const type = types?.[id] ?? 1;
      if (type === 2 || type === 3 || type === 5) special.add(id);
      else if (type === 6 || encoding === 'sentencepiece') kinds[id] = TokenKind.SentencePiece;
      else kinds[id] = type === 4 ? TokenKind.Text : TokenKind.ByteLevel;
    }
    let eos = options.eosTokenIds;
    if (eos === undefined) {
      const declared = ['tokenizer.ggml.eos_token_id', 'tokenizer.ggml.eot_token_id', 'tokenizer.ggml.eom_token_id']
        .map((key) => metadata.get(key))
        .filter((value): value is number => typeof value === 'number');
      eos = [...new Set([...declared, ...defaultEos(texts, special, undefined)])];
    }
    return Vocabulary.decode({ texts, kinds }, encoding, eos, options);
  }

  /** A vocabulary from entries built by hand (tests, custom tokenizers). */
  static fromEntries(
    entries: readonly VocabularyEntry[],
    encoding: TokenEncoding,
    options: VocabularyOptions & { eosTokenIds: readonly number[] },
  ): Vocabulary {
    const kinds = new Uint8Array(entries.length).fill(TokenKind.Raw);
    return Vocabulary.decode(
      { texts: entries.map((entry) => entry.text), kinds, raw: entries.map((entry) => entry.bytes) },
      encoding,
      options.eosTokenIds,
      options,
    );
  }

  /** The bytes token `id` emits (empty for special and padding ids). A view: do not modify. */
  tokenBytes(id: number): Uint8Array {
    return this.tokenBytesFlat.subarray(this.tokenOffsets[id], this.tokenOffsets[id + 1]);
  }

  /** The token as spelled in the tokenizer file. */
  tokenText(id: number): string {
    return id >= 0 && id < this.texts.count ? this.texts.text(id) : '';
  }

  /** True when token `id` emits text that a mask may allow. */
  isTextToken(id: number): boolean {
    return id >= 0 && id < this.size && (this.textTokens[id >>> 5]! & (1 << (id & 31))) !== 0;
  }

  /** @internal Per-token facts inside JSON strings, built on first use and kept. */
  get stringStats(): StringTokenStats {
    this.statsCache ??= new StringTokenStats(this, this.cacheBytes / 2);
    return this.statsCache;
  }

  /** @internal Pattern, format and number automata kept for every grammar compiled over this vocabulary. */
  get grammarCache(): GrammarCache {
    this.grammarCacheInstance ??= new GrammarCache(this.cacheBytes / 2);
    return this.grammarCacheInstance;
  }

  /**
   * Builds the mask index now (the token trie and the string-content slice) instead of
   * on the first compile; both are shared by every grammar over this vocabulary.
   */
  buildIndex(): this {
    void this.trie;
    void this.stringStats.remainder;
    void this.stringStats.quoteTrie;
    void this.stringStats.contentTrie.tokenStart;
    this.stringStats.prepare();
    return this;
  }

  /** Bytes held by the vocabulary and its index. */
  byteSize(): number {
    return (
      this.tokenBytesFlat.byteLength +
      this.tokenOffsets.byteLength +
      this.textTokens.byteLength +
      (this.trieCache?.byteSize() ?? 0) +
      (this.statsCache?.byteSize() ?? 0)
    );
  }

  /** @internal The byte trie over the text tokens, built on first use and kept. */
  get trie(): TokenTrie {
    if (this.trieCache === undefined) {
      const ids: number[] = [];
      for (let id = 0; id < this.tokenCount; id++) if (this.isTextToken(id)) ids.push(id);
      this.trieCache = TokenTrie.build(this.tokenBytesFlat, this.tokenOffsets, ids, this.size);
    }
    return this.trieCache;
  }
}

function readText(path: string): string {
  const { readFileSync } = nodeModuleFor('node:fs', 'Vocabulary.fromTokenizerJson(path)');
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new VocabularyError(`Cannot read tokenizer.json at "${path}": ${(error as Error).message}.`, { cause: error });
  }
}

/** The `eos_token` of the `tokenizer_config.json` beside `tokenizerPath`, if there is one. */
function readConfigEos(tokenizerPath: string): string | undefined {
  const { existsSync, readFileSync } = nodeModuleFor('node:fs', 'Vocabulary.fromTokenizerJson(path)');
  const { dirname, join } = nodeModuleFor('node:path', 'Vocabulary.fromTokenizerJson(path)');
  const path = join(dirname(tokenizerPath), 'tokenizer_config.json');
  if (!existsSync(path)) return undefined;
  try {
    const config = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!isPlainObject(config)) return undefined;
    const eos = config.eos_token;
    if (typeof eos === 'string') return eos;
    if (isPlainObject(eos) && typeof eos.content === 'string') return eos.content;
  } catch {
    // a broken config only loses the declared EOS; the well-known names still apply
  }
  return undefined;
}

function detectEncoding(json: Record<string, unknown>): TokenEncoding {
  const model = json.model as Record<string, unknown>;
  const describe = (value: unknown): string => JSON.stringify(value ?? null);
  const decoder = describe(json.decoder);
  if (decoder.includes('"ByteLevel"')) return 'byte-level';
  if (decoder.includes('"ByteFallback"') || decoder.includes('\u2581') || decoder.includes('"Metaspace"') || model.byte_fallback === true)
    return 'sentencepiece';
  if (describe(json.pre_tokenizer).includes('"ByteLevel"')) return 'byte-level';
  if (describe(json.pre_tokenizer).includes('"Metaspace"') || describe(json.normalizer).includes('\u2581')) return 'sentencepiece';
  throw new VocabularyError(
    'tokenizer.json is neither byte-level BPE nor SentencePiece (no ByteLevel, ByteFallback or Metaspace decoder), so token bytes cannot be known exactly.',
  );
}

function defaultEos(texts: readonly (string | undefined)[], special: ReadonlySet<number>, configEos: string | undefined): number[] {
  const ids: number[] = [];
  for (const id of special) {
    const text = texts[id];
    if (text !== undefined && (KNOWN_END_TOKENS.has(text) || text === configEos)) ids.push(id);
  }
  return ids;
}
