/**
 * The bounds every call's arguments must fit before the registry validates,
 * records or runs anything: Ajv, the run record and the agent's canonical
 * JSON all walk arguments, and a value nested thousands of levels deep or
 * megabytes long must be refused before any of them sees it.
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { ArgumentLimits } from './types.js';

/**
 * 64 levels is far beyond any tool schema worth offering a model, and far below
 * what recursive JSON walkers (Ajv, `JSON.stringify`) survive; a million
 * characters is about 250,000 tokens, more than any model's output budget.
 */
export const DEFAULT_ARGUMENT_LIMITS: Readonly<ArgumentLimits> = Object.freeze({ maxDepth: 64, maxChars: 1_000_000 });

/**
 * Overlays `override` (a registry's or a tool's `argumentLimits`) on `base`.
 * Returns a problem sentence instead of throwing, so that each caller raises
 * its own error class (a tool definition error, an invalid registry option).
 */
export function overlayArgumentLimits(base: Readonly<ArgumentLimits>, override: unknown): { limits: ArgumentLimits } | { problem: string } {
  if (override === undefined) return { limits: { ...base } };
  if (!isPlainObject(override)) return { problem: '`argumentLimits` must be an object such as { maxDepth: 64, maxChars: 1000000 }' };
  const limits = { ...base };
  for (const key of Object.keys(override)) {
    if (key !== 'maxDepth' && key !== 'maxChars') return { problem: `\`argumentLimits\` has the unknown field "${key}"; use maxDepth and maxChars` };
    const value = override[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      return { problem: `\`argumentLimits.${key}\` must be a whole number of 1 or more (got ${JSON.stringify(value) ?? String(value)})` };
    }
    limits[key] = value;
  }
  return { limits };
}
