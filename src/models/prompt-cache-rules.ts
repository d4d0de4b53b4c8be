/**
 * What a provider's prompt cache does with a prompt, as far as the cost breaker needs it to price a call before it is
 * made: the shortest prompt it caches, the steps in which it counts a cache hit, and whether it bills writing an entry.
 * @module
 */

export interface PromptCacheRules {
  /** Prompts (and prefixes) shorter than this many tokens are neither written nor read. */
  minimumTokens: number;
  /** Past the minimum, a hit counts in steps of this many tokens (OpenAI: 128); absent: every token of the prefix. */
  readIncrementTokens?: number;
  /** Whether writing an entry is billed at its own rate (Anthropic) or not at all beyond the input rate (OpenAI). */
  billsWrites: boolean;
}

/**
 * OpenAI's automatic caching: prompts of 1,024 tokens or more, hits in 128-token steps, no charge for writes
 * (https://platform.openai.com/docs/guides/prompt-caching, read 2026-12-06).
 */
export const OPENAI_PROMPT_CACHE: PromptCacheRules = { minimumTokens: 1024, readIncrementTokens: 128, billsWrites: false };

/**
 * Anthropic's minimum cacheable prompt per model family, from quotes of Anthropic's prompt-caching page ("Cache
 * limitations") read on 2026-12-06 (anthropics/anthropic-sdk-python issue 1194, docs.orq.ai's gateway page; Claude Opus
 * 4.7 from a dated third-party article): the first matching prefix of the model name wins; other models get 1,024, the
 * figure for Sonnet 4.5, Sonnet 4, Opus 4.1, Opus 4 and Sonnet 3.7. Where the sources disagree (Sonnet 4.6: 1,024 in the
 * quoted docs, 2,048 observed and in the gateway's table) the higher figure is kept: the breaker then expects no read
 * where the provider may read, so its estimate errs high, the safe side for a limit.
 */
const ANTHROPIC_MINIMUMS: readonly [prefix: string, minimumTokens: number][] = [
  ['claude-opus-4-6', 4096],
  ['claude-opus-4-5', 4096],
  ['claude-haiku-4-5', 4096],
  ['claude-opus-4-7', 2048],
  ['claude-sonnet-4-6', 2048],
  ['claude-3-5-haiku', 2048],
  ['claude-3-haiku', 2048],
];

/** Anthropic's rules for a model: explicit breakpoints, writes billed at their rate, its family's minimum. */
export function anthropicPromptCache(modelName: string): PromptCacheRules {
  const minimum = ANTHROPIC_MINIMUMS.find(([prefix]) => modelName.startsWith(prefix))?.[1] ?? 1024;
  return { minimumTokens: minimum, billsWrites: true };
}
