import { ToolwrightError, type ToolwrightErrorOptions } from '../shared/errors.js';

/**
 * A schema keyword, format or regex feature the mask engine cannot enforce exactly.
 * Never silently ignored: an ignored constraint would let invalid output through.
 */
export class UnsupportedSchemaError extends ToolwrightError {
  /** The keyword (or `pattern` / `format` for a regex feature or format name). */
  readonly keyword: string;
  /** JSON pointer of the schema object that holds the keyword, e.g. `#/properties/tags`. */
  readonly pointer: string;
  /** What exactly is unsupported. */
  readonly details: string;

  constructor(keyword: string, pointer: string, details: string, options: ToolwrightErrorOptions = {}) {
    super(
      'TW_UNSUPPORTED_SCHEMA',
      `The token-mask engine cannot enforce "${keyword}" at ${pointer}: ${details}. Rewrite that part of the schema with supported keywords, or pass { lenient: true } to drop it (the grammar's "relaxed" list will name it).`,
      options,
    );
    this.keyword = keyword;
    this.pointer = pointer;
    this.details = details;
  }
}

/** A tokenizer.json or GGUF file that cannot be read as a vocabulary. */
export class VocabularyError extends ToolwrightError {
  constructor(message: string, options: ToolwrightErrorOptions = {}) {
    super('TW_VOCABULARY', message, options);
  }
}

/** Which budget ran out; each is an option of `compileJsonSchema`. */
export type DecodingLimit = 'maxStates' | 'maxDepth' | 'maxConfigurations' | 'maxAutomatonWork' | 'uniqueItemsMaxStringBytes';

/**
 * The engine ran past a budget. A matcher that hits one stays in this error until `reset()`. `maxAutomatonWork` is
 * hit while compiling, before any matcher exists: `compileJsonSchema` throws it instead of stalling on a pattern whose
 * automaton takes too many steps to build.
 */
export class DecodingLimitError extends ToolwrightError {
  /** The option that bounds what ran out. */
  readonly limit: DecodingLimit;
  /** The limit's value when it was hit. */
  readonly value: number;

  /** @param subject what was being built when the limit was hit (`maxAutomatonWork`: the pattern), for the message */
  constructor(limit: DecodingLimit, value: number, subject?: string, options: ToolwrightErrorOptions = {}) {
    super(
      'TW_DECODING_LIMIT',
      limit === 'maxAutomatonWork'
        ? `The token-mask engine stopped compiling after ${value} automaton steps (its maxAutomatonWork budget) while building ${subject ?? 'an automaton'}. ` +
            'Simplify the pattern (nested or counted repeats such as (.{0,100}){100} make the automaton explode), or raise maxAutomatonWork in the compileJsonSchema options.'
        : `The token-mask engine reached its ${limit} budget (${value}). Raise ${limit} in the compileJsonSchema options, or simplify the schema (shorter maxLength, fewer anyOf branches); call matcher.reset() to start over.`,
      options,
    );
    this.limit = limit;
    this.value = value;
  }
}

/** A `limits` option of `compileJsonSchema` that names no limit, or gives one a value the engine cannot use. */
export class InvalidDecodingLimitsError extends ToolwrightError {
  /** @param problem what is wrong, naming the field */
  constructor(problem: string, options: ToolwrightErrorOptions = {}) {
    super(
      'TW_INVALID_DECODING_LIMITS',
      `The token-mask engine cannot use these limits: ${problem}. Pass only the names of DEFAULT_DECODING_LIMITS, each a whole number of 1 or more (docs/decoding.md lists them, their defaults and bounds).`,
      options,
    );
  }
}
