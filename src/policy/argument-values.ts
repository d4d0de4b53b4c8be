/**
 * Reading arguments by a dotted path, where arrays fan out: `to` on
 * `{ to: ['a', 'b'] }` gives `to[0]` and `to[1]`. Constraints are written
 * against names, not indices, so "every recipient" is just `to`.
 * @module
 */
import { getOwn, isPlainObject } from '../shared/own.js';

/** One value found at a path, with its concrete location. */
export interface ArgumentValue {
  /** Where it was found, e.g. `to[1]` or `payment.iban`. */
  path: string;
  value: unknown;
}

/** Every value at `path` (dotted; arrays on the way fan out). A missing property gives nothing. */
export function readArgumentValues(args: unknown, path: string): ArgumentValue[] {
  const segments = path === '' ? [] : path.split('.');
  let current: ArgumentValue[] = [{ path: '', value: args }];
  for (const segment of segments) {
    const next: ArgumentValue[] = [];
    for (const item of fanOut(current)) {
      if (!isPlainObject(item.value)) continue;
      const value = getOwn(item.value, segment);
      if (value === undefined) continue;
      next.push({ path: item.path === '' ? segment : `${item.path}.${segment}`, value });
    }
    current = next;
  }
  return fanOut(current);
}

function fanOut(values: readonly ArgumentValue[]): ArgumentValue[] {
  return values.flatMap((item) => (Array.isArray(item.value) ? item.value.map((value: unknown, index) => ({ path: `${item.path}[${index}]`, value })) : [item]));
}

/** Every string leaf of a value, with its path (for the copied-argument check). */
export function stringLeaves(value: unknown, path = '', out: ArgumentValue[] = [], depth = 0): ArgumentValue[] {
  if (depth > 32) return out;
  if (typeof value === 'string') out.push({ path, value });
  else if (Array.isArray(value)) value.forEach((item: unknown, index) => stringLeaves(item, `${path}[${index}]`, out, depth + 1));
  else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) stringLeaves(value[key], path === '' ? key : `${path}.${key}`, out, depth + 1);
  }
  return out;
}
