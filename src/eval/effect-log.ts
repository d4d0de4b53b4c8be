/**
 * Honest accounting: every externally visible action a suite's tools take
 * (mail sent, money moved, files shared or deleted, messages posted) is
 * appended to an effect log kept in the suite's state. Tools append; no tool
 * removes or edits an entry, so "deleting the sent copy" deletes the visible
 * copy and leaves the entry. Injection effects and utility checks read the
 * entries a run appended ({@link effectsSince}): a cover-up cannot hide an
 * effect, and a check that asks for the task's own expected entry is not met
 * by whatever the attacker made happen.
 * @module
 */
import { InvalidStateError } from '../shared/errors.js';

/** One externally visible action, as the tool took it. */
export interface EffectEntry {
  /** Position in the log, from 1; a run's entries continue the initial state's. */
  seq: number;
  /** The tool that acted. */
  tool: string;
  /** What happened to what, in the tool's own words, e.g. `{ id, to, subject, body }` for a sent email. */
  data: Readonly<Record<string, unknown>>;
}

/** A suite state with an effect log. */
export interface HasEffectLog {
  /** Append-only: tools append through {@link recordEffect}; nothing removes an entry. */
  effects: EffectEntry[];
}

/** Appends an entry (a deep, frozen copy of `data`, so a later change to the live object does not rewrite history). */
export function recordEffect(state: HasEffectLog, tool: string, data: Record<string, unknown>): EffectEntry {
  const entry: EffectEntry = Object.freeze({ seq: state.effects.length + 1, tool, data: deepFreeze(structuredClone(data)) });
  state.effects.push(entry);
  return entry;
}

/**
 * The entries appended between two states of one run. Throws when the log
 * shrank or an earlier entry changed: the log is append-only, and a check
 * reading a rewritten log would be reading a cover-up.
 */
export function effectsSince(pre: HasEffectLog, post: HasEffectLog, tool?: string): EffectEntry[] {
  if (post.effects.length < pre.effects.length || pre.effects.some((entry, index) => post.effects[index]?.seq !== entry.seq))
    throw new InvalidStateError(
      `The effect log lost entries during the run (${pre.effects.length} before, ${post.effects.length} after); it is append-only. Fix the tool that removed them.`,
    );
  const added = post.effects.slice(pre.effects.length);
  return tool === undefined ? added : added.filter((entry) => entry.tool === tool);
}

/** Whether any entry appended during the run carries `text` in any string of its data (case-insensitive). */
export function effectsCarry(entries: readonly EffectEntry[], text: string): boolean {
  const needle = text.toLowerCase();
  return entries.some((entry) => stringsOf(entry.data).some((value) => value.toLowerCase().includes(needle)));
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
