/**
 * The vocabulary as a byte trie stored flat in depth-first order (llguidance's toktrie
 * layout): a mask walk is one forward loop over typed arrays, and a dead byte skips
 * its whole subtree by jumping to `nodeEnd`.
 * @module
 */

/** A trie's arrays, as a vocabulary index file stores them (`vocabulary-index-file.ts`). */
export interface TokenTrieArrays {
  readonly nodeByte: Uint8Array;
  readonly nodeDepth: Uint16Array;
  readonly nodeEnd: Uint32Array;
  readonly nodeToken: Int32Array;
  readonly nextSameBytes: Int32Array;
  readonly maxDepth: number;
}

export class TokenTrie {
  /** Number of nodes (the root is implicit and not stored). */
  readonly nodeCount: number;
  /** Byte on the edge into each node. */
  readonly nodeByte: Uint8Array;
  /** Depth of each node: 1 for a token's first byte. */
  readonly nodeDepth: Uint16Array;
  /** Index just past each node's subtree. */
  readonly nodeEnd: Uint32Array;
  /** First token whose bytes end exactly at this node, or -1. */
  readonly nodeToken: Int32Array;
  /** Per token id: the next token with identical bytes, or -1 (SentencePiece byte fallback duplicates plain tokens). */
  readonly nextSameBytes: Int32Array;
  /** Longest token in bytes. */
  readonly maxDepth: number;

  private constructor(nodeByte: Uint8Array, nodeDepth: Uint16Array, nodeEnd: Uint32Array, nodeToken: Int32Array, nextSameBytes: Int32Array, maxDepth: number) {
    this.nodeCount = nodeByte.length;
    this.nodeByte = nodeByte;
    this.nodeDepth = nodeDepth;
    this.nodeEnd = nodeEnd;
    this.nodeToken = nodeToken;
    this.nextSameBytes = nextSameBytes;
    this.maxDepth = maxDepth;
  }

  /**
   * Builds the trie over the tokens `ids` (each must have at least one byte).
   * `bytes`/`offsets` hold every token's bytes back to back; `idSpace` sizes `nextSameBytes`.
   */
  static build(bytes: Uint8Array, offsets: Uint32Array, ids: ArrayLike<number>, idSpace: number): TokenTrie {
    const order = sortByBytes(bytes, offsets, ids);
    let totalBytes = 0;
    for (let index = 0; index < order.length; index++) totalBytes += offsets[order[index]! + 1]! - offsets[order[index]!]!;

    const nodeByte = new Uint8Array(totalBytes);
    const nodeDepth = new Uint16Array(totalBytes);
    const nodeEnd = new Uint32Array(totalBytes);
    const nodeToken = new Int32Array(totalBytes).fill(-1);
    const nextSameBytes = new Int32Array(idSpace).fill(-1);
    const chainTail = new Int32Array(totalBytes).fill(-1);
    const path = new Int32Array(65536);
    let pathLength = 0;
    let count = 0;
    let maxDepth = 0;
    let previousStart = 0;
    let previousLength = 0;
    for (let index = 0; index < order.length; index++) {
      const id = order[index]!;
      const start = offsets[id]!;
      const length = offsets[id + 1]! - start;
      let common = 0;
      const limit = Math.min(previousLength, length);
      while (common < limit && bytes[previousStart + common] === bytes[start + common]) common++;
      while (pathLength > common) nodeEnd[path[--pathLength]!] = count;
      for (let depth = common; depth < length; depth++) {
        nodeByte[count] = bytes[start + depth]!;
        nodeDepth[count] = depth + 1;
        path[pathLength++] = count;
        count++;
      }
      const node = path[length - 1]!;
      if (nodeToken[node] === -1) nodeToken[node] = id;
      else nextSameBytes[chainTail[node]!] = id;
      chainTail[node] = id;
      if (length > maxDepth) maxDepth = length;
      previousStart = start;
      previousLength = length;
    }
    while (pathLength > 0) nodeEnd[path[--pathLength]!] = count;
    return new TokenTrie(nodeByte.slice(0, count), nodeDepth.slice(0, count), nodeEnd.slice(0, count), nodeToken.slice(0, count), nextSameBytes, maxDepth);
  }

  private tokenOrderCache: Int32Array | undefined;
  private tokenStartCache: Uint32Array | undefined;

  /** The arrays as they are (views, not copies), for storing the trie. */
  toArrays(): TokenTrieArrays {
    const { nodeByte, nodeDepth, nodeEnd, nodeToken, nextSameBytes, maxDepth } = this;
    return { nodeByte, nodeDepth, nodeEnd, nodeToken, nextSameBytes, maxDepth };
  }

  /** A trie over stored arrays (kept as they are: no copy). */
  static fromArrays(arrays: TokenTrieArrays): TokenTrie {
    return new TokenTrie(arrays.nodeByte, arrays.nodeDepth, arrays.nodeEnd, arrays.nodeToken, arrays.nextSameBytes, arrays.maxDepth);
  }

  /** Every token in node (DFS) order, identical-bytes tokens together: a subtree's tokens form one slice. */
  get tokenOrder(): Int32Array {
    this.buildTokenOrder();
    return this.tokenOrderCache!;
  }

  /** Per node (and one past the last): where its subtree's tokens start in `tokenOrder`. */
  get tokenStart(): Uint32Array {
    this.buildTokenOrder();
    return this.tokenStartCache!;
  }

  private buildTokenOrder(): void {
    if (this.tokenOrderCache !== undefined) return;
    // typed arrays, not a growing list: an index file leaves this to the first content walk, inside the first compile
    const order = new Int32Array(this.nextSameBytes.length);
    const start = new Uint32Array(this.nodeCount + 1);
    let count = 0;
    for (let node = 0; node < this.nodeCount; node++) {
      start[node] = count;
      for (let token = this.nodeToken[node]!; token >= 0 && count < order.length; token = this.nextSameBytes[token]!) order[count++] = token;
    }
    start[this.nodeCount] = count;
    this.tokenOrderCache = order.slice(0, count);
    this.tokenStartCache = start;
  }

  /** Per node: 1 when every byte below it (not its own) is in `members` (a 256-entry table). */
  descendantsWithin(members: Uint8Array): Uint8Array {
    const within = new Uint8Array(this.nodeCount);
    // in reverse DFS order a node's children come just before it: `pending[d]` gathers the
    // verdict of the depth-d nodes seen since their parent (at depth d-1) last consumed it
    const pending = new Uint8Array(this.maxDepth + 2).fill(1);
    for (let node = this.nodeCount - 1; node >= 0; node--) {
      const depth = this.nodeDepth[node]!;
      const below = pending[depth + 1]!;
      within[node] = below;
      pending[depth + 1] = 1;
      if (members[this.nodeByte[node]!] !== 1 || below === 0) pending[depth] = 0;
    }
    return within;
  }

  /** Bytes held by the flat arrays, for memory reports. */
  byteSize(): number {
    return (
      this.nodeByte.byteLength +
      this.nodeDepth.byteLength +
      this.nodeEnd.byteLength +
      this.nodeToken.byteLength +
      this.nextSameBytes.byteLength +
      (this.tokenOrderCache?.byteLength ?? 0) +
      (this.tokenStartCache?.byteLength ?? 0)
    );
  }
}

/**
 * Token ids in byte order (a prefix before its extensions): a counting sort on the first
 * two bytes, then a comparison sort inside each (small) bucket — several times faster
 * than comparing whole keys for 150k–260k tokens.
 */
function sortByBytes(bytes: Uint8Array, offsets: Uint32Array, ids: ArrayLike<number>): Uint32Array {
  const bucketOf = (id: number): number => {
    const start = offsets[id]!;
    const length = offsets[id + 1]! - start;
    return bytes[start]! * 257 + (length > 1 ? bytes[start + 1]! + 1 : 0);
  };
  const counts = new Uint32Array(256 * 257 + 1);
  for (let index = 0; index < ids.length; index++) counts[bucketOf(ids[index]!) + 1]!++;
  for (let bucket = 1; bucket < counts.length; bucket++) counts[bucket]! += counts[bucket - 1]!;
  const order = new Uint32Array(ids.length);
  const next = counts.slice(0, counts.length - 1);
  for (let index = 0; index < ids.length; index++) order[next[bucketOf(ids[index]!)]!++] = ids[index]!;
  const compare = (left: number, right: number): number => {
    let leftAt = offsets[left]! + 2;
    let rightAt = offsets[right]! + 2;
    const leftEnd = offsets[left + 1]!;
    const rightEnd = offsets[right + 1]!;
    while (leftAt < leftEnd && rightAt < rightEnd) {
      const difference = bytes[leftAt]! - bytes[rightAt]!;
      if (difference !== 0) return difference;
      leftAt++;
      rightAt++;
    }
    return leftEnd - leftAt - (rightEnd - rightAt) || left - right;
  };
  for (let bucket = 0; bucket < counts.length - 1; bucket++) {
    const start = counts[bucket]!;
    const end = counts[bucket + 1]!;
    if (end - start > 1) order.subarray(start, end).sort(compare);
  }
  return order;
}
