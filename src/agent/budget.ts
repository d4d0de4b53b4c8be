/**
 * The budget breaker. Before each model call it projects what the call can
 * cost (the estimated input, plus the most output it may produce) and either
 * lowers the call's output cap to what is left or stops the run first, so that
 * one expensive call cannot overshoot a budget. Only the input estimate can be
 * off; the output side is a hard cap sent to the provider.
 * @module
 */
import type { ResolvedLimits } from './agent-limits.js';
import { cacheReadRate, cacheWriteRate, type ModelPrice } from './price-table.js';

/** Which limit a budget stop concerns. */
export type BudgetLimit = 'inputTokens' | 'outputTokens' | 'costUsd' | 'toolCalls' | 'wallTimeMs';

/** A budget stop: which limit, its value, what was used, what the next step would have added, and by how much it would be passed. */
export interface BudgetStop {
  kind: 'budget';
  limit: BudgetLimit;
  /** The configured limit. */
  max: number;
  /** Used before the step that was refused. */
  used: number;
  /** What the refused step would have added (an estimate for tokens and money). */
  projected: number;
  /** `used + projected - max`: how far past the limit the step would have gone (> 0), or 0 when the limit was simply reached. */
  overBy: number;
  /** For `wallTimeMs` reached mid-step: what the deadline cut off (a model call in flight, or running tool calls). */
  interrupted?: 'model_call' | 'tool_calls';
  /** The same, in a sentence. */
  message: string;
}

/** What has been spent so far. */
export interface Spent {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  toolCalls: number;
  wallTimeMs: number;
}

export type CallPlan = { ok: true; maxOutputTokens: number | undefined } | { ok: false; stop: BudgetStop };

const UNITS: Record<BudgetLimit, string> = {
  inputTokens: ' input tokens',
  outputTokens: ' output tokens',
  costUsd: '',
  toolCalls: ' tool calls',
  wallTimeMs: ' ms of wall time',
};

export function budgetStop(limit: BudgetLimit, max: number, used: number, projected: number): BudgetStop {
  const overBy = Math.max(0, roundFor(limit, used + projected - max));
  const unit = UNITS[limit];
  const message =
    projected > 0
      ? `The next step would use about ${format(limit, projected)}${unit} on top of ${format(limit, used)}, passing the limit of ${format(limit, max)} by ${format(limit, overBy)}.`
      : `The limit of ${format(limit, max)}${unit} is reached (${format(limit, used)} used).`;
  return { kind: 'budget', limit, max, used: roundFor(limit, used), projected: roundFor(limit, projected), overBy, message };
}

/**
 * What the breaker expects a call with prompt caching on to find in the cache: `expectedReadTokens` of its estimated input
 * (the prefix the previous call sent, see `ModelStep`), and `expectedWriteTokens` written to it; absent, the rest of the
 * input is expected to be written.
 */
export interface CacheExpectation {
  expectedReadTokens: number;
  /** Tokens expected to be written to the cache (billed at the write rate); the rest of the input is billed at the input rate. */
  expectedWriteTokens?: number;
}

/**
 * The estimated input cost in USD of a call. Without `cache`, every token at the input rate. With it, the expected cache
 * reads (at most the estimate) at the read rate, the expected writes (all the rest when the expectation does not say) at
 * the write rate (the input rate where the price has no write rate: OpenAI bills none), anything left at the input rate.
 */
export function estimateInputCost(estimatedInputTokens: number, price: ModelPrice, cache?: CacheExpectation): number {
  if (cache === undefined) return (estimatedInputTokens * price.inputPerMillion) / 1_000_000;
  const read = Math.min(Math.max(0, cache.expectedReadTokens), estimatedInputTokens);
  const written = Math.min(Math.max(0, cache.expectedWriteTokens ?? estimatedInputTokens), estimatedInputTokens - read);
  const rest = estimatedInputTokens - read - written;
  return (read * cacheReadRate(price) + written * cacheWriteRate(price) + rest * price.inputPerMillion) / 1_000_000;
}

/**
 * Plans the next model call against the run's budgets. `estimatedInputTokens`
 * comes from the model; `price` may be undefined only when no money limit is set;
 * `cache`, when the call asks for prompt caching, prices the input as {@link estimateInputCost} says.
 */
export function planModelCall(
  limits: ResolvedLimits,
  spent: Spent,
  estimatedInputTokens: number,
  price: ModelPrice | undefined,
  cache?: CacheExpectation,
): CallPlan {
  if (limits.maxWallTimeMs !== undefined && spent.wallTimeMs >= limits.maxWallTimeMs) {
    return { ok: false, stop: budgetStop('wallTimeMs', limits.maxWallTimeMs, spent.wallTimeMs, 0) };
  }
  if (limits.maxInputTokens !== undefined && spent.inputTokens + estimatedInputTokens > limits.maxInputTokens) {
    return { ok: false, stop: budgetStop('inputTokens', limits.maxInputTokens, spent.inputTokens, estimatedInputTokens) };
  }
  let cap = limits.maxOutputTokensPerCall;
  if (limits.maxOutputTokens !== undefined) {
    const left = limits.maxOutputTokens - spent.outputTokens;
    if (left < 1) return { ok: false, stop: budgetStop('outputTokens', limits.maxOutputTokens, spent.outputTokens, 0) };
    cap = cap === undefined ? left : Math.min(cap, left);
  }
  if (limits.maxCostUsd !== undefined && price) {
    const inputCost = estimateInputCost(estimatedInputTokens, price, cache);
    const outputTokenCost = price.outputPerMillion / 1_000_000;
    const left = limits.maxCostUsd - spent.costUsd - inputCost;
    // At least one output token must be affordable, or the call is refused.
    if (left < outputTokenCost) {
      return { ok: false, stop: budgetStop('costUsd', limits.maxCostUsd, spent.costUsd, inputCost + outputTokenCost) };
    }
    const affordable = outputTokenCost === 0 ? Number.POSITIVE_INFINITY : Math.floor(left / outputTokenCost);
    if (Number.isFinite(affordable)) cap = cap === undefined ? affordable : Math.min(cap, affordable);
  }
  return { ok: true, maxOutputTokens: cap };
}

function roundFor(limit: BudgetLimit, value: number): number {
  // Money to a millionth of a dollar: enough for per-token prices, without float noise in messages.
  return limit === 'costUsd' ? Math.round(value * 1e6) / 1e6 : Math.round(value);
}

function format(limit: BudgetLimit, value: number): string {
  return limit === 'costUsd' ? `$${roundFor(limit, value)}` : String(Math.round(value));
}
