/**
 * What the growth benches (`bench:detectors`, `bench:stream`) share: the sizes they time, doubling up to a maximum, and
 * the median of a case's rounds.
 * @module
 */

export const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `doublings + 1` sizes, each twice the one before, ending at `max`. */
export const doublingSizes = (max: number, doublings: number): number[] =>
  Array.from({ length: doublings + 1 }, (_, step) => Math.round(max / 2 ** (doublings - step)));
