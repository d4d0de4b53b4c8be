/**
 * Turning a tokenizer's token strings back into the exact bytes each token emits.
 * @module
 */

/** How a vocabulary spells bytes in its token strings. */
export type TokenEncoding = 'byte-level' | 'sentencepiece';

/**
 * GPT-2's `bytes_to_unicode`: printable Latin-1 bytes stand for themselves, the other
 * 68 bytes are shifted to U+0100.. so that every byte has a visible character.
 */
function buildByteLevelDecoder(): Int16Array {
  const decoder = new Int16Array(512).fill(-1);
  let shifted = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
    const code = printable ? byte : 256 + shifted++;
    decoder[code] = byte;
  }
  return decoder;
}

const BYTE_LEVEL_DECODER = buildByteLevelDecoder();
const BYTE_FALLBACK = /^<0x([0-9A-Fa-f]{2})>$/;

/** How one token's string becomes bytes. */
export const enum TokenKind {
  /** Special, control, unknown or unused: emits no text. */
  None = 0,
  ByteLevel = 1,
  SentencePiece = 2,
  /** Literal text (added tokens that are not special, GGUF user-defined tokens). */
  Text = 3,
  /** Bytes given directly. */
  Raw = 4,
}

/** Token strings and how to decode each. */
export interface TokenSource {
  readonly texts: readonly string[];
  readonly kinds: Uint8Array;
  readonly raw?: readonly (Uint8Array | undefined)[];
}

/** A growable byte buffer that decodes token strings straight into the vocabulary's flat array (no per-token arrays). */
export class ByteSink {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }

  /** False (and nothing kept) when a character is outside the byte-level alphabet. */
  writeByteLevel(text: string): boolean {
    this.reserve(text.length);
    const start = this.length;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      const byte = code < 512 ? BYTE_LEVEL_DECODER[code]! : -1;
      if (byte < 0) {
        this.length = start;
        return false;
      }
      this.bytes[this.length++] = byte;
    }
    return true;
  }

  writeSentencePiece(text: string): boolean {
    if (text.length === 6 && text.charCodeAt(0) === 0x3c && text.charCodeAt(5) === 0x3e) {
      const fallback = BYTE_FALLBACK.exec(text);
      if (fallback !== null) {
        this.reserve(1);
        this.bytes[this.length++] = Number.parseInt(fallback[1]!, 16);
        return true;
      }
    }
    return this.writeUtf8(text, true);
  }

  /** UTF-8 of `text`; with `metaspace`, U+2581 (▁) becomes a space. Lone surrogates become U+FFFD, as TextEncoder does. */
  writeUtf8(text: string, metaspace: boolean): boolean {
    this.reserve(text.length * 3);
    const bytes = this.bytes;
    let at = this.length;
    for (let index = 0; index < text.length; index++) {
      let code = text.charCodeAt(index);
      if (metaspace && code === 0x2581) code = 0x20;
      if (code < 0x80) {
        bytes[at++] = code;
      } else if (code < 0x800) {
        bytes[at++] = 0xc0 | (code >> 6);
        bytes[at++] = 0x80 | (code & 0x3f);
      } else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
        const point = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(++index) - 0xdc00);
        bytes[at++] = 0xf0 | (point >> 18);
        bytes[at++] = 0x80 | ((point >> 12) & 0x3f);
        bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
        bytes[at++] = 0x80 | (point & 0x3f);
      } else {
        if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
        bytes[at++] = 0xe0 | (code >> 12);
        bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[at++] = 0x80 | (code & 0x3f);
      }
    }
    this.length = at;
    return true;
  }

  writeBytes(bytes: Uint8Array | undefined): boolean {
    if (bytes === undefined) return false;
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
    return true;
  }
}
