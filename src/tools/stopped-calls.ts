/**
 * Calls whose caller stopped waiting (a cancel, an abort, a timeout) while the
 * tool's own work went on, as a tool that ignores `context.signal` does. "A
 * write runs alone" must hold until that work has ended, not until its caller
 * gave up: the scheduler keeps the call's slot while {@link StoppedCalls.awaitEnd}
 * waits, up to a grace period. Past it, the call counts as still running and
 * keeps blocking what it must not overlap (a write: every call; a read: writes)
 * until its work ends. The MCP server keeps one per session, the agent loop one
 * per run.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import type { ToolExecution } from './tool-registry.js';
import type { ToolEffect } from './types.js';

/** How long a stopped call's work may take to end before it counts as still running. */
export const DEFAULT_STOPPED_CALL_GRACE_MS = 5000;

const MAX_TIMER_MS = 2 ** 31 - 1;

interface StillRunning {
  toolName: string;
  effect: ToolEffect;
}

export class StoppedCalls {
  readonly #graceMs: number;
  readonly #stillRunning = new Set<StillRunning>();

  constructor(graceMs: number = DEFAULT_STOPPED_CALL_GRACE_MS) {
    // Node fires a timer of more than 2^31 - 1 ms at once, which would cut every grace period short.
    if (!Number.isFinite(graceMs) || graceMs < 0 || graceMs > MAX_TIMER_MS) {
      throw new InvalidArgumentError(`stoppedCallGraceMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS} (got ${String(graceMs)}).`);
    }
    this.#graceMs = graceMs;
  }

  get graceMs(): number {
    return this.#graceMs;
  }

  /**
   * Resolves `true` once the call's work has ended (at once for a call that was not stopped early), or `false` when the
   * grace period passed first: the call is then still running and {@link blockerFor} names it until its work ends.
   */
  async awaitEnd(execution: ToolExecution, effect: ToolEffect): Promise<boolean> {
    const workEnded = execution.workEnded;
    if (workEnded === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#graceMs);
    });
    const ended = await Promise.race([workEnded.then(() => true as const), graceOver]);
    clearTimeout(timer);
    if (ended) return true;
    const entry: StillRunning = { toolName: execution.toolName, effect };
    this.#stillRunning.add(entry);
    void workEnded.then(() => this.#stillRunning.delete(entry));
    return false;
  }

  /** The name of a stopped tool, still running, that a call of `effect` must not run beside; `undefined` when there is none. */
  blockerFor(effect: ToolEffect): string | undefined {
    for (const entry of this.#stillRunning) if (effect === 'write' || entry.effect === 'write') return entry.toolName;
    return undefined;
  }
}
