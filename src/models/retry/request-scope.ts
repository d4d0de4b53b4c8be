/**
 * One attempt's abort signal: it fires when the caller aborts or when the
 * attempt goes `timeoutMs` without progress. Streams call `touch()` on every
 * event, so the timeout bounds the wait for the first byte and each gap
 * between events, not the length of a long answer.
 * @module
 */
export class RequestScope {
  /** Pass this to the SDK call. */
  readonly signal: AbortSignal;
  /** The idle limit in milliseconds. */
  readonly timeoutMs: number;
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer?.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;

  constructor(timeoutMs: number, outer: AbortSignal | undefined) {
    this.timeoutMs = timeoutMs;
    this.signal = this.#controller.signal;
    this.#outer = outer;
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
    this.touch();
  }

  /** `true` once the timeout, not the caller, ended the attempt. */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** `true` when the caller's own signal aborted. */
  get callerAborted(): boolean {
    return this.#outer?.aborted === true;
  }

  /** Restarts the idle timer (call on every streamed event). */
  touch(): void {
    if (this.#controller.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new DOMException(`No answer within ${this.timeoutMs} ms`, 'TimeoutError'));
    }, this.timeoutMs);
  }

  /** Stops the timer and forgets the caller's signal; call when the attempt is over. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener('abort', this.#onOuterAbort);
  }
}
