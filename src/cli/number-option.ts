/**
 * The one parser of the CLI's numeric options: a whole number within a range, or a usage error that names the flag,
 * the range and what was given, before the command does any work.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';

/** The values a numeric option accepts, both ends included. */
export interface WholeNumberRange {
  min: number;
  max: number;
}

/** `value` as a whole number in `range`; `undefined` when the option was not given. */
export function wholeNumberOption(flag: string, value: string | undefined, range: WholeNumberRange, meaning = ''): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(parsed) || parsed < range.min || parsed > range.max) {
    throw new InvalidArgumentError(
      `${flag} must be a whole number from ${range.min} to ${range.max}${meaning === '' ? '' : ` (${meaning})`}, got ${JSON.stringify(value)}.`,
    );
  }
  return parsed;
}
