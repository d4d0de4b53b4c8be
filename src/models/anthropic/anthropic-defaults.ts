/**
 * Anthropic's defaults that the public entries name, apart from the model class, so that their declaration files
 * never reach `@anthropic-ai/sdk`'s types: an app without the SDK typechecks them with `skipLibCheck: false`.
 * @module
 */

/** Anthropic requires `max_tokens`; this is used when neither the request nor the options set one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
