/**
 * Guesses, from a property's name, that its value has a fixed shape (an id, an
 * email, a date, a URL, a phone number), which the schema should then pin with
 * `pattern` or `format` instead of trusting the model to guess it.
 * @module
 */
import { snakeName } from './walk-schema.js';

export type ValueKind = 'identifier' | 'email' | 'date' | 'date-time' | 'time' | 'url' | 'phone';

export interface ValueKindAdvice {
  kind: ValueKind;
  /** The kind with its article, for messages ("an email address"). */
  noun: string;
  /** The constraint to add, as JSON Schema text to paste. */
  constraint: string;
}

const ADVICE: Record<ValueKind, string> = {
  identifier: '"pattern" matching your id format (for example "^usr_[a-zA-Z0-9]{20}$"), or "format": "uuid" for UUIDs',
  email: '"format": "email"',
  date: '"format": "date" (YYYY-MM-DD)',
  'date-time': '"format": "date-time" (RFC 3339, such as 2026-01-31T14:30:00Z)',
  time: '"format": "time"',
  url: '"format": "uri"',
  phone: '"pattern": "^\\\\+[1-9][0-9]{6,14}$" (E.164)',
};

const NOUNS: Record<ValueKind, string> = {
  identifier: 'an identifier',
  email: 'an email address',
  date: 'a date',
  'date-time': 'a date-time',
  time: 'a time of day',
  url: 'a URL',
  phone: 'a phone number',
};

const RULES: { kind: ValueKind; test: RegExp }[] = [
  { kind: 'email', test: /(^|_)(e_?mail|email_address|e_?mails)($|_)/ },
  { kind: 'phone', test: /(^|_)(phone|telephone|mobile|cellphone|tel|fax|msisdn)(_number|_no)?$/ },
  { kind: 'url', test: /(^|_)(url|urls|uri|uris|href|link|website|homepage|webhook|endpoint)($|_)/ },
  { kind: 'date-time', test: /(^|_)(timestamp|datetime|date_time)$|_at$/ },
  { kind: 'time', test: /(^|_)time$/ },
  { kind: 'date', test: /(^|_)(date|dates|dob|birthday|birthdate|deadline|since|until)$|_on$|^date_|_date_/ },
  { kind: 'identifier', test: /(^|_)(id|ids|uuid|uuids|guid)$/ },
];

/** The kind of value a property name suggests, and the constraint to add, or `undefined` for names with no fixed shape. */
export function valueKindOf(propertyName: string): ValueKindAdvice | undefined {
  const name = snakeName(propertyName);
  for (const { kind, test } of RULES) if (test.test(name)) return { kind, noun: NOUNS[kind], constraint: ADVICE[kind] };
  return undefined;
}
