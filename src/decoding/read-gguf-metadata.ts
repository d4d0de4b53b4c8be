/**
 * Reads the key/value metadata of a GGUF file (v2 and v3) without reading its tensors,
 * so a multi-gigabyte model costs only its header.
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { VocabularyError } from './decoding-errors.js';

/** A metadata value: numbers (64-bit integers as bigint), booleans, strings and arrays of them. */
export type GgufMetadataValue = number | bigint | boolean | string | GgufMetadataValue[] | Int32Array | Uint32Array | Float32Array;

const enum GgufType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const CHUNK = 1 << 20;

class FileReader {
  private readonly fd: number;
  private buffer = Buffer.alloc(CHUNK);
  private start = 0;
  private end = 0;
  private filePosition = 0;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  close(): void {
    closeSync(this.fd);
  }

  private ensure(size: number): void {
    if (this.end - this.start >= size) return;
    if (size > this.buffer.length) {
      const bigger = Buffer.alloc(Math.max(size, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, this.start, this.end);
      this.buffer = bigger;
    } else {
      this.buffer.copy(this.buffer, 0, this.start, this.end);
    }
    this.end -= this.start;
    this.start = 0;
    while (this.end < size) {
      const read = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, this.filePosition);
      if (read === 0) throw new VocabularyError('The GGUF file ends inside its metadata. Check that the download is complete.');
      this.end += read;
      this.filePosition += read;
    }
  }

  u8(): number {
    this.ensure(1);
    return this.buffer[this.start++]!;
  }
  u32(): number {
    this.ensure(4);
    const value = this.buffer.readUInt32LE(this.start);
    this.start += 4;
    return value;
  }
  u64(): bigint {
    this.ensure(8);
    const value = this.buffer.readBigUInt64LE(this.start);
    this.start += 8;
    return value;
  }
  count(): number {
    const value = this.u64();
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new VocabularyError('A GGUF length field is too large; the file is not GGUF or is damaged.');
    return Number(value);
  }
  bytes(length: number): Buffer {
    this.ensure(length);
    const slice = this.buffer.subarray(this.start, this.start + length);
    this.start += length;
    return slice;
  }
  string(): string {
    const length = this.count();
    return this.decoder.decode(this.bytes(length));
  }
  scalar(type: number): number | bigint | boolean {
    const size = SCALAR_SIZE[type];
    if (size === undefined) throw new VocabularyError(`Unknown GGUF value type ${type}; the file is not GGUF or is damaged.`);
    this.ensure(size);
    const at = this.start;
    this.start += size;
    const buffer = this.buffer;
    switch (type) {
      case GgufType.UINT8:
        return buffer.readUInt8(at);
      case GgufType.INT8:
        return buffer.readInt8(at);
      case GgufType.UINT16:
        return buffer.readUInt16LE(at);
      case GgufType.INT16:
        return buffer.readInt16LE(at);
      case GgufType.UINT32:
        return buffer.readUInt32LE(at);
      case GgufType.INT32:
        return buffer.readInt32LE(at);
      case GgufType.FLOAT32:
        return buffer.readFloatLE(at);
      case GgufType.BOOL:
        return buffer.readUInt8(at) !== 0;
      case GgufType.UINT64:
        return buffer.readBigUInt64LE(at);
      case GgufType.INT64:
        return buffer.readBigInt64LE(at);
      default:
        return buffer.readDoubleLE(at);
    }
  }
  value(type: number): GgufMetadataValue {
    if (type === GgufType.STRING) return this.string();
    if (type !== GgufType.ARRAY) return this.scalar(type);
    const itemType = this.u32();
    const length = this.count();
    if (itemType === GgufType.INT32 || itemType === GgufType.UINT32 || itemType === GgufType.FLOAT32) {
      const raw = this.bytes(length * 4);
      const copy = new Uint8Array(raw).buffer;
      return itemType === GgufType.INT32 ? new Int32Array(copy) : itemType === GgufType.UINT32 ? new Uint32Array(copy) : new Float32Array(copy);
    }
    const items: GgufMetadataValue[] = [];
    for (let index = 0; index < length; index++) items.push(this.value(itemType));
    return items;
  }
  skip(type: number): void {
    if (type === GgufType.STRING) {
      this.bytes(this.count());
      return;
    }
    if (type !== GgufType.ARRAY) {
      this.scalar(type);
      return;
    }
    const itemType = this.u32();
    const length = this.count();
    const size = SCALAR_SIZE[itemType];
    if (size !== undefined && itemType !== GgufType.STRING) {
      // read in bounded pieces: an array can be larger than any buffer we want to hold
      let left = length * size;
      while (left > 0) {
        const piece = Math.min(left, CHUNK);
        this.bytes(piece);
        left -= piece;
      }
      return;
    }
    for (let index = 0; index < length; index++) this.skip(itemType);
  }
}

/** The GGUF version and the metadata key/values of the file at `path` (only `keys`, when given). */
export function readGgufMetadata(path: string, keys?: ReadonlySet<string>): { version: number; metadata: Map<string, GgufMetadataValue> } {
  let reader: FileReader;
  try {
    reader = new FileReader(path);
  } catch (error) {
    throw new VocabularyError(`Cannot open the GGUF file "${path}": ${(error as Error).message}.`, { cause: error });
  }
  try {
    const magic = reader.u32();
    if (magic !== 0x46554747) throw new VocabularyError(`"${path}" is not a GGUF file (no GGUF magic). Pass a .gguf model file.`);
    const version = reader.u32();
    if (version !== 2 && version !== 3) throw new VocabularyError(`"${path}" is GGUF version ${version}; only versions 2 and 3 are read.`);
    reader.count();
    const keyCount = reader.count();
    const metadata = new Map<string, GgufMetadataValue>();
    for (let index = 0; index < keyCount; index++) {
      const key = reader.string();
      const type = reader.u32();
      if (keys === undefined || keys.has(key)) metadata.set(key, reader.value(type));
      else reader.skip(type);
    }
    return { version, metadata };
  } finally {
    reader.close();
  }
}
