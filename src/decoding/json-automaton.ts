/**
 * The grammar as a byte automaton, determinized lazily. A configuration is a stack of
 * parser frames (object, array, string, number, literal, document), interned so that
 * equal stacks share one id; an automaton state is a set of configurations (anyOf
 * branches run side by side). Transitions are computed on first use and then read
 * from a flat `Int32Array` table, so the hot mask walk is one typed-array load per byte.
 *
 * Every configuration is live (it can still reach a complete value): alternatives
 * that cannot fit the depth budget, strings that cannot reach an accepting length,
 * and empty schemas are pruned when a frame is created, so a state never dead-ends.
 * @module
 */
import { ArrayPhase, describeStack, DocumentPhase, FINISHED, FrameTable, Kind, ObjectPhase, StringMode, type Frame, type Stack } from './automaton-frames.js';
import { DEAD, UNKNOWN } from './automaton-states.js';
import { DecodingLimitError } from './decoding-errors.js';
import { DerivedTransitions, DUPLICATE_CONTAINER, DUPLICATE_NUMBER, DUPLICATE_STRING, type DroppedChecks } from './derived-transitions.js';
import { markCandidateBytes } from './frame-candidate-bytes.js';
import type { GrammarCache, LoopClass } from './grammar-cache.js';
import { containsCanClose, containsCells, countsAfter } from './array-contains.js';
import { arrayCanClose, arrayCanCloseEmpty, clampCount, itemCanFollow, uniqueClassOf, uniqueDecidesItems, uniqueItemCanFollow } from './array-progress.js';
import type { Alternative, ArrayAlternative, ItemCompletions, ObjectAlternative, StringAlternative, ValueNode } from './grammar-ir.js';
import { NUMBER_SYMBOL_OF_BYTE, NUMBER_SYMBOLS, type NumberConstraint } from './number-language.js';
import {
  checkedNumbersOf,
  completionsOf,
  countedItems,
  insideCounted,
  isTrackedContainer,
  isTrackedItem,
  isTrackedNumber,
  trackedNumberKinds,
  trackedRangesOf,
  literalOpen,
  runTimeMemories,
  usedBefore,
  writtenInDeclaredOrder,
  type CheckedNumbers,
} from './tracked-configurations.js';
import { classAllowed, classOf, classProperty, classWrittenAfter, countAfter, declaredAllowed, objectCanClose, writtenAfter } from './object-progress.js';
import { FREE, isCounted, StringLengths } from './string-length-analysis.js';
import { StringStepper } from './string-stepping.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../shared/json-bytes.js';

export { DEAD, UNKNOWN } from './automaton-states.js';
/** `kRem` when the string has no length budget to respect. */
export const UNBOUNDED = 0x3fffffff;

const WHITESPACE = new Uint8Array(256);
WHITESPACE[0x20] = 1;
WHITESPACE[0x09] = 1;
WHITESPACE[0x0a] = 1;
WHITESPACE[0x0d] = 1;

export interface AutomatonOptions {
  /** Accept bounded whitespace between tokens and `\/`, `\uHHHH` escapes. */
  readonly flexible: boolean;
  /** Longest whitespace run in flexible layout. */
  readonly maxWhitespace: number;
  /** Most automaton states before `DecodingLimitError('maxStates')`. */
  readonly maxStates: number;
  /** Most nested frames (objects, arrays, strings, numbers); deeper values are not offered. */
  readonly maxDepth: number;
  /** Most code points from `alphabet` one token of the vocabulary can start, in a row. */
  readonly tokenSpan: (alphabet: readonly number[]) => number;
  /** Where the loop classes of pattern DFAs are kept between grammars. */
  readonly cache: GrammarCache;
  /** Bytes of item strings a matcher may remember for `uniqueItems` over strings (`DecodingLimits`). */
  readonly uniqueItemsMaxStringBytes: number;
}

export class JsonAutomaton {
  /** `trans[state * 256 + byte]`: next state, `DEAD` or `UNKNOWN`. */
  trans: Int32Array;
  /** Per state: a complete document (end of sequence allowed). */
  accepting: Uint8Array;
  /** Per state: the state whose token mask this one derives from (itself unless a length-bounded string). */
  maskBase: Int32Array;
  /** Per state: code points the string may still take (`UNBOUNDED` if no limit applies). */
  kRem: Int32Array;
  /** Per state: code points the string still needs before it may close. */
  rNeed: Int32Array;
  /** Per state: the only viable byte, -1 for none or several, `UNKNOWN` if not computed. */
  forcedByte: Int16Array;
  /** Per state: 1 for an unconstrained string body at a character boundary, where every plain-content token is allowed. */
  plainString: Uint8Array;
  /**
   * Per state: for a lone string position whose content tokens' fate depends only on the
   * string itself (no length count, no excluded names, not inside an escape), a key
   * naming that position across grammars; undefined otherwise.
   */
  readonly contentKey: (string | undefined)[] = [];
  /**
   * Per state: for a lone unconstrained-count string position in a DFA state that loops
   * on some printable ASCII characters, those characters (a 256-entry table) and a key
   * for them. Every token made only of them keeps the string in this very state.
   */
  readonly loopClass: (LoopClass | undefined)[] = [];
  /**
   * Per state: 1 when some configuration is inside an item string of a `uniqueItems` array of strings, or an undeclared
   * key of an object with `distinctKeys`: a closing quote here must not repeat an earlier item or key of its container
   * (the matcher's `WrittenStrings` checks it, `duplicateClose` steps past it).
   */
  trackedItem: Uint8Array;
  /** Per state: 1 when some configuration is an open object or array item of a `uniqueContainers` array (as `trackedItem`, for `}` and `]`). */
  trackedContainer: Uint8Array;
  /** The transitions where the matcher's memory or checks drop configurations (`duplicateClose`, `withoutChecked`, …). */
  readonly derived: DerivedTransitions;
  /** Some array remembers the values of its object or array items (`ArrayAlternative.uniqueContainers`). */
  readonly remembersContainers: boolean;
  /** Per state: 1 when some configuration is an object item that can run out (`closedItem`) where only its `}` can follow (`closesOnly`). */
  closingOnly: Uint8Array;
  /** Per state: 1 when some configuration is a string whose close (as it goes on) leaves a `closesOnly` item. */
  closingValue: Uint8Array;
  /** Some object item can run out of values (`ObjectAlternative.closedItem`). */
  readonly remembersClosedItems: boolean;
  /** Per state: which kinds of number items of `uniqueNumbers` arrays some configuration writes (they finish at the byte after them; `trackedNumberKinds`). */
  trackedNumber: Uint8Array;
  /** Some array remembers the values of its integer items (`ArrayAlternative.uniqueNumbers`). */
  readonly remembersNumbers: boolean;
  /** Per state: the ranges of its remembered number items under a range (`TRACKED_RANGED`), undefined where none. */
  readonly trackedRanges: (readonly NumberConstraint[] | undefined)[] = [];
  /** Some array remembers number items under a range (`held-ranges.ts`): a prefix can run out from its first byte. */
  readonly remembersRanges: boolean;
  /**
   * Per state: the fewest completions among its configurations whose item strings can run out (`itemCompletions`):
   * inside an item at a character boundary, those of the prefix written; before an item (after `,`), those of the
   * empty one. The matcher's memory compares it with the items held that extend the prefix (`withoutExhausted`).
   * Infinity where no configuration counts.
   */
  exhaustion: Float64Array;
  /** Per state: 1 when some configuration is an array whose item strings can run out, or such an item. */
  exhaustible: Uint8Array;
  /** Some array's item strings can run out (`ArrayAlternative.itemCompletions`). */
  readonly countsItems: boolean;
  /** The completion counts of every array's item strings and object's keys that can run out (`itemCompletions`, `keyCompletions`). */
  readonly countedLanguages: readonly ItemCompletions[];
  /**
   * Per state: the decimal `multipleOf` checks of its configurations inside a checked number (past its first byte), and
   * which of them (bit per index) can close there; undefined where none. The matcher's `WrittenNumbers` reads them.
   */
  readonly checkedNumbers: (CheckedNumbers | undefined)[] = [];
  /** Some number alternative carries a decimal `multipleOf` check: matchers must check the numbers written. */
  readonly checksNumbers: boolean;
  /** While `withoutChecked` computes: the checks (of the target's list) whose numbers die, and those that may not close. */
  private checkedDropped: DroppedChecks | undefined;
  /** Some array enforces `uniqueItems` over strings, or some object `distinctKeys`: matchers must remember the strings written. */
  readonly tracksStrings: boolean;
  /** Bytes of item strings a matcher may remember (`AutomatonOptions.uniqueItemsMaxStringBytes`). */
  readonly rememberedBytesLimit: number;
  stateCount = 0;
  /** The start state. */
  readonly start: number;

  private readonly options: AutomatonOptions;
  private readonly alternatives: Alternative[] = [];
  private readonly literalNodes = new Map<number, ValueNode>();
  private readonly frames = new FrameTable();
  private readonly lengths: StringLengths;
  private readonly strings: StringStepper;
  private readonly states = new Map<string, number>();
  private readonly stateConfigs: Stack[][] = [];
  /** Reused by `transition` (never re-entered): most bytes lead nowhere and should cost no allocation. */
  private readonly scratch = new Map<number, Stack>();
  private readonly candidates = new Uint8Array(256);
  /** While `duplicateClose` computes: the tracked items (`DUPLICATE_STRING`, …) that may not close. */
  private closingDuplicate = 0;
  private readonly root: ValueNode;

  constructor(root: ValueNode, nodes: readonly ValueNode[], options: AutomatonOptions) {
    this.root = root;
    this.options = options;
    this.lengths = new StringLengths(options.tokenSpan);
    this.strings = new StringStepper(this.frames, this.lengths, options.flexible);
    for (const node of nodes) {
      if (node.literals !== null) this.literalNodes.set(node.id, node);
      for (const alternative of node.alternatives) {
        this.alternatives[alternative.id] = alternative;
        if (alternative.kind === 'object') for (const keyClass of alternative.keyClasses) for (const key of keyClass.keys) this.alternatives[key.id] = key;
      }
    }
    const capacity = 64;
    this.trans = new Int32Array(capacity * 256).fill(UNKNOWN);
    this.accepting = new Uint8Array(capacity);
    this.maskBase = new Int32Array(capacity);
    this.kRem = new Int32Array(capacity);
    this.rNeed = new Int32Array(capacity);
    this.forcedByte = new Int16Array(capacity).fill(UNKNOWN);
    this.plainString = new Uint8Array(capacity);
    this.trackedItem = new Uint8Array(capacity);
    this.trackedContainer = new Uint8Array(capacity);
    this.closingOnly = new Uint8Array(capacity);
    this.closingValue = new Uint8Array(capacity);
    this.trackedNumber = new Uint8Array(capacity);
    this.exhaustion = new Float64Array(capacity);
    this.exhaustible = new Uint8Array(capacity);
    ({
      countedLanguages: this.countedLanguages,
      remembersContainers: this.remembersContainers,
      remembersClosedItems: this.remembersClosedItems,
      remembersNumbers: this.remembersNumbers,
      remembersRanges: this.remembersRanges,
      tracksStrings: this.tracksStrings,
      checksNumbers: this.checksNumbers,
    } = runTimeMemories(this.alternatives));
    this.countsItems = this.countedLanguages.length > 0;
    this.rememberedBytesLimit = options.uniqueItemsMaxStringBytes;
    this.derived = new DerivedTransitions({
      alternatives: this.alternatives,
      checkedNumbers: this.checkedNumbers,
      configsOf: (state) => this.stateConfigs[state]!,
      closesOnly: (config) => this.closesOnly(config),
      internOrDead: (configs) => this.internOrDead(configs),
      transition: (state, byte) => this.transition(state, byte),
      stepEach: (state, byte, duplicate, dropped) => this.stepEach(state, byte, duplicate, dropped),
    });
    const out = new Map<number, Stack>();
    const document = this.frames.stack(this.frames.documentFrame(DocumentPhase.Before, 0), null);
    this.enterDocument(document, 0, out);
    this.start = out.size === 0 ? DEAD : this.intern([...out.values()]);
  }

  /**
   * For each patterned string alternative, automaton states standing at each of its DFA
   * states (character boundary, no length count), in breadth-first order: the positions
   * whose content masks are worth computing at compile time. The parent frame is the
   * document's; a content walk never closes the string, so it is never consulted. A position
   * whose content key `known` accepts is skipped without being interned: its mask is already
   * shared, and interning the thousands of states of a time format's DFA for nothing was
   * the larger part of compiling such a schema once another had computed its masks.
   */
  *patternPositions(known?: (contentKey: string) => boolean): Generator<number> {
    // lazily: the caller stops at its time budget, and a time format's DFA has thousands of states
    const seen = new Set<number>();
    const document = this.frames.stack(this.frames.documentFrame(DocumentPhase.Value, 0), null);
    for (const alternative of this.alternatives) {
      if (alternative?.kind !== 'string' || alternative.free || alternative.exclude !== null || seen.has(alternative.dfa.id)) continue;
      seen.add(alternative.dfa.id);
      const order = [alternative.dfa.start];
      const visited = new Set(order);
      for (let at = 0; at < order.length; at++) {
        const ranges = alternative.dfa.transitions[order[at]!]!;
        for (let index = 2; index < ranges.length; index += 3) {
          if (!visited.has(ranges[index]!)) {
            visited.add(ranges[index]!);
            order.push(ranges[index]!);
          }
        }
      }
      const count = isCounted(alternative) ? FREE : 0;
      for (const state of order) {
        if (known?.(this.contentKeyOf(alternative, StringMode.Boundary, state, 0, 0, 0)) === true) continue;
        yield this.intern([this.frames.stack(this.frames.stringFrame(alternative.id, StringMode.Boundary, state, count, -1), document)]);
      }
    }
  }

  /** The distinct loop classes of every patterned string's DFA states (prepared at compile time, so no first mask pays for them). */
  patternLoopClasses(): LoopClass[] {
    const classes = new Map<string, LoopClass>();
    for (const alternative of this.alternatives) {
      if (alternative?.kind !== 'string' || alternative.free) continue;
      for (const loop of this.options.cache.loopClasses(alternative.dfa).distinct) classes.set(loop.key, loop);
    }
    return [...classes.values()];
  }

  /** Number of distinct configurations and frames created so far (memory reports). */
  get configurationCount(): number {
    return this.frames.stackCount;
  }

  /**
   * True when `config` is an object item that can run out of values (`closedItem`) past its `{` where its `}` is the
   * only byte but whitespace that can follow (no key, no comma): the one value it can close as is the text so far.
   */
  closesOnly(config: Stack, closingString = false): boolean {
    if (closingString) {
      // a string of such an item, finished (where it can, or later): its item then
      if (config.frame.kind !== Kind.String || config.parent?.frame.kind !== Kind.Object) return false;
      const finished = new Map<number, Stack>();
      this.finish(config, finished);
      return [...finished.values()].some((after) => this.closesOnly(after));
    }
    const frame = config.frame;
    if (frame.kind !== Kind.Object || (this.alternatives[frame.alternative] as ObjectAlternative).closedItem !== true) return false;
    if (!isTrackedContainer(this.alternatives, config)) return false;
    const probe = new Map<number, Stack>();
    const [duplicate, dropped] = [this.closingDuplicate, this.checkedDropped];
    this.closingDuplicate = 0;
    this.checkedDropped = undefined;
    try {
      for (const byte of [QUOTE, COMMA]) {
        this.step(config, byte, probe);
        if (probe.size > 0) return false;
      }
      this.step(config, CLOSE_BRACE, probe);
      return probe.size > 0;
    } finally {
      this.closingDuplicate = duplicate;
      this.checkedDropped = dropped;
    }
  }

  /** Computes (and records) the transition of `state` on `byte`. */
  transition(state: number, byte: number): number {
    const cached = this.trans[state * 256 + byte]!;
    if (cached !== UNKNOWN) return cached;
    const target = this.stepEach(state, byte);
    // intern may have grown the table
    this.trans[state * 256 + byte] = target;
    return target;
  }

  /**
   * Whether some configuration of `state` has written its objects' declared properties as a
   * prefix of their declared order so far (the bitset of written properties is 2^k − 1).
   * Under `propertyOrder: 'any'` the compile-time look-ahead visits these states first: models
   * mostly write keys in the order a schema lists them, and the other orders multiply states.
   */
  inDeclaredOrder(state: number): boolean {
    return this.stateConfigs[state]!.some(writtenInDeclaredOrder);
  }

  /** Human-readable description of a state's configurations (debugging). */
  describe(state: number): string {
    return this.stateConfigs[state]!.map(describeStack).join(' | ');
  }

  // ---- states ----------------------------------------------------------------------------

  /** Steps every configuration of `state` on `byte` into one state, the items `duplicate` names and the checks `dropped` names failing. */
  private stepEach(state: number, byte: number, duplicate = 0, dropped?: DroppedChecks): number {
    const out = this.scratch;
    out.clear();
    this.closingDuplicate = duplicate;
    this.checkedDropped = dropped;
    try {
      for (const config of this.stateConfigs[state]!) this.step(config, byte, out);
    } finally {
      this.closingDuplicate = 0;
      this.checkedDropped = undefined;
    }
    // most bytes lead nowhere: no array for them
    return out.size === 0 ? DEAD : this.intern([...out.values()]);
  }

  private internOrDead(configs: Stack[]): number {
    return configs.length === 0 ? DEAD : this.intern(configs);
  }

  private intern(configs: Stack[]): number {
    configs.sort((left, right) => left.id - right.id);
    const key = configs.map((config) => config.id).join(',');
    const existing = this.states.get(key);
    if (existing !== undefined) return existing;
    const id = this.stateCount;
    if (id >= this.options.maxStates) throw new DecodingLimitError('maxStates', this.options.maxStates);
    this.grow(id + 1);
    this.stateCount++;
    this.states.set(key, id);
    this.stateConfigs.push(configs);
    let accepting = 0;
    for (const config of configs) if (config.frame.kind === Kind.Done && config.frame.phase === DocumentPhase.After) accepting = 1;
    this.accepting[id] = accepting;
    this.maskBase[id] = id;
    this.kRem[id] = UNBOUNDED;
    this.rNeed[id] = 0;
    this.plainString[id] = 0;
    this.trackedItem[id] = configs.some((config) => isTrackedItem(this.alternatives, config)) ? 1 : 0;
    this.trackedContainer[id] = this.remembersContainers && configs.some((config) => isTrackedContainer(this.alternatives, config)) ? 1 : 0;
    this.trackedNumber[id] = this.remembersNumbers ? trackedNumberKinds(this.alternatives, configs) : 0;
    this.trackedRanges.push(this.remembersRanges ? trackedRangesOf(this.alternatives, configs) : undefined);
    this.closingOnly[id] = this.remembersClosedItems && configs.some((config) => this.closesOnly(config)) ? 1 : 0;
    this.closingValue[id] = this.remembersClosedItems && configs.some((config) => this.closesOnly(config, true)) ? 1 : 0;
    this.exhaustion[id] = this.countsItems
      ? configs.reduce((fewest, config) => Math.min(fewest, completionsOf(this.alternatives, config)), Infinity)
      : Infinity;
    this.exhaustible[id] =
      this.countsItems && configs.some((config) => countedItems(this.alternatives, config) !== null || insideCounted(this.alternatives, config)) ? 1 : 0;
    this.contentKey.push(undefined);
    this.loopClass.push(undefined);
    this.checkedNumbers.push(this.checksNumbers ? checkedNumbersOf(this.alternatives, configs) : undefined);
    this.prefillDeadBytes(id, configs);
    if (configs.length === 1) this.noteStringPosition(id, configs[0]!);
    return id;
  }

  /**
   * Marks DEAD, up front, every byte no configuration of a new state could consume (an
   * over-approximation per frame kind): a structural state then costs a handful of
   * transition computations instead of 256 on its first mask walk.
   */
  private prefillDeadBytes(id: number, configs: Stack[]): void {
    const candidates = this.candidates;
    candidates.fill(0);
    for (const config of configs) {
      if (!markCandidateBytes(config.frame, this.alternatives, this.literalNodes, this.options.flexible, candidates)) return;
    }
    const row = id * 256;
    for (let byte = 0; byte < 256; byte++) if (candidates[byte] === 0) this.trans[row + byte] = DEAD;
  }

  private grow(needed: number): void {
    const capacity = this.accepting.length;
    if (needed <= capacity) return;
    const next = Math.max(needed, capacity * 2);
    const trans = new Int32Array(next * 256).fill(UNKNOWN);
    trans.set(this.trans);
    this.trans = trans;
    const widen = <T extends Uint8Array | Int32Array | Int16Array | Float64Array>(array: T, make: (size: number) => T, fill?: number): T => {
      const bigger = make(next);
      if (fill !== undefined) bigger.fill(fill);
      bigger.set(array);
      return bigger;
    };
    this.accepting = widen(this.accepting, (size) => new Uint8Array(size));
    this.maskBase = widen(this.maskBase, (size) => new Int32Array(size));
    this.kRem = widen(this.kRem, (size) => new Int32Array(size));
    this.rNeed = widen(this.rNeed, (size) => new Int32Array(size));
    this.forcedByte = widen(this.forcedByte, (size) => new Int16Array(size), UNKNOWN);
    this.plainString = widen(this.plainString, (size) => new Uint8Array(size));
    this.trackedItem = widen(this.trackedItem, (size) => new Uint8Array(size));
    this.trackedContainer = widen(this.trackedContainer, (size) => new Uint8Array(size));
    this.closingOnly = widen(this.closingOnly, (size) => new Uint8Array(size));
    this.closingValue = widen(this.closingValue, (size) => new Uint8Array(size));
    this.trackedNumber = widen(this.trackedNumber, (size) => new Uint8Array(size));
    this.exhaustion = widen(this.exhaustion, (size) => new Float64Array(size));
    this.exhaustible = widen(this.exhaustible, (size) => new Uint8Array(size));
  }

  /**
   * Facts that let a lone string position share mask work across states: an uncounted
   * position gets its content key, its loop class or the plain-string flag; a length-bounded
   * one may take its unbounded twin's mask (`abstractLength`).
   */
  private noteStringPosition(id: number, config: Stack): void {
    const frame = config.frame;
    const mode = frame.phase as StringMode;
    if (frame.kind !== Kind.String || (mode !== StringMode.Boundary && mode !== StringMode.Utf8 && mode !== StringMode.Utf8To)) return;
    const alternative = this.alternatives[frame.alternative] as StringAlternative;
    if (frame.count !== FREE && isCounted(alternative)) {
      if (alternative.exclude === null) this.abstractLength(id, config, alternative);
      return;
    }
    if (alternative.free && mode === StringMode.Boundary) this.plainString[id] = 1;
    else if (alternative.exclude === null)
      this.contentKey[id] = this.contentKeyOf(alternative, mode, frame.dfaState, frame.sequenceValue, frame.sequenceLeft, frame.sequenceLength);
    if (alternative.exclude === null && mode === StringMode.Boundary)
      this.loopClass[id] = this.options.cache.loopClasses(alternative.dfa).byState[frame.dfaState];
  }

  /** The key under which every grammar of a vocabulary shares the content mask of an uncounted string position. */
  private contentKeyOf(
    alternative: StringAlternative,
    mode: StringMode,
    dfaState: number,
    sequenceValue: number,
    sequenceLeft: number,
    sequenceLength: number,
  ): string {
    return `${alternative.dfa.id}|${this.options.flexible ? 'f' : 'c'}|${mode}|${dfaState}|${sequenceValue}|${sequenceLeft}|${sequenceLength}`;
  }

  /**
   * A lone length-bounded free string differs from its unbounded twin only by how many
   * code points a token may add before the closing quote: its mask is the twin's,
   * intersected with per-vocabulary length masks. So masks are computed once per string
   * position in the schema, not once per length.
   */
  private abstractLength(id: number, config: Stack, alternative: StringAlternative): void {
    const frame = config.frame;
    const used = frame.count + (frame.phase === StringMode.Boundary ? 0 : 1);
    if (!alternative.free) {
      // exact only when the count can never make a state dead that the unbounded twin keeps
      const analysis = this.lengths.analysis(alternative);
      if (!analysis.upward) return;
      if (!analysis.roomy && used + analysis.tokenSpan + analysis.maxDistance > alternative.maxLength) return;
    }
    this.kRem[id] = alternative.maxLength === Infinity ? UNBOUNDED : alternative.maxLength - used;
    this.rNeed[id] = Math.max(0, alternative.minLength - used);
    const { alternative: alternativeId, phase, dfaState, exclusion, sequenceValue, sequenceLeft, sequenceLength } = frame;
    const twin = this.frames.stringFrame(alternativeId, phase, dfaState, FREE, exclusion, sequenceValue, sequenceLeft, sequenceLength);
    this.maskBase[id] = this.intern([this.frames.replaceTop(config, twin)]);
  }

  // ---- closure helpers -------------------------------------------------------------------

  private emit(config: Stack, out: Map<number, Stack>): void {
    if (out.has(config.id)) return;
    const frame = config.frame;
    let complete = false;
    if (frame.kind === Kind.Number) {
      const alternative = this.alternatives[frame.alternative]!;
      // an item of a `uniqueNumbers` array finishes at the byte after it, where the memory knows its value (`step`)
      complete =
        alternative.kind === 'number' &&
        alternative.automaton.accepting[frame.numberState] === 1 &&
        (!this.remembersNumbers || !isTrackedNumber(this.alternatives, config));
      const dropped = this.checkedDropped;
      const index = dropped === undefined || alternative.kind !== 'number' || frame.numberState === 0 ? -1 : dropped.checks.indexOf(alternative.check!);
      if (index >= 0 && (dropped!.dead & (1 << index)) !== 0) return;
      if (index >= 0 && (dropped!.unclosed & (1 << index)) !== 0) complete = false;
    } else if (frame.kind === Kind.Literal) {
      const value = this.literalNodes.get(frame.literalNode)!.literals!.terminal[frame.trieNode]!;
      complete = value >= 0 && !usedBefore(this.alternatives, config, value);
    }
    out.set(config.id, config);
    if (complete) this.finish(config, out);
  }

  /** Replaces the frame on top of `config` and emits the configuration it makes. */
  private emitOnTop(config: Stack, frame: Frame, out: Map<number, Stack>): void {
    this.emit(this.frames.replaceTop(config, frame), out);
  }

  /** The value on top of `config` is complete: pop it and advance its parent. */
  private finish(config: Stack, out: Map<number, Stack>): void {
    // a repeated container item closes into nothing (its array's other anyOf branches may still take it)
    if ((this.closingDuplicate & DUPLICATE_CONTAINER) !== 0 && isTrackedContainer(this.alternatives, config)) return;
    const parent = config.parent!;
    const frame = parent.frame;
    switch (frame.kind) {
      case Kind.Done:
        this.emitOnTop(parent, this.frames.documentFrame(DocumentPhase.After, 0), out);
        break;
      case Kind.Object:
        if (frame.phase === ObjectPhase.AdditionalKey) {
          const alternative = this.alternatives[frame.alternative] as ObjectAlternative;
          const next = this.frames.objectFrame(
            frame.alternative,
            ObjectPhase.Colon,
            classProperty(frame.keyNode),
            0,
            classWrittenAfter(alternative, frame.written, frame.keyNode),
            countAfter(alternative.progress, frame.propertyCount),
          );
          this.emitOnTop(parent, next, out);
        } else
          this.emitOnTop(parent, this.frames.objectFrame(frame.alternative, ObjectPhase.After, frame.property, 0, frame.written, frame.propertyCount), out);
        break;
      case Kind.Array: {
        const alternative = this.alternatives[frame.alternative] as ArrayAlternative;
        // beside remembered objects and arrays (`uniqueContainers`) the items that are no literal leave the set as it is
        const literal = config.frame.kind === Kind.Literal ? this.literalNodes.get(config.frame.literalNode)!.literals!.terminal[config.frame.trieNode]! : -1;
        const used = alternative.unique === null ? 0 : literal < 0 ? frame.used : frame.used | (1 << uniqueClassOf(alternative.unique, frame.items, literal));
        const contained = alternative.contains === null ? frame.contained : countsAfter(alternative.contains, frame.contained, frame.matching);
        this.emitOnTop(parent, this.frames.arrayFrame(frame.alternative, ArrayPhase.After, clampCount(alternative, frame.items + 1), 0, used, contained), out);
        break;
      }
      default:
        throw new Error('toolwright decoding: a value finished under a frame that holds no value');
    }
  }

  /** Pushes every alternative of `node` that fits the depth budget above `parent` (the document frame does not count). */
  private pushValue(parent: Stack, node: ValueNode, out: Map<number, Stack>): void {
    const room = this.options.maxDepth - (parent.depth - 1);
    for (const alternative of node.alternatives) {
      if (alternative.height > room) continue;
      let frame: Frame;
      switch (alternative.kind) {
        case 'object':
          frame = this.frames.objectFrame(alternative.id, ObjectPhase.Open, -1, 0);
          break;
        case 'array':
          frame = this.frames.arrayFrame(alternative.id, ArrayPhase.Open, 0, 0, 0);
          break;
        case 'string':
          frame = this.frames.stringFrame(alternative.id, StringMode.Open, alternative.dfa.start, 0, alternative.exclude === null ? -1 : 0);
          break;
        case 'number':
          frame = this.frames.numberFrame(alternative.id, 0);
          break;
      }
      this.emit(this.frames.stack(frame, parent), out);
    }
    if (node.literals !== null && room >= 1) this.emit(this.frames.stack(this.frames.literalFrame(node.id, 0), parent), out);
  }

  private enterDocument(document: Stack, whitespace: number, out: Map<number, Stack>): void {
    if (this.options.flexible && whitespace < this.options.maxWhitespace)
      this.emitOnTop(document, this.frames.documentFrame(DocumentPhase.Before, whitespace), out);
    this.pushValue(this.frames.replaceTop(document, this.frames.documentFrame(DocumentPhase.Value, 0)), this.root, out);
  }

  private enterPreValue(config: Stack, alternative: ObjectAlternative, index: number, whitespace: number, out: Map<number, Stack>): void {
    const { written, propertyCount } = config.frame;
    if (this.options.flexible && whitespace < this.options.maxWhitespace)
      this.emitOnTop(config, this.frames.objectFrame(alternative.id, ObjectPhase.PreValue, index, whitespace, written, propertyCount), out);
    const node = index <= -2 ? alternative.keyClasses[classOf(index)]!.value : alternative.properties[index]!.value;
    this.pushValue(this.frames.replaceTop(config, this.frames.objectFrame(alternative.id, ObjectPhase.Value, index, 0, written, propertyCount)), node, out);
  }

  private enterItem(config: Stack, alternative: ArrayAlternative, phase: ArrayPhase, count: number, whitespace: number, out: Map<number, Stack>): void {
    const canWait = this.options.flexible && whitespace < this.options.maxWhitespace;
    const { used, contained } = config.frame;
    if (canWait || (phase === ArrayPhase.First && arrayCanCloseEmpty(alternative))) {
      this.emitOnTop(config, this.frames.arrayFrame(alternative.id, phase, count, whitespace, used, contained), out);
    }
    if (count >= alternative.maxItems) return;
    const counting = alternative.contains;
    if (counting !== null) {
      // each cell of this position is pushed apart, so the item's close knows which counters it raises
      const room = this.room(config);
      for (const cell of containsCells(counting, count) ?? []) {
        if (cell.node.height > room || !containsCanClose(alternative, count + 1, countsAfter(counting, contained, cell.matches), room)) continue;
        this.pushValue(
          this.frames.replaceTop(config, this.frames.arrayFrame(alternative.id, ArrayPhase.Value, count, 0, used, contained, cell.matches)),
          cell.node,
          out,
        );
      }
      return;
    }
    const item = alternative.prefix[count] ?? alternative.items;
    if (uniqueDecidesItems(alternative) && !uniqueItemCanFollow(alternative, config.frame)) return;
    if (item !== null && item.height <= this.room(config)) {
      this.pushValue(this.frames.replaceTop(config, this.frames.arrayFrame(alternative.id, ArrayPhase.Value, count, 0, used)), item, out);
    }
  }

  // ---- object keys -----------------------------------------------------------------------

  /** Frames a value may still take below `config` (the document frame does not count). */
  private room(config: Stack): number {
    return this.options.maxDepth - (config.depth - 1);
  }

  /** True when some declared key below trie `node` may come next and fits. */
  private keyCandidate(config: Stack, alternative: ObjectAlternative, node: number): boolean {
    const { property, written, propertyCount } = config.frame;
    const room = this.room(config);
    for (const candidate of alternative.keyValues[node]!) {
      if (declaredAllowed(alternative, property, written, propertyCount, candidate, room)) return true;
    }
    return false;
  }

  private keyStart(config: Stack, alternative: ObjectAlternative, out: Map<number, Stack>): void {
    const { property, written, propertyCount } = config.frame;
    const quoteNode = alternative.keys.children[0]!.get(QUOTE);
    if (quoteNode !== undefined && this.keyCandidate(config, alternative, quoteNode)) {
      this.emitOnTop(config, this.frames.objectKeyFrame(alternative.id, property, quoteNode, written, propertyCount), out);
    }
    const room = this.room(config);
    alternative.keyClasses.forEach((keyClass, index) => {
      if (!classAllowed(alternative, property, written, propertyCount, index, room)) return;
      const parent = this.frames.replaceTop(
        config,
        this.frames.objectFrame(alternative.id, ObjectPhase.AdditionalKey, property, 0, written, propertyCount, index),
      );
      for (const key of keyClass.keys)
        this.emit(this.frames.stack(this.frames.stringFrame(key.id, StringMode.Boundary, key.dfa.start, 0, key.exclude === null ? -1 : 0), parent), out);
    });
  }

  private canContinue(config: Stack, alternative: ObjectAlternative): boolean {
    const { property, written, propertyCount } = config.frame;
    const quoteNode = alternative.keys.children[0]!.get(QUOTE);
    if (quoteNode !== undefined && this.keyCandidate(config, alternative, quoteNode)) return true;
    const room = this.room(config);
    return alternative.keyClasses.some((_, index) => classAllowed(alternative, property, written, propertyCount, index, room));
  }

  // ---- step ---------------------------------------------------------------------------------

  private step(config: Stack, byte: number, out: Map<number, Stack>): void {
    const frame = config.frame;
    switch (frame.kind) {
      case Kind.Done:
        if (WHITESPACE[byte] === 1 && this.options.flexible && frame.whitespace < this.options.maxWhitespace) {
          if (frame.phase === DocumentPhase.Before) this.enterDocument(config, frame.whitespace + 1, out);
          else if (frame.phase === DocumentPhase.After) this.emitOnTop(config, this.frames.documentFrame(DocumentPhase.After, frame.whitespace + 1), out);
        }
        return;
      case Kind.Literal: {
        const child = this.literalNodes.get(frame.literalNode)!.literals!.children[frame.trieNode]!.get(byte);
        if (child !== undefined && literalOpen(this.alternatives, config, child))
          this.emitOnTop(config, this.frames.literalFrame(frame.literalNode, child), out);
        return;
      }
      case Kind.Number: {
        const symbol = NUMBER_SYMBOL_OF_BYTE[byte]!;
        const alternative = this.alternatives[frame.alternative]!;
        if (alternative.kind !== 'number') return;
        const next = symbol < 0 ? -1 : alternative.automaton.next[frame.numberState * NUMBER_SYMBOLS + symbol]!;
        if (next >= 0) this.emitOnTop(config, this.frames.numberFrame(frame.alternative, next), out);
        else if (
          this.remembersNumbers &&
          alternative.automaton.accepting[frame.numberState] === 1 &&
          (this.closingDuplicate & DUPLICATE_NUMBER) === 0 &&
          isTrackedNumber(this.alternatives, config)
        ) {
          // a remembered integer ends here: its array takes the byte (computed once per transition, so the map is no per-token cost)
          const finished = new Map<number, Stack>();
          this.finish(config, finished);
          for (const after of finished.values()) this.step(after, byte, out);
        }
        return;
      }
      case Kind.String: {
        const next = this.strings.step(frame, this.alternatives[frame.alternative] as StringAlternative, byte);
        if (next === FINISHED) {
          if ((this.closingDuplicate & DUPLICATE_STRING) === 0 || !isTrackedItem(this.alternatives, config)) this.finish(config, out);
        } else if (next !== null) this.emitOnTop(config, next, out);
        return;
      }
      case Kind.Object:
        this.stepObject(config, this.alternatives[frame.alternative] as ObjectAlternative, byte, out);
        return;
      case Kind.Array:
        this.stepArray(config, this.alternatives[frame.alternative] as ArrayAlternative, byte, out);
        return;
    }
  }

  private stepObject(config: Stack, alternative: ObjectAlternative, byte: number, out: Map<number, Stack>): void {
    const frame = config.frame;
    const { written, propertyCount: count } = frame;
    const flexible = this.options.flexible;
    const wsOk = WHITESPACE[byte] === 1 && flexible && frame.whitespace < this.options.maxWhitespace;
    switch (frame.phase as ObjectPhase) {
      case ObjectPhase.Open:
        if (byte === OPEN_BRACE) this.emitOnTop(config, this.frames.objectFrame(alternative.id, ObjectPhase.First, -1, 0), out);
        return;
      case ObjectPhase.First:
      case ObjectPhase.Next:
        if (wsOk) this.emitOnTop(config, this.frames.objectFrame(alternative.id, frame.phase, frame.property, frame.whitespace + 1, written, count), out);
        else if (byte === QUOTE) this.keyStart(config, alternative, out);
        else if (byte === CLOSE_BRACE && frame.phase === ObjectPhase.First && objectCanClose(alternative, -1, 0, 0)) this.finish(config, out);
        return;
      case ObjectPhase.Key: {
        const child = alternative.keys.children[frame.keyNode]!.get(byte);
        if (child === undefined || !this.keyCandidate(config, alternative, child)) return;
        const property = alternative.keys.terminal[child]!;
        if (property >= 0) {
          const rules = alternative.progress;
          const next = this.frames.objectFrame(
            alternative.id,
            ObjectPhase.Colon,
            property,
            0,
            writtenAfter(rules, written, property),
            countAfter(rules, count),
          );
          this.emitOnTop(config, next, out);
        } else this.emitOnTop(config, this.frames.objectKeyFrame(alternative.id, frame.property, child, written, count), out);
        return;
      }
      case ObjectPhase.Colon:
        if (wsOk) this.emitOnTop(config, this.frames.objectFrame(alternative.id, ObjectPhase.Colon, frame.property, frame.whitespace + 1, written, count), out);
        else if (byte === COLON) this.enterPreValue(config, alternative, frame.property, 0, out);
        return;
      case ObjectPhase.PreValue:
        if (wsOk) this.enterPreValue(config, alternative, frame.property, frame.whitespace + 1, out);
        return;
      case ObjectPhase.After:
        if (wsOk) this.emitOnTop(config, this.frames.objectFrame(alternative.id, ObjectPhase.After, frame.property, frame.whitespace + 1, written, count), out);
        else if (byte === COMMA) {
          if (this.canContinue(config, alternative))
            this.emitOnTop(config, this.frames.objectFrame(alternative.id, ObjectPhase.Next, frame.property, 0, written, count), out);
        } else if (byte === CLOSE_BRACE && objectCanClose(alternative, frame.property, written, count)) this.finish(config, out);
        return;
      default:
        return;
    }
  }

  private stepArray(config: Stack, alternative: ArrayAlternative, byte: number, out: Map<number, Stack>): void {
    const frame = config.frame;
    const wsOk = WHITESPACE[byte] === 1 && this.options.flexible && frame.whitespace < this.options.maxWhitespace;
    switch (frame.phase as ArrayPhase) {
      case ArrayPhase.Open:
        if (byte === OPEN_BRACKET) this.enterItem(config, alternative, ArrayPhase.First, 0, 0, out);
        return;
      case ArrayPhase.First:
      case ArrayPhase.Next:
        if (wsOk) this.enterItem(config, alternative, frame.phase, frame.items, frame.whitespace + 1, out);
        else if (byte === CLOSE_BRACKET && frame.phase === ArrayPhase.First && arrayCanCloseEmpty(alternative)) this.finish(config, out);
        return;
      case ArrayPhase.After: {
        if (wsOk)
          this.emitOnTop(config, this.frames.arrayFrame(alternative.id, ArrayPhase.After, frame.items, frame.whitespace + 1, frame.used, frame.contained), out);
        else if (byte === COMMA) {
          if (itemCanFollow(alternative, frame, this.room(config))) this.enterItem(config, alternative, ArrayPhase.Next, frame.items, 0, out);
        } else if (byte === CLOSE_BRACKET && arrayCanClose(alternative, frame)) this.finish(config, out);
        return;
      }
      default:
        return;
    }
  }
}
