/**
 * What every SDK-backed provider shares: retries and timeouts around a request,
 * and a stream wrapper that restarts the idle timer on each event, turns
 * failures into typed errors, and notices a stream the SDK ended quietly
 * because of an abort or a timeout (the SDKs end an aborted stream without
 * throwing).
 * @module
 */
import type { ProviderErrorContext } from './provider-errors.js';
import { ProviderTimeoutError } from './provider-errors.js';
import { callWithRetries, streamFailure, type ClassifiedFailure, type RetryEvent, type RetryOptions } from './retry/call-with-retries.js';
import type { RequestScope } from './retry/request-scope.js';

export interface TransportOptions {
  retry: RetryOptions;
  timeoutMs: number;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

export class ProviderTransport {
  readonly context: ProviderErrorContext;
  readonly #options: TransportOptions;

  constructor(context: ProviderErrorContext, options: TransportOptions) {
    this.context = context;
    this.#options = options;
  }

  /** One request/response exchange, retried as configured. */
  async request<T>(signal: AbortSignal | undefined, classify: (error: unknown) => ClassifiedFailure, run: (scope: RequestScope) => Promise<T>): Promise<T> {
    const { value, scope } = await callWithRetries(run, this.#callOptions(signal, classify));
    scope.dispose();
    return value;
  }

  /**
   * Opens a stream (retried until its first byte, never after) and yields its
   * events; each event restarts the idle timeout.
   */
  async *stream<E>(
    signal: AbortSignal | undefined,
    classify: (error: unknown) => ClassifiedFailure,
    open: (scope: RequestScope) => Promise<AsyncIterable<E>>,
  ): AsyncGenerator<E> {
    const options = this.#callOptions(signal, classify);
    const { value: events, scope, attempts } = await callWithRetries(open, options);
    try {
      for await (const event of events) {
        // The SDK may still hand out events it had buffered before the abort.
        if (scope.signal.aborted) break;
        scope.touch();
        yield event;
      }
    } catch (error) {
      throw streamFailure(error, scope, options, attempts);
    } finally {
      scope.dispose();
    }
    if (scope.callerAborted) throw signal?.reason;
    if (scope.timedOut) throw new ProviderTimeoutError(this.context, this.#options.timeoutMs, { attempts });
  }

  #callOptions(signal: AbortSignal | undefined, classify: (error: unknown) => ClassifiedFailure) {
    return {
      context: this.context,
      classify,
      retry: this.#options.retry,
      timeoutMs: this.#options.timeoutMs,
      signal,
      ...(this.#options.onRetry ? { onRetry: this.#options.onRetry } : {}),
    };
  }
}
