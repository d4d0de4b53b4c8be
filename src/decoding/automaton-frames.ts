/**
 * The parser frames of the byte automaton (`json-automaton.ts`) and the stacks they form,
 * both interned: equal frames and equal stacks share one object and one id, so an
 * automaton state can name its configurations by ids alone.
 * @module
 */

export const enum Kind {
  Done = 0,
  Object = 1,
  Array = 2,
  String = 3,
  Number = 4,
  Literal = 5,
}

export const enum DocumentPhase {
  /** Before the value: leading whitespace (flexible layout). */
  Before = 0,
  /** The value's frames sit above. */
  Value = 1,
  /** After the value: trailing whitespace, or the end. */
  After = 2,
}

export const enum ObjectPhase {
  /** Before `{`. */
  Open = 0,
  /** After `{`: a key or `}`. */
  First = 1,
  /** After `,`: a key. */
  Next = 2,
  /** Inside a declared key (`keyNode` of the declared-keys trie). */
  Key = 3,
  /** A key of key class `keyNode`: its string frame sits above. */
  AdditionalKey = 4,
  /** After a key: `:`. */
  Colon = 5,
  /** The property value's frames sit above. */
  Value = 6,
  /** After a value: `,` or `}`. */
  After = 7,
  /** After `:`: whitespace before the value (flexible layout). */
  PreValue = 8,
}

export const enum ArrayPhase {
  /** Before `[`. */
  Open = 0,
  /** After `[`: an item or `]`. */
  First = 1,
  /** The item's frames sit above. */
  Value = 2,
  /** After an item: `,` or `]`. */
  After = 3,
  /** After `,`: an item. */
  Next = 4,
}

export const enum StringMode {
  Open = 0,
  Boundary = 1,
  /** Inside a UTF-8 sequence (`sequenceValue`, `sequenceLeft`, `sequenceLength`). */
  Utf8 = 2,
  /** Inside a UTF-8 sequence whose code point is known to lead to `dfaState`; `sequenceLeft` bytes to go. */
  Utf8To = 3,
  Escape = 4,
  /** Inside `\uHHHH` (`sequenceValue` so far, `sequenceLeft` hex digits to go). */
  UnicodeEscape = 5,
  /** Inside `\uHHHH` (flexible layout) whose code point is known to lead to `dfaState`; `sequenceLeft` hex digits to go. */
  UnicodeEscapeTo = 6,
}

/**
 * One parser frame. Every frame has every field (one object shape keeps the transition
 * code monomorphic); a field a kind does not use is 0.
 */
export interface Frame {
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
  /** String inside a UTF-8 sequence or `\uHHHH` escape: the code point's bits read so far. */
  readonly sequenceValue: number;
  /** String inside a UTF-8 sequence or `\uHHHH` escape: bytes or hex digits still to read. */
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

/**
 * What a step returns when its byte completes the value on top (a string's closing quote):
 * no frame replaces that value, its parent advances. Never interned, never on a stack.
 */
export const FINISHED: Frame = { id: -1, ...BLANK_FRAME };

/** A configuration: the frame on top and the frames below it. */
export interface Stack {
  readonly id: number;
  readonly frame: Frame;
  readonly parent: Stack | null;
  readonly depth: number;
}

/** Hands out the one frame (or stack) for each distinct content, creating it on first request. */
export class FrameTable {
  private readonly frames = new Map<string, Frame>();
  private readonly stacks = new Map<string, Stack>();
  private frameCount = 0;
  private stacksCreated = 0;

  /** Number of distinct configurations created so far. */
  get stackCount(): number {
    return this.stacksCreated;
  }

  documentFrame(phase: DocumentPhase, whitespace: number): Frame {
    return this.frames.get(`D${phase},${whitespace}`) ?? this.addFrame(`D${phase},${whitespace}`, { ...BLANK_FRAME, kind: Kind.Done, phase, whitespace });
  }

  literalFrame(literalNode: number, trieNode: number): Frame {
    const key = `L${literalNode},${trieNode}`;
    return this.frames.get(key) ?? this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Literal, literalNode, trieNode });
  }

  numberFrame(alternative: number, numberState: number): Frame {
    const key = `N${alternative},${numberState}`;
    return this.frames.get(key) ?? this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Number, alternative, numberState });
  }

  objectFrame(alternative: number, phase: ObjectPhase, property: number, whitespace: number, written = 0, propertyCount = 0, keyNode = 0): Frame {
    const key = `O${alternative},${phase},${property},${whitespace},${written},${propertyCount},${keyNode}`;
    return (
      this.frames.get(key) ??
      this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Object, alternative, phase, property, whitespace, written, propertyCount, keyNode })
    );
  }

  objectKeyFrame(alternative: number, property: number, keyNode: number, written: number, propertyCount: number): Frame {
    const key = `K${alternative},${property},${keyNode},${written},${propertyCount}`;
    return (
      this.frames.get(key) ??
      this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Object, alternative, phase: ObjectPhase.Key, property, keyNode, written, propertyCount })
    );
  }

  arrayFrame(alternative: number, phase: ArrayPhase, items: number, whitespace: number, used: number, contained = 0, matching = 0): Frame {
    const key = `A${alternative},${phase},${items},${whitespace},${used},${contained},${matching}`;
    return this.frames.get(key) ?? this.addFrame(key, { ...BLANK_FRAME, kind: Kind.Array, alternative, phase, items, whitespace, used, contained, matching });
  }

  stringFrame(
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

  stack(frame: Frame, parent: Stack | null): Stack {
    const key = `${frame.id}:${parent === null ? -1 : parent.id}`;
    let stack = this.stacks.get(key);
    if (stack === undefined) {
      stack = { id: this.stacksCreated++, frame, parent, depth: parent === null ? 1 : parent.depth + 1 };
      this.stacks.set(key, stack);
    }
    return stack;
  }

  replaceTop(stack: Stack, frame: Frame): Stack {
    return this.stack(frame, stack.parent);
  }

  private addFrame(key: string, fields: FrameFields): Frame {
    const frame: Frame = { id: this.frameCount++, ...fields };
    this.frames.set(key, frame);
    return frame;
  }
}

/** A configuration as text, bottom frame first (debugging). */
export function describeStack(config: Stack): string {
  const parts: string[] = [];
  for (let at: Stack | null = config; at !== null; at = at.parent) {
    const frame = at.frame;
    parts.push(`${['Done', 'Obj', 'Arr', 'Str', 'Num', 'Lit'][frame.kind]}(${describeFrame(frame)})`);
  }
  return parts.reverse().join(' > ');
}

/** The fields a frame of its kind uses. */
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
