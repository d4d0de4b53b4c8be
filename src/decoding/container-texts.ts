/**
 * The canonical JSON of the object and array items the matcher's memory (`written-strings.ts`) reads from the bytes it
 * keeps, with the last few answers of one mask kept. A mask walks many tokens that close the same item after the same
 * few bytes (`}`, `},`, `}]`…, and ` }`, `\n}`…), and inside a string a few texts before the close (`"}`, ` "}`, `."}`)
 * in turn: one answer kept was replaced by the next text and parsed again (6 parses where 4 texts differ, inside the
 * names of bench:mask's 40 unique objects).
 * @module
 */
import { canonicalJson } from '../shared/canonical-json.js';
import { QUOTE } from '../shared/json-bytes.js';

/** Answers kept per mask, and the bytes past the committed ones an answer is kept for. */
const SLOTS = 8;
const TAIL_BYTES = 64;

const UTF8 = new TextDecoder();

function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The canonical texts of items read from `raw`, the last `SLOTS` answers kept while the committed bytes stay the same. */
export class ContainerTexts {
  /** The committed bytes' `epoch` the answers kept were read under (another: none kept). */
  private epoch = -1;
  private used = 0;
  private nextSlot = 0;
  private readonly starts = new Int32Array(SLOTS);
  private readonly squeezed = new Uint8Array(SLOTS);
  /** Per answer: its bytes past the committed ones (`TAIL_BYTES` each, squeezed or not), and how many. */
  private readonly tails = new Uint8Array(SLOTS * TAIL_BYTES);
  private readonly tailLengths = new Int32Array(SLOTS);
  private readonly texts: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);

  /**
   * The canonical text of the value written in `raw[start, end)` (undefined: not JSON), where `raw[0, committedEnd)`
   * are the committed bytes (the same while `epoch` is) and `committedInString` says whether they end inside a string.
   * An answer is kept for the same bytes, whitespace aside where the bytes past the committed ones are all outside
   * strings (the committed scan outside one and no quote past it). The automaton took every byte before the close, so
   * whitespace there lies between tokens (`1 0` died at `0`) and changes no value.
   */
  between(raw: Uint8Array, start: number, end: number, committedEnd: number, committedInString: boolean, epoch: number): string | undefined {
    if (epoch !== this.epoch) {
      this.epoch = epoch;
      this.used = 0;
      this.nextSlot = 0;
    }
    let squeezed = !committedInString;
    for (let offset = committedEnd; squeezed && offset < end; offset++) squeezed = raw[offset] !== QUOTE;
    for (let slot = 0; slot < this.used; slot++) {
      if (this.starts[slot] !== start || (this.squeezed[slot] === 1) !== squeezed) continue;
      const tail = slot * TAIL_BYTES;
      const tailLength = this.tailLengths[slot]!;
      let same = true;
      let length = 0;
      for (let offset = committedEnd; same && offset < end; offset++) {
        if (squeezed && isJsonWhitespace(raw[offset]!)) continue;
        same = length < tailLength && raw[offset] === this.tails[tail + length++];
      }
      if (same && length === tailLength) return this.texts[slot];
    }
    let text: string | undefined;
    try {
      text = canonicalJson(JSON.parse(UTF8.decode(raw.subarray(start, end))));
    } catch {
      text = undefined;
    }
    const slot = this.nextSlot;
    const tail = slot * TAIL_BYTES;
    let length = 0;
    for (let offset = committedEnd; offset < end && length <= TAIL_BYTES; offset++) {
      if (squeezed && isJsonWhitespace(raw[offset]!)) continue;
      if (length < TAIL_BYTES) this.tails[tail + length] = raw[offset]!;
      length++;
    }
    // a tail past the room is not kept (nothing else to compare it with)
    if (length > TAIL_BYTES) return text;
    this.tailLengths[slot] = length;
    this.starts[slot] = start;
    this.squeezed[slot] = squeezed ? 1 : 0;
    this.texts[slot] = text;
    this.nextSlot = (slot + 1) % SLOTS;
    this.used = Math.max(this.used, slot + 1);
    return text;
  }
}

/**
 * The object and array items a trial (one token walked) closed: per item its array's depth, where its bytes lie in the
 * memory's `raw`, and its canonical text once read ('' where not JSON; undefined until read: an item that repeats none
 * held is read only where another closes). Reused, not emptied: setting an array's length to 0 frees its backing
 * store, and the next push allocated one per walk that closed an item (850 bytes a mask inside an array of unique
 * objects on Qwen3, bench:mask's heap figure).
 */
export class PendingContainers {
  count = 0;
  private readonly depths: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly texts: (string | undefined)[] = [];

  add(depth: number, text: string | undefined, start: number, end: number): void {
    this.depths[this.count] = depth;
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.texts[this.count++] = text;
  }

  /**
   * Some item closed at `depth` has the canonical `text`; one not read yet is read from `raw` by `texts` (`between`,
   * whose other arguments these are).
   */
  has(depth: number, text: string, texts: ContainerTexts, raw: Uint8Array, committedEnd: number, committedInString: boolean, epoch: number): boolean {
    for (let index = 0; index < this.count; index++) {
      if (this.depths[index] !== depth) continue;
      const pending = (this.texts[index] ??= texts.between(raw, this.starts[index]!, this.ends[index]!, committedEnd, committedInString, epoch) ?? '');
      if (pending === text) return true;
    }
    return false;
  }

  /** A container opened at `depth`: the items closed at that depth and above belong to arrays that are gone. */
  forget(depth: number): void {
    let kept = 0;
    for (let index = 0; index < this.count; index++) {
      if (this.depths[index]! >= depth) continue;
      this.depths[kept] = this.depths[index]!;
      this.starts[kept] = this.starts[index]!;
      this.ends[kept] = this.ends[index]!;
      this.texts[kept++] = this.texts[index];
    }
    this.count = kept;
  }
}
