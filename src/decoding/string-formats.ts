/**
 * `format`s as ajv-formats ("full" mode, the registry's validator) defines them: each
 * string format is a union of regular languages (each an intersection of regexes plus
 * length bounds) equal to what ajv-formats accepts, each number format a range. `regex` is not
 * regular: it is offered as a regular subset of what ajv-formats accepts (`regex-format.ts`), a
 * narrowing stated in docs/decoding.md; `url`'s lookaheads are rewritten as the differences they denote.
 * @module
 */
import { getOwn } from '../shared/own.js';
import { REGEX_FORMAT_PATTERN } from './regex-format.js';

/** One alternative of a string format: regexes that must all match, plus length bounds. */
export interface FormatAlternative {
  readonly patterns: readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
}

/**
 * How a format constrains values. Ajv applies a format only to values of its type
 * (`string` formats to strings, `number` formats to numbers); other values pass.
 */
export type FormatLanguage =
  | { readonly kind: 'string'; readonly alternatives: readonly FormatAlternative[]; readonly ignoreCase: boolean }
  | { readonly kind: 'number'; readonly integer: boolean; readonly minimum: number; readonly maximum: number }
  /** ajv-formats accepts every value (`password`, `binary`). */
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'refused'; readonly reason: string };

const LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)';
const DATE = `(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))|${LEAP_YEAR}-02-29)`;

const two = (value: number): string => String(value).padStart(2, '0');
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** `1 − 2^-48` without its `0.`: past `59.` (or `60.`), the seconds' fraction from which `+text` gives 60 (or 61). */
const ONE_DOUBLE_LIMIT = '999999999999996447286321199499070644378662109375';
/**
 * Fractions `.f` with `0.f` below `1 − 2^-48`: ajv-formats reads the seconds with `+text`, and a
 * text at or above `60 − 2^-48` (the midpoint between 60 and the double below it; the tie goes
 * to 60, whose significand is even) becomes 60, so `59.999999999999999` is not `< 60`. The same
 * would hold one second later for a leap second's `< 61` (see LEAP_SECONDS).
 */
const FRACTION_BELOW_ONE_DOUBLE = fractionBelow(ONE_DOUBLE_LIMIT);
/** Seconds of an ordinary time: `sec < 60` as ajv-formats computes it. */
const SECONDS = `(?:(?:[0-4]\\d|5[0-8])(?:\\.\\d+)?|59(?:\\.${FRACTION_BELOW_ONE_DOUBLE})?)`;
/**
 * Seconds of a leap-second time: ajv-formats takes any `sec < 61` there. A text at or above
 * `61 − 2^-48` (`60.999999999999997`) becomes 61 and fails; excluding it here would multiply the
 * hours-and-minutes automata of the leap-second relation by the fraction's 50 positions
 * (past the 20,000-state budget), so these texts are accepted: a known disagreement
 * (docs/decoding.md, "Known limits").
 */
const LEAP_SECONDS = '(?:[0-5]\\d|60)(?:\\.\\d+)?';

/** A regex for the digit strings `f` with `0.f ≥ 0.limit` (the strings `fractionBelow` leaves out); linear in its length. */
function fractionAtOrAbove(limit: string, at = 0): string {
  const digit = Number(limit[at]);
  const greater = digit < 9 ? [`[${digit + 1}-9]\\d*`] : [];
  // the same digit: at or above what is left of the limit, or, once the limit is read whole, anything
  const same = `${digit}${at + 1 < limit.length ? fractionAtOrAbove(limit, at + 1) : '\\d*'}`;
  return `(?:${[...greater, same].join('|')})`;
}

/** A regex for the digit strings `f` (at least one digit) with `0.f < 0.limit`, `limit` having no trailing zero; linear in its length. */
function fractionBelow(limit: string, at = 0): string {
  const digit = Number(limit[at]);
  // a smaller digit here: below, whatever follows
  const smaller = digit > 0 ? [`[0-${digit - 1}]\\d*`] : [];
  // the same digit: a proper prefix of the limit is below it (the limit's later digits are not all zero), and so is what is below its rest
  const same = at + 1 < limit.length ? [`${digit}${fractionBelow(limit, at + 1)}?`] : [];
  return `(?:${[...smaller, ...same].join('|')})`;
}
const escapeSign = (sign: '+' | '-'): string => (sign === '+' ? '\\+' : '-');
const OFFSET_HOURS = '(?:[01]\\d|2[0-3])';

/**
 * ajv-formats' `time` check as regular languages. A time is valid when hours ≤ 23, minutes
 * ≤ 59 and seconds < 60 with an offset of hours ≤ 23 and minutes ≤ 59 (`+01`, `+0100` or
 * `+01:00`), or, as a leap second, when the time minus the offset is 23:59 UTC (or -1:-1,
 * its wrap-around) with seconds < 61, whatever the local digits. The leap-second relation
 * ties local hours to offset hours and local minutes to offset minutes, so each case is the
 * intersection of an hours regex and a minutes regex.
 */
function timeAlternatives(prefix: string, offsetRequired: boolean, seconds = SECONDS): FormatAlternative[] {
  const optional = offsetRequired ? '' : '?';
  const anchored = (body: string): string => `^${prefix}(?:${body})$`;
  const normal = anchored(`(?:[01]\\d|2[0-3]):[0-5]\\d:${seconds}(?:z|[+-]${OFFSET_HOURS}(?::?[0-5]\\d)?)${optional}`);
  // an absent offset (iso-time) counts as "+00:00", as "z" does
  const utc = offsetRequired ? 'z' : '(?:z|)';
  const hoursThen = (hour: number, sign: '+' | '-', offsetHour: number, minutes: 'optional' | 'required'): string =>
    `${two(hour)}:\\d\\d:${LEAP_SECONDS}${escapeSign(sign)}${two(offsetHour)}${minutes === 'optional' ? '(?::?\\d\\d)?' : ':?\\d\\d'}`;
  const minutesThen = (minute: number, sign: '+' | '-', offsetMinute: number): string =>
    `\\d\\d:${two(minute)}:${LEAP_SECONDS}${escapeSign(sign)}\\d\\d(?::?${two(offsetMinute)}${offsetMinute === 0 ? ')?' : ')'}`;
  // "-hh:mm": local + offset = 23:59
  const minus = [
    anchored(
      range(0, 23)
        .map((offsetHour) => hoursThen(23 - offsetHour, '-', offsetHour, 'optional'))
        .join('|'),
    ),
    anchored(
      range(0, 59)
        .map((offsetMinute) => minutesThen(59 - offsetMinute, '-', offsetMinute))
        .join('|'),
    ),
  ];
  // "+hh:mm" without a borrow: local minutes = 59 + offset minutes, local hours = 23 + offset hours or offset hours - 1
  const plusNoBorrow = [
    anchored(
      [
        ...range(0, 23).flatMap((offsetHour) => [
          hoursThen(23 + offsetHour, '+', offsetHour, 'optional'),
          ...(offsetHour >= 1 ? [hoursThen(offsetHour - 1, '+', offsetHour, 'optional')] : []),
        ]),
        `23:\\d\\d:${LEAP_SECONDS}${utc}`,
      ].join('|'),
    ),
    anchored([...range(0, 40).map((offsetMinute) => minutesThen(59 + offsetMinute, '+', offsetMinute)), `\\d\\d:59:${LEAP_SECONDS}${utc}`].join('|')),
  ];
  // "+hh:mm" with a borrow (UTC minutes -1): local minutes = offset minutes - 1, local hours = 24 + offset hours or offset hours
  const plusBorrow = [
    anchored(
      range(0, 23)
        .flatMap((offsetHour) => [hoursThen(24 + offsetHour, '+', offsetHour, 'required'), hoursThen(offsetHour, '+', offsetHour, 'required')])
        .join('|'),
    ),
    anchored(
      range(1, 59)
        .map((offsetMinute) => minutesThen(offsetMinute - 1, '+', offsetMinute))
        .join('|'),
    ),
  ];
  return [{ patterns: [normal] }, { patterns: minus }, { patterns: plusNoBorrow }, { patterns: plusBorrow }];
}

/** An ordinary time's seconds with any fraction: `59.999999999999999` (60 for ajv-formats) among them. */
const ANY_FRACTION_SECONDS = '[0-5]\\d(?:\\.\\d+)?';

/** Two-digit texts of `0..max` but `excluded`, one character class of units per tens digit. */
function twoDigitsBut(max: number, excluded: readonly number[]): string {
  const byTens = range(0, Math.floor(max / 10)).map((tens) => {
    const units = range(0, 9).filter((unit) => tens * 10 + unit <= max && !excluded.includes(tens * 10 + unit));
    return units.length === 0 ? [] : [`${tens}[${units.join('')}]`];
  });
  return `(?:${byTens.flat().join('|')})`;
}

/**
 * The complement of a `time`-family format, exactly as ajv-formats rejects: the strings outside a superset of the
 * format (an ordinary time's seconds with any fraction, leap seconds' too), and the superset's strings that the format
 * rejects: an ordinary time whose seconds `59.f` make 60 (`f` at or above {@link ONE_DOUBLE_LIMIT}) unless the
 * leap-second relation holds, and any time whose seconds `60.f` make 61. The complement of the format's own alternatives
 * is one automaton of 93,000 states (the 1,440 local hours and minutes the leap-second relation tells apart, times the
 * 48 digits of the fraction's limit); the superset's is 21,300, and each rejected part ties the fraction to the hours
 * alone or to the minutes alone (ajv-formats' leap second, with hours ≤ 23, minutes ≤ 59 and seconds 60: `-hh:mm`
 * when hours + hh = 23 and minutes + mm = 59; `+hh:mm`, `z` or none when minutes = 59, mm = 0 and hh = hours + 1 (or
 * both 23 and 0), or when mm = minutes + 1 and hh = hours).
 */
function timeComplement(prefix: string, offsetRequired: boolean): FormatComplement {
  const optional = offsetRequired ? '' : '?';
  const anchored = (body: string): string => `^${prefix}(?:${body})$`;
  // as ajv-formats counts them, `z` and no offset are `+00:00`
  const utc = offsetRequired ? 'z' : '(?:z|)';
  const high = fractionAtOrAbove(ONE_DOUBLE_LIMIT);
  const seconds = '\\d\\d\\.\\d+';
  const roundsTo60 = anchored(`(?:[01]\\d|2[0-3]):[0-5]\\d:59\\.${high}(?:z|[+-]${OFFSET_HOURS}(?::?[0-5]\\d)?)${optional}`);
  const hoursFail = anchored(
    range(0, 23)
      .flatMap((hour) => [
        `${two(hour)}:\\d\\d:${seconds}-${twoDigitsBut(23, [23 - hour])}(?::?\\d\\d)?`,
        `${two(hour)}:59:${seconds}(?:\\+${twoDigitsBut(23, [hour === 23 ? 0 : hour + 1])}(?::?\\d\\d)?${hour === 23 ? '' : `|${utc}`})`,
        `${two(hour)}:(?:[0-4]\\d|5[0-8]):${seconds}(?:\\+${twoDigitsBut(23, [hour])}(?::?\\d\\d)?${hour === 0 ? '' : `|${utc}`})`,
      ])
      .join('|'),
  );
  const minutesFail = anchored(
    [
      ...range(0, 59).map((minute) =>
        minute === 59
          ? `\\d\\d:59:${seconds}[+-]\\d\\d:?${twoDigitsBut(59, [0])}`
          : `\\d\\d:${two(minute)}:${seconds}-\\d\\d(?::?${twoDigitsBut(59, [59 - minute])})?`,
      ),
      ...range(0, 58).map((minute) => `\\d\\d:${two(minute)}:${seconds}(?:\\+\\d\\d(?::?${twoDigitsBut(59, [minute + 1])})?|${utc})`),
    ].join('|'),
  );
  const roundsTo61 = anchored(`\\d\\d:\\d\\d:60\\.${high}(?:z|[+-]\\d\\d(?::?\\d\\d)?)${optional}`);
  return {
    within: timeAlternatives(prefix, offsetRequired, ANY_FRACTION_SECONDS),
    rejected: [{ patterns: [roundsTo60, hoursFail] }, { patterns: [roundsTo60, minutesFail] }, { patterns: [roundsTo61] }],
  };
}

// ajv-formats' DATE_TIME_SEPARATOR /t|\s/i: "T", "t" or any one whitespace character
const DATE_TIME_PREFIX = `${DATE}[t\\s]`;

// ajv-formats' hostname is /^(?=.{1,253}\.?$)LABELS\.?$/i: at most 253 characters, one more for a trailing dot
const HOSTNAME_LABELS = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*';

const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}`;
const H16 = '[0-9a-f]{1,4}';
const IPV6 =
  `(?:(?:${H16}:){7}(?:${H16}|:)|(?:${H16}:){6}(?::${H16}|${IPV4}|:)|(?:${H16}:){5}(?:(?::${H16}){1,2}|:${IPV4}|:)|(?:${H16}:){4}(?:(?::${H16}){1,3}|(?::${H16})?:${IPV4}|:)` +
  `|(?:${H16}:){3}(?:(?::${H16}){1,4}|(?::${H16}){0,2}:${IPV4}|:)|(?:${H16}:){2}(?:(?::${H16}){1,5}|(?::${H16}){0,3}:${IPV4}|:)|(?:${H16}:){1}(?:(?::${H16}){1,6}|(?::${H16}){0,4}:${IPV4}|:)` +
  `|:(?:(?::${H16}){1,7}|(?::${H16}){0,5}:${IPV4}|:))`;

// ajv-formats: /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/ without the lookaheads
const DURATION = '^P(?:(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S))?|\\d+W)$';

// ajv-formats' full `uri` regex, unchanged (its extra check, a ':' or '/' somewhere, always holds after the scheme)
const URI =
  "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

const URI_REFERENCE =
  "^(?:[a-z][a-z0-9+\\-.]*:)?(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'\"()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\\?(?:[a-z0-9\\-._~!$&'\"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'\"()*+,;=:@/?]|%[0-9a-f]{2})*)?$";
const URI_TEMPLATE =
  '^(?:(?:[^\\x00-\\x20"\'<>%\\\\^`{|}]|%[0-9a-f]{2})|\\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\\*)?)*\\})*$';
const JSON_POINTER_URI_FRAGMENT = "^#(?:\\/(?:[a-z0-9_\\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$";
const EMAIL = "^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$";

// ajv-formats tests /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm: with the
// m flag, any one line of base64 (even an empty one) is enough
const LINE_BREAK = '[\\n\\r\\u2028\\u2029]';
const BYTE = `(?:^|${LINE_BREAK})(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?:$|${LINE_BREAK})`;

/*
 * ajv-formats' `url` (flags `iu`) excludes private IPv4 hosts with three negative lookaheads at
 * the host: (?!(?:10|127)(?:\.\d{1,3}){3}), (?!(?:169\.254|192\.168)(?:\.\d{1,3}){2}) and
 * (?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2}). They guard only the dotted-quad branch, where
 * the text up to each dot is one octet, so each lookahead excludes exact first (and second) octet
 * texts: the first octet is never `10` or `127`, and `169.254.`, `192.168.` and `172.16.` to
 * `172.31.` never start the host (`172.016.` is no octet there at all). Written as that difference,
 * the regex below has no lookaround and accepts the same strings, whatever the userinfo split.
 */
// first octets 1..223 as ajv-formats writes them ([1-9]\d?|1\d\d|2[01]\d|22[0-3]), less 10, 127, 169, 172, 192
const URL_FIRST_OCTET_PUBLIC = '(?:[1-9]|1[1-9]|[2-9]\\d|1(?:[013458]\\d|2[0-689]|6[0-8]|7[013-9]|9[013-9])|2[01]\\d|22[0-3])';
// ajv-formats' middle octet 1?\d{1,2}|2[0-4]\d|25[0-5] (leading zeros allowed), whole and less the private second octets
const URL_OCTET = '(?:\\d{1,2}|1\\d\\d|2[0-4]\\d|25[0-5])';
const URL_OCTET_NOT_254 = '(?:\\d{1,2}|1\\d\\d|2[0-4]\\d|25[0-35])';
const URL_OCTET_NOT_168 = '(?:\\d{1,2}|1(?:[0-57-9]\\d|6[0-79])|2[0-4]\\d|25[0-5])';
const URL_OCTET_NOT_16_TO_31 = '(?:\\d|0\\d|1[0-5]|3[2-9]|[4-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])';
const URL_LAST_OCTET = '(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4])';
const URL_IPV4 =
  `(?:${URL_FIRST_OCTET_PUBLIC}\\.${URL_OCTET}|169\\.${URL_OCTET_NOT_254}|192\\.${URL_OCTET_NOT_168}|172\\.${URL_OCTET_NOT_16_TO_31})` +
  `\\.${URL_OCTET}\\.${URL_LAST_OCTET}`;
const URL_LABEL = '(?:[a-z0-9\\u00a1-\\uffff]+-)*[a-z0-9\\u00a1-\\uffff]+';
const URL_HOST = `${URL_LABEL}(?:\\.${URL_LABEL})*\\.[a-z\\u00a1-\\uffff]{2,}`;
// with the u flag, `i` folds U+017F (long s) to "s", so "httpſ://" passes; no other letter of the scheme has such a fold
const URL = `^(?:http[s\\u017f]?|ftp):\\/\\/(?:\\S+(?::\\S*)?@)?(?:${URL_IPV4}|${URL_HOST})(?::\\d{2,5})?(?:\\/[^\\s]*)?$`;

const strings = (ignoreCase: boolean, ...alternatives: FormatAlternative[]): FormatLanguage => ({ kind: 'string', alternatives, ignoreCase });
const pattern = (source: string, bounds: { minLength?: number; maxLength?: number } = {}): FormatAlternative => ({ patterns: [source], ...bounds });

/** Every format of ajv-formats' full mode; the differential test fails when ajv-formats adds one. */
const FORMATS: Record<string, FormatLanguage> = {
  date: strings(false, pattern(`^${DATE}$`)),
  time: strings(true, ...timeAlternatives('', true)),
  'date-time': strings(true, ...timeAlternatives(DATE_TIME_PREFIX, true)),
  'iso-time': strings(true, ...timeAlternatives('', false)),
  'iso-date-time': strings(true, ...timeAlternatives(DATE_TIME_PREFIX, false)),
  duration: strings(false, { patterns: [DURATION, '^P.'] }),
  uri: strings(true, pattern(URI)),
  'uri-reference': strings(true, pattern(URI_REFERENCE)),
  'uri-template': strings(true, pattern(URI_TEMPLATE)),
  url: strings(true, pattern(URL)),
  email: strings(true, pattern(EMAIL)),
  hostname: strings(
    true,
    pattern(`^${HOSTNAME_LABELS}$`, { minLength: 1, maxLength: 253 }),
    pattern(`^${HOSTNAME_LABELS}\\.$`, { minLength: 2, maxLength: 254 }),
  ),
  ipv4: strings(false, pattern(`^${IPV4}$`)),
  ipv6: strings(true, pattern(`^${IPV6}$`)),
  // a narrowing: whether a text compiles is not regular; a regular subset of what compiles (regex-format.ts)
  regex: strings(false, pattern(REGEX_FORMAT_PATTERN)),
  uuid: strings(true, pattern('^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$')),
  'json-pointer': strings(false, pattern('^(?:\\/(?:[^~/]|~0|~1)*)*$')),
  'json-pointer-uri-fragment': strings(true, pattern(JSON_POINTER_URI_FRAGMENT)),
  'relative-json-pointer': strings(false, pattern('^(?:0|[1-9][0-9]*)(?:#|(?:\\/(?:[^~/]|~0|~1)*)*)$')),
  byte: strings(false, pattern(BYTE)),
  int32: { kind: 'number', integer: true, minimum: -(2 ** 31), maximum: 2 ** 31 - 1 },
  // ajv-formats: any integer (a double cannot tell int64 overflow apart)
  int64: { kind: 'number', integer: true, minimum: -Infinity, maximum: Infinity },
  // ajv-formats checks no range for float and double: any finite number passes
  float: { kind: 'number', integer: false, minimum: -Infinity, maximum: Infinity },
  double: { kind: 'number', integer: false, minimum: -Infinity, maximum: Infinity },
  password: { kind: 'unchecked' },
  binary: { kind: 'unchecked' },
};

/** A format's complement as regular languages: what is outside every alternative of `within`, and each of `rejected`. */
export interface FormatComplement {
  /** Alternatives whose union includes the format's language. */
  readonly within: readonly FormatAlternative[];
  /** The strings of `within` that the format rejects, as alternatives. */
  readonly rejected: readonly FormatAlternative[];
}

const COMPLEMENTS: Record<string, FormatComplement> = {
  time: timeComplement('', true),
  'date-time': timeComplement(DATE_TIME_PREFIX, true),
  'iso-time': timeComplement('', false),
  'iso-date-time': timeComplement(DATE_TIME_PREFIX, false),
};

/**
 * How the complement of a format is built where its alternatives' complements would not fit the state budget when
 * intersected (the `time` family, ignoring case as the format does); undefined for the other formats.
 */
export function formatComplement(name: string): FormatComplement | undefined {
  return getOwn(COMPLEMENTS, name);
}

/** How ajv-formats (full mode) defines a format, or `undefined` for a format it does not know. */
export function formatLanguage(name: string): FormatLanguage | undefined {
  return Object.prototype.hasOwnProperty.call(FORMATS, name) ? FORMATS[name] : undefined;
}

/** Names of the formats the engine enforces exactly (every ajv-formats format but the refused ones). */
export const SUPPORTED_FORMATS: readonly string[] = Object.keys(FORMATS).filter((name) => FORMATS[name]!.kind !== 'refused');
