/**
 * String `format`s as regular languages that sit inside what Ajv with ajv-formats
 * ("full" mode) accepts, so a masked value always passes Ajv's format check.
 * Calendar rules (month lengths, leap years) are spelled out in the regex.
 * @module
 */

/** A format as regexes that must all match (case-insensitively when `ignoreCase`), plus length bounds. */
export interface FormatLanguage {
  readonly patterns: readonly string[];
  readonly ignoreCase: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Where the language is smaller than Ajv's, and why. */
  readonly narrower?: string;
}

const LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)';
const DATE = `(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))|${LEAP_YEAR}-02-29)`;
// RFC 3339 offsets always have ':' and minutes (Ajv also takes "+01" and "+0100")
const OFFSET = '(?:z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';
// leap seconds only where the offset is zero: other offsets are valid too but rare
const TIME = `(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?${OFFSET}|23:59:60(?:\\.\\d+)?(?:z|[+-]00:00))`;
// a label without "--" at positions 3–4 (RFC 5891 reserves that for A-labels)
const HOST_LABEL_NO_DASHES = '(?:[^.]{0,2}|[^.]{2}(?:[^-.][^.]*|-(?:[^-.][^.]*)?))';
const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}`;
const H16 = '[0-9a-f]{1,4}';
const IPV6 =
  `(?:(?:${H16}:){7}(?:${H16}|:)|(?:${H16}:){6}(?::${H16}|${IPV4}|:)|(?:${H16}:){5}(?:(?::${H16}){1,2}|:${IPV4}|:)|(?:${H16}:){4}(?:(?::${H16}){1,3}|(?::${H16})?:${IPV4}|:)` +
  `|(?:${H16}:){3}(?:(?::${H16}){1,4}|(?::${H16}){0,2}:${IPV4}|:)|(?:${H16}:){2}(?:(?::${H16}){1,5}|(?::${H16}){0,3}:${IPV4}|:)|(?:${H16}:){1}(?:(?::${H16}){1,6}|(?::${H16}){0,4}:${IPV4}|:)` +
  `|:(?:(?::${H16}){1,7}|(?::${H16}){0,5}:${IPV4}|:))`;

const DURATION_TIME = 'T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)';
const DURATION_DATE = '(?:\\d+D|\\d+M(?:\\d+D)?|\\d+Y(?:\\d+M(?:\\d+D)?)?)';

// ajv-formats' full `uri` regex, unchanged (it also requires a ':' or '/', which the scheme guarantees)
const URI =
  "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

const FORMATS: Record<string, FormatLanguage> = {
  date: { patterns: [`^${DATE}$`], ignoreCase: false },
  time: { patterns: [`^${TIME}$`], ignoreCase: true, narrower: 'offsets need minutes ("+01:00"); leap seconds (hh:mm:60) only with a zero UTC offset' },
  'date-time': {
    patterns: [`^${DATE}[t ]${TIME}$`],
    ignoreCase: true,
    narrower: 'date and time separated by "T", "t" or a space (not other whitespace); offsets need minutes; leap seconds only with a zero UTC offset',
  },
  email: {
    patterns: ["^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"],
    ignoreCase: true,
  },
  hostname: {
    patterns: ['^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*$', `^${HOST_LABEL_NO_DASHES}(?:\\.${HOST_LABEL_NO_DASHES})*$`],
    ignoreCase: true,
    minLength: 1,
    maxLength: 253,
    narrower: 'no trailing dot, and no label with "--" in its 3rd and 4th characters (so no punycode "xn--" labels, whose validity a regex cannot check)',
  },
  ipv4: { patterns: [`^${IPV4}$`], ignoreCase: false },
  ipv6: { patterns: [`^${IPV6}$`], ignoreCase: true },
  uuid: { patterns: ['^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$'], ignoreCase: true, narrower: 'no "urn:uuid:" prefix' },
  uri: { patterns: [URI], ignoreCase: true },
  duration: {
    // RFC 3339 appendix A: units in order without gaps (Ajv also takes "P1Y2D")
    patterns: [`^P(?:${DURATION_DATE}(?:${DURATION_TIME})?|${DURATION_TIME}|\\d+W)$`],
    ignoreCase: false,
    narrower: 'units without gaps, as RFC 3339 requires',
  },
  'json-pointer': { patterns: ['^(?:\\/(?:[^~/]|~0|~1)*)*$'], ignoreCase: false },
  'relative-json-pointer': { patterns: ['^(?:0|[1-9][0-9]*)(?:#|(?:\\/(?:[^~/]|~0|~1)*)*)$'], ignoreCase: false },
};

/** The language of a supported string format, or `undefined`. */
export function formatLanguage(name: string): FormatLanguage | undefined {
  return Object.prototype.hasOwnProperty.call(FORMATS, name) ? FORMATS[name] : undefined;
}

/** Names of the formats the engine enforces. */
export const SUPPORTED_FORMATS: readonly string[] = Object.keys(FORMATS);
