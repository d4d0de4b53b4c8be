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
  return values.flatMap((item) =>
    Array.isArray(item.value) ? item.value.map((value: unknown, index) => ({ path: `${item.path}[${index}]`, value })) : [item],
  );
}

/**
 * Every string leaf of a value, with its path (for the copied-argument check), in document order.
 * Iterative, so no nesting depth can overflow the stack and no leaf is skipped: a depth cap here
 * would let a copied value hide below it.
 */
export function stringLeaves(value: unknown, path = ''): ArgumentValue[] {
  const out: ArgumentValue[] = [];
  const pending: ArgumentValue[] = [{ path, value }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') out.push(item);
    else if (Array.isArray(item.value)) {
      for (let index = item.value.length - 1; index >= 0; index--) pending.push({ path: `${item.path}[${index}]`, value: item.value[index] as unknown });
    } else if (isPlainObject(item.value)) {
      const keys = Object.keys(item.value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        pending.push({ path: item.path === '' ? key : `${item.path}.${key}`, value: item.value[key] });
      }
    }
  }
  return out;
}
