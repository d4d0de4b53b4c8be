/**
 * ajv-formats' `formatMinimum`, `formatMaximum`, `formatExclusiveMinimum` and
 * `formatExclusiveMaximum`, as the registry's validator runs them: each calls the format's
 * `compare(data, limit)` and fails on the wrong sign; a `compare` that returns `undefined`
 * (an empty string on either side) fails nothing. For `date`, `compare` is JavaScript's string
 * order, and a date is ASCII, so the first character where it differs from the limit decides
 * in code-unit and code-point order alike: the bound is a regular language, written here as a
 * regex that the string's DFA intersects. The time family compares through `new Date(…)`,
 * whose parser (leap seconds and some offsets give `NaN`, which passes) the engine does not
 * model: refused.
 * @module
 */

export const FORMAT_LIMIT_KEYWORDS = ['formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum'] as const;
export type FormatLimitKeyword = (typeof FORMAT_LIMIT_KEYWORDS)[number];

/** How ajv-formats compares values of a format: by string order, through `Date`, or not at all (Ajv refuses the keyword). */
export function formatComparison(format: string): 'string-order' | 'date-parser' | 'none' {
  if (format === 'date') return 'string-order';
  if (format === 'time' || format === 'date-time' || format === 'iso-time' || format === 'iso-date-time') return 'date-parser';
  return 'none';
}

const ANY = '[\\u{0}-\\u{10ffff}]';
const char = (codePoint: number): string => `\\u{${codePoint.toString(16)}}`;

/**
 * An anchored regex (Ajv's `u` flag) for the strings `s` with `s ≥ limit`, `s > limit`, `s ≤ limit` or `s < limit`
 * in JavaScript string order, or undefined when the keyword constrains nothing (an empty limit).
 */
export function stringOrderPattern(keyword: FormatLimitKeyword, limit: string): string | undefined {
  if (limit === '') return undefined;
  const codePoints = [...limit].map((each) => each.codePointAt(0)!);
  const prefix = (length: number): string => codePoints.slice(0, length).map(char).join('');
  const greater: string[] = [];
  const less: string[] = [];
  codePoints.forEach((codePoint, index) => {
    // the first difference decides; a longer string with the limit as prefix is greater, a proper prefix smaller
    if (codePoint < 0x10ffff) greater.push(`${prefix(index)}[${char(codePoint + 1)}-\\u{10ffff}]${ANY}*`);
    if (codePoint > 0) less.push(`${prefix(index)}[\\u{0}-${char(codePoint - 1)}]${ANY}*`);
    less.push(prefix(index));
  });
  greater.push(`${prefix(codePoints.length)}${ANY}+`);
  const equal = prefix(codePoints.length);
  const alternatives =
    keyword === 'formatMinimum' ? [...greater, equal] : keyword === 'formatExclusiveMinimum' ? greater : keyword === 'formatMaximum' ? [...less, equal] : less;
  return `^(?:${alternatives.join('|')})$`;
}
