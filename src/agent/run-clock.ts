/**
 * A run's time: the wall time it has used (across pauses and resumes: only time spent running counts), the deadline
 * of its wall-time budget, and the signal its model and tool calls run under (the caller's abort plus that deadline).
 * It turns an abort or the deadline into the run's stop reason.
 * @module
 */
import type { ResolvedLimits } from './agent-limits.js';
import type { AgentStopReason } from './agent-result.js';
import { budgetStop, type Spent } from './budget.js';
import type { RunState } from './run-state.js';
import { unrefTimer } from '../shared/node-builtin.js';

export class RunClock {
  readonly #state: RunState;
  readonly #limits: ResolvedLimits;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #activeSince = performance.now();
  readonly #wallAtStart: number;
  readonly #deadline: AbortController | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  /** The signal the run's model and tool calls run under; `undefined` when there is neither an abort signal nor a wall-time budget. */
  readonly signal: AbortSignal | undefined;

  /** Starts counting, and arms the deadline for what is left of the wall-time budget. */
  constructor(state: RunState, limits: ResolvedLimits, callerSignal: AbortSignal | undefined) {
    this.#state = state;
    this.#limits = limits;
    this.#callerSignal = callerSignal;
    this.#wallAtStart = state.usage.wallTimeMs;
    if (limits.maxWallTimeMs !== undefined) {
      const deadline = (this.#deadline = new AbortController());
      const left = limits.maxWallTimeMs - state.usage.wallTimeMs;
      if (left <= 0) deadline.abort(new Error('wall-time budget used up'));
      else {
        this.#timer = setTimeout(() => deadline.abort(new Error('wall-time budget used up')), left);
        unrefTimer(this.#timer);
      }
    }
    const signals = [callerSignal, this.#deadline?.signal].filter((item): item is AbortSignal => item !== undefined);
    this.signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  }

  /** Disarms the deadline (the run returned). */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }

  /** Writes the wall time used so far into the run state. */
  updateWallTime(): void {
    this.#state.usage.wallTimeMs = Math.round(this.#wallAtStart + (performance.now() - this.#activeSince));
  }

  /** What the run has spent, for the budgets. */
  spent(): Spent {
    this.updateWallTime();
    const { usage, costUsd } = this.#state;
    return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd, toolCalls: usage.toolCalls, wallTimeMs: usage.wallTimeMs };
  }

  /** An abort by the caller, or the wall-time deadline, as a stop reason; `cut` says what was in flight when it came. */
  interruption(cut?: 'model_call' | 'tool_calls'): AgentStopReason | undefined {
    const max = this.#limits.maxWallTimeMs;
    if (this.#deadline?.signal.aborted && max !== undefined) {
      this.updateWallTime();
      const stop = budgetStop('wallTimeMs', max, this.#state.usage.wallTimeMs, 0);
      if (!cut) return stop;
      const what = cut === 'model_call' ? 'The model call in flight was cut off at the deadline.' : 'Tool calls still running were aborted at the deadline.';
      return { ...stop, interrupted: cut, message: `${stop.message} ${what}` };
    }
    if (this.#callerSignal?.aborted) {
      const reason: unknown = this.#callerSignal.reason;
      return { kind: 'aborted', message: `The run was aborted${reason instanceof Error && reason.message ? `: ${reason.message}` : ''}.` };
    }
    return undefined;
  }
}
