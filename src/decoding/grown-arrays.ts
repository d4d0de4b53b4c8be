/**
 * The matcher memory's buffers (`written-strings.ts`) doubled when full, their contents kept.
 * @module
 */

export function grown(old: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bigger = new Uint8Array(old.length * 2);
  bigger.set(old);
  return bigger;
}

export function doubled(old: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(old.length * 2);
  bigger.set(old);
  return bigger;
}
