/**
 * Prices per model, for the money budget. The defaults are list prices in USD
 * per million tokens at the time of writing; prices change, so a run can pass
 * its own table (merged over this one). A model id is matched exactly, else by
 * the longest table key it starts with, so `anthropic:claude-sonnet-4-20250514`
 * finds `anthropic:claude-sonnet-4`.
 *
 * Cache rates, read 2026-12-06 in tables that quote these pages (the pages themselves could not be opened offline; check
 * them before relying on a figure): Anthropic, https://platform.claude.com/docs/en/about-claude/pricing ("Prompt caching"): a 5-minute cache write
 * costs 1.25× the base input price and a cache read 0.1×. OpenAI, https://platform.openai.com/docs/pricing ("Cached input"):
 * gpt-4o and gpt-4o-mini read cached input at 50 % of their input price, gpt-4.1 (nano, mini) and o4-mini at 25 %; OpenAI
 * bills no cache writes, so its entries have no write rate and written tokens cost the input rate.
 * @module
 */
import type { TokenUsage } from '../protocol/model-exchange.js';

/** What one model charges, in USD per million tokens. */
export interface ModelPrice {
  /** USD per million input tokens. */
  inputPerMillion: number;
  /** USD per million output tokens. */
  outputPerMillion: number;
  /** USD per million input tokens read from the provider's prompt cache. Default: `inputPerMillion`. */
  cacheReadPerMillion?: number;
  /** USD per million input tokens written to the provider's prompt cache. Default: `inputPerMillion`. */
  cacheWritePerMillion?: number;
}

/** Model id (`provider:model`, or a prefix of one) → price. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'openai:gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cacheReadPerMillion: 0.075 },
  'openai:gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cacheReadPerMillion: 1.25 },
  'openai:gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4, cacheReadPerMillion: 0.025 },
  'openai:gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cacheReadPerMillion: 0.1 },
  'openai:gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cacheReadPerMillion: 0.5 },
  'openai:o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cacheReadPerMillion: 0.275 },
  'anthropic:claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4, cacheReadPerMillion: 0.08, cacheWritePerMillion: 1 },
  'anthropic:claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5, cacheReadPerMillion: 0.1, cacheWritePerMillion: 1.25 },
  'anthropic:claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 },
  'anthropic:claude-opus-4': { inputPerMillion: 15, outputPerMillion: 75, cacheReadPerMillion: 1.5, cacheWritePerMillion: 18.75 },
});

/** The price of a model id in `table`, or `undefined` when the table has none. */
export function findPrice(modelId: string, table: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  if (Object.prototype.hasOwnProperty.call(table, modelId)) return table[modelId];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (modelId.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The cost in USD of a usage at a price; 0 without a price. Cache reads and writes are priced at their own rates, the rest
 * of `inputTokens` at the input rate.
 */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - read - written);
  const input = uncached * price.inputPerMillion + read * cacheReadRate(price) + written * cacheWriteRate(price);
  return (input + usage.outputTokens * price.outputPerMillion) / 1_000_000;
}

/** USD per million cached input tokens read: the price's own rate, else the input rate. */
export function cacheReadRate(price: ModelPrice): number {
  return price.cacheReadPerMillion ?? price.inputPerMillion;
}

/** USD per million input tokens written to the cache: the price's own rate, else the input rate. */
export function cacheWriteRate(price: ModelPrice): number {
  return price.cacheWritePerMillion ?? price.inputPerMillion;
}
