import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../shared/seeded-random.js';
import { closestName } from './closest-name.js';

/** The suggestion before candidates were skipped by length: every candidate compared in full. */
function closestNameComparingAll(name: string, candidates: readonly string[]): string | undefined {
  const target = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const distance = lower.includes(target) || target.includes(lower) ? Math.abs(lower.length - target.length) * 0.5 : levenshtein(target, lower);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(target.length / 3)) ? best : undefined;
}

function levenshtein(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return rows[a.length]![b.length]!;
}

describe('closestName', () => {
  const names = ['get_invoices', 'get_profile', 'search_products', 'update_subscription'];
  it('finds a typo', () => expect(closestName('get_invoice', names)).toBe('get_invoices'));
  it('is case-insensitive', () => expect(closestName('Get_Profile', names)).toBe('get_profile'));
  it('finds a name the model shortened', () => expect(closestName('update_subscription_plan', names)).toBe('update_subscription'));
  it('suggests nothing for an unrelated name', () => expect(closestName('send_email', names)).toBeUndefined());

  it('suggests what comparing every candidate in full suggests (seeded names, typos, prefixes and extensions)', () => {
    const random = mulberry32(5);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const word = () => Array.from({ length: 1 + Math.floor(random() * 14) }, () => pick([...'abcde_'])).join('');
    for (let trial = 0; trial < 2_000; trial++) {
      const candidates = Array.from({ length: 1 + Math.floor(random() * 6) }, word);
      const base = pick(candidates);
      const name = pick([word(), base.slice(1), `${base}${word()}`, base.replace(/.$/, 'x'), `${word()}${base}`, base.toUpperCase()]);
      expect(closestName(name, candidates), `${name} among ${candidates.join(', ')}`).toBe(closestNameComparingAll(name, candidates));
    }
  });

  it('answers a name of any length without comparing it to every candidate in full', () => {
    // 100,000 characters against 500 tools took 12 s before; the bound is a liveness check, about 100 times today's cost
    const many = Array.from({ length: 500 }, (_, index) => `tool_number_${index}_with_a_longer_name_here`);
    expect(closestName('x'.repeat(1_000_000), many)).toBeUndefined();
    expect(closestName(`${'tool_number_7_with_a_longer_name_here'}${'x'.repeat(10)}`, many)).toBe('tool_number_7_with_a_longer_name_here');
  }, 5_000);
});
