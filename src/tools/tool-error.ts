/**
 * Errors a tool throws on purpose, for the model to read. Anything else a tool
 * throws is treated as an internal failure: logged in full, and reported to the
 * model only as a neutral message, so internals never leak into the prompt.
 * @module
 */

import { isInstanceOfClass, lineageOf } from '../shared/class-lineage.js';

const BRAND = Symbol.for('toolwright.tool-error');
const LINEAGE = Symbol.for('toolwright.tool-error.lineage');

/** Stable kinds of domain failure; they decide the default retry advice. */
export type ToolErrorKind = 'not_found' | 'invalid_request' | 'out_of_scope' | 'conflict' | 'permission_denied' | 'unavailable' | 'rate_limited' | 'failed';

export interface ToolErrorOptions {
  kind?: ToolErrorKind;
  /** What the model should do next, in one sentence ("Search the product by name instead of by id."). */
  suggestion?: string;
  /** Whether calling again with the same arguments may succeed. Defaults by kind: `unavailable` and `rate_limited` are retryable. */
  retryable?: boolean;
  cause?: unknown;
}

export class ToolError extends Error {
  readonly kind: ToolErrorKind;
  readonly suggestion: string | undefined;
  readonly retryable: boolean;
  readonly [BRAND] = true;
  readonly [LINEAGE]: readonly string[];

  constructor(message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this[LINEAGE] = lineageOf(new.target, ToolError);
    this.kind = options.kind ?? 'failed';
    this.suggestion = options.suggestion;
    this.retryable = options.retryable ?? (this.kind === 'unavailable' || this.kind === 'rate_limited');
  }

  /**
   * Whether `value` is an instance of the class this is called on (or of a subclass):
   * `NotFoundError.isInstance(new ToolError('…'))` is false. Also recognises errors from another copy of the package.
   */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return isInstanceOfClass(this, ToolError, value, BRAND, LINEAGE);
  }
}

/** Shorthand for the most common domain error: the thing asked for does not exist. */
export class NotFoundError extends ToolError {
  constructor(message: string, options: Omit<ToolErrorOptions, 'kind'> = {}) {
    super(message, { ...options, kind: 'not_found' });
    this.name = 'NotFoundError';
  }
}
