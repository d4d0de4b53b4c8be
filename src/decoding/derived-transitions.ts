/**
 * The JSON automaton's transitions where the matcher's run-time memory or checks (`written-strings.ts`,
 * `written-numbers.ts`) found that some configurations must not go on: an item that repeats an earlier one of its
 * array, an integer whose every completion is held, a number that fails its decimal `multipleOf`, a prefix whose
 * every completion is held. Each is the automaton's own step without those configurations, computed on first use and
 * kept, so a mask derived from the shared caches costs one lookup per token walked.
 * @module
 */
import type { Stack } from './automaton-frames.js';
import { UNKNOWN } from './automaton-states.js';
import type { DecimalMultipleCheck } from './decimal-multiples.js';
import type { Alternative } from './grammar-ir.js';
import type { CheckedNumbers } from './tracked-configurations.js';
import { completionsOf, isTrackedNumber } from './tracked-configurations.js';
import { QUOTE } from '../shared/json-bytes.js';

/** What `duplicateClose` lets die: a repeated item string or key, object or array item, integer item (bits, combined). */
export const DUPLICATE_STRING = 1;
export const DUPLICATE_CONTAINER = 2;
export const DUPLICATE_NUMBER = 4;

/** The checks (of the target state's list) whose numbers die, and those that may not close. */
export interface DroppedChecks {
  readonly checks: readonly DecimalMultipleCheck[];
  readonly dead: number;
  readonly unclosed: number;
}

/** What the derivations need of the automaton. */
export interface DerivingAutomaton {
  readonly alternatives: readonly Alternative[];
  readonly checkedNumbers: readonly (CheckedNumbers | undefined)[];
  configsOf(state: number): readonly Stack[];
  /** `JsonAutomaton.closesOnly`. */
  closesOnly(config: Stack): boolean;
  internOrDead(configs: Stack[]): number;
  transition(state: number, byte: number): number;
  /** `state`'s step on `byte`, the items `duplicate` names and the checks `dropped` names failing. */
  stepEach(state: number, byte: number, duplicate: number, dropped?: DroppedChecks): number;
}

export class DerivedTransitions {
  /** Per state: where a closing quote that repeats an earlier item leads, `UNKNOWN` if not computed. */
  private duplicateQuote = new Int32Array(64).fill(UNKNOWN);
  /** `duplicateClose` of other bytes than a quote, by `(state * 256 + byte) * 8 + kinds`. */
  private readonly duplicateOther = new Map<number, number>();
  /** `withoutTrackedNumbers`, by state. */
  private readonly numberlessTargets = new Map<number, number>();
  /** `withoutClosingOnly`, by state. */
  private readonly unclosableTargets = new Map<number, number>();
  /** `withoutChecked`'s targets, by `state * 256 + byte`, then by its dropped and unclosed checks. */
  private readonly checkedTargets = new Map<number, Map<number, number>>();
  /** Per state whose `exhaustion` is finite: its configurations' distinct finite counts (ascending) and the states left without those at or under each. */
  private readonly exhaustedTargets: ({ counts: Float64Array; targets: Int32Array } | undefined)[] = [];

  constructor(private readonly automaton: DerivingAutomaton) {}

  /**
   * Where `byte` from `state` leads when the items it ends repeat earlier items of their arrays: a closing quote
   * (`DUPLICATE_STRING`: an item string or key, `trackedItem`), a `}`/`]` closing an object or array item
   * (`DUPLICATE_CONTAINER`, `trackedContainer`), a byte after an integer item (`DUPLICATE_NUMBER`, `trackedNumber`),
   * as `kinds` says: those configurations die, the others step as usual.
   */
  duplicateClose(state: number, byte: number = QUOTE, kinds: number = byte === QUOTE ? DUPLICATE_STRING : DUPLICATE_CONTAINER): number {
    const quote = kinds === DUPLICATE_STRING;
    if (quote && state >= this.duplicateQuote.length) {
      const grown = new Int32Array(Math.max(state + 1, this.duplicateQuote.length * 2)).fill(UNKNOWN);
      grown.set(this.duplicateQuote);
      this.duplicateQuote = grown;
    }
    const key = (state * 256 + byte) * 8 + kinds;
    const cached = quote ? this.duplicateQuote[state]! : (this.duplicateOther.get(key) ?? UNKNOWN);
    if (cached !== UNKNOWN) return cached;
    const target = this.automaton.stepEach(state, byte, kinds);
    // stepEach may intern states: the table is indexed by `state`, which it had already
    if (quote) this.duplicateQuote[state] = target;
    else this.duplicateOther.set(key, target);
    return target;
  }

  /**
   * `state` less its object items that can only close (`closingOnly`): the matcher's memory found the object they
   * close as held. DEAD when none is left.
   */
  withoutClosingOnly(state: number): number {
    let target = this.unclosableTargets.get(state);
    if (target === undefined) {
      const left = this.automaton.configsOf(state).filter((config) => !this.automaton.closesOnly(config));
      target = this.automaton.internOrDead(left);
      this.unclosableTargets.set(state, target);
    }
    return target;
  }

  /**
   * `state` less its integer items of `uniqueNumbers` arrays (`trackedNumber`): the matcher's memory found every
   * completion of the integer written held. DEAD when none is left.
   */
  withoutTrackedNumbers(state: number): number {
    let target = this.numberlessTargets.get(state);
    if (target === undefined) {
      const left = this.automaton.configsOf(state).filter((config) => !isTrackedNumber(this.automaton.alternatives, config));
      target = this.automaton.internOrDead(left);
      this.numberlessTargets.set(state, target);
    }
    return target;
  }

  /**
   * Where `byte` leads from `state` when the number it writes fails some of the target's checks (`checkedNumbers`):
   * the numbers of the checks in `dead` (bits) die, those in `unclosed` go on but do not close; the other
   * configurations step as usual (an anyOf branch without the check still closes).
   */
  withoutChecked(state: number, byte: number, dead: number, unclosed: number): number {
    const at = state * 256 + byte;
    let targets = this.checkedTargets.get(at);
    if (targets === undefined) this.checkedTargets.set(at, (targets = new Map()));
    // a state holds a handful of distinct checks: the two masks fit one key
    const key = dead * 65536 + unclosed;
    const cached = targets.get(key);
    if (cached !== undefined) return cached;
    const checks = this.automaton.checkedNumbers[this.automaton.transition(state, byte)]!.checks;
    const target = this.automaton.stepEach(state, byte, 0, { checks, dead, unclosed });
    targets.set(key, target);
    return target;
  }

  /**
   * `state` less its configurations whose completions are at most `held` (the items held that extend the prefix, or
   * all of them before an item; at least `exhaustion[state]`): every way on from there repeats an item. DEAD when
   * none is left.
   */
  withoutExhausted(state: number, held: number): number {
    const { alternatives } = this.automaton;
    let known = this.exhaustedTargets[state];
    if (known === undefined) {
      const counts = [
        ...new Set(
          this.automaton
            .configsOf(state)
            .map((config) => completionsOf(alternatives, config))
            .filter((count) => count !== Infinity),
        ),
      ];
      known = { counts: Float64Array.from(counts.sort((left, right) => left - right)), targets: new Int32Array(counts.length).fill(UNKNOWN) };
      this.exhaustedTargets[state] = known;
    }
    let index = 0;
    while (index + 1 < known.counts.length && known.counts[index + 1]! <= held) index++;
    if (known.targets[index] === UNKNOWN) {
      const bound = known.counts[index]!;
      const left = this.automaton.configsOf(state).filter((config) => completionsOf(alternatives, config) > bound);
      // intern may grow the automaton's tables, not this record
      known.targets[index] = this.automaton.internOrDead(left);
    }
    return known.targets[index]!;
  }
}
