import { describe, expect, it } from 'vitest';
import { resolveLimits } from './agent-limits.js';
import { estimateInputCost, planModelCall } from './budget.js';
import { costOf, DEFAULT_PRICES, findPrice } from './price-table.js';

const spent = { inputTokens: 0, outputTokens: 0, costUsd: 0, toolCalls: 0, wallTimeMs: 0 };
const price = { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 }; // $1 in, $2 out per token

describe('planModelCall', () => {
  it('lets a call through uncapped when no budget applies', () => {
    expect(planModelCall(resolveLimits(), spent, 1_000_000, undefined)).toEqual({ ok: true, maxOutputTokens: undefined });
  });

  it('caps output at the tokens and the money left, whichever is less', () => {
    expect(planModelCall(resolveLimits({ maxOutputTokens: 100 }), { ...spent, outputTokens: 60 }, 10, undefined)).toEqual({ ok: true, maxOutputTokens: 40 });
    // $100 - $30 spent - $10 of input = $60 left = 30 output tokens at $2.
    expect(planModelCall(resolveLimits({ maxCostUsd: 100, maxOutputTokens: 100 }), { ...spent, costUsd: 30 }, 10, price)).toEqual({
      ok: true,
      maxOutputTokens: 30,
    });
    expect(planModelCall(resolveLimits({ maxOutputTokensPerCall: 8, maxCostUsd: 100 }), spent, 10, price)).toEqual({ ok: true, maxOutputTokens: 8 });
  });

  it('refuses a call whose input alone, or a single output token, would pass the money limit', () => {
    expect(planModelCall(resolveLimits({ maxCostUsd: 100 }), { ...spent, costUsd: 95 }, 10, price)).toEqual({
      ok: false,
      stop: {
        kind: 'budget',
        limit: 'costUsd',
        max: 100,
        used: 95,
        projected: 12,
        overBy: 7,
        message: 'The next step would use about $12 on top of $95, passing the limit of $100 by $7.',
      },
    });
    expect(planModelCall(resolveLimits({ maxCostUsd: 100 }), { ...spent, costUsd: 89 }, 10, price)).toMatchObject({
      ok: false,
      stop: { limit: 'costUsd', overBy: 1 },
    });
    expect(planModelCall(resolveLimits({ maxCostUsd: 100 }), { ...spent, costUsd: 88 }, 10, price)).toEqual({ ok: true, maxOutputTokens: 1 });
  });

  it('refuses on input tokens, exhausted output tokens and wall time', () => {
    expect(planModelCall(resolveLimits({ maxInputTokens: 100 }), { ...spent, inputTokens: 80 }, 30, undefined)).toEqual({
      ok: false,
      stop: {
        kind: 'budget',
        limit: 'inputTokens',
        max: 100,
        used: 80,
        projected: 30,
        overBy: 10,
        message: 'The next step would use about 30 input tokens on top of 80, passing the limit of 100 by 10.',
      },
    });
    expect(planModelCall(resolveLimits({ maxOutputTokens: 100 }), { ...spent, outputTokens: 100 }, 1, undefined)).toEqual({
      ok: false,
      stop: {
        kind: 'budget',
        limit: 'outputTokens',
        max: 100,
        used: 100,
        projected: 0,
        overBy: 0,
        message: 'The limit of 100 output tokens is reached (100 used).',
      },
    });
    expect(planModelCall(resolveLimits({ maxWallTimeMs: 50 }), { ...spent, wallTimeMs: 51 }, 1, undefined)).toMatchObject({
      ok: false,
      stop: { limit: 'wallTimeMs', used: 51, overBy: 1 },
    });
  });
});

describe('prices', () => {
  it('match exactly, else by the longest prefix, and price usage per million tokens', () => {
    expect(findPrice('openai:gpt-4o-mini')).toEqual({ inputPerMillion: 0.15, outputPerMillion: 0.6, cacheReadPerMillion: 0.075 });
    expect(findPrice('openai:gpt-4o-2024-08-06')).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10, cacheReadPerMillion: 1.25 });
    expect(findPrice('anthropic:claude-sonnet-4-20250514')).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cacheReadPerMillion: 0.3,
      cacheWritePerMillion: 3.75,
    });
    expect(findPrice('local:llama')).toBeUndefined();
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 500_000 }, { inputPerMillion: 3, outputPerMillion: 15 })).toBe(10.5);
    expect(costOf({ inputTokens: 5, outputTokens: 5 }, undefined)).toBe(0);
  });

  it('every Anthropic entry reads at 0.1× and writes at 1.25× its input rate; OpenAI entries read below input and have no write rate', () => {
    for (const [id, price] of Object.entries(DEFAULT_PRICES)) {
      if (id.startsWith('anthropic:')) {
        expect(price.cacheReadPerMillion, id).toBeCloseTo(price.inputPerMillion * 0.1, 10);
        expect(price.cacheWritePerMillion, id).toBeCloseTo(price.inputPerMillion * 1.25, 10);
      } else {
        expect(price.cacheReadPerMillion, id).toBeLessThan(price.inputPerMillion);
        expect(price.cacheWritePerMillion, id).toBeUndefined();
      }
    }
  });

  it('prices cache reads and writes at their own rates and the rest of the input at the input rate', () => {
    const rates = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 };
    // 1M input tokens: 600k read, 300k written, 100k uncached; 100k output.
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 600_000, cacheWriteTokens: 300_000 };
    expect(costOf(usage, rates)).toBeCloseTo(0.6 * 0.3 + 0.3 * 3.75 + 0.1 * 3 + 0.1 * 15, 10);
    // Without cache rates, cached tokens cost the input rate (what OpenAI bills for writes).
    expect(costOf(usage, { inputPerMillion: 3, outputPerMillion: 15 })).toBeCloseTo(3 + 1.5, 10);
  });
});

describe('the input estimate with prompt caching', () => {
  const sonnet = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 };

  it('prices the expected reads at the read rate and the rest at the write rate; without caching, all at the input rate', () => {
    expect(estimateInputCost(1_000_000, sonnet)).toBeCloseTo(3, 10);
    expect(estimateInputCost(1_000_000, sonnet, { expectedReadTokens: 800_000 })).toBeCloseTo(0.8 * 0.3 + 0.2 * 3.75, 10);
    // No more reads than the whole estimate; no write rate (OpenAI) means the input rate.
    expect(estimateInputCost(1_000_000, sonnet, { expectedReadTokens: 5_000_000 })).toBeCloseTo(0.3, 10);
    expect(estimateInputCost(1_000_000, { inputPerMillion: 2, outputPerMillion: 8, cacheReadPerMillion: 0.5 }, { expectedReadTokens: 500_000 })).toBeCloseTo(
      0.25 + 1,
      10,
    );
  });

  it('prices the expected writes at the write rate and anything neither read nor written at the input rate', () => {
    // A prompt under the provider's minimum: nothing read, nothing written.
    expect(estimateInputCost(1_000_000, sonnet, { expectedReadTokens: 0, expectedWriteTokens: 0 })).toBeCloseTo(3, 10);
    expect(estimateInputCost(1_000_000, sonnet, { expectedReadTokens: 600_000, expectedWriteTokens: 100_000 })).toBeCloseTo(
      0.6 * 0.3 + 0.1 * 3.75 + 0.3 * 3,
      10,
    );
    // Writes are capped at what is left after the reads.
    expect(estimateInputCost(1_000_000, sonnet, { expectedReadTokens: 900_000, expectedWriteTokens: 900_000 })).toBeCloseTo(0.9 * 0.3 + 0.1 * 3.75, 10);
  });

  it('lets the breaker afford a call that only fits when its cached prefix is priced at the read rate', () => {
    const limits = resolveLimits({ maxCostUsd: 0.01 });
    // 3 000 tokens at $3/M is $0.009, leaving too little; read from the cache they cost $0.0009.
    expect(planModelCall(limits, spent, 3_000, sonnet)).toMatchObject({ ok: true, maxOutputTokens: 66 });
    expect(planModelCall(limits, spent, 3_000, sonnet, { expectedReadTokens: 3_000 })).toMatchObject({ ok: true, maxOutputTokens: 606 });
  });
});

describe('resolveLimits', () => {
  it('applies the documented defaults and rejects nonsense', () => {
    expect(resolveLimits()).toMatchObject({
      maxIterations: 10,
      maxRepeatedFailures: 3,
      maxIdenticalCalls: 5,
      maxParallelReads: 4,
      confirmationTtlMs: 86_400_000,
      maxCostUsd: undefined,
    });
    expect(() => resolveLimits({ maxIterations: 2.5 })).toThrow('limits.maxIterations must be a positive integer (got 2.5).');
    expect(() => resolveLimits({ maxCostUsd: -1 })).toThrow('limits.maxCostUsd must be a non-negative number (got -1).');
  });
});
