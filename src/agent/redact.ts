/**
 * Redaction for run records: API keys (`sk-…`, `sk-ant-…`), bearer tokens,
 * the values of credential-named fields, and any patterns the user adds.
 * It walks values rather than serialized text, so JSON escapes are never cut.
 * @module
 */

export const REDACTED = '[REDACTED]';

/** Built-in patterns: OpenAI and Anthropic keys, and bearer tokens. */
export const DEFAULT_REDACTION_PATTERNS: readonly RegExp[] = Object.freeze([
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-[A-Za-z0-9_-]{16,}/g,
  /(?<=\bBearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi,
]);

/** Field names whose values are always redacted, whatever they hold. */
const SECRET_FIELD = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|secret|password|access[-_]?token)$/i;

export type Redactor = (value: unknown) => unknown;

/** Builds a redactor from the built-in patterns plus `extra` (strings are matched literally). */
export function createRedactor(extra: readonly (RegExp | string)[] = []): Redactor {
  const patterns = [
    ...DEFAULT_REDACTION_PATTERNS,
    ...extra.map((pattern) => (typeof pattern === 'string' ? new RegExp(escapeRegExp(pattern), 'g') : new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))),
  ];
  const redactString = (text: string): string => patterns.reduce((current, pattern) => current.replace(pattern, REDACTED), text);
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (typeof value !== 'object' || value === null || depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return walk((value as { toJSON: () => unknown }).toJSON(), depth + 1);
    if (value instanceof Error) return { name: value.name, message: redactString(value.message), stack: value.stack === undefined ? undefined : redactString(value.stack) };
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = SECRET_FIELD.test(key) && item !== undefined && item !== null && item !== '' ? REDACTED : walk(item, depth + 1);
    }
    return out;
  };
  return (value) => walk(value, 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
