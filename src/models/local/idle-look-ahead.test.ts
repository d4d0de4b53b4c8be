import { describe, expect, it } from 'vitest';
import { byteVocabulary } from '../../../test/decoding/byte-vocabulary.js';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import { lookAheadWhilePending } from './idle-look-ahead.js';

/** A promise settled from outside, as the model's next token is. */
function pendingToken(): { promise: Promise<string>; settle: () => void } {
  let settle!: () => void;
  const promise = new Promise<string>((resolve) => (settle = () => resolve('token')));
  return { promise, settle };
}

/** Counts the macrotasks that ran while `work` ran: a loop of setImmediate, as other sessions' I/O would be. */
function macrotaskCounter(): { count: () => number; stop: () => void } {
  let ticks = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    ticks++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    count: () => ticks,
    stop: () => {
      running = false;
    },
  };
}

describe('the look-ahead in the idle time of a local generation', () => {
  it('runs in chunks of the given size, up to the per-token budget, returning to the event loop before each', async () => {
    const { promise } = pendingToken();
    const counter = macrotaskCounter();
    const chunks: { units: number; ticks: number }[] = [];
    await lookAheadWhilePending(promise, (units) => (chunks.push({ units, ticks: counter.count() }), true), 25_000, 10_000);
    counter.stop();
    expect(chunks.map((chunk) => chunk.units)).toEqual([10_000, 10_000, 5_000]);
    for (let index = 1; index < chunks.length; index++) expect(chunks[index]!.ticks).toBeGreaterThan(chunks[index - 1]!.ticks);
  });

  it('stops at the first chunk boundary after the token arrives, and when nothing is left to look at', async () => {
    const token = pendingToken();
    let calls = 0;
    const pump = lookAheadWhilePending(
      token.promise,
      () => {
        calls++;
        if (calls === 3) token.settle();
        return true;
      },
      Infinity,
      1,
    );
    await pump;
    expect(calls).toBe(3);
    let finiteCalls = 0;
    await lookAheadWhilePending(pendingToken().promise, () => ++finiteCalls < 4, Infinity, 1);
    expect(finiteCalls).toBe(4);
    // a token that failed is the caller's to report: the pump stops without rejecting
    const failed = Promise.reject(new Error('the model failed'));
    await expect(lookAheadWhilePending(failed, () => true, Infinity, 1)).resolves.toBeUndefined();
    await expect(failed).rejects.toThrow('the model failed');
  });

  it('explores a whole grammar over many event-loop turns, leaving the masks a generation then copies', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string', pattern: '^[A-Za-z ]+$' }, days: { type: 'integer', minimum: 1, maximum: 14 }, mode: { enum: ['fast', 'cheap'] } },
      required: ['city', 'days', 'mode'],
      additionalProperties: false,
    };
    const vocabulary = byteVocabulary(['{"', '":"', '","', 'fast', 'Oslo']);
    const grammar = compileJsonSchema(schema, vocabulary, { precomputeWork: 0 });
    const matcher = grammar.matcher();
    const counter = macrotaskCounter();
    await lookAheadWhilePending(pendingToken().promise, (units) => matcher.lookAhead(units, Infinity), Infinity, 50);
    counter.stop();
    expect(counter.count()).toBeGreaterThan(10);
    const walks = grammar.statistics().maskWalks;
    const mask = new Uint32Array(vocabulary.maskWords);
    for (const character of '{"city":"Oslo","days":3,"mode":"fast"}') {
      matcher.fillMask(mask);
      expect(matcher.acceptString(character)).toBe(true);
    }
    expect(grammar.statistics().maskWalks).toBe(walks);
  });
});
