/**
 * Turns a token mask (bit i set = token i allowed) into the token bias that
 * node-llama-cpp hands to llama.cpp each sampling step. The smaller of two
 * exact encodings is used: +1000 logits on the allowed tokens (an allow-list),
 * or −∞ on the disallowed ones (a deny-list, which must also name every
 * end-of-generation token). Biases are cached by mask content, since a JSON
 * grammar revisits few distinct masks.
 *
 * node-llama-cpp 3.21.1's public `TokenBias.set()` re-tokenizes per entry and
 * silently ignores end-of-generation tokens, so the bias's internal entry list
 * is replaced by a typed view; `supportsInternalBias` guards that assumption
 * and the public API is the fallback. See shared notes on node-llama-cpp.
 * @module
 */
import type { LlamaModel, Token, TokenBias } from 'node-llama-cpp';

/** +1000 logits leaves every other token at probability exactly 0 in float32, and keeps relative logits inside the allowed set. */
const ALLOW_LOGIT = 1000;
const MAX_CACHED_BIASES = 512;

type TokenBiasConstructor = new (tokenizer: LlamaModel['tokenizer']) => TokenBias;

/** Where a bias keeps its entries as typed arrays, for the fast path below. */
const TYPED_ENTRIES = Symbol('toolwright.typed-bias');

interface TypedEntries {
  keys: Uint32Array;
  values: Float32Array;
}

/**
 * Lets a context sequence take a mask bias's typed arrays as they are, instead of
 * node-llama-cpp copying every entry through JS arrays each step (about 0.25 µs
 * per entry: 4 ms for a 17k-token allow-list). It wraps this one sequence's
 * internal `_resolveSamplerConfig` (3.21.1), and only for biases built here;
 * returns false, changing nothing, when the internals differ.
 */
export function installTypedBiasFastPath(sequence: object): boolean {
  const target = sequence as { _resolveSamplerConfig?: (options: Record<string, unknown>) => Record<string, unknown> };
  const original = target._resolveSamplerConfig;
  if (typeof original !== 'function') return false;
  target._resolveSamplerConfig = function (options: Record<string, unknown>) {
    const bias = typeof options.tokenBias === 'function' ? (options.tokenBias as () => unknown)() : options.tokenBias;
    const typed = typeof bias === 'object' && bias !== null ? (bias as Record<symbol, TypedEntries | undefined>)[TYPED_ENTRIES] : undefined;
    if (!typed) return original.call(this, { ...options, tokenBias: bias });
    const config = original.call(this, { ...options, tokenBias: undefined });
    if (typed.keys.length > 0) {
      config.tokenBiasKeys = typed.keys;
      config.tokenBiasValues = typed.values;
    }
    return config;
  };
  return true;
}

/** An iterable of `[token, logit]` pairs over typed arrays, in the shape node-llama-cpp reads `_biases` in. */
class TypedBiasEntries {
  constructor(
    readonly ids: Uint32Array,
    readonly logit: number,
  ) {}
  get size(): number {
    return this.ids.length;
  }
  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let index = 0; index < this.ids.length; index++) yield [this.ids[index]!, this.logit];
  }
}

export interface MaskBiasStats {
  /** Biases built (cache misses). */
  built: number;
  /** Biases served from the cache. */
  reused: number;
  /** Entries written into all built biases. */
  entries: number;
}

export class MaskBiasBuilder {
  readonly #TokenBias: TokenBiasConstructor;
  readonly #model: LlamaModel;
  readonly #vocabSize: number;
  readonly #endOfGeneration: Uint32Array;
  readonly #internal: boolean;
  readonly #cache = new Map<string, TokenBias>();
  /** Scratch list of ids, reused across calls. */
  readonly #scratch: Uint32Array;
  readonly stats: MaskBiasStats = { built: 0, reused: 0, entries: 0 };

  constructor(TokenBiasClass: TokenBiasConstructor, model: LlamaModel, vocabSize: number, endOfGenerationIds: readonly number[]) {
    this.#TokenBias = TokenBiasClass;
    this.#model = model;
    this.#vocabSize = vocabSize;
    this.#endOfGeneration = Uint32Array.from(endOfGenerationIds);
    this.#scratch = new Uint32Array(vocabSize);
    const probe = new TokenBiasClass(model.tokenizer) as unknown as { _biases?: unknown };
    this.#internal = probe._biases instanceof Map;
  }

  /** Whether the exact typed path is available (node-llama-cpp internals as expected). */
  get supportsInternalBias(): boolean {
    return this.#internal;
  }

  /** The bias allowing exactly the tokens set in `mask` (end-of-generation tokens only if set). */
  biasFor(mask: Uint32Array): TokenBias {
    const key = maskKey(mask);
    const cached = this.#cache.get(key);
    if (cached) {
      this.stats.reused++;
      return cached;
    }
    let allowed = 0;
    for (let word = 0; word < mask.length; word++) allowed += popcount(mask[word]!);
    const useAllowList = allowed <= this.#vocabSize - allowed;
    let count = 0;
    for (let id = 0; id < this.#vocabSize; id++) {
      const set = (mask[id >>> 5]! >>> (id & 31)) & 1;
      if ((set === 1) === useAllowList) this.#scratch[count++] = id;
    }
    if (!useAllowList) {
      // A deny-list must name end-of-generation tokens itself, or the model could end mid-value.
      for (const id of this.#endOfGeneration) if (((mask[id >>> 5]! >>> (id & 31)) & 1) === 0 && id >= this.#vocabSize) this.#scratch[count++] = id;
    }
    const ids = this.#scratch.slice(0, count);
    const bias = new this.#TokenBias(this.#model.tokenizer);
    const logit = useAllowList ? ALLOW_LOGIT : -Infinity;
    if (this.#internal) (bias as unknown as { _biases: unknown })._biases = new TypedBiasEntries(ids, logit);
    else for (const id of ids) bias.set(id as Token, { logit });
    (bias as unknown as Record<symbol, TypedEntries>)[TYPED_ENTRIES] = { keys: ids, values: new Float32Array(count).fill(logit) };
    this.stats.built++;
    this.stats.entries += count;
    if (this.#cache.size >= MAX_CACHED_BIASES) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(key, bias);
    return bias;
  }
}

function popcount(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Two independent 32-bit FNV-style hashes of the mask words: collisions are out of practical reach. */
function maskKey(mask: Uint32Array): string {
  let first = 0x811c9dc5;
  let second = 0x01000193;
  for (let index = 0; index < mask.length; index++) {
    const word = mask[index]!;
    first = Math.imul(first ^ word, 0x01000193);
    second = Math.imul(second ^ (word + index), 0x5bd1e995) ^ (second >>> 15);
  }
  return `${(first >>> 0).toString(36)}:${(second >>> 0).toString(36)}:${mask.length}`;
}
