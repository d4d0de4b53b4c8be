/**
 * What a tool's `execute` may return, and how it becomes an MCP-shaped result:
 * a string is text; a plain object is structured content plus its JSON text;
 * anything else JSON is text; `toolResult(...)` passes rich content through.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { ContentPart, ToolResult } from './types.js';

const RESULT_BRAND = Symbol.for('toolwright.tool-result');

/** Return this from `execute` to send content parts (images, resources…) as they are. */
export function toolResult(result: { content: ContentPart[]; structuredContent?: Record<string, unknown> }): ToolResult {
  const value: ToolResult = { content: result.content, isError: false };
  if (result.structuredContent !== undefined) value.structuredContent = result.structuredContent;
  Object.defineProperty(value, RESULT_BRAND, { value: true, enumerable: false });
  return value;
}

function isBrandedResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESULT_BRAND] === true;
}

export type NormalizedOutput = { success: true; result: ToolResult } | { success: false; reason: string };

/** Converts `execute`'s return value to a result; fails for values JSON cannot carry (functions, cycles, BigInt). */
export function normalizeToolOutput(value: unknown): NormalizedOutput {
  if (isBrandedResult(value)) return { success: true, result: { ...value, isError: false } };
  if (typeof value === 'string') return { success: true, result: { content: [{ type: 'text', text: value }], isError: false } };
  if (value === undefined) return { success: true, result: { content: [{ type: 'text', text: 'Done. (The tool returned no value.)' }], isError: false } };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { success: false, reason: `the return value cannot be serialized to JSON: ${(error as Error).message}` };
  }
  if (text === undefined) return { success: false, reason: `the return value (${typeof value}) cannot be serialized to JSON` };
  const result: ToolResult = { content: [{ type: 'text', text }], isError: false };
  if (isPlainObject(value)) result.structuredContent = value;
  return { success: true, result };
}

/** Cuts text parts to `maxChars` in total, appending the notice to the last kept part. */
export function truncateResult(
  result: ToolResult,
  maxChars: number,
  notice: (original: number, kept: number) => string,
): { result: ToolResult; truncated: boolean } {
  const total = result.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  if (total <= maxChars) return { result, truncated: false };
  let remaining = maxChars;
  const content: ContentPart[] = [];
  for (const part of result.content) {
    if (part.type !== 'text') {
      content.push(part);
      continue;
    }
    if (remaining <= 0) continue;
    const kept = part.text.slice(0, remaining);
    remaining -= kept.length;
    content.push({ type: 'text', text: kept });
  }
  const last = [...content].reverse().find((part) => part.type === 'text');
  const noticeText = notice(total, maxChars);
  if (last && last.type === 'text') last.text += noticeText;
  else content.push({ type: 'text', text: noticeText.trimStart() });
  // Structured content would contradict the cut text; the model sees only text, so drop it.
  return { result: { content, isError: result.isError }, truncated: true };
}
