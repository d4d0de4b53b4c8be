/**
 * Prompt-cache counts on a {@link TokenUsage}, one rule for every adapter: a count is kept when the provider reported a
 * positive, finite number, so a usage without caching keeps its two fields and compares equal to one from before caching.
 * @module
 */
import type { TokenUsage } from '../protocol/model-exchange.js';

/** `usage` with `cacheReadTokens` / `cacheWriteTokens` set from the provider's counts (absent when missing, null or zero). */
export function withCacheTokens(usage: TokenUsage, cacheRead: unknown, cacheWrite: unknown): TokenUsage {
  const result: TokenUsage = { ...usage };
  if (isPositiveCount(cacheRead)) result.cacheReadTokens = cacheRead;
  if (isPositiveCount(cacheWrite)) result.cacheWriteTokens = cacheWrite;
  return result;
}

function isPositiveCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
