import { describe, expect, it } from 'vitest';
import { ProviderAuthError, ProviderRateLimitError, ProviderTimeoutError, ProviderUnavailableError } from '../provider-errors.js';
import { callWithRetries, type ClassifiedFailure } from './call-with-retries.js';
import { parseRetryAfter } from './retry-after.js';

const context = { providerName: 'OpenAI', modelId: 'gpt-test', baseURL: 'http://127.0.0.1:1/v1', keyVariable: 'OPENAI_API_KEY' };

class FakeStatus extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(`status ${status}`);
  }
}

const classify = (error: unknown): ClassifiedFailure => {
  if (error instanceof FakeStatus) {
    const headers = new Headers(error.headers);
    return { kind: 'status', status: error.status, message: `boom ${error.status}`, headers, requestId: 'req_1' };
  }
  if (error instanceof TypeError) return { kind: 'connection', message: error.message };
  return { kind: 'other' };
};

function script(...outcomes: (Error | string)[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    run: async () => {
      const outcome = outcomes[calls++];
      if (outcome instanceof Error) throw outcome;
      return outcome ?? 'done';
    },
  };
}

function recordSleeps() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('callWithRetries', () => {
  it('honours retry-after seconds and retry-after-ms exactly', async () => {
    const attempts = script(new FakeStatus(429, { 'retry-after': '2' }), new FakeStatus(503, { 'retry-after-ms': '150' }), 'ok');
    const { waits, sleep } = recordSleeps();
    const result = await callWithRetries(attempts.run, { context, classify, timeoutMs: 1000, sleep, retry: { maxRetries: 3 } });
    result.scope.dispose();
    expect(result.value).toBe('ok');
    expect(result.attempts).toBe(3);
    expect(waits).toEqual([2000, 150]);
  });

  it('backs off exponentially with at most 25 % jitter, capped', async () => {
    const attempts = script(new FakeStatus(500), new FakeStatus(502), new FakeStatus(503), new FakeStatus(504), 'ok');
    const { waits, sleep } = recordSleeps();
    const jitter = [0, 0.5, 1 - Number.EPSILON, 0];
    await callWithRetries(attempts.run, {
      context,
      classify,
      timeoutMs: 1000,
      sleep,
      random: () => jitter.shift()!,
      retry: { maxRetries: 4, maxDelayMs: 1500 },
    }).then((r) => r.scope.dispose());
    expect(waits.map(Math.round)).toEqual([500, 875, 1125, 1500]);
  });

  it('retries connection failures, then reports the server unreachable', async () => {
    const attempts = script(new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'));
    const { sleep } = recordSleeps();
    const error = await callWithRetries(attempts.run, { context, classify, timeoutMs: 1000, sleep }).catch((caught: unknown) => caught);
    expect(attempts.calls).toBe(3);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toBe(
      'OpenAI at http://127.0.0.1:1/v1 could not be reached (fetch failed), after 2 retries. Check the base URL and that the server is running, or retry later.',
    );
  });

  it('gives up on 429 after maxRetries with the last retry-after', async () => {
    const attempts = script(new FakeStatus(429, { 'retry-after': '1' }), new FakeStatus(429, { 'retry-after': '3' }));
    const { sleep } = recordSleeps();
    const error = await callWithRetries(attempts.run, { context, classify, timeoutMs: 1000, sleep, retry: { maxRetries: 1 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect((error as ProviderRateLimitError).retryAfterMs).toBe(3000);
    expect((error as ProviderRateLimitError).attempts).toBe(2);
    expect((error as ProviderRateLimitError).requestId).toBe('req_1');
    expect((error as Error).message).toBe(
      'OpenAI is rate limiting requests (429: boom 429) and still was after 1 retry. It asked to wait 3 s (retry-after). Wait, lower the request rate, or raise maxRetries.',
    );
  });

  it('fails at once when retry-after is longer than maxRetryAfterMs', async () => {
    const attempts = script(new FakeStatus(429, { 'retry-after': '3600' }), 'ok');
    const { waits, sleep } = recordSleeps();
    const error = await callWithRetries(attempts.run, { context, classify, timeoutMs: 1000, sleep }).catch((caught: unknown) => caught);
    expect(attempts.calls).toBe(1);
    expect(waits).toEqual([]);
    expect((error as Error).message).toContain('and asked to wait longer than maxRetryAfterMs (60000 ms). It asked to wait 3600 s (retry-after).');
  });

  it('does not retry 401, and says which variable holds the key', async () => {
    const attempts = script(new FakeStatus(401), 'ok');
    const error = await callWithRetries(attempts.run, { context, classify, timeoutMs: 1000 }).catch((caught: unknown) => caught);
    expect(attempts.calls).toBe(1);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as Error).message).toBe(
      'OpenAI rejected the API key (401: boom 401). Check the key in OPENAI_API_KEY (or the apiKey option), and that it may use "gpt-test".',
    );
  });

  it('obeys x-should-retry', async () => {
    const attempts = script(new FakeStatus(400, { 'x-should-retry': 'true' }), new FakeStatus(503, { 'x-should-retry': 'false' }), 'ok');
    const { sleep } = recordSleeps();
    const error = await callWithRetries(attempts.run, { context, classify, timeoutMs: 1000, sleep, random: () => 0 }).catch((caught: unknown) => caught);
    expect(attempts.calls).toBe(2);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
  });

  it('times out an attempt that makes no progress, and retries it', async () => {
    let calls = 0;
    const error = await callWithRetries(
      (scope) =>
        new Promise((_resolve, reject) => {
          calls++;
          scope.signal.addEventListener('abort', () => reject(new Error('aborted by SDK')));
        }),
      { context, classify, timeoutMs: 20, sleep: async () => {}, retry: { maxRetries: 1 } },
    ).catch((caught: unknown) => caught);
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as Error).message).toBe("OpenAI did not answer within 20 ms (1 retry). Raise timeoutMs, lower maxOutputTokens, or check the server's load.");
  });

  it('rethrows the caller abort reason and stops waiting for a retry', async () => {
    const controller = new AbortController();
    const attempts = script(new FakeStatus(429, { 'retry-after': '30' }), 'ok');
    const pending = callWithRetries(attempts.run, { context, classify, timeoutMs: 1000, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(attempts.calls).toBe(1);
  });
});

describe('parseRetryAfter', () => {
  it('reads milliseconds, seconds and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-1' }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
