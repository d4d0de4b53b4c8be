/**
 * The token mask's look-ahead, run in the idle time of a local generation: while llama.cpp
 * computes the next token on its own threads, the event loop is free, and the masks of the
 * states the arguments can reach next are computed then instead of at their first use.
 * @module
 */

/**
 * Look-ahead work per sampled token, in the mask's work units (a trie node visited is 1): at most 40 chunks. Once the
 * states within reach are done (a tool schema's are, after the first few tokens) a token's pump ends at its first chunk.
 */
export const DEFAULT_LOOK_AHEAD_PER_TOKEN = 200_000;
/**
 * Work units between two returns to the event loop: 0.06–0.3 ms at the median in `npm run bench:mask` on the loaded
 * development machine. A state's trie walk, or an automaton its transitions build, is never split, so one chunk can
 * take as long as that (tens of milliseconds at the p99 there: the work the first mask at that state would do anyway).
 */
export const LOOK_AHEAD_CHUNK = 5_000;

/**
 * Runs `lookAhead` in chunks of `chunk` units until `pending` settles, `lookAhead` says nothing is
 * left, or `perToken` units are spent, returning to the event loop before every chunk. Budgets are
 * counts, not deadlines: how many chunks run depends only on when the model's token arrives, and
 * the masks are the same whether a chunk ran or not. Never delays the token: it stops at the first
 * chunk boundary after `pending` settles, and never rejects (the caller awaits `pending` itself).
 */
export async function lookAheadWhilePending(
  pending: Promise<unknown>,
  lookAhead: (workUnits: number) => boolean,
  perToken: number = DEFAULT_LOOK_AHEAD_PER_TOKEN,
  chunk: number = LOOK_AHEAD_CHUNK,
): Promise<void> {
  let settled = false;
  const markSettled = (): void => {
    settled = true;
  };
  pending.then(markSettled, markSettled);
  for (let spent = 0; spent < perToken; spent += chunk) {
    await nextMacrotask();
    if (settled) return;
    if (!lookAhead(Math.min(chunk, perToken - spent))) return;
  }
}

/** A macrotask, not a microtask: the engine's completion callback and timers run in between. */
function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
