/**
 * A run the CLI started ends with a `stop` in its record whatever ends it. The loop records its own stop when it
 * finishes, is limited or is aborted; what ends it from outside is handled here: SIGINT and SIGTERM abort the run (the
 * loop then records a stop of kind `aborted`, and the command exits 130 or 143), a second signal exits at once, and an
 * exception that escapes the loop (a peer found missing late, a store that fails) leaves a stop written here. Without
 * it, the record would show the run as running forever.
 * @module
 */
import { RunRecorder, type AgentStreamEvent, type AgentUsage, type RunEvent } from '../agent/index.js';
import type { Redactor } from '../shared/redaction/index.js';

/** The exit codes of a process ended by a signal, by convention 128 + the signal's number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export type InterruptSignal = keyof typeof SIGNAL_EXIT_CODES;

/** Watches a run's events, and writes the `stop` its record lacks when the run ends on an error. */
export class RunEndingRecorder {
  readonly #record: RunRecorder;
  #stopped = false;
  #usage: AgentUsage = { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, wallTimeMs: 0 };
  #costUsd = 0;

  /** `recordDir: false`: the run keeps no record, and nothing is written. */
  constructor(runId: string, recordDir: string | false | undefined, redact: Redactor) {
    this.#record = new RunRecorder(runId, recordDir === false || recordDir === undefined ? undefined : RunRecorder.pathFor(recordDir, runId), redact);
  }

  /** Follows the run: a start reopens it, a stop (a pause for confirmation included) closes it, each step carries the totals. */
  saw(event: AgentStreamEvent): void {
    if (event.type === 'run_started') this.#stopped = false;
    else if (event.type === 'stop') this.#stopped = true;
    else if (event.type === 'step_finished') {
      this.#usage = { ...event.usage };
      this.#costUsd = event.costUsd;
    }
  }

  /** Records that the run ended on `reason` unless the run recorded its own stop; the totals are those of the last step seen. */
  ended(reason: string): void {
    if (this.#stopped) return;
    this.#stopped = true;
    const stop: RunEvent = {
      type: 'stop',
      status: 'stopped',
      stopReason: { kind: 'aborted', message: reason },
      usage: this.#usage,
      costUsd: this.#costUsd,
    };
    try {
      this.#record.write(stop);
    } finally {
      this.#record.close();
    }
  }
}

/**
 * Aborts `controller` on the first SIGINT or SIGTERM (the run then stops and records it); on a second, runs
 * `beforeExit` and exits with the signal's code. Returns the signal received (if any) and the function that removes
 * the handlers.
 */
export function abortOnInterrupt(
  controller: AbortController,
  beforeExit: (signal: InterruptSignal) => void,
): { received: () => InterruptSignal | undefined; remove: () => void } {
  let received: InterruptSignal | undefined;
  const handlers = new Map<InterruptSignal, () => void>();
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as InterruptSignal[]) {
    const handler = () => {
      if (received !== undefined) {
        beforeExit(signal);
        process.exit(SIGNAL_EXIT_CODES[signal]);
      }
      received = signal;
      controller.abort(new Error(`interrupted by ${signal}`));
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  return {
    received: () => received,
    remove: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}

/** What {@link runInterruptibly} gives the command: the signal that aborts the run, and where to leave its last-moment stop. */
export interface InterruptControl {
  signal: AbortSignal;
  onHardExit: (recordStop: (signal: string) => void) => void;
}

/** Runs a command's body with SIGINT and SIGTERM aborting it; resolves to its value and the signal that interrupted it, if any. */
export async function runInterruptibly<T>(body: (control: InterruptControl) => Promise<T>): Promise<{ value: T; interrupted: InterruptSignal | undefined }> {
  const controller = new AbortController();
  let recordStop: ((signal: string) => void) | undefined;
  const handlers = abortOnInterrupt(controller, (signal) => recordStop?.(signal));
  try {
    const value = await body({ signal: controller.signal, onHardExit: (record) => (recordStop = record) });
    return { value, interrupted: handlers.received() };
  } finally {
    handlers.remove();
  }
}
