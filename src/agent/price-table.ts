/**
 * Prices per model, for the money budget. The defaults are list prices in USD
 * per million tokens at the time of writing; prices change, so a run can pass
 * its own table (merged over this one). A model id is matched exactly, else by
 * the longest table key it starts with, so `anthropic:claude-sonnet-4-20250514`
 * finds `anthropic:claude-sonnet-4`.
 * @module
 */
import type { TokenUsage } from '../protocol/model-exchange.js';

/** What one model charges, in USD per million tokens. */
export interface ModelPrice {
  /** USD per million input tokens. */
  inputPerMillion: number;
  /** USD per million output tokens. */
  outputPerMillion: number;
}

/** Model id (`provider:model`, or a prefix of one) → price. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'openai:gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'openai:gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'openai:gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'openai:gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'openai:gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'openai:o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'anthropic:claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4 },
  'anthropic:claude-haiku-4-5': { inputPerMillion: 1, outputPerMillion: 5 },
  'anthropic:claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15 },
  'anthropic:claude-opus-4': { inputPerMillion: 15, outputPerMillion: 75 },
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

/** The cost in USD of a usage at a price; 0 without a price. */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  return (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1_000_000;
}
