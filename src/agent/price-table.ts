/**
 * Prices per model, for the money budget. The defaults are list prices in USD
 * per million tokens at the time of writing; prices change, so a run can pass
 * its own table (merged over this one). A model id is matched exactly, else by
 * the longest table key it starts with, so `anthropic:claude-sonnet-4-20250514`
 * finds `anthropic:claude-sonnet-4`.
 *
 * Checked 2026-12-06, every figure of every row (input, output, cache read, cache write), in stored copies of the
 * providers' pages (no live fetch was possible); where no copy of the provider's own page held a row, the dated copy
 * that does is named. No figure was wrong; the Opus 4.5 to 4.8 rows were missing (see there).
 *
 * Anthropic, https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing": base input, 5m cache writes,
 * 1h cache writes, cache hits and refreshes, output) and its earlier copy https://docs.anthropic.com/en/docs/about-claude/pricing:
 * a 5-minute cache write costs 1.25× the base input price, a 1-hour write 2× and a read 0.1×. The rows price 5-minute
 * writes, the TTL toolwright's breakpoints ask for. Sonnet 4 bills requests past 200K input tokens (1M context) at
 * $6 in and $22.50 out, which this table does not model.
 *
 * OpenAI, https://developers.openai.com/api/docs/pricing (formerly https://platform.openai.com/docs/pricing, "Cached
 * input"): no stored copy of the page itself held these rows (its current version leads with the GPT-5 family), so they
 * were checked against dated copies that quote it: gpt-4o $2.50 / $1.25 cached / $10 and gpt-4o-mini $0.15 / $0.075 /
 * $0.60 (chatgptpricing-akr.pages.dev/api-pricing), gpt-4.1 $2 / $0.50 / $8 (github/docs,
 * data/tables/copilot/models-and-pricing.yml), gpt-4.1-mini $0.40 / $1.60 and gpt-4.1-nano $0.10 / $0.40 (tokenmath.io,
 * checked 2026-06-21), the 4.1 family's cached input at 25 % (75 % off: vercel.com/ai-gateway/models/gpt-4.1), and
 * o4-mini $1.10 / $0.275 / $4.40 (a published rate card). OpenAI bills no cache writes for these models, so their entries
 * have no write rate and written tokens cost the input rate.
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
  // Haiku 3.5, Sonnet 4, Opus 4 and 4.1: the pricing page's table, every column. Sonnet 4.5 ($3 / $15, its model page) shares the row.
  'anthropic:claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4, cacheReadPerMillion: 0.08, cacheWritePerMillion: 1 },
  // Haiku 4.5: $1 / $5 from its model page (platform.claude.com/docs/zh-CN/models/haiku-4-5/overview), cache rates by the multipliers.
  'anthropic:claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5, cacheReadPerMillion: 0.1, cacheWritePerMillion: 1.25 },
  'anthropic:claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 },
  'anthropic:claude-opus-4': { inputPerMillion: 15, outputPerMillion: 75, cacheReadPerMillion: 1.5, cacheWritePerMillion: 18.75 },
  // Opus 4.5 to 4.8 cost a third of Opus 4 and 4.1 (the pricing page, read 2026-12-06); without these rows their ids
  // matched `claude-opus-4` by prefix and were priced at $15 / $75.
  'anthropic:claude-opus-4-5': { inputPerMillion: 5, outputPerMillion: 25, cacheReadPerMillion: 0.5, cacheWritePerMillion: 6.25 },
  'anthropic:claude-opus-4-6': { inputPerMillion: 5, outputPerMillion: 25, cacheReadPerMillion: 0.5, cacheWritePerMillion: 6.25 },
  'anthropic:claude-opus-4-7': { inputPerMillion: 5, outputPerMillion: 25, cacheReadPerMillion: 0.5, cacheWritePerMillion: 6.25 },
  'anthropic:claude-opus-4-8': { inputPerMillion: 5, outputPerMillion: 25, cacheReadPerMillion: 0.5, cacheWritePerMillion: 6.25 },
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
