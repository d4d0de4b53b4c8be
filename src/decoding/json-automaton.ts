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
import { normalizeSet } from '../shared/regex/code-point-set.js';
import { DecodingLimitError } from './decoding-errors.js';
import type { GrammarCache, LoopClass } from './grammar-cache.js';
import { containsCanClose, containsCells, containsSatisfied, countsAfter, uniqueCanClose, uniqueSatisfied } from './array-contains.js';
import type { Alternative, ArrayAlternative, ObjectAlternative, StringAlternative, ValueNode } from './grammar-ir.js';
import { NUMBER_SYMBOL_OF_BYTE, NUMBER_SYMBOLS } from './number-language.js';
import { classAllowed, classOf, classProperty, countAfter, declaredAllowed, objectCanClose, writtenAfter } from './object-progress.js';

/** Transition not computed yet. */
export const UNKNOWN = -2;
/** No configuration survives the byte. */
export const DEAD = -1;
/** `kRem` when the string has no length budget to respect. */
export const UNBOUNDED = 0x3fffffff;

const enum Kind {
  Done = 0,
  Object = 1,
  Array = 2,
  String = 3,
  Number = 4,
  Literal = 5,
}

const enum DocumentPhase {
  Before = 0,
  Value = 1,
  After = 2,
}

const enum ObjectPhase {
  Open = 0,
  First = 1,
  Next = 2,
  Key = 3,
  AdditionalKey = 4,
  Colon = 5,
  Value = 6,
  After = 7,
  PreValue = 8,
}

const enum ArrayPhase {
  Open = 0,
  First = 1,
  Value = 2,
  After = 3,
  Next = 4,
}

const enum StringMode {
  Open = 0,
  Boundary = 1,
  /** Inside a UTF-8 sequence (`sequenceValue`, `sequenceLeft`, `sequenceLength`). */
  Utf8 = 2,
  /** Inside a UTF-8 sequence whose code point is known to lead to `dfaState`; `sequenceLeft` bytes to go. */
  Utf8To = 3,
  Escape = 4,
  /** Inside `\uXXXX` (`sequenceValue` so far, `sequenceLeft` hex digits to go). */
  UnicodeEscape = 5,
  /** Inside `\uXXXX` (flexible layout) whose code point is known to lead to `dfaState`; `sequenceLeft` hex digits to go. */
  UnicodeEscapeTo = 6,
}

/** `count` of a string whose length no longer matters (the mask abstraction's stand-in). */
const FREE = -1;

/**
 * One parser frame. Every frame has every field (one object shape keeps the transition
 * code monomorphic); a field a kind does not use is 0.
 */
interface Frame {
  readonly id: number;
  readonly kind: Kind;
  /** Object, array, string, number: the id of the alternative being parsed. */
  readonly alternative: number;
  /** Literal: the id of the value node whose enum/const texts are being matched. */
  readonly literalNode: number;
  /** Document: `DocumentPhase`; object: `ObjectPhase`; array: `ArrayPhase`; string: `StringMode`. */
  readonly phase: number;
  /** Document, object (outside a key), array: whitespace characters read in a row (flexible layout). */
  readonly whitespace: number;
  /** Object: index of the last property written (-1 before the first, `classProperty(c)` after a key of class c). */
  readonly property: number;
  /** Object in `ObjectPhase.Key`: node of the declared-keys trie reached so far; in `AdditionalKey`: the key class. */
  readonly keyNode: number;
  /** Object whose rules track it: bitset of the declared properties written. */
  readonly written: number;
  /** Object: properties written (clamped at the rules' `countCap`). */
  readonly propertyCount: number;
  /** Array: items written so far (clamped once no rule tells larger counts apart). */
  readonly items: number;
  /** Array with `uniqueItems`: bit set of the value classes written so far. */
  readonly used: number;
  /** Array with `contains`: the counts of items written so far that match each schema, as one code (see `ContainsCounting`). */
  readonly contained: number;
  /** Array with `contains`, in `ArrayPhase.Value`: bit i set when the item being written matches `contains` schema i. */
  readonly matching: number;
  /** Literal: node of the literal-text trie reached so far. */
  readonly trieNode: number;
  /** Number: state of the number automaton. */
  readonly numberState: number;
  /** String: state of the content DFA. */
  readonly dfaState: number;
  /** String: code points counted so far (`FREE` once the length no longer matters). */
  readonly count: number;
  /** String that must not equal a declared key: node of the excluded-keys trie (-1: none can match any more). */
  readonly exclusion: number;
  /** String inside a UTF-8 sequence or `\uXXXX` escape: the code point's bits read so far. */
  readonly sequenceValue: number;
  /** String inside a UTF-8 sequence or `\uXXXX` escape: bytes or hex digits still to read. */
  readonly sequenceLeft: number;
  /** String inside a UTF-8 sequence (`StringMode.Utf8`): its total length in bytes (for the overlong check). */
  readonly sequenceLength: number;
}

type FrameFields = Omit<Frame, 'id'>;

const BLANK_FRAME: FrameFields = {
  kind: 0,
  alternative: 0,
  literalNode: 0,
  phase: 0,
  whitespace: 0,
  property: 0,
  keyNode: 0,
  written: 0,
  propertyCount: 0,
  items: 0,
  used: 0,
  contained: 0,
  matching: 0,
  trieNode: 0,
  numberState: 0,
  dfaState: 0,
  count: 0,
  exclusion: 0,
  sequenceValue: 0,
  sequenceLeft: 0,
  sequenceLength: 0,
};

interface Stack {
  readonly id: number;
  readonly frame: Frame;
  readonly parent: Stack | null;
  readonly depth: number;
}

const WHITESPACE = new Uint8Array(256);
WHITESPACE[0x20] = 1;
WHITESPACE[0x09] = 1;
WHITESPACE[0x0a] = 1;
WHITESPACE[0x0d] = 1;

const SHORT_ESCAPES = new Map<number, number>([
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
]);
/** Code points JSON.stringify writes as `\u00xx` (lowercase): controls without a short escape. */
const CANONICAL_UNICODE_ESCAPES: readonly number[] = [0x00, 0x07, 0x0b, 0x0b, 0x0e, 0x1f];
const UTF8_MIN = [0, 0, 0x80, 0x800, 0x10000];
const UTF8_MAX = [0, 0x7f, 0x7ff, 0xffff, 0x10ffff];

/** Facts about a string alternative's automaton that decide when length-bounded states may share a mask. */
interface LengthAnalysis {
  /** From every state, completions exist at every length from the shortest one up. */
  readonly upward: boolean;
  /** Longest shortest-completion over the states. */
  readonly maxDistance: number;
  /** No reachable (state, count) within maxLength is ever dead for lack of room. */
  readonly roomy: boolean;
  /** Most code points of this string's alphabet a single token can carry (vocabulary-specific). */
  readonly tokenSpan: number;
}

export interface AutomatonOptions {
  /** Accept bounded whitespace between tokens and `\/`, `\uXXXX` escapes. */
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
  stateCount = 0;
  /** The start state. */
  readonly start: number;

  private readonly options: AutomatonOptions;
  private readonly alternatives: Alternative[] = [];
  private readonly literalNodes = new Map<number, ValueNode>();
  private readonly frames = new Map<string, Frame>();
  private readonly stacks = new Map<string, Stack>();
  private readonly states = new Map<string, number>();
  private readonly stateConfigs: Stack[][] = [];
  private readonly finishCache = new Map<string, boolean>();
  private readonly analyses = new Map<number, LengthAnalysis>();
  /** Reused by `transition` (never re-entered): most bytes lead nowhere and should cost no allocation. */
  private readonly scratch = new Map<number, Stack>();
  private readonly candidates = new Uint8Array(256);
  private readonly root: ValueNode;
  private frameCount = 0;
  private stackCount = 0;

  constructor(root: ValueNode, nodes: readonly ValueNode[], options: AutomatonOptions) {
    this.root = root;
    this.options = options;
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
    const out = new Map<number, Stack>();
    const document = this.stack(this.documentFrame(DocumentPhase.Before, 0), null);
    this.enterDocument(document, 0, out);
    this.start = out.size === 0 ? DEAD : this.intern([...out.values()]);
  }

  /**
   * For each patterned string alternative, automaton states standing at each of its DFA
   * states (character boundary, no length count), in breadth-first order: the positions
   * whose content masks are worth computing at compile time. The parent frame is the
   * document's; a content walk never closes the string, so it is never consulted.
   */
  *patternPositions(): Generator<number> {
    // lazily: the caller stops at its time budget, and a time format's DFA has thousands of states
    const seen = new Set<number>();
    const document = this.stack(this.documentFrame(DocumentPhase.Value, 0), null);
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
      for (const state of order) yield this.intern([this.stack(this.stringFrame(alternative.id, StringMode.Boundary, state, count, -1), document)]);
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
    return this.stackCount;
  }

  /** Computes (and records) the transition of `state` on `byte`. */
  transition(state: number, byte: number): number {
    const cached = this.trans[state * 256 + byte]!;
    if (cached !== UNKNOWN) return cached;
    const out = this.scratch;
    out.clear();
    for (const config of this.stateConfigs[state]!) this.step(config, byte, out);
    const target = out.size === 0 ? DEAD : this.intern([...out.values()]);
    // intern may have grown the table
    this.trans[state * 256 + byte] = target;
    return target;
  }

  /**
   * Whether some configuration of `state` has written its objects' declared properties as a
   * prefix of their declared order so far (the bitset of written properties is 2^k − 1).
   * Under
   * `propertyOrder: 'any'` the compile-time look-ahead visits these states first: models
   * mostly write keys in the order a schema lists them, and the other orders multiply states.
   */
  inDeclaredOrder(state: number): boolean {
    for (const config of this.stateConfigs[state]!) {
      let ordered = true;
      for (let at: Stack | null = config; at !== null && ordered; at = at.parent) {
        const written = at.frame.written;
        if (at.frame.kind === Kind.Object && (written & (written + 1)) !== 0) ordered = false;
      }
      if (ordered) return true;
    }
    return false;
  }

  /** Human-readable description of a state's configurations (debugging). */
  describe(state: number): string {
    return this.stateConfigs[state]!.map((config) => {
      const parts: string[] = [];
      for (let at: Stack | null = config; at !== null; at = at.parent) {
        const frame = at.frame;
        parts.push(`${['Done', 'Obj', 'Arr', 'Str', 'Num', 'Lit'][frame.kind]}(${describeFrame(frame)})`);
      }
      return parts.reverse().join(' > ');
    }).join(' | ');
  }

  // ---- interning ----------------------------------------------------------------------

  private documentFrame(phase: DocumentPhase, whitespace: number): Frame {
    return this.frames.get(`D${phase},${whitespace}`) ?? this.addFrame(`D${phase},${whitespace}`, { ...BLANK_FRAME, kind: Kind.Done, phase, whitespace });
  }

  private literalFrame(literalNode: number, trieNode: number): Frame {
    const key = `L${literalNode},${trieNode}`;
    return this.frames.get(key) ?? this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Literal, literalNode, trieNode });
  }

  private numberFrame(alternative: number, numberState: number): Frame {
    const key = `N${alternative},${numberState}`;
    return this.frames.get(key) ?? this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Number, alternative, numberState });
  }

  private objectFrame(alternative: number, phase: ObjectPhase, property: number, whitespace: number, written = 0, propertyCount = 0, keyNode = 0): Frame {
    const key = `O${alternative},${phase},${property},${whitespace},${written},${propertyCount},${keyNode}`;
    return (
      this.frames.get(key) ??
      this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Object, alternative, phase, property, whitespace, written, propertyCount, keyNode })
    );
  }

  private objectKeyFrame(alternative: number, property: number, keyNode: number, written: number, propertyCount: number): Frame {
    const key = `K${alternative},${property},${keyNode},${written},${propertyCount}`;
    return (
      this.frames.get(key) ??
      this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Object, alternative, phase: ObjectPhase.Key, property, keyNode, written, propertyCount })
    );
  }

  private arrayFrame(alternative: number, phase: ArrayPhase, items: number, whitespace: number, used: number, contained = 0, matching = 0): Frame {
    const key = `A${alternative},${phase},${items},${whitespace},${used},${contained},${matching}`;
    return this.frames.get(key) ?? this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Array, alternative, phase, items, whitespace, used, contained, matching });
  }

  private stringFrame(
    alternative: number,
    mode: StringMode,
    dfaState: number,
    count: number,
    exclusion: number,
    sequenceValue = 0,
    sequenceLeft = 0,
    sequenceLength = 0,
  ): Frame {
    const key = `S${alternative},${mode},${dfaState},${count},${exclusion},${sequenceValue},${sequenceLeft},${sequenceLength}`;
    const known = this.frames.get(key);
    if (known !== undefined) return known;
    return this.addFrame(key, {
      ...BLANK_FRAME,
      kind: Kind.String,
      alternative,
      phase: mode,
      dfaState,
      count,
      exclusion,
      sequenceValue,
      sequenceLeft,
      sequenceLength,
    });
  }

  private addFrame(key: string, fields: FrameFields): Frame {
    const frame: Frame = { id: this.frameCount++, ...fields };
    this.frames.set(key, frame);
    return frame;
  }

  private stack(frame: Frame, parent: Stack | null): Stack {
    const key = `${frame.id}:${parent === null ? -1 : parent.id}`;
    let stack = this.stacks.get(key);
    if (stack === undefined) {
      stack = { id: this.stackCount++, frame, parent, depth: parent === null ? 1 : parent.depth + 1 };
      this.stacks.set(key, stack);
    }
    return stack;
  }

  private replaceTop(stack: Stack, frame: Frame): Stack {
    return this.stack(frame, stack.parent);
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
    this.contentKey.push(undefined);
    this.loopClass.push(undefined);
    this.abstractLength(id, configs);
    this.prefillDeadBytes(id, configs);
    if (configs.length === 1) {
      const frame = configs[0]!.frame;
      const mode = frame.phase as StringMode;
      if (frame.kind === Kind.String && (mode === StringMode.Boundary || mode === StringMode.Utf8 || mode === StringMode.Utf8To)) {
        const alternative = this.alternatives[frame.alternative] as StringAlternative;
        const uncounted = frame.count === FREE || !isCounted(alternative);
        if (uncounted && alternative.free && mode === StringMode.Boundary) this.plainString[id] = 1;
        else if (uncounted && alternative.exclude === null) {
          this.contentKey[id] =
            `${alternative.dfa.id}|${this.options.flexible ? 'f' : 'c'}|${mode}|${frame.dfaState}|${frame.sequenceValue}|${frame.sequenceLeft}|${frame.sequenceLength}`;
        }
        if (uncounted && alternative.exclude === null && mode === StringMode.Boundary)
          this.loopClass[id] = this.options.cache.loopClasses(alternative.dfa).byState[frame.dfaState];
      }
    }
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
      if (!this.markCandidates(config.frame, candidates)) return;
    }
    const row = id * 256;
    for (let byte = 0; byte < 256; byte++) if (candidates[byte] === 0) this.trans[row + byte] = DEAD;
  }

  /** Sets the bytes `frame` might consume; false when that is too many to be worth listing. */
  private markCandidates(frame: Frame, candidates: Uint8Array): boolean {
    // whitespace is a candidate for every frame in the flexible layout (over-approximation is
    // safe); only ever set bits here, since several configurations share `candidates`
    if (this.options.flexible) {
      candidates[0x20] = 1;
      candidates[0x09] = 1;
      candidates[0x0a] = 1;
      candidates[0x0d] = 1;
    }
    switch (frame.kind) {
      case Kind.Done:
        return true;
      case Kind.Literal:
        for (const byte of this.literalNodes.get(frame.literalNode)!.literals!.children[frame.trieNode]!.keys()) candidates[byte] = 1;
        return true;
      case Kind.Number:
        for (let byte = 0x2b; byte <= 0x65; byte++) if (NUMBER_SYMBOL_OF_BYTE[byte]! >= 0) candidates[byte] = 1;
        candidates[0x45] = 1;
        return true;
      case Kind.Object: {
        const alternative = this.alternatives[frame.alternative] as ObjectAlternative;
        switch (frame.phase as ObjectPhase) {
          case ObjectPhase.Open:
            candidates[0x7b] = 1;
            return true;
          case ObjectPhase.First:
          case ObjectPhase.Next:
            candidates[0x22] = 1;
            candidates[0x7d] = 1;
            return true;
          case ObjectPhase.Key:
            for (const byte of alternative.keys.children[frame.keyNode]!.keys()) candidates[byte] = 1;
            return true;
          case ObjectPhase.Colon:
            candidates[0x3a] = 1;
            return true;
          case ObjectPhase.PreValue:
            return true;
          case ObjectPhase.After:
            candidates[0x2c] = 1;
            candidates[0x7d] = 1;
            return true;
          default:
            return true;
        }
      }
      case Kind.Array:
        switch (frame.phase as ArrayPhase) {
          case ArrayPhase.Open:
            candidates[0x5b] = 1;
            return true;
          case ArrayPhase.First:
          case ArrayPhase.Next:
            candidates[0x5d] = 1;
            return true;
          case ArrayPhase.After:
            candidates[0x2c] = 1;
            candidates[0x5d] = 1;
            return true;
          default:
            return true;
        }
      case Kind.String: {
        const mode = frame.phase as StringMode;
        if (mode === StringMode.Open) {
          candidates[0x22] = 1;
          return true;
        }
        if (mode === StringMode.Utf8 || mode === StringMode.Utf8To) {
          for (let byte = 0x80; byte <= 0xbf; byte++) candidates[byte] = 1;
          return true;
        }
        if (mode === StringMode.Escape) {
          for (const byte of SHORT_ESCAPES.keys()) candidates[byte] = 1;
          candidates[0x75] = 1;
          candidates[0x2f] = 1;
          return true;
        }
        if (mode === StringMode.UnicodeEscape || mode === StringMode.UnicodeEscapeTo) {
          for (const byte of '0123456789abcdefABCDEF') candidates[byte.charCodeAt(0)] = 1;
          return true;
        }
        // string body: ASCII the DFA can take, quote, backslash, and lead bytes if it takes anything beyond ASCII
        const alternative = this.alternatives[frame.alternative] as StringAlternative;
        const ranges = alternative.dfa.transitions[frame.dfaState]!;
        candidates[0x22] = 1;
        candidates[0x5c] = 1;
        for (let index = 0; index < ranges.length; index += 3) {
          const lo = ranges[index]!;
          const hi = ranges[index + 1]!;
          for (let byte = Math.max(lo, 0x20); byte <= Math.min(hi, 0x7f); byte++) candidates[byte] = 1;
          if (hi >= 0x80) for (let byte = 0xc2; byte <= 0xf4; byte++) candidates[byte] = 1;
        }
        return true;
      }
    }
  }

  private grow(needed: number): void {
    const capacity = this.accepting.length;
    if (needed <= capacity) return;
    const next = Math.max(needed, capacity * 2);
    const trans = new Int32Array(next * 256).fill(UNKNOWN);
    trans.set(this.trans);
    this.trans = trans;
    const widen = <T extends Uint8Array | Int32Array | Int16Array>(array: T, make: (size: number) => T, fill?: number): T => {
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
  }

  /**
   * A lone length-bounded free string differs from its unbounded twin only by how many
   * code points a token may add before the closing quote: its mask is the twin's,
   * intersected with per-vocabulary length masks. So masks are computed once per string
   * position in the schema, not once per length.
   */
  private abstractLength(id: number, configs: Stack[]): void {
    if (configs.length !== 1) return;
    const config = configs[0]!;
    const frame = config.frame;
    if (frame.kind !== Kind.String || frame.count === FREE) return;
    const alternative = this.alternatives[frame.alternative] as StringAlternative;
    if (alternative.exclude !== null || !isCounted(alternative)) return;
    if (frame.phase !== StringMode.Boundary && frame.phase !== StringMode.Utf8 && frame.phase !== StringMode.Utf8To) return;
    const pending = frame.phase === StringMode.Boundary ? 0 : 1;
    const used = frame.count + pending;
    if (!alternative.free) {
      // exact only when the count can never make a state dead that the unbounded twin keeps
      const analysis = this.analysis(alternative);
      if (!analysis.upward) return;
      if (!analysis.roomy && used + analysis.tokenSpan + analysis.maxDistance > alternative.maxLength) return;
    }
    this.kRem[id] = alternative.maxLength === Infinity ? UNBOUNDED : alternative.maxLength - used;
    this.rNeed[id] = Math.max(0, alternative.minLength - used);
    const twin = this.stringFrame(
      frame.alternative,
      frame.phase,
      frame.dfaState,
      FREE,
      frame.exclusion,
      frame.sequenceValue,
      frame.sequenceLeft,
      frame.sequenceLength,
    );
    this.maskBase[id] = this.intern([this.replaceTop(config, twin)]);
  }

  private analysis(alternative: StringAlternative): LengthAnalysis {
    let analysis = this.analyses.get(alternative.id);
    if (analysis !== undefined) return analysis;
    const dfa = alternative.dfa;
    const count = dfa.stateCount;
    const reverse: number[][] = Array.from({ length: count }, () => []);
    const alphabet: number[] = [];
    for (let state = 0; state < count; state++) {
      const ranges = dfa.transitions[state]!;
      for (let index = 0; index < ranges.length; index += 3) {
        reverse[ranges[index + 2]!]!.push(state);
        alphabet.push(ranges[index]!, ranges[index + 1]!);
      }
    }
    const distances = (targets: Uint8Array): Int32Array => {
      const distance = new Int32Array(count).fill(-1);
      const queue: number[] = [];
      for (let state = 0; state < count; state++) {
        if (targets[state] === 1) {
          distance[state] = 0;
          queue.push(state);
        }
      }
      for (let head = 0; head < queue.length; head++) {
        for (const from of reverse[queue[head]!]!) {
          if (distance[from] === -1) {
            distance[from] = distance[queue[head]!]! + 1;
            queue.push(from);
          }
        }
      }
      return distance;
    };
    const toAccept = distances(dfa.accepting);
    // padded[q]: completions from q exist at every length from toAccept[q] up (least fixpoint,
    // seeded by accepting states that loop on themselves)
    const padded = new Uint8Array(count);
    for (let changed = true; changed;) {
      changed = false;
      for (let state = 0; state < count; state++) {
        if (padded[state] === 1) continue;
        const wanted = Math.max(0, toAccept[state]! - 1);
        const ranges = dfa.transitions[state]!;
        for (let index = 2; index < ranges.length; index += 3) {
          const target = ranges[index]!;
          const loops = target === state && dfa.accepting[state] === 1;
          if (loops || (padded[target] === 1 && toAccept[target] === wanted && (toAccept[state]! > 0 || toAccept[target] === 0))) {
            padded[state] = 1;
            changed = true;
            break;
          }
        }
      }
    }
    let upward = true;
    let maxDistance = 0;
    for (let state = 0; state < count; state++) {
      if (padded[state] === 0) upward = false;
      maxDistance = Math.max(maxDistance, toAccept[state]!);
    }
    let roomy = upward;
    if (roomy && alternative.maxLength !== Infinity) {
      if (count * (alternative.maxLength + 1) > 2_000_000) roomy = false;
      else {
        // every (state, count) reachable within maxLength must still have room to finish
        let frontier = new Set([dfa.start]);
        for (let used = 0; used <= alternative.maxLength && roomy && frontier.size > 0; used++) {
          const next = new Set<number>();
          for (const state of frontier) {
            if (used + toAccept[state]! > alternative.maxLength) roomy = false;
            const ranges = dfa.transitions[state]!;
            for (let index = 2; index < ranges.length; index += 3) next.add(ranges[index]!);
          }
          frontier = next;
        }
      }
    }
    const tokenSpan = roomy || !upward ? 0 : this.options.tokenSpan(normalizeSet(alphabet));
    analysis = { upward, maxDistance, roomy, tokenSpan };
    this.analyses.set(alternative.id, analysis);
    return analysis;
  }

  // ---- closure helpers -------------------------------------------------------------------

  private emit(config: Stack, out: Map<number, Stack>): void {
    if (out.has(config.id)) return;
    out.set(config.id, config);
    const frame = config.frame;
    let complete = false;
    if (frame.kind === Kind.Number) {
      const alternative = this.alternatives[frame.alternative]!;
      complete = alternative.kind === 'number' && alternative.automaton.accepting[frame.numberState] === 1;
    } else if (frame.kind === Kind.Literal) {
      const value = this.literalNodes.get(frame.literalNode)!.literals!.terminal[frame.trieNode]!;
      complete = value >= 0 && !this.usedBefore(config, value);
    }
    if (complete) this.finish(config, out);
  }

  /** The `uniqueItems` array under the literal on top of `config`, or null (such arrays hold literals only). */
  private uniqueParent(config: Stack): ArrayAlternative | null {
    const parent = config.parent?.frame;
    if (parent?.kind !== Kind.Array) return null;
    const alternative = this.alternatives[parent.alternative] as ArrayAlternative;
    return alternative.unique === null ? null : alternative;
  }

  /** True when the value class may come next in the array frame: not written yet and, with `contains`, the array can still close after it. */
  private classAllowed(alternative: ArrayAlternative, frame: Frame, valueClass: number): boolean {
    const bit = 1 << valueClass;
    if ((frame.used & bit) !== 0) return false;
    return alternative.unique!.contains === null || uniqueCanClose(alternative, frame.used | bit, frame.items + 1);
  }

  /** True when literal `value` cannot be the next item of its `uniqueItems` array: already held (JSON equality), or no way to close after it. */
  private usedBefore(config: Stack, value: number): boolean {
    const alternative = this.uniqueParent(config);
    return alternative !== null && !this.classAllowed(alternative, config.parent!.frame, alternative.unique!.classOf[value]!);
  }

  /** True when some literal below trie node `child` may still be the next item of the `uniqueItems` array above (if any). */
  private literalOpen(config: Stack, child: number): boolean {
    const alternative = this.uniqueParent(config);
    if (alternative === null) return true;
    const unique = alternative.unique!;
    const frame = config.parent!.frame;
    return unique.subtreeValues[child]!.some((value) => this.classAllowed(alternative, frame, unique.classOf[value]!));
  }

  /** A `uniqueItems` array with `contains`: true when some value class may come next. */
  private uniqueItemCanFollow(alternative: ArrayAlternative, frame: Frame): boolean {
    for (let valueClass = 0; valueClass < alternative.unique!.classes; valueClass++) if (this.classAllowed(alternative, frame, valueClass)) return true;
    return false;
  }

  /** The value on top of `config` is complete: pop it and advance its parent. */
  private finish(config: Stack, out: Map<number, Stack>): void {
    const parent = config.parent!;
    const frame = parent.frame;
    switch (frame.kind) {
      case Kind.Done:
        this.emit(this.replaceTop(parent, this.documentFrame(DocumentPhase.After, 0)), out);
        break;
      case Kind.Object:
        if (frame.phase === ObjectPhase.AdditionalKey) {
          const rules = (this.alternatives[frame.alternative] as ObjectAlternative).progress;
          const next = this.objectFrame(
            frame.alternative,
            ObjectPhase.Colon,
            classProperty(frame.keyNode),
            0,
            frame.written,
            countAfter(rules, frame.propertyCount),
          );
          this.emit(this.replaceTop(parent, next), out);
        } else
          this.emit(
            this.replaceTop(parent, this.objectFrame(frame.alternative, ObjectPhase.After, frame.property, 0, frame.written, frame.propertyCount)),
            out,
          );
        break;
      case Kind.Array: {
        const alternative = this.alternatives[frame.alternative] as ArrayAlternative;
        const used =
          alternative.unique === null
            ? 0
            : frame.used | (1 << alternative.unique.classOf[this.literalNodes.get(config.frame.literalNode)!.literals!.terminal[config.frame.trieNode]!]!);
        const contained = alternative.contains === null ? frame.contained : countsAfter(alternative.contains, frame.contained, frame.matching);
        this.emit(
          this.replaceTop(parent, this.arrayFrame(frame.alternative, ArrayPhase.After, clampCount(alternative, frame.items + 1), 0, used, contained)),
          out,
        );
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
          frame = this.objectFrame(alternative.id, ObjectPhase.Open, -1, 0);
          break;
        case 'array':
          frame = this.arrayFrame(alternative.id, ArrayPhase.Open, 0, 0, 0);
          break;
        case 'string':
          frame = this.stringFrame(alternative.id, StringMode.Open, alternative.dfa.start, 0, alternative.exclude === null ? -1 : 0);
          break;
        case 'number':
          frame = this.numberFrame(alternative.id, 0);
          break;
      }
      this.emit(this.stack(frame, parent), out);
    }
    if (node.literals !== null && room >= 1) this.emit(this.stack(this.literalFrame(node.id, 0), parent), out);
  }

  private fits(parentDepth: number, node: ValueNode | null): boolean {
    return node !== null && node.height <= this.options.maxDepth - (parentDepth - 1);
  }

  private enterDocument(document: Stack, whitespace: number, out: Map<number, Stack>): void {
    if (this.options.flexible && whitespace < this.options.maxWhitespace)
      this.emit(this.replaceTop(document, this.documentFrame(DocumentPhase.Before, whitespace)), out);
    this.pushValue(this.replaceTop(document, this.documentFrame(DocumentPhase.Value, 0)), this.root, out);
  }

  private enterPreValue(config: Stack, alternative: ObjectAlternative, index: number, whitespace: number, out: Map<number, Stack>): void {
    const { written, propertyCount } = config.frame;
    if (this.options.flexible && whitespace < this.options.maxWhitespace)
      this.emit(this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.PreValue, index, whitespace, written, propertyCount)), out);
    const node = index <= -2 ? alternative.keyClasses[classOf(index)]!.value : alternative.properties[index]!.value;
    this.pushValue(this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.Value, index, 0, written, propertyCount)), node, out);
  }

  private enterItem(config: Stack, alternative: ArrayAlternative, phase: ArrayPhase, count: number, whitespace: number, out: Map<number, Stack>): void {
    const canWait = this.options.flexible && whitespace < this.options.maxWhitespace;
    const { used, contained } = config.frame;
    if (canWait || (phase === ArrayPhase.First && this.arrayCanCloseEmpty(alternative))) {
      this.emit(this.replaceTop(config, this.arrayFrame(alternative.id, phase, count, whitespace, used, contained)), out);
    }
    if (count >= alternative.maxItems) return;
    const counting = alternative.contains;
    if (counting !== null) {
      // each cell of this position is pushed apart, so the item's close knows which counters it raises
      const room = this.room(config);
      for (const cell of containsCells(counting, count) ?? []) {
        if (cell.node.height > room || !containsCanClose(alternative, count + 1, countsAfter(counting, contained, cell.matches), room)) continue;
        this.pushValue(this.replaceTop(config, this.arrayFrame(alternative.id, ArrayPhase.Value, count, 0, used, contained, cell.matches)), cell.node, out);
      }
      return;
    }
    const item = alternative.prefix[count] ?? alternative.items;
    if (alternative.unique?.contains != null && !this.uniqueItemCanFollow(alternative, config.frame)) return;
    if (item !== null && this.fits(config.depth, item)) {
      this.pushValue(this.replaceTop(config, this.arrayFrame(alternative.id, ArrayPhase.Value, count, 0, used)), item, out);
    }
  }

  private arrayCanCloseEmpty(alternative: ArrayAlternative): boolean {
    if (alternative.unique?.contains != null) return uniqueSatisfied(alternative, 0, 0);
    return alternative.contains === null ? alternative.minItems === 0 : containsSatisfied(alternative, 0, 0);
  }

  private arrayCanClose(alternative: ArrayAlternative, frame: Frame): boolean {
    if (alternative.unique?.contains != null) return uniqueSatisfied(alternative, frame.used, frame.items);
    return alternative.contains === null ? frame.items >= alternative.minItems : containsSatisfied(alternative, frame.items, frame.contained);
  }

  /** True when some item may come at the frame's position and the array can still close after it. */
  private itemCanFollow(config: Stack, alternative: ArrayAlternative): boolean {
    const { items, contained } = config.frame;
    if (items >= alternative.maxItems) return false;
    const counting = alternative.contains;
    if (counting === null) {
      const item = alternative.prefix[items] ?? alternative.items;
      if (alternative.unique?.contains != null && !this.uniqueItemCanFollow(alternative, config.frame)) return false;
      return item !== null && this.fits(config.depth, item);
    }
    const room = this.room(config);
    return (containsCells(counting, items) ?? []).some(
      (cell) => cell.node.height <= room && containsCanClose(alternative, items + 1, countsAfter(counting, contained, cell.matches), room),
    );
  }

  // ---- object keys -----------------------------------------------------------------------

  /** Frames a property value may still take below `config` (as `fits` counts). */
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
    const quoteNode = alternative.keys.children[0]!.get(0x22);
    if (quoteNode !== undefined && this.keyCandidate(config, alternative, quoteNode)) {
      this.emit(this.replaceTop(config, this.objectKeyFrame(alternative.id, property, quoteNode, written, propertyCount)), out);
    }
    const room = this.room(config);
    alternative.keyClasses.forEach((keyClass, index) => {
      if (!classAllowed(alternative, property, written, propertyCount, index, room)) return;
      const parent = this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.AdditionalKey, property, 0, written, propertyCount, index));
      for (const key of keyClass.keys)
        this.emit(this.stack(this.stringFrame(key.id, StringMode.Boundary, key.dfa.start, 0, key.exclude === null ? -1 : 0), parent), out);
    });
  }

  private canContinue(config: Stack, alternative: ObjectAlternative): boolean {
    const { property, written, propertyCount } = config.frame;
    const quoteNode = alternative.keys.children[0]!.get(0x22);
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
          else if (frame.phase === DocumentPhase.After) this.emit(this.replaceTop(config, this.documentFrame(DocumentPhase.After, frame.whitespace + 1)), out);
        }
        return;
      case Kind.Literal: {
        const child = this.literalNodes.get(frame.literalNode)!.literals!.children[frame.trieNode]!.get(byte);
        if (child !== undefined && this.literalOpen(config, child)) this.emit(this.replaceTop(config, this.literalFrame(frame.literalNode, child)), out);
        return;
      }
      case Kind.Number: {
        const symbol = NUMBER_SYMBOL_OF_BYTE[byte]!;
        if (symbol < 0) return;
        const alternative = this.alternatives[frame.alternative]!;
        if (alternative.kind !== 'number') return;
        const next = alternative.automaton.next[frame.numberState * NUMBER_SYMBOLS + symbol]!;
        if (next >= 0) this.emit(this.replaceTop(config, this.numberFrame(frame.alternative, next)), out);
        return;
      }
      case Kind.String:
        this.stepString(config, this.alternatives[frame.alternative] as StringAlternative, byte, out);
        return;
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
        if (byte === 0x7b) this.emit(this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.First, -1, 0)), out);
        return;
      case ObjectPhase.First:
      case ObjectPhase.Next:
        if (wsOk) this.emit(this.replaceTop(config, this.objectFrame(alternative.id, frame.phase, frame.property, frame.whitespace + 1, written, count)), out);
        else if (byte === 0x22) this.keyStart(config, alternative, out);
        else if (byte === 0x7d && frame.phase === ObjectPhase.First && objectCanClose(alternative, -1, 0, 0)) this.finish(config, out);
        return;
      case ObjectPhase.Key: {
        const child = alternative.keys.children[frame.keyNode]!.get(byte);
        if (child === undefined || !this.keyCandidate(config, alternative, child)) return;
        const property = alternative.keys.terminal[child]!;
        if (property >= 0) {
          const rules = alternative.progress;
          const next = this.objectFrame(alternative.id, ObjectPhase.Colon, property, 0, writtenAfter(rules, written, property), countAfter(rules, count));
          this.emit(this.replaceTop(config, next), out);
        } else this.emit(this.replaceTop(config, this.objectKeyFrame(alternative.id, frame.property, child, written, count)), out);
        return;
      }
      case ObjectPhase.Colon:
        if (wsOk)
          this.emit(this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.Colon, frame.property, frame.whitespace + 1, written, count)), out);
        else if (byte === 0x3a) this.enterPreValue(config, alternative, frame.property, 0, out);
        return;
      case ObjectPhase.PreValue:
        if (wsOk) this.enterPreValue(config, alternative, frame.property, frame.whitespace + 1, out);
        return;
      case ObjectPhase.After:
        if (wsOk)
          this.emit(this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.After, frame.property, frame.whitespace + 1, written, count)), out);
        else if (byte === 0x2c) {
          if (this.canContinue(config, alternative))
            this.emit(this.replaceTop(config, this.objectFrame(alternative.id, ObjectPhase.Next, frame.property, 0, written, count)), out);
        } else if (byte === 0x7d && objectCanClose(alternative, frame.property, written, count)) this.finish(config, out);
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
        if (byte === 0x5b) this.enterItem(config, alternative, ArrayPhase.First, 0, 0, out);
        return;
      case ArrayPhase.First:
      case ArrayPhase.Next:
        if (wsOk) this.enterItem(config, alternative, frame.phase, frame.items, frame.whitespace + 1, out);
        else if (byte === 0x5d && frame.phase === ArrayPhase.First && this.arrayCanCloseEmpty(alternative)) this.finish(config, out);
        return;
      case ArrayPhase.After: {
        if (wsOk)
          this.emit(
            this.replaceTop(config, this.arrayFrame(alternative.id, ArrayPhase.After, frame.items, frame.whitespace + 1, frame.used, frame.contained)),
            out,
          );
        else if (byte === 0x2c) {
          if (this.itemCanFollow(config, alternative)) this.enterItem(config, alternative, ArrayPhase.Next, frame.items, 0, out);
        } else if (byte === 0x5d && this.arrayCanClose(alternative, frame)) this.finish(config, out);
        return;
      }
      default:
        return;
    }
  }

  // ---- strings --------------------------------------------------------------------------------

  private stepString(config: Stack, alternative: StringAlternative, byte: number, out: Map<number, Stack>): void {
    const frame = config.frame;
    const { phase: mode, dfaState: state, count, exclusion } = frame;
    switch (mode as StringMode) {
      case StringMode.Open:
        if (byte === 0x22) this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Boundary, state, count, exclusion)), out);
        return;
      case StringMode.Boundary: {
        if (byte === 0x22) {
          if (this.canClose(alternative, state, count, exclusion)) this.finish(config, out);
          return;
        }
        if (byte === 0x5c) {
          if (this.escapeViable(alternative, state, count))
            this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Escape, state, count, exclusion)), out);
          return;
        }
        if (byte < 0x20) return;
        if (byte < 0x80) {
          this.completeChar(config, alternative, byte, out);
          return;
        }
        let length: number;
        let value: number;
        if (byte >= 0xc2 && byte <= 0xdf) [length, value] = [2, byte & 0x1f];
        else if (byte >= 0xe0 && byte <= 0xef) [length, value] = [3, byte & 0x0f];
        else if (byte >= 0xf0 && byte <= 0xf4) [length, value] = [4, byte & 0x07];
        else return;
        this.partial(config, alternative, value, length - 1, length, out);
        return;
      }
      case StringMode.Utf8: {
        if (byte < 0x80 || byte > 0xbf) return;
        const value = (frame.sequenceValue << 6) | (byte & 0x3f);
        const remaining = frame.sequenceLeft - 1;
        const length = frame.sequenceLength;
        if (remaining === 0) {
          if (value >= UTF8_MIN[length]! && !(value >= 0xd800 && value <= 0xdfff)) this.completeChar(config, alternative, value, out);
        } else {
          this.partial(config, alternative, value, remaining, length, out);
        }
        return;
      }
      case StringMode.Utf8To: {
        if (byte < 0x80 || byte > 0xbf) return;
        if (frame.sequenceLeft > 1) {
          this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Utf8To, state, count, -1, 0, frame.sequenceLeft - 1)), out);
        } else {
          this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Boundary, state, nextCount(alternative, count), -1)), out);
        }
        return;
      }
      case StringMode.Escape: {
        const short = SHORT_ESCAPES.get(byte);
        if (short !== undefined) this.completeChar(config, alternative, short, out);
        else if (byte === 0x2f && this.options.flexible) this.completeChar(config, alternative, 0x2f, out);
        else if (byte === 0x75 && this.unicodeEscapeViable(alternative, state, count, 0, 0)) {
          this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.UnicodeEscape, state, count, exclusion, 0, 4)), out);
        }
        return;
      }
      case StringMode.UnicodeEscape: {
        const digit = hexValue(byte, this.options.flexible);
        if (digit < 0) return;
        const value = frame.sequenceValue * 16 + digit;
        const digits = 4 - frame.sequenceLeft + 1;
        if (digits === 4) {
          if (this.unicodeAllowed(value, value)) this.completeChar(config, alternative, value, out);
        } else if (this.unicodeEscapeViable(alternative, state, count, value, digits)) {
          // as for UTF-8: once every completion is a valid code point leading to one state, forget the digits
          const lo = value * 16 ** (4 - digits);
          const hi = lo + 16 ** (4 - digits) - 1;
          const target =
            this.options.flexible && !(lo <= 0xdfff && hi >= 0xd800) && (alternative.exclude === null || !alternative.exclude.hasChildIn(exclusion, lo, hi))
              ? alternative.dfa.rangeTarget(state, lo, hi)
              : -1;
          if (target >= 0)
            this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.UnicodeEscapeTo, target, count, -1, 0, 4 - digits)), out);
          else this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.UnicodeEscape, state, count, exclusion, value, 4 - digits)), out);
        }
        return;
      }
      case StringMode.UnicodeEscapeTo: {
        if (hexValue(byte, true) < 0) return;
        if (frame.sequenceLeft > 1)
          this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.UnicodeEscapeTo, state, count, -1, 0, frame.sequenceLeft - 1)), out);
        else this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Boundary, state, nextCount(alternative, count), -1)), out);
        return;
      }
    }
  }

  private canClose(alternative: StringAlternative, state: number, count: number, exclusion: number): boolean {
    if (alternative.dfa.accepting[state] !== 1) return false;
    if (count !== FREE && isCounted(alternative) && count < alternative.minLength) return false;
    return !(exclusion >= 0 && alternative.exclude!.terminal[exclusion]!);
  }

  private completeChar(config: Stack, alternative: StringAlternative, codePoint: number, out: Map<number, Stack>): void {
    const frame = config.frame;
    const next = alternative.dfa.step(frame.dfaState, codePoint);
    if (next < 0) return;
    if (!this.liveAfterChar(alternative, next, frame.count)) return;
    const exclusion = alternative.exclude === null ? -1 : alternative.exclude.step(frame.exclusion, codePoint);
    this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Boundary, next, nextCount(alternative, frame.count), exclusion)), out);
  }

  /** Whether a string may continue to an accepting end after one more character lands in `state`. */
  private liveAfterChar(alternative: StringAlternative, state: number, count: number): boolean {
    if (count === FREE || !isCounted(alternative)) return true;
    if (count + 1 > alternative.maxLength) return false;
    return this.canFinish(alternative, state, nextCount(alternative, count));
  }

  /** Some code point in `lo..hi` (surrogates excluded) has a live transition from `state`. */
  private rangeViable(alternative: StringAlternative, state: number, count: number, lo: number, hi: number): boolean {
    const ranges = alternative.dfa.transitions[state]!;
    for (let part = 0; part < 2; part++) {
      const partLo = part === 0 ? lo : Math.max(lo, 0xe000);
      const partHi = part === 0 ? Math.min(hi, 0xd7ff) : hi;
      if (partLo > partHi) continue;
      for (let index = 0; index < ranges.length; index += 3) {
        if (ranges[index]! > partHi || ranges[index + 1]! < partLo) continue;
        if (this.liveAfterChar(alternative, ranges[index + 2]!, count)) return true;
      }
    }
    return false;
  }

  private partial(config: Stack, alternative: StringAlternative, value: number, remaining: number, length: number, out: Map<number, Stack>): void {
    const frame = config.frame;
    const shift = 6 * remaining;
    const rawLo = value * 2 ** shift;
    const rawHi = rawLo + 2 ** shift - 1;
    const lo = Math.max(rawLo, UTF8_MIN[length]!);
    const hi = Math.min(rawHi, UTF8_MAX[length]!);
    if (lo > hi) return;
    const touchesSurrogates = lo <= 0xdfff && hi >= 0xd800;
    if (touchesSurrogates && lo >= 0xd800 && hi <= 0xdfff) return;
    if (!this.rangeViable(alternative, frame.dfaState, frame.count, lo, hi)) return;
    // forgetting the bytes is only safe when every continuation completes a valid character:
    // E0, F0 and F4 lead bytes (overlong or out-of-range completions) and ED (surrogates) must wait
    const everyCompletionValid = rawLo >= UTF8_MIN[length]! && rawHi <= UTF8_MAX[length]! && !touchesSurrogates;
    if (everyCompletionValid && (alternative.exclude === null || !alternative.exclude.hasChildIn(frame.exclusion, lo, hi))) {
      const target = alternative.dfa.rangeTarget(frame.dfaState, lo, hi);
      if (target >= 0) {
        // every completion lands in `target`: forget the exact bytes, so CJK tokens share states
        this.emit(this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Utf8To, target, frame.count, -1, 0, remaining)), out);
        return;
      }
    }
    this.emit(
      this.replaceTop(config, this.stringFrame(alternative.id, StringMode.Utf8, frame.dfaState, frame.count, frame.exclusion, value, remaining, length)),
      out,
    );
  }

  private escapeViable(alternative: StringAlternative, state: number, count: number): boolean {
    for (const codePoint of SHORT_ESCAPES.values()) if (this.rangeViable(alternative, state, count, codePoint, codePoint)) return true;
    if (this.options.flexible && this.rangeViable(alternative, state, count, 0x2f, 0x2f)) return true;
    return this.unicodeEscapeViable(alternative, state, count, 0, 0);
  }

  private unicodeAllowed(lo: number, hi: number): boolean {
    if (this.options.flexible) return !(lo >= 0xd800 && hi <= 0xdfff);
    for (let index = 0; index < CANONICAL_UNICODE_ESCAPES.length; index += 2)
      if (lo <= CANONICAL_UNICODE_ESCAPES[index + 1]! && hi >= CANONICAL_UNICODE_ESCAPES[index]!) return true;
    return false;
  }

  private unicodeEscapeViable(alternative: StringAlternative, state: number, count: number, value: number, digits: number): boolean {
    const shift = 4 * (4 - digits);
    const lo = value * 2 ** shift;
    const hi = lo + 2 ** shift - 1;
    if (this.options.flexible) return this.rangeViable(alternative, state, count, lo, hi);
    for (let index = 0; index < CANONICAL_UNICODE_ESCAPES.length; index += 2) {
      const from = Math.max(lo, CANONICAL_UNICODE_ESCAPES[index]!);
      const to = Math.min(hi, CANONICAL_UNICODE_ESCAPES[index + 1]!);
      if (from <= to && this.rangeViable(alternative, state, count, from, to)) return true;
    }
    return false;
  }

  /** Can a string in DFA `state` with `count` code points still close at an allowed length? */
  private canFinish(alternative: StringAlternative, state: number, count: number): boolean {
    const key = `${alternative.id}:${state}:${count}`;
    const cached = this.finishCache.get(key);
    if (cached !== undefined) return cached;
    const dfa = alternative.dfa;
    const need = Math.max(0, alternative.minLength - count);
    const limit = alternative.maxLength === Infinity ? need + dfa.stateCount + 1 : alternative.maxLength - count;
    let result = false;
    let frontier = new Set([state]);
    for (let length = 0; length <= limit && frontier.size > 0; length++) {
      if (length >= need) {
        for (const at of frontier) {
          if (dfa.accepting[at] === 1) {
            result = true;
            break;
          }
        }
        if (result) break;
      }
      const next = new Set<number>();
      for (const at of frontier) {
        const ranges = dfa.transitions[at]!;
        for (let index = 2; index < ranges.length; index += 3) next.add(ranges[index]!);
      }
      frontier = next;
    }
    this.finishCache.set(key, result);
    return result;
  }
}

/** The fields a frame of its kind uses, for `describe`. */
function describeFrame(frame: Frame): string {
  switch (frame.kind) {
    case Kind.Done:
      return `phase=${frame.phase},ws=${frame.whitespace}`;
    case Kind.Literal:
      return `node=${frame.literalNode},trie=${frame.trieNode}`;
    case Kind.Number:
      return `alt=${frame.alternative},state=${frame.numberState}`;
    case Kind.Object:
      return `alt=${frame.alternative},phase=${frame.phase},property=${frame.property},ws=${frame.whitespace},key=${frame.keyNode},written=${frame.written},count=${frame.propertyCount}`;
    case Kind.Array:
      return `alt=${frame.alternative},phase=${frame.phase},items=${frame.items},ws=${frame.whitespace},used=${frame.used},contained=${frame.contained},matching=${frame.matching}`;
    case Kind.String:
      return `alt=${frame.alternative},mode=${frame.phase},dfa=${frame.dfaState},count=${frame.count},excl=${frame.exclusion},seq=${frame.sequenceValue}/${frame.sequenceLeft}/${frame.sequenceLength}`;
  }
}

function isCounted(alternative: StringAlternative): boolean {
  return alternative.minLength > 0 || alternative.maxLength !== Infinity;
}

/** Code points counted after one more; unbounded strings stop counting once `minLength` is met. */
function nextCount(alternative: StringAlternative, count: number): number {
  if (count === FREE || !isCounted(alternative)) return count === FREE ? FREE : 0;
  return alternative.maxLength === Infinity ? Math.min(count + 1, alternative.minLength) : count + 1;
}

/** Item counts past what any rule distinguishes collapse into one state. */
function clampCount(alternative: ArrayAlternative, count: number): number {
  if (alternative.maxItems !== Infinity) return count;
  return Math.min(count, Math.max(alternative.prefix.length, alternative.minItems));
}

function hexValue(byte: number, anyCase: boolean): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (anyCase && byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}
