import { describe, expect, it } from 'vitest';
import { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { FINISHED, FrameTable, StringMode, type Frame } from './automaton-frames.js';
import { CodePointTrie, type StringAlternative } from './grammar-ir.js';
import { StringLengths } from './string-length-analysis.js';
import { StringStepper } from './string-stepping.js';

/** A DFA from rows of flat `[lo, hi, target, …]` ranges. */
function dfa(rows: number[][], accepting: number[]): CodePointDfa {
  return new CodePointDfa(
    rows.map((row) => Int32Array.from(row)),
    Uint8Array.from(accepting),
    0,
  );
}

const ANY = dfa([[0, 0xd7ff, 0, 0xe000, 0x10ffff, 0]], [1]);
const a = 0x61;
const b = 0x62;

let alternatives = 0;
/** A string alternative with an id of its own (`StringLengths` keeps its facts by id). */
function stringOf(language: CodePointDfa, rules: Partial<StringAlternative> = {}): StringAlternative {
  return { kind: 'string', id: alternatives++, dfa: language, free: language === ANY, minLength: 0, maxLength: Infinity, exclude: null, height: 1, ...rules };
}

/** The frame after feeding `input` (its UTF-8 bytes, or the bytes given) to a string frame before its opening quote; null once a byte is refused. */
function walk(alternative: StringAlternative, input: string | number[], flexible = false): Frame | null {
  const frames = new FrameTable();
  const stepper = new StringStepper(frames, new StringLengths(() => 1), flexible);
  let frame: Frame | null = frames.stringFrame(alternative.id, StringMode.Open, alternative.dfa.start, 0, alternative.exclude === null ? -1 : 0);
  for (const byte of typeof input === 'string' ? Buffer.from(input, 'utf8') : input) {
    if (frame === null || frame === FINISHED) return null;
    frame = stepper.step(frame, alternative, byte);
  }
  return frame;
}

const closes = (alternative: StringAlternative, input: string | number[], flexible = false): boolean => walk(alternative, input, flexible) === FINISHED;
const takes = (alternative: StringAlternative, input: string | number[], flexible = false): boolean => walk(alternative, input, flexible) !== null;

describe('StringStepper: one byte of a JSON string', () => {
  it('decodes UTF-8 and refuses overlong forms, surrogates and code points past U+10FFFF at the first byte that proves them', () => {
    const free = stringOf(ANY);
    expect(closes(free, '"héllo 日本 😀"')).toBe(true);
    expect(takes(free, [0x22, 0xc0])).toBe(false);
    expect(takes(free, [0x22, 0xe0, 0x80])).toBe(false);
    expect(closes(free, [0x22, 0xe0, 0xa0, 0x80, 0x22])).toBe(true);
    expect(takes(free, [0x22, 0xed, 0xa0])).toBe(false);
    expect(closes(free, [0x22, 0xed, 0x9f, 0xbf, 0x22])).toBe(true);
    expect(takes(free, [0x22, 0xf4, 0x90])).toBe(false);
    expect(closes(free, [0x22, 0xf4, 0x8f, 0xbf, 0xbf, 0x22])).toBe(true);
    expect(takes(free, [0x22, 0x0a])).toBe(false);
  });

  it('takes the escapes JSON.stringify writes, and in the flexible layout also \\/ and \\u of any code point but a lone surrogate', () => {
    const free = stringOf(ANY);
    expect(closes(free, '"a\\n\\"\\\\\\u001f"')).toBe(true);
    expect(takes(free, '"\\u0041')).toBe(false);
    expect(takes(free, '"\\/')).toBe(false);
    expect(closes(free, '"\\u0041\\/\\u00E9"', true)).toBe(true);
    expect(takes(free, '"\\ud800', true)).toBe(false);
  });

  it('closes only in an accepting DFA state, at an allowed length, and not on an excluded name', () => {
    const ab = dfa([[a, a, 1], [b, b, 2], []], [0, 0, 1]);
    expect(closes(stringOf(ab), '"ab"')).toBe(true);
    expect(takes(stringOf(ab), '"a"')).toBe(false);
    expect(takes(stringOf(ab), '"ac')).toBe(false);

    const counted = stringOf(ANY, { minLength: 2, maxLength: 3 });
    expect(takes(counted, '"a"')).toBe(false);
    expect(closes(counted, '"ab"')).toBe(true);
    expect(closes(counted, '"abc"')).toBe(true);
    expect(takes(counted, '"abcd')).toBe(false);

    const exclude = new CodePointTrie();
    exclude.add('id');
    const named = stringOf(ANY, { exclude });
    expect(takes(named, '"id"')).toBe(false);
    expect(closes(named, '"idx"')).toBe(true);
    expect(closes(named, '"i"')).toBe(true);
  });

  it('refuses the character that would leave no room to reach an accepting state within maxLength', () => {
    // ^ab+$ with maxLength 1: after "a" a "b" must still come, and there is no room for it
    const abPlus = dfa(
      [
        [a, a, 1],
        [b, b, 2],
        [b, b, 2],
      ],
      [0, 0, 1],
    );
    expect(takes(stringOf(abPlus, { maxLength: 1 }), '"a')).toBe(false);
    expect(closes(stringOf(abPlus, { maxLength: 2 }), '"ab"')).toBe(true);
  });

  it('steps each frame on each byte once: one stepper answers again from its successors, and no two frames or bytes share an answer', () => {
    const ab = stringOf(dfa([[a, a, 1], [b, b, 2], []], [0, 0, 1]));
    const frames = new FrameTable();
    const stepper = new StringStepper(frames, new StringLengths(() => 1), false);
    const open = stepper.step(frames.stringFrame(ab.id, StringMode.Open, ab.dfa.start, 0, -1), ab, 0x22)!;
    const afterA = stepper.step(open, ab, a);
    // the same frame on another byte, and another frame on the same byte, each get their own answer
    expect(stepper.step(open, ab, b)).toBeNull();
    expect(afterA).not.toBeNull();
    expect(stepper.step(afterA!, ab, a)).toBeNull();
    const afterAB = stepper.step(afterA!, ab, b);
    expect(afterAB).not.toBeNull();
    expect(stepper.step(afterAB!, ab, 0x22)).toBe(FINISHED);
    expect(stepper.step(open, ab, 0x22)).toBeNull();
    // asked again, the same frames
    expect(stepper.step(open, ab, a)).toBe(afterA);
    expect(stepper.step(afterA!, ab, b)).toBe(afterAB);
    expect(stepper.step(open, ab, b)).toBeNull();
  });
});

describe('StringLengths: when a length-bounded string may share its unbounded twin’s mask', () => {
  // ^a*b+$: state 0 loops on a and goes to 1 on b; 1 accepts and loops on b
  const aStarBPlus = dfa(
    [
      [a, a, 0, b, b, 1],
      [b, b, 1],
    ],
    [0, 1],
  );

  it('finds completions at every length from the shortest up for ^a*b+$, and not for ^(ab)*$', () => {
    const lengths = new StringLengths(() => 1);
    expect(lengths.analysis(stringOf(aStarBPlus))).toMatchObject({ upward: true, maxDistance: 1, roomy: true });
    const abStar = dfa(
      [
        [a, a, 1],
        [b, b, 0],
      ],
      [1, 0],
    );
    expect(lengths.analysis(stringOf(abStar)).upward).toBe(false);
  });

  it('is not roomy when a reachable state runs out of length, and then asks the vocabulary how far one token reaches in the alphabet', () => {
    const alphabets: (readonly number[])[] = [];
    const lengths = new StringLengths((alphabet) => {
      alphabets.push(alphabet);
      return 4;
    });
    expect(lengths.analysis(stringOf(aStarBPlus, { maxLength: 3 }))).toEqual({ upward: true, maxDistance: 1, roomy: false, tokenSpan: 4 });
    expect(alphabets).toEqual([[a, b]]);
  });

  it('is roomy for ^a*$ under any maxLength: the states reachable stop changing after one code point, whatever the bound', () => {
    const aStar = dfa([[a, a, 0]], [1]);
    const lengths = new StringLengths(() => 1);
    // 10,000,000 counts of one state: past the cells the check visits one count at a time
    expect(lengths.analysis(stringOf(aStar, { maxLength: 10_000_000 }))).toMatchObject({ upward: true, roomy: true });
    expect(lengths.analysis(stringOf(aStarBPlus, { maxLength: 10_000_000 }))).toMatchObject({ upward: true, roomy: false });
  });

  it('says whether a string can still close at an allowed length', () => {
    const lengths = new StringLengths(() => 1);
    const bounded = stringOf(aStarBPlus, { maxLength: 3 });
    expect(lengths.canFinish(bounded, 0, 2)).toBe(true);
    expect(lengths.canFinish(bounded, 0, 3)).toBe(false);
    expect(lengths.canFinish(stringOf(aStarBPlus, { minLength: 5 }), 1, 1)).toBe(true);
    const ab = dfa([[a, a, 1], [b, b, 2], []], [0, 0, 1]);
    expect(lengths.canFinish(stringOf(ab, { minLength: 3 }), 0, 0)).toBe(false);
  });
});
