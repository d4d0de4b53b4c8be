/**
 * Reads the key/value metadata of a GGUF file (v2 and v3) without reading its tensors,
 * so a multi-gigabyte model costs only its header.
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 * @module
 */
import type * as fs from 'node:fs';
import { VocabularyError } from './decoding-errors.js';
import { nodeModuleFor } from './node-files.js';

/** A metadata value: numbers (64-bit integers as bigint), booleans, strings and arrays of them. */
export type GgufMetadataValue = number | bigint | boolean | string | GgufMetadataValue[] | Int32Array | Uint32Array | Float32Array;

/**
 * GGUF metadata value types, numbered as the format numbers them. The one table for
 * this reader and for the writer that makes the tiny test model (src/models/local).
 */
export const GgufValueType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;
export type GgufValueType = (typeof GgufValueType)[keyof typeof GgufValueType];

const SCALAR_SIZE: Record<number, number> = {
  [GgufValueType.UINT8]: 1,
  [GgufValueType.INT8]: 1,
  [GgufValueType.UINT16]: 2,
  [GgufValueType.INT16]: 2,
  [GgufValueType.UINT32]: 4,
  [GgufValueType.INT32]: 4,
  [GgufValueType.FLOAT32]: 4,
  [GgufValueType.BOOL]: 1,
  [GgufValueType.UINT64]: 8,
  [GgufValueType.INT64]: 8,
  [GgufValueType.FLOAT64]: 8,
};
const CHUNK = 1 << 20;

class FileReader {
  private readonly fs: typeof fs;
  private readonly fd: number;
  private buffer = Buffer.alloc(CHUNK);
  private start = 0;
  private end = 0;
  private filePosition = 0;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(files: typeof fs, path: string) {
    this.fs = files;
    this.fd = files.openSync(path, 'r');
  }

  close(): void {
    this.fs.closeSync(this.fd);
  }

  /** Bytes consumed from the file's start. */
  get position(): number {
    return this.filePosition - (this.end - this.start);
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
      const read = this.fs.readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, this.filePosition);
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
      case GgufValueType.UINT8:
        return buffer.readUInt8(at);
      case GgufValueType.INT8:
        return buffer.readInt8(at);
      case GgufValueType.UINT16:
        return buffer.readUInt16LE(at);
      case GgufValueType.INT16:
        return buffer.readInt16LE(at);
      case GgufValueType.UINT32:
        return buffer.readUInt32LE(at);
      case GgufValueType.INT32:
        return buffer.readInt32LE(at);
      case GgufValueType.FLOAT32:
        return buffer.readFloatLE(at);
      case GgufValueType.BOOL:
        return buffer.readUInt8(at) !== 0;
      case GgufValueType.UINT64:
        return buffer.readBigUInt64LE(at);
      case GgufValueType.INT64:
        return buffer.readBigInt64LE(at);
      default:
        return buffer.readDoubleLE(at);
    }
  }
  value(type: number): GgufMetadataValue {
    if (type === GgufValueType.STRING) return this.string();
    if (type !== GgufValueType.ARRAY) return this.scalar(type);
    const itemType = this.u32();
    const length = this.count();
    if (itemType === GgufValueType.INT32 || itemType === GgufValueType.UINT32 || itemType === GgufValueType.FLOAT32) {
      const raw = this.bytes(length * 4);
      const copy = new Uint8Array(raw).buffer;
      return itemType === GgufValueType.INT32 ? new Int32Array(copy) : itemType === GgufValueType.UINT32 ? new Uint32Array(copy) : new Float32Array(copy);
    }
    const items: GgufMetadataValue[] = [];
    for (let index = 0; index < length; index++) items.push(this.value(itemType));
    return items;
  }
  skip(type: number): void {
    if (type === GgufValueType.STRING) {
      this.bytes(this.count());
      return;
    }
    if (type !== GgufValueType.ARRAY) {
      this.scalar(type);
      return;
    }
    const itemType = this.u32();
    const length = this.count();
    const size = SCALAR_SIZE[itemType];
    if (size !== undefined && itemType !== GgufValueType.STRING) {
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

/**
 * The GGUF version and the metadata key/values of the file at `path` (only `keys`, when given),
 * and where the metadata ends (the tensor infos follow).
 */
export function readGgufMetadata(path: string, keys?: ReadonlySet<string>): { version: number; metadata: Map<string, GgufMetadataValue>; metadataEnd: number } {
  const files = nodeModuleFor('node:fs', 'readGgufMetadata');
  let reader: FileReader;
  try {
    reader = new FileReader(files, path);
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
    return { version, metadata, metadataEnd: reader.position };
  } finally {
    reader.close();
  }
}
