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
const TEXT_ENCODER = new TextEncoder();
const BYTE_FALLBACK = /^<0x([0-9A-Fa-f]{2})>$/;

/** Bytes of a byte-level BPE token string (Qwen, Llama 3, GPT-4o style); `undefined` if a character is outside the alphabet. */
export function decodeByteLevelToken(text: string): Uint8Array | undefined {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const byte = code < 512 ? BYTE_LEVEL_DECODER[code]! : -1;
    if (byte < 0) return undefined;
    bytes[index] = byte;
  }
  return bytes;
}

/** Bytes of a SentencePiece token string: `▁` is a space, `<0xNN>` is the raw byte NN (byte fallback). */
export function decodeSentencePieceToken(text: string): Uint8Array {
  const fallback = BYTE_FALLBACK.exec(text);
  if (fallback !== null) return Uint8Array.of(Number.parseInt(fallback[1]!, 16));
  return TEXT_ENCODER.encode(text.replaceAll('\u2581', ' '));
}

/** Bytes of literal text (added tokens that are not special, GGUF user-defined tokens). */
export function encodeText(text: string): Uint8Array {
  return TEXT_ENCODER.encode(text);
}
