/**
 * JSON parsing for untrusted text (model output, wire payloads): never throws,
 * reports where the text broke, and refuses keys that enable prototype pollution
 * (`__proto__`, and `constructor.prototype`), as secure-json-parse does.
 * Optional limits bound nesting depth and size, for text before it is parsed
 * and for values that arrive already parsed; every walk here is iterative.
 * @module
 */
import { escapePointer } from './json-schema/json-pointer.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.js';

/** Kept here for the modules that import it from safe-json; the definition lives with the other JSON Pointer helpers. */
export { escapePointer };

export interface JsonParseFailure {
  /** What broke, in a sentence. */
  message: string;
  /** Zero-based character offset of the problem, when known. */
  position?: number;
  /** One-based line and column of the problem, when known. */
  line?: number;
  column?: number;
  /** The text around the problem, with `⟪here⟫` marking the spot. */
  excerpt?: string;
  /** Set when the text broke a {@link JsonLimits} bound (it was then not parsed). */
  limit?: JsonLimitExceeded;
  /** Set when the JSON is valid but holds a key that could alter object prototypes. */
  forbiddenKey?: ForbiddenKey;
}

/** Bounds on untrusted JSON. */
export interface JsonLimits {
  /** How many containers (objects, arrays) may sit inside one another: `{}` nests 1 deep, `{"a": [1]}` 2. */
  maxDepth: number;
  /** How long its JSON text may be, in characters. For a value that is already parsed, the length of its compact JSON text, strings counted without escapes. */
  maxChars: number;
}

/** Which bound was broken. `found` is exact unless `atLeast` is set (the walk stopped once the size bound was passed). */
export interface JsonLimitExceeded {
  limit: keyof JsonLimits;
  max: number;
  found: number;
  atLeast: boolean;
}

/** A key that could alter object prototypes, and the JSON pointer of the object holding it. */
export interface ForbiddenKey {
  key: '__proto__' | 'constructor.prototype';
  path: string;
}

export type JsonParseResult = { success: true; value: unknown } | { success: false; error: JsonParseFailure };

const EXCERPT_RADIUS = 24;

/** Parses untrusted JSON text. With `limits`, text over either bound is refused before `JSON.parse` sees it. */
export function safeParseJson(text: string, limits?: JsonLimits): JsonParseResult {
  if (limits !== undefined) {
    const exceeded = checkJsonText(text, limits);
    if (exceeded !== undefined) return { success: false, error: { message: describeLimit(exceeded), limit: exceeded } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { success: false, error: describeSyntaxError(text, error) };
  }
  if (!mayHoldForbiddenKey(text)) return { success: true, value };
  const { forbiddenKey } = inspectJsonValue(value);
  if (forbiddenKey !== undefined) return { success: false, error: { message: describeForbiddenKey(forbiddenKey), forbiddenKey } };
  return { success: true, value };
}

/**
 * Whether JSON text could spell a forbidden key. A key's letters appear either as they are or as `\u` escapes (no
 * other JSON escape yields a letter or `_`), so text with neither spelling needs no walk: three substring searches
 * cost far less than walking the parsed value, and nearly every message takes this path.
 */
function mayHoldForbiddenKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

/** `the key "__proto__" at /a/0 is not allowed (…); rename or remove it` */
export function describeForbiddenKey(forbidden: ForbiddenKey): string {
  return `the key "${forbidden.key}" at ${forbidden.path || '/'} is not allowed (it could alter object prototypes); rename or remove it`;
}

export function describeLimit(exceeded: JsonLimitExceeded): string {
  const found = `${exceeded.atLeast ? 'at least ' : ''}${exceeded.found}`;
  return exceeded.limit === 'maxDepth'
    ? `the JSON nests ${found} levels deep; the limit is ${exceeded.max}`
    : `the JSON text is ${found} characters long; the limit is ${exceeded.max}`;
}

/**
 * Checks JSON text against the limits without parsing it: its length first,
 * then one linear scan for the deepest bracket outside strings (so the text
 * need not be valid JSON for its depth to be known).
 */
export function checkJsonText(text: string, limits: JsonLimits): JsonLimitExceeded | undefined {
  if (text.length > limits.maxChars) return { limit: 'maxChars', max: limits.maxChars, found: text.length, atLeast: false };
  const depth = jsonTextDepth(text);
  if (depth > limits.maxDepth) return { limit: 'maxDepth', max: limits.maxDepth, found: depth, atLeast: false };
  return undefined;
}

/** The deepest nesting of `{`/`[` outside strings; with `stopAbove`, returns as soon as the nesting passes it. */
export function jsonTextDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && depth > 0) depth--;
  }
  return deepest;
}

/** What {@link inspectJsonValue} found; each field is set only when there is something to report. */
export interface JsonValueInspection {
  exceeded?: JsonLimitExceeded;
  forbiddenKey?: ForbiddenKey;
}

interface WalkEntry {
  value: unknown;
  depth: number;
  parent: WalkEntry | undefined;
  /** The key or index under which `parent` holds this value. */
  segment: string;
}

/**
 * Walks a parsed value once, without recursion: measures its depth and its
 * compact JSON size, and finds keys that could alter prototypes. With limits,
 * the walk stops as soon as the size bound is passed, so its work is bounded
 * by `maxChars` whatever the value (a cyclic value is reported as too large).
 * Reported in this order: a broken depth bound, a broken size bound, a forbidden key.
 */
export function inspectJsonValue(
  root: unknown,
  limits: JsonLimits = { maxDepth: Number.POSITIVE_INFINITY, maxChars: Number.POSITIVE_INFINITY },
): JsonValueInspection {
  const stack: WalkEntry[] = [{ value: root, depth: 0, parent: undefined, segment: '' }];
  let size = 0;
  let deepest = 0;
  let forbiddenKey: ForbiddenKey | undefined;
  let stopped = false;
  walk: while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    if (typeof value !== 'object' || value === null) {
      size += primitiveSize(value);
      if (size > limits.maxChars) {
        stopped = true;
        break;
      }
      continue;
    }
    const childDepth = depth + 1;
    if (childDepth > deepest) deepest = childDepth;
    size += 2;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        size += 1;
        if (size > limits.maxChars) {
          stopped = true;
          break walk;
        }
        stack.push({ value: value[index], depth: childDepth, parent: entry, segment: String(index) });
      }
      continue;
    }
    // for…in stops early on an object with a million keys, where Object.keys would list them all first.
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const child = (value as Record<string, unknown>)[key];
      if (forbiddenKey === undefined) {
        if (key === '__proto__') forbiddenKey = { key: '__proto__', path: pointerOf(entry) };
        else if (key === 'constructor' && typeof child === 'object' && child !== null && Object.prototype.hasOwnProperty.call(child, 'prototype')) {
          forbiddenKey = { key: 'constructor.prototype', path: pointerOf(entry) };
        }
      }
      size += key.length + 4;
      if (size > limits.maxChars) {
        stopped = true;
        break walk;
      }
      stack.push({ value: child, depth: childDepth, parent: entry, segment: key });
    }
  }
  const inspection: JsonValueInspection = {};
  if (deepest > limits.maxDepth) inspection.exceeded = { limit: 'maxDepth', max: limits.maxDepth, found: deepest, atLeast: stopped };
  else if (stopped) inspection.exceeded = { limit: 'maxChars', max: limits.maxChars, found: size, atLeast: true };
  if (forbiddenKey !== undefined) inspection.forbiddenKey = forbiddenKey;
  return inspection;
}

function primitiveSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    default:
      return 4;
  }
}

/** Built only when a forbidden key is found, so deep values never pay for paths. */
function pointerOf(entry: WalkEntry): string {
  const segments: string[] = [];
  for (let current: WalkEntry | undefined = entry; current?.parent !== undefined; current = current.parent) segments.push(escapePointer(current.segment));
  return segments.length === 0 ? '' : '/' + segments.reverse().join('/');
}

function describeSyntaxError(text: string, error: unknown): JsonParseFailure {
  const raw = error instanceof Error ? error.message : String(error);
  if (text.trim() === '') return { message: 'the text is empty; expected a JSON value such as {}' };
  const positionMatch = /position (\d+)/.exec(raw);
  let position = positionMatch ? Number(positionMatch[1]) : undefined;
  if (position === undefined && /end of (JSON|data) input|Unterminated/i.test(raw)) position = text.length;
  // V8 messages start with a useful phrase but repeat the whole input for short texts; keep the phrase.
  const reason = raw
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/^Unexpected token '(.)'.*$/s, "unexpected character '$1'")
    .replace(/^Unexpected end of JSON input$/, 'the text ends before the JSON value is complete')
    .trim();
  const failure: JsonParseFailure = { message: lowerFirst(reason) };
  if (position !== undefined) {
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    const start = Math.max(0, position - EXCERPT_RADIUS);
    const end = Math.min(text.length, position + EXCERPT_RADIUS);
    const excerpt = (start > 0 ? '…' : '') + text.slice(start, position) + '⟪here⟫' + text.slice(position, end) + (end < text.length ? '…' : '');
    Object.assign(failure, { position, line, column, excerpt });
  }
  return failure;
}

function lowerFirst(text: string): string {
  return text.length === 0 ? text : text[0]!.toLowerCase() + text.slice(1);
}
