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
 * Every string leaf of a value, with its path (for the copied-argument check), in document order; with `withNumbers`, every
 * number leaf too (a tool's output read field by field, output-fields.ts).
 * Iterative, so no nesting depth can overflow the stack and no leaf is skipped: a depth cap here
 * would let a copied value hide below it.
 */
export function stringLeaves(value: unknown, path = '', withNumbers = false): ArgumentValue[] {
  const out: ArgumentValue[] = [];
  const pending: ArgumentValue[] = [{ path, value }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string' || (withNumbers && typeof item.value === 'number')) out.push(item);
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

/**
 * A copy of `args` in which every value at `path` (dotted; arrays on the way fan out, as in {@link readArgumentValues}) is
 * replaced by `replace(value, concretePath)`; `args` itself is not changed. Objects and arrays off the path are shared with
 * the input, not copied. A key is written with `defineProperty`, so an argument named `__proto__` stays an own property.
 */
export function mapArgumentValues(args: unknown, path: string, replace: (value: unknown, concretePath: string) => unknown): unknown {
  const segments = path === '' ? [] : path.split('.');
  // Arrays fan out one level at each point, exactly as readArgumentValues reads them.
  const visit = (value: unknown, depth: number, at: string, fanned = false): unknown => {
    if (!fanned && Array.isArray(value)) return value.map((item: unknown, index) => visit(item, depth, `${at}[${index}]`, true));
    if (depth === segments.length) return replace(value, at);
    if (!isPlainObject(value)) return value;
    const segment = segments[depth]!;
    const inner = getOwn(value, segment);
    if (inner === undefined) return value;
    const copy: Record<string, unknown> = { ...value };
    Object.defineProperty(copy, segment, {
      value: visit(inner, depth + 1, at === '' ? segment : `${at}.${segment}`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  };
  return visit(args, 0, '');
}
