/**
 * JSON Pointer (RFC 6901): one spelling of "where in the document" for every
 * module, plain (`/a~1b/0`) and as a URI fragment (`#/a~1b/0`, percent-encoded).
 * @module
 */

/** One reference token, escaped: `~` → `~0` first, then `/` → `~1` (RFC 6901 §3). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One reference token, unescaped: `~1` → `/` first, then `~0` → `~`, so `~01` stays `~1` (RFC 6901 §4). */
export function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `['a/b', 0]` → `/a~1b/0`; `[]` → `''` (the whole document). */
export function encodePointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${escapePointer(String(segment))}`).join('');
}

/** `base` extended by the segments, e.g. `appendPointer('#/$defs', 'a/b')` → `#/$defs/a~1b`. */
export function appendPointer(base: string, ...segments: (string | number)[]): string {
  return base + encodePointer(segments);
}

/**
 * `/a~1b/0` → `['a/b', '0']`; `''` → `[]`. Undefined when the text is not a pointer:
 * it does not start with `/`, or a `~` is not followed by `0` or `1`.
 */
export function decodePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/') || /~(?![01])/.test(pointer)) return undefined;
  return pointer.slice(1).split('/').map(unescapePointer);
}

/**
 * The pointer a URI fragment spells (without or with its `#`): percent-decoded, then
 * decoded as a pointer (RFC 6901 §6). Undefined for a malformed escape or a fragment
 * that is not a pointer (such as a plain-name `$anchor`).
 */
export function decodePointerFragment(fragment: string): string[] | undefined {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return undefined;
  }
  return decodePointer(decoded);
}

/**
 * One token of a `$ref`'s pointer fragment as the registry's Ajv reads it (`unescapeFragment`, after splitting the
 * fragment at every `/`): percent-decoded, then `~1`, `~0` unescaped. So `%2F` is a slash inside one name (RFC 6901 §6
 * would decode it first, into two), and a `~` before any other character stays a `~`. Undefined for a malformed
 * percent escape, which Ajv refuses.
 */
export function decodeReferenceToken(token: string): string | undefined {
  try {
    return unescapePointer(decodeURIComponent(token));
  } catch {
    return undefined;
  }
}

/** The segments as a URI fragment with its `#`, percent-encoding what a fragment may not hold. */
export function encodePointerFragment(segments: readonly (string | number)[]): string {
  // encodeURIComponent leaves only unreserved characters; `/`, `$`, `~` and the other sub-delims are legal in a fragment.
  return '#' + segments.map((segment) => `/${encodeURIComponent(escapePointer(String(segment))).replace(/%24/g, '$')}`).join('');
}

/** The value at the pointer's segments, through objects (own keys only) and arrays (decimal indices); undefined when absent. */
export function valueAtPointer(document: unknown, segments: readonly string[]): unknown {
  let current = document;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null && Object.prototype.hasOwnProperty.call(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}
