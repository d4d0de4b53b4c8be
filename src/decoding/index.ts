/**
 * Constrained decoding: a JSON-Schema token-mask engine over real tokenizer vocabularies.
 * `loadVocabulary(path)` (or `Vocabulary.fromTokenizerJson` / `fromGguf`) → `compileJsonSchema(schema, vocabulary)`
 * → `grammar.matcher()` → per token `fillMask(mask)` and `accept(tokenId)`. Bundles for a browser, where the vocabulary
 * comes from the text of a fetched tokenizer.json; the functions that read files need Node, Bun or Deno.
 *
 * Budget per token: a cached mask is one copy of `ceil(vocabSize / 32)` words (a few µs
 * for 150k–260k tokens); the first visit of an automaton state walks the token trie once
 * (tens of µs to a few ms); compile is a few ms. See `docs/decoding.md`.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { Vocabulary } from './vocabulary.js';
export type { TokenEncoding, TokenTexts, VocabularyEntry, VocabularyOptions } from './vocabulary.js';
export { loadVocabulary } from './vocabulary-index-file.js';
export type { LoadVocabularyOptions, LoadedVocabulary } from './vocabulary-index-file.js';
export { compileJsonSchema, DEFAULT_MAX_AUTOMATON_WORK } from './compile-json-schema.js';
export type { CompileJsonSchemaOptions } from './compile-json-schema.js';
export { DEFAULT_DECODING_LIMITS } from './decoding-limits.js';
export type { DecodingLimits } from './decoding-limits.js';
export type { SchemaDialect } from '../shared/json-schema/upgrade-schema-dialect.js';
export { CompiledGrammar } from './compiled-grammar.js';
export type { GrammarStats } from './compiled-grammar.js';
export { GrammarMatcher } from './grammar-matcher.js';
export type { MatcherOptions } from './grammar-matcher.js';
export type { RelaxedKeyword } from './lower-json-schema.js';
export { DecodingLimitError, InvalidDecodingLimitsError, UnsupportedSchemaError, VocabularyError } from './decoding-errors.js';
export type { DecodingLimit } from './decoding-errors.js';
export { readGgufMetadata } from './read-gguf-metadata.js';
export type { GgufMetadataValue } from './read-gguf-metadata.js';
export { SUPPORTED_FORMATS } from './string-formats.js';
