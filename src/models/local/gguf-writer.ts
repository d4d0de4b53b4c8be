/**
 * A dependency-free GGUF v3 writer: metadata key/values and F32 / F16 / Q8_0
 * tensors, aligned as llama.cpp expects. Used to make the project's own tiny
 * test model (tiny-model.ts, beside it; no weights can be downloaded here) and GGUF test fixtures.
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 * @module
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { InvalidArgumentError } from '../../shared/errors.js';
import { GgufValueType } from '../../decoding/read-gguf-metadata.js';

/** A typed metadata value; build with the `kv` helpers. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'u64'; value: bigint }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'i32[]'; value: readonly number[] | Int32Array }
  | { type: 'f32[]'; value: readonly number[] | Float32Array };

export const kv = {
  u32: (value: number): GgufValue => ({ type: 'u32', value }),
  i32: (value: number): GgufValue => ({ type: 'i32', value }),
  u64: (value: bigint): GgufValue => ({ type: 'u64', value }),
  f32: (value: number): GgufValue => ({ type: 'f32', value }),
  bool: (value: boolean): GgufValue => ({ type: 'bool', value }),
  string: (value: string): GgufValue => ({ type: 'string', value }),
  strings: (value: readonly string[]): GgufValue => ({ type: 'string[]', value }),
  i32s: (value: readonly number[] | Int32Array): GgufValue => ({ type: 'i32[]', value }),
  f32s: (value: readonly number[] | Float32Array): GgufValue => ({ type: 'f32[]', value }),
};

/** ggml tensor types this writer encodes. */
export type TensorType = 'F32' | 'F16' | 'Q8_0';
const GGML_TYPE: Record<TensorType, number> = { F32: 0, F16: 1, Q8_0: 8 };

export interface GgufTensor {
  name: string;
  /** ggml order: `dims[0]` is the contiguous (row) dimension. */
  dims: number[];
  type: TensorType;
  data: Float32Array;
}

const ALIGNMENT = 32;

class ByteSink {
  chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }
  i32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32LE(value);
    this.push(buffer);
  }
  u64(value: bigint | number): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.push(buffer);
  }
  f32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatLE(value);
    this.push(buffer);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const rest = this.length % ALIGNMENT;
    if (rest !== 0) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  switch (value.type) {
    case 'u32':
      sink.u32(GgufValueType.UINT32);
      sink.u32(value.value);
      return;
    case 'i32':
      sink.u32(GgufValueType.INT32);
      sink.i32(value.value);
      return;
    case 'u64':
      sink.u32(GgufValueType.UINT64);
      sink.u64(value.value);
      return;
    case 'f32':
      sink.u32(GgufValueType.FLOAT32);
      sink.f32(value.value);
      return;
    case 'bool':
      sink.u32(GgufValueType.BOOL);
      sink.push(Buffer.from([value.value ? 1 : 0]));
      return;
    case 'string':
      sink.u32(GgufValueType.STRING);
      sink.string(value.value);
      return;
    case 'string[]':
      sink.u32(GgufValueType.ARRAY);
      sink.u32(GgufValueType.STRING);
      sink.u64(value.value.length);
      for (const item of value.value) sink.string(item);
      return;
    case 'i32[]': {
      sink.u32(GgufValueType.ARRAY);
      sink.u32(GgufValueType.INT32);
      sink.u64(value.value.length);
      const array = Int32Array.from(value.value);
      sink.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
      return;
    }
    case 'f32[]': {
      sink.u32(GgufValueType.ARRAY);
      sink.u32(GgufValueType.FLOAT32);
      sink.u64(value.value.length);
      const array = Float32Array.from(value.value);
      sink.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
      return;
    }
  }
}

function toHalf(value: number): number {
  const floatView = new Float32Array(1);
  const intView = new Uint32Array(floatView.buffer);
  floatView[0] = value;
  const bits = intView[0]!;
  const sign = (bits >>> 16) & 0x8000;
  let exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  let mantissa = bits & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    mantissa = (mantissa | 0x800000) >> (1 - exponent);
    return sign | ((mantissa + 0x1000) >> 13);
  }
  if (exponent >= 31) return sign | 0x7c00;
  const rounded = mantissa + 0x1000;
  if (rounded & 0x800000) {
    mantissa = 0;
    exponent += 1;
    if (exponent >= 31) return sign | 0x7c00;
  } else mantissa = rounded;
  return sign | (exponent << 10) | (mantissa >> 13);
}

function encodeTensor(tensor: GgufTensor): Buffer {
  const { data } = tensor;
  if (tensor.type === 'F32') return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (tensor.type === 'F16') {
    const out = Buffer.alloc(data.length * 2);
    for (let index = 0; index < data.length; index++) out.writeUInt16LE(toHalf(data[index]!), index * 2);
    return out;
  }
  // Q8_0: blocks of 32 values, each a f16 scale followed by 32 signed bytes.
  if (data.length % 32 !== 0)
    throw new InvalidArgumentError(
      `Tensor ${tensor.name} has ${data.length} values; Q8_0 stores blocks of 32: pad it to a multiple of 32 or write it as F32/F16.`,
    );
  const blocks = data.length / 32;
  const out = Buffer.alloc(blocks * 34);
  for (let block = 0; block < blocks; block++) {
    let max = 0;
    for (let index = 0; index < 32; index++) max = Math.max(max, Math.abs(data[block * 32 + index]!));
    const scale = max / 127;
    const inverse = scale === 0 ? 0 : 1 / scale;
    out.writeUInt16LE(toHalf(scale), block * 34);
    for (let index = 0; index < 32; index++) out.writeInt8(Math.round(data[block * 32 + index]! * inverse), block * 34 + 2 + index);
  }
  return out;
}

/** Writes a GGUF v3 file; deterministic for the same input. */
export async function writeGguf(path: string, metadata: Record<string, GgufValue>, tensors: readonly GgufTensor[]): Promise<void> {
  const header = new ByteSink();
  header.push(Buffer.from('GGUF', 'latin1'));
  header.u32(3);
  header.u64(tensors.length);
  const entries = Object.entries({ 'general.alignment': kv.u32(ALIGNMENT), ...metadata });
  header.u64(entries.length);
  for (const [key, value] of entries) {
    header.string(key);
    writeValue(header, value);
  }
  const encoded = tensors.map(encodeTensor);
  let offset = 0;
  for (const [index, tensor] of tensors.entries()) {
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(GGML_TYPE[tensor.type]);
    header.u64(offset);
    offset += encoded[index]!.length;
    offset = Math.ceil(offset / ALIGNMENT) * ALIGNMENT;
  }
  header.pad();
  const stream = createWriteStream(path);
  for (const chunk of header.chunks) if (!stream.write(chunk)) await once(stream, 'drain');
  for (const buffer of encoded) {
    if (!stream.write(buffer)) await once(stream, 'drain');
    const rest = buffer.length % ALIGNMENT;
    if (rest !== 0) stream.write(Buffer.alloc(ALIGNMENT - rest));
  }
  stream.end();
  await once(stream, 'finish');
}
