/**
 * Canonical JSON: object keys sorted, no whitespace. Two argument objects that
 * mean the same thing give the same text, so a confirmation token can be bound
 * to "these arguments" and the loop breaker can tell repeated calls apart from
 * new ones whatever key order the model used.
 * @module
 */

/** Serializes a JSON value with sorted keys; `undefined` members are dropped as `JSON.stringify` does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return sortKeys((value as { toJSON: () => unknown }).toJSON());
  // A null-prototype target: a key such as "__proto__" stays data.
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
