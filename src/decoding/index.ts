/**
 * Constrained decoding: a JSON-Schema token-mask engine over real tokenizer vocabularies.
 * `Vocabulary.fromTokenizerJson` / `fromGguf` → `compileJsonSchema(schema, vocabulary)`
 * → `grammar.matcher()` → per token `fillMask(mask)` and `accept(tokenId)`.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { Vocabulary } from './vocabulary.js';
export type { TokenEncoding, VocabularyEntry, VocabularyOptions } from './vocabulary.js';
export { compileJsonSchema } from './compile-json-schema.js';
export type { CompileJsonSchemaOptions } from './compile-json-schema.js';
export { CompiledGrammar } from './compiled-grammar.js';
export type { GrammarStats } from './compiled-grammar.js';
export { GrammarMatcher } from './grammar-matcher.js';
export type { RelaxedKeyword } from './lower-json-schema.js';
export { DecodingLimitError, UnsupportedSchemaError, VocabularyError } from './decoding-errors.js';
export type { DecodingLimit } from './decoding-errors.js';
export { readGgufMetadata } from './read-gguf-metadata.js';
export type { GgufMetadataValue } from './read-gguf-metadata.js';
export { SUPPORTED_FORMATS } from './string-formats.js';
