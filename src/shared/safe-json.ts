/**
 * JSON parsing for untrusted text (model output, wire payloads): never throws,
 * reports where the text broke, and refuses keys that enable prototype pollution
 * (`__proto__`, and `constructor.prototype`), as secure-json-parse does.
 * @module
 */

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
}

export type JsonParseResult = { success: true; value: unknown } | { success: false; error: JsonParseFailure };

const EXCERPT_RADIUS = 24;

export function safeParseJson(text: string): JsonParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { success: false, error: describeSyntaxError(text, error) };
  }
  const forbidden = findForbiddenKey(value, '');
  if (forbidden !== undefined) {
    return {
      success: false,
      error: { message: `the key "${forbidden.key}" at ${forbidden.path || '/'} is not allowed (it could alter object prototypes); rename or remove it` },
    };
  }
  return { success: true, value };
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
    const excerpt =
      (start > 0 ? '…' : '') + text.slice(start, position) + '⟪here⟫' + text.slice(position, end) + (end < text.length ? '…' : '');
    Object.assign(failure, { position, line, column, excerpt });
  }
  return failure;
}

function lowerFirst(text: string): string {
  return text.length === 0 ? text : text[0]!.toLowerCase() + text.slice(1);
}

// Iterative on purpose: model output can nest deeper than the call stack allows.
function findForbiddenKey(root: unknown, rootPath: string): { key: string; path: string } | undefined {
  const stack: { value: unknown; path: string }[] = [{ value: root, path: rootPath }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: `${path}/${index}` });
      continue;
    }
    const keys = Object.keys(value);
    for (const key of keys) {
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__') return { key, path };
      if (key === 'constructor' && typeof child === 'object' && child !== null && Object.prototype.hasOwnProperty.call(child, 'prototype')) {
        return { key: 'constructor.prototype', path };
      }
    }
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      stack.push({ value: (value as Record<string, unknown>)[key], path: `${path}/${escapePointer(key)}` });
    }
  }
  return undefined;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
