/** Reads a property only if the object owns it, so model-chosen keys such as `constructor` or `__proto__` never reach the prototype. */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype || proto === null) return true;
  // An object made in another realm (a VM context, as Vercel's edge runtime evaluates code in) has that realm's
  // Object.prototype: the root of its chain, tagged as a plain object. A class instance has one more link.
  return Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === '[object Object]';
}
