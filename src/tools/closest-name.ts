/**
 * The candidate nearest to `name` by edit distance (case-insensitive), if it is near enough to be a plausible typo.
 *
 * `name` is whatever the model or a remote MCP client sent, of any length. A candidate whose length differs by more than
 * the tolerance allows cannot be chosen (a substring counts half its length difference, an edit distance at least all of
 * it), so it is skipped before any comparison: the cost is then bounded by the candidates' lengths, not the name's. Without
 * that, one 100,000-character name against 500 tools held the event loop for 12 s.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const target = name.toLowerCase();
  const tolerance = Math.max(2, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const lengthDifference = Math.abs(lower.length - target.length);
    if (lengthDifference > 2 * tolerance) continue;
    const substring = lower.includes(target) || target.includes(lower);
    if (!substring && lengthDifference > tolerance) continue;
    const distance = substring ? lengthDifference * 0.5 : editDistance(target, lower);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return bestDistance <= tolerance ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
