/**
 * Where one look-ahead stands: the automaton states it found, nearest first, and how far it
 * has got through them. A matcher keeps one per origin state, so `lookAhead` resumes where
 * it stopped as long as the generation stays put, and starts over from the new state once it
 * moves (the grammar keeps each state's successors, so starting over walks nothing twice).
 * @module
 */

export class LookAheadFrontier {
  /** The state the look-ahead started from. */
  readonly origin: number;
  /** Most tokens from `origin` to a state whose successors are queued (Infinity: no limit). */
  readonly maxTokens: number;
  /** States found, in the order they are looked at. */
  readonly order: number[] = [];
  /** Per entry of `order`: how many tokens lead there from `origin` (fewest found). */
  readonly tokensTo: number[] = [];
  /** States reached only by a token ending inside an escape or a multi-byte character: looked at after the others. */
  later: number[] = [];
  laterTokensTo: number[] = [];
  /** True once a state's successors were left out for lying past `maxTokens`: finishing then does not mean everything reachable was seen. */
  cut = false;
  /** Index in `order` of the next state to look at. */
  at = 0;
  /** True once nothing reachable from `origin` is left to look at (or a state budget stopped it). */
  finished = false;
  /** Per state: 1 queued in `order`, 2 waiting in `later`, 0 not found (grown on demand). */
  private queued: Uint8Array;
  /** Per mask base: 1 once its successors were queued. */
  private expanded: Uint8Array;

  constructor(origin: number, stateCount: number, maxTokens = Infinity) {
    this.origin = origin;
    this.maxTokens = maxTokens;
    const size = Math.max(64, stateCount * 2);
    this.queued = new Uint8Array(size);
    this.expanded = new Uint8Array(size);
    this.enqueue(origin, 0);
  }

  enqueue(state: number, tokens: number): void {
    if (state >= this.queued.length) this.queued = grown(this.queued, state);
    if (this.queued[state] === 1) return;
    this.queued[state] = 1;
    this.order.push(state);
    this.tokensTo.push(tokens);
  }

  enqueueLater(state: number, tokens: number): void {
    if (state >= this.queued.length) this.queued = grown(this.queued, state);
    if (this.queued[state] !== 0) return;
    this.queued[state] = 2;
    this.later.push(state);
    this.laterTokensTo.push(tokens);
  }

  /** Marks `base` expanded; false when it already was. */
  expand(base: number): boolean {
    if (base >= this.expanded.length) this.expanded = grown(this.expanded, base);
    if (this.expanded[base] === 1) return false;
    this.expanded[base] = 1;
    return true;
  }
}

function grown(table: Uint8Array, index: number): Uint8Array {
  const bigger = new Uint8Array(Math.max(index + 1, table.length * 2));
  bigger.set(table);
  return bigger;
}
