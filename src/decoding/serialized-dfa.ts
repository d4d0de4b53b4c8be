/**
 * A compact text form of a {@link CodePointDfa}, for the automata shipped prebuilt
 * (`prebuilt-format-automata.ts`): LEB128 varints in base64url. Per state: whether it accepts,
 * its range count, then each range as the gap from the previous range's end, its width, and
 * its target relative to the state (zigzag), which keeps the digits-and-letters automata of
 * the formats at about four bytes a range.
 * @module
 */
import { fromBase64url, toBase64url } from '../shared/bytes.js';
import { CodePointDfa } from '../shared/regex/code-point-dfa.js';

export function serializeDfa(dfa: CodePointDfa): string {
  return toBase64url(serializeDfaBytes(dfa));
}

/** {@link serializeDfa} before base64url: the form a binary file holds (`prebuilt-time-automata.bin.gz`). */
export function serializeDfaBytes(dfa: CodePointDfa): Uint8Array {
  const bytes: number[] = [];
  const write = (value: number): void => {
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
  };
  write(dfa.stateCount);
  write(dfa.start + 1);
  for (let state = 0; state < dfa.stateCount; state++) {
    const ranges = dfa.transitions[state]!;
    write(dfa.accepting[state]!);
    write(ranges.length / 3);
    let end = 0;
    for (let index = 0; index < ranges.length; index += 3) {
      const offset = ranges[index + 2]! - state;
      write(ranges[index]! - end);
      write(ranges[index + 1]! - ranges[index]!);
      write(offset >= 0 ? offset * 2 : -offset * 2 - 1);
      end = ranges[index + 1]! + 1;
    }
  }
  return Uint8Array.from(bytes);
}

/** The automaton {@link serializeDfa} wrote; throws on text it did not write (the prebuilt data is checked by a test). */
export function deserializeDfa(text: string): CodePointDfa {
  const bytes = fromBase64url(text);
  if (bytes === undefined) throw new Error('a serialized automaton is not base64url: regenerate it with scripts/generate-format-automata.ts');
  return deserializeDfaBytes(bytes);
}

/** The automaton {@link serializeDfaBytes} wrote; throws on bytes it did not write. */
export function deserializeDfaBytes(bytes: Uint8Array): CodePointDfa {
  let at = 0;
  const read = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('a serialized automaton ends early: regenerate it with scripts/generate-format-automata.ts');
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  const stateCount = read();
  const start = read() - 1;
  const accepting = new Uint8Array(stateCount);
  const transitions: Int32Array[] = [];
  for (let state = 0; state < stateCount; state++) {
    accepting[state] = read();
    const ranges = new Int32Array(read() * 3);
    let end = 0;
    for (let index = 0; index < ranges.length; index += 3) {
      const lo = end + read();
      const hi = lo + read();
      const zigzag = read();
      ranges[index] = lo;
      ranges[index + 1] = hi;
      ranges[index + 2] = state + (zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2);
      end = hi + 1;
    }
    transitions.push(ranges);
  }
  return new CodePointDfa(transitions, accepting, start);
}
