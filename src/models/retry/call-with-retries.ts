/**
 * Sends one provider request with retries: exponential backoff with jitter on
 * 408, 409, 429, 5xx, connection failures and timeouts, waiting exactly what a
 * `retry-after-ms` / `retry-after` header asks (up to `maxRetryAfterMs`); the
 * waits end early when the caller aborts. The SDKs' own retries are turned off
 * (`maxRetries: 0`) because their waits ignore the abort signal and have no
 * upper bound on `retry-after`. Failures become typed {@link ProviderError}s;
 * an abort rethrows the caller's abort reason unchanged.
 * @module
 */
import {
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderModelNotFoundError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  type ProviderErrorContext,
} from '../provider-errors.js';
import { RequestScope } from './request-scope.js';
import { parseRetryAfter } from './retry-after.js';

/** How a provider call retries. Every field is optional; the defaults match the official SDKs. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2 (three requests at most). */
  maxRetries?: number;
  /** The first backoff wait, doubled on each retry, less up to 25 % jitter. Default 500 ms. */
  initialDelayMs?: number;
  /** The longest backoff wait. Default 8000 ms. */
  maxDelayMs?: number;
  /** The longest `retry-after` honoured; a provider asking for more fails at once, the wait given in the error. Default 60 000 ms. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** A provider failure reduced to what the retry and error logic need; each provider classifies its SDK's errors. */
export type ClassifiedFailure =
  | { kind: 'status'; status: number; message: string; headers: Pick<Headers, 'get'> | undefined; requestId: string | undefined }
  | { kind: 'connection'; message: string }
  /** The provider reported an error inside a stream that had already started. */
  | { kind: 'stream-error'; message: string }
  | { kind: 'timeout' }
  | { kind: 'abort' }
  | { kind: 'other' };

/** A retry about to happen, for logs. */
export interface RetryEvent {
  /** The one-based attempt that failed. */
  attempt: number;
  /** The wait before the next attempt. */
  delayMs: number;
  /** `429`, `503`, `connection`, `timeout`. */
  reason: string;
}

export interface CallWithRetriesOptions {
  context: ProviderErrorContext;
  classify: (error: unknown) => ClassifiedFailure;
  retry?: RetryOptions;
  /** The idle limit of each attempt; see {@link RequestScope}. */
  timeoutMs: number;
  /** The caller's abort signal. */
  signal?: AbortSignal | undefined;
  onRetry?: (event: RetryEvent) => void;
  /** For tests: how to wait. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** For tests: the jitter source, in [0, 1). */
  random?: () => number;
}

/** A successful attempt: its value, and its scope still running (streams keep it until they end). */
export interface Attempted<T> {
  value: T;
  scope: RequestScope;
  attempts: number;
}

/** Runs `attempt` until it succeeds, a failure is not retryable, or retries run out. */
export async function callWithRetries<T>(attempt: (scope: RequestScope, number: number) => Promise<T>, options: CallWithRetriesOptions): Promise<Attempted<T>> {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  for (let number = 1; ; number++) {
    const scope = new RequestScope(options.timeoutMs, options.signal);
    try {
      return { value: await attempt(scope, number), scope, attempts: number };
    } catch (error) {
      scope.dispose();
      const failure = scope.timedOut ? ({ kind: 'timeout' } as const) : options.classify(error);
      if (scope.callerAborted || failure.kind === 'abort') throw abortReason(options.signal, error);
      const retryAfterMs = failure.kind === 'status' ? parseRetryAfter(failure.headers) : undefined;
      const canRetry = number <= retry.maxRetries && isRetryable(failure);
      if (!canRetry || (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs)) {
        const tooLong = canRetry ? `and asked to wait longer than maxRetryAfterMs (${retry.maxRetryAfterMs} ms)` : undefined;
        throw toProviderError(error, failure, { context: options.context, attempts: number, timeoutMs: options.timeoutMs, retryAfterMs, reason: tooLong });
      }
      const delayMs = retryAfterMs ?? backoff(number, retry, random);
      options.onRetry?.({ attempt: number, delayMs, reason: failure.kind === 'status' ? String(failure.status) : failure.kind });
      await sleep(delayMs, options.signal);
    }
  }
}

/** Maps a failure during a stream (after the response started) to the same typed errors, without retrying. */
export function streamFailure(
  error: unknown,
  scope: RequestScope,
  options: Pick<CallWithRetriesOptions, 'context' | 'classify' | 'signal'>,
  attempts: number,
): unknown {
  const failure = scope.timedOut ? ({ kind: 'timeout' } as const) : options.classify(error);
  if (scope.callerAborted || failure.kind === 'abort') return abortReason(options.signal, error);
  return toProviderError(error, failure, { context: options.context, attempts, timeoutMs: scope.timeoutMs, retryAfterMs: undefined, reason: undefined });
}

function isRetryable(failure: ClassifiedFailure): boolean {
  if (failure.kind === 'connection' || failure.kind === 'timeout') return true;
  if (failure.kind !== 'status') return false;
  // The same server-side override the official SDKs obey.
  const override = failure.headers?.get('x-should-retry');
  if (override === 'true') return true;
  if (override === 'false') return false;
  return failure.status === 408 || failure.status === 409 || failure.status === 429 || failure.status >= 500;
}

function backoff(failedAttempt: number, retry: Required<RetryOptions>, random: () => number): number {
  const base = Math.min(retry.initialDelayMs * 2 ** (failedAttempt - 1), retry.maxDelayMs);
  return base * (1 - random() * 0.25);
}

interface MappingContext {
  context: ProviderErrorContext;
  attempts: number;
  timeoutMs: number;
  retryAfterMs: number | undefined;
  reason: string | undefined;
}

function toProviderError(error: unknown, failure: ClassifiedFailure, mapping: MappingContext): unknown {
  const { context, attempts } = mapping;
  switch (failure.kind) {
    case 'timeout':
      return new ProviderTimeoutError(context, mapping.timeoutMs, { attempts, cause: error });
    case 'connection':
      return new ProviderUnavailableError(context, `could not be reached (${failure.message})`, { attempts, cause: error });
    case 'stream-error':
      return new ProviderResponseError(context, `the stream reported an error (${failure.message})`, { attempts, cause: error });
    case 'status': {
      const details = { status: failure.status, attempts, cause: error, ...(failure.requestId ? { requestId: failure.requestId } : {}) };
      if (failure.status === 401 || failure.status === 403) return new ProviderAuthError(context, failure.message, details);
      if (failure.status === 404) return new ProviderModelNotFoundError(context, failure.message, details);
      if (failure.status === 429)
        return new ProviderRateLimitError(context, failure.message, mapping.retryAfterMs, {
          ...details,
          ...(mapping.reason ? { reason: mapping.reason } : {}),
        });
      if (failure.status >= 500) return new ProviderUnavailableError(context, `failed with ${failure.status} (${failure.message})`, details);
      return new ProviderBadRequestError(context, failure.message, details);
    }
    default:
      return error;
  }
}

function abortReason(signal: AbortSignal | undefined, error: unknown): unknown {
  return signal?.aborted ? signal.reason : error;
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
