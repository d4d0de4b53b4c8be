/**
 * Substring search in time linear in both lengths, for texts a model or a tool wrote. V8's `indexOf`/`includes` compare
 * in O(haystack × needle) on periodic input: `'a'.repeat(25_000) + 'b' + 'a'.repeat(25_000)` searched in 200,000 `a`s
 * took 1.5 s of blocked event loop, and calling `indexOf` again from each occurrence is quadratic on any input with many
 * overlapping occurrences. Knuth-Morris-Pratt visits each haystack character a bounded number of times.
 * @module
 */

/**
 * Calls `visit` with the start of each occurrence of `needle` in `haystack`, overlapping ones included, in order, until it
 * returns `true`; returns whether it did. An empty needle occurs nowhere.
 */
export function someOccurrence(haystack: string, needle: string, visit: (start: number) => boolean): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  const fallback = new Int32Array(needle.length);
  for (let at = 1, matched = 0; at < needle.length; at++) {
    const code = needle.charCodeAt(at);
    while (matched > 0 && code !== needle.charCodeAt(matched)) matched = fallback[matched - 1]!;
    if (code === needle.charCodeAt(matched)) matched++;
    fallback[at] = matched;
  }
  for (let at = 0, matched = 0; at < haystack.length; at++) {
    const code = haystack.charCodeAt(at);
    while (matched > 0 && code !== needle.charCodeAt(matched)) matched = fallback[matched - 1]!;
    if (code === needle.charCodeAt(matched)) matched++;
    if (matched < needle.length) continue;
    if (visit(at - needle.length + 1)) return true;
    matched = fallback[matched - 1]!;
  }
  return false;
}

/** Whether `haystack` contains `needle` (an empty needle is contained), in linear time. */
export function includesLinear(haystack: string, needle: string): boolean {
  return needle.length === 0 || someOccurrence(haystack, needle, () => true);
}
