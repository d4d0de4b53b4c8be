/**
 * One MCP session's admission of tool calls by side effect, the server-side
 * twin of the agent loop's `scheduleByEffect`: reads run beside each other, a
 * write runs alone, and callers are admitted in the order they arrived — a
 * read that arrives while a write waits queues behind that write, so writes
 * are never starved and never overlap a read or another write. A call's
 * slot is held for as long as its `work` runs: the server's work for a call
 * stopped early waits there for its tool to end (src/tools/stopped-calls.ts),
 * so the slot outlives the caller's patience.
 * @module
 */
import type { ToolEffect } from '../tools/types.js';

interface Waiter {
  effect: ToolEffect;
  admit: () => void;
}

export class EffectGate {
  #runningReads = 0;
  #writing = false;
  readonly #queue: Waiter[] = [];

  /** Runs `work` once the gate admits a call of `effect`; a signal that aborts while the call waits takes it out of the queue and rejects with its reason. */
  async run<T>(effect: ToolEffect, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    await this.#admission(effect, signal);
    try {
      return await work();
    } finally {
      if (effect === 'read') this.#runningReads--;
      else this.#writing = false;
      this.#admitWaiting();
    }
  }

  /** How many calls wait (for tests and diagnostics). */
  get waiting(): number {
    return this.#queue.length;
  }

  #admission(effect: ToolEffect, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.#queue.length === 0 && this.#canStart(effect)) {
      this.#start(effect);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal!.reason);
        // A write that left the head of the queue may have been holding reads back.
        this.#admitWaiting();
      };
      const waiter: Waiter = {
        effect,
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #canStart(effect: ToolEffect): boolean {
    return effect === 'read' ? !this.#writing : !this.#writing && this.#runningReads === 0;
  }

  #start(effect: ToolEffect): void {
    if (effect === 'read') this.#runningReads++;
    else this.#writing = true;
  }

  #admitWaiting(): void {
    while (this.#queue.length > 0 && this.#canStart(this.#queue[0]!.effect)) {
      const waiter = this.#queue.shift()!;
      this.#start(waiter.effect);
      waiter.admit();
    }
  }
}
