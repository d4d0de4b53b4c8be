/**
 * The CLI's live status while it waits for the model: on a terminal, one line
 * on stderr redrawn in place (elapsed seconds, and the retry in progress with
 * its wait and reason); off a terminal, a plain line per retry and nothing else,
 * so logs and pipes get no carriage returns. It never writes to stdout, so
 * `--json` output stays clean. Time comes from an injected clock and redraws
 * from an injected ticker, so tests drive it without waiting.
 * @module
 */
import type { RetryEvent } from '../models/retry/call-with-retries.js';

/** Where the status line writes: stderr in the CLI, a fake in tests. */
export interface StatusLineStream {
  write(text: string): unknown;
}

export interface StatusLineOptions {
  stream: StatusLineStream;
  /** Redraw in place (`\r`); otherwise only retries are printed, one plain line each. */
  isTTY: boolean;
  /** ANSI colours; the CLI turns them on only when stderr is a terminal and `NO_COLOR` is unset. */
  color: boolean;
  /** The retries the model makes after its first attempt, for "retry 2/4". */
  maxRetries: number;
  /** Milliseconds, for the elapsed time. Default `Date.now`. */
  now?: () => number;
  /**
   * Calls `redraw` about once a second while waiting, and returns how to stop. Default: an unref'd `setInterval`, so
   * the ticker never keeps the process alive. Only used on a terminal.
   */
  startTicker?: (redraw: () => void) => () => void;
}

/** Whether the CLI colours what it writes to a stream: a terminal, and `NO_COLOR` unset or empty (https://no-color.org). */
export function useColor(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

export class StatusLine {
  readonly #options: StatusLineOptions;
  readonly #now: () => number;
  /** What the model call is: e.g. `model call 2`; undefined when nothing is in flight. */
  #waitingFor: string | undefined;
  #startedAt = 0;
  /** The last retry of this call, and when it was announced. */
  #retry: { event: RetryEvent; at: number } | undefined;
  #drawn = false;
  #stopTicker: (() => void) | undefined;

  constructor(options: StatusLineOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A model call started: show the wait until {@link modelCallEnded}. */
  modelCallStarted(label: string): void {
    this.#waitingFor = label;
    this.#startedAt = this.#now();
    this.#retry = undefined;
    if (!this.#options.isTTY) return;
    this.#draw();
    this.#stopTicker ??= (this.#options.startTicker ?? defaultTicker)(() => this.#draw());
  }

  /** The provider call failed and will be retried after `event.delayMs`. */
  retrying(event: RetryEvent): void {
    if (!this.#options.isTTY) {
      this.#options.stream.write(`${retryLine(event, this.#options.maxRetries)}\n`);
      return;
    }
    this.#retry = { event, at: this.#now() };
    this.#draw();
  }

  /** Redraws the line with the current elapsed time (the ticker calls it). */
  tick(): void {
    if (this.#options.isTTY) this.#draw();
  }

  /** The model answered or failed: erase the line, so what the CLI prints next starts on a clean line. */
  modelCallEnded(): void {
    this.#waitingFor = undefined;
    this.#retry = undefined;
    this.#stopTicker?.();
    this.#stopTicker = undefined;
    this.clear();
  }

  /** Erases the line if one is drawn; call before writing anything else to the terminal. */
  clear(): void {
    if (!this.#drawn) return;
    this.#options.stream.write('\r\u001b[2K');
    this.#drawn = false;
  }

  #draw(): void {
    if (this.#waitingFor === undefined) return;
    const seconds = Math.max(0, Math.floor((this.#now() - this.#startedAt) / 1000));
    const waiting = `… waiting for ${this.#waitingFor} · ${seconds} s`;
    const line = this.#retry === undefined ? this.#paint(waiting, DIM) : `${this.#paint(waiting, DIM)}${this.#paint(` · ${this.#retryText()}`, YELLOW)}`;
    this.#options.stream.write(`\r\u001b[2K${line}`);
    this.#drawn = true;
  }

  /** During the wait, the retry and its wait; once the wait is over, the attempt now in flight. */
  #retryText(): string {
    const { event, at } = this.#retry!;
    const reason = describeRetryReason(event.reason);
    if (this.#now() - at < event.delayMs) return retryLine(event, this.#options.maxRetries);
    return `attempt ${event.attempt + 1}/${this.#options.maxRetries + 1} (after ${reason})`;
  }

  #paint(text: string, code: string): string {
    return this.#options.color ? `${code}${text}\u001b[0m` : text;
  }
}

function retryLine(event: RetryEvent, maxRetries: number): string {
  return `retry ${event.attempt}/${maxRetries} in ${(event.delayMs / 1000).toFixed(1)} s (${describeRetryReason(event.reason)})`;
}

const DIM = '\u001b[2m';
const YELLOW = '\u001b[33m';

/** A retry reason (`429`, `503`, `connection`, `timeout`) in words. */
export function describeRetryReason(reason: string): string {
  if (reason === 'connection') return 'connection failed';
  if (reason === 'timeout') return 'timed out';
  const status = Number(reason);
  if (!Number.isInteger(status)) return reason;
  if (status === 429) return '429 rate limited';
  if (status === 408) return '408 request timeout';
  if (status === 409) return '409 conflict';
  if (status === 503) return '503 unavailable';
  if (status === 529) return '529 overloaded';
  if (status >= 500) return `${status} server error`;
  return String(status);
}

function defaultTicker(redraw: () => void): () => void {
  const timer = setInterval(redraw, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
