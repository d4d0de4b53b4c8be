import { describe, expect, it } from 'vitest';
import { findPrice } from './price-table.js';

describe('the default price table', () => {
  it('prices Opus 4.5 and later at their own rates, not by the Opus 4 prefix', () => {
    // Anthropic's pricing page: Opus 4.5 to 4.8 cost $5 in, $25 out, $6.25 per 5-minute cache write, $0.50 per read;
    // Opus 4 and 4.1 cost three times as much.
    const opus45 = { inputPerMillion: 5, outputPerMillion: 25, cacheReadPerMillion: 0.5, cacheWritePerMillion: 6.25 };
    for (const id of ['anthropic:claude-opus-4-5-20251101', 'anthropic:claude-opus-4-6', 'anthropic:claude-opus-4-7', 'anthropic:claude-opus-4-8']) {
      expect(findPrice(id), id).toEqual(opus45);
    }
    const opus4 = { inputPerMillion: 15, outputPerMillion: 75, cacheReadPerMillion: 1.5, cacheWritePerMillion: 18.75 };
    expect(findPrice('anthropic:claude-opus-4-1-20250805')).toEqual(opus4);
    expect(findPrice('anthropic:claude-opus-4-20250514')).toEqual(opus4);
  });
});
