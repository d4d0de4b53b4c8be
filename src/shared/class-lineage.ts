/**
 * Per-class `isInstance` checks that also hold across two loaded copies of the
 * package, where `instanceof` fails: each instance records the names of its
 * classes under a registry symbol, and a check asks for the caller's own name.
 * @module
 */

type AnyConstructor = abstract new (...args: never[]) => unknown;

/** The class names from `constructor` up to and including `root`, most derived first. */
export function lineageOf(constructor: AnyConstructor, root: AnyConstructor): readonly string[] {
  const names: string[] = [];
  for (let current: unknown = constructor; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    names.push((current as AnyConstructor).name);
    if (current === root) break;
  }
  return Object.freeze(names);
}

/**
 * Whether `value` is an instance of `constructor` or a subclass, from this copy of
 * the package or another one. `brand` marks every instance of `root`'s family;
 * `lineage` holds what {@link lineageOf} returned for the instance's class.
 * Instances from an older copy carry the brand but no lineage: only `root` itself recognises them.
 */
export function isInstanceOfClass(constructor: AnyConstructor, root: AnyConstructor, value: unknown, brand: symbol, lineage: symbol): boolean {
  if (value instanceof constructor) return true;
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[brand] !== true) return false;
  if (constructor === root) return true;
  const names = (value as Record<symbol, unknown>)[lineage];
  return Array.isArray(names) && names.includes(constructor.name);
}
