/**
 * Deterministic pseudo-randomness for everything that must repeat under a seed (the tiny
 * test model's weights, the simulators, the adaptive attack's search order). Not for
 * secrets: neither function is cryptographic.
 * @module
 */

/** A 32-bit FNV-1a hash of the string's UTF-16 code units: a stable seed from a name. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The mulberry32 generator: numbers in [0, 1), the same sequence for the same seed on every platform. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
