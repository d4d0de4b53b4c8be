/**
 * Detectors for the kinds of value an injection needs to smuggle into a
 * legitimate call: URLs, e-mail addresses, IBANs, amounts with a currency,
 * phone numbers, file paths, plus dates and times (detected so they are not
 * read as phone numbers, and for rules that ask for them). Each detector
 * finds values in free text and gives them a normal form, so that the same
 * value written two ways (`DE89 3704…` and `de893704…`, `1,200.00 EUR` and
 * `EUR 1200`) is recognised as one. The provenance index keys on these forms.
 *
 * Every pattern is linear (no nested quantifiers over overlapping classes),
 * and texts are scanned once per detector, in a fixed order: a span a
 * detector claims is masked for the later ones, so the digits of an IBAN or a
 * date never also count as a phone number.
 * @module
 */
import { posix } from 'node:path';

/** A kind of value the detectors find. */
export type ValueKind = 'url' | 'email' | 'iban' | 'amount' | 'phone' | 'path' | 'datetime';

/** Every kind, in detection order. */
export const VALUE_KINDS: readonly ValueKind[] = Object.freeze(['url', 'email', 'iban', 'datetime', 'amount', 'phone', 'path']);

/** The kinds a provenance rule checks when it names none: those that redirect mail, money or readers (dates and times are left out). */
export const DEFAULT_PROVENANCE_KINDS: readonly ValueKind[] = Object.freeze(['url', 'email', 'iban', 'amount', 'phone', 'path']);

/** One value found in a text. */
export interface DetectedValue {
  kind: ValueKind;
  /** The normal form the index keys on (lower-case address, IBAN without spaces, amount as `1200.00`…). */
  value: string;
  /** The text as it was written. */
  text: string;
}

const CURRENCY = String.raw`(?:EUR|USD|GBP|CHF|JPY|CAD|AUD|euros?|dollars?|pounds?|[€$£¥])`;
const NUMBER = String.raw`\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;

const PATTERNS: Readonly<Record<ValueKind, RegExp>> = {
  // a backslash ends a URL: tool output is indexed as JSON text, where a newline after a link is the escape `\n`
  url: /\b(?:https?:\/\/|www\.)[^\s<>"'`)\]}\\]+|\b(?:[a-z0-9-]+\.)+[a-z]{2,}\/[^\s<>"'`)\]}\\]*/gi,
  email: /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi,
  iban: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g,
  datetime: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b|\b\d{1,2}:\d{2}\b/g,
  amount: new RegExp(String.raw`${CURRENCY}\s?(?:${NUMBER})\b|\b(?:${NUMBER})\s?${CURRENCY}(?![a-z])`, 'gi'),
  phone: /(?:\+|\b)\d[\d ().-]{6,18}\d\b/g,
  path: /(?<![\w.:/-])\/[\w.-]+(?:\/[\w.-]+)+|(?<![\w.:/-])\/[\w-]+\.[a-z0-9]{1,8}\b/gi,
};

/** Every value of the given kinds in `text`, in detection order (by kind, then position). */
export function detectValues(text: string, kinds: readonly ValueKind[] = VALUE_KINDS): DetectedValue[] {
  const found: DetectedValue[] = [];
  let masked = text;
  for (const kind of VALUE_KINDS) {
    const pattern = PATTERNS[kind];
    pattern.lastIndex = 0;
    const spans: [number, number][] = [];
    for (const match of masked.matchAll(pattern)) {
      const raw = trimPunctuation(match[0]);
      const value = normalizeValue(kind, raw);
      if (value === undefined) continue;
      spans.push([match.index, match.index + match[0].length]);
      if (kinds.includes(kind)) found.push({ kind, value, text: raw });
    }
    // Masked, not removed: positions stay put, and a later detector cannot join the text on either side of a claimed span.
    for (const [start, end] of spans) masked = masked.slice(0, start) + ' '.repeat(end - start) + masked.slice(end);
  }
  return found;
}

/** The normal form of a value of `kind`, or `undefined` when the text is not one after all (a phone number with too few digits). */
export function normalizeValue(kind: ValueKind, text: string): string | undefined {
  switch (kind) {
    case 'url':
      return text
        .replace(/^https?:\/\//i, '')
        .replace(/^www\./i, '')
        .replace(/\/+$/, '')
        .toLowerCase();
    case 'email':
      return text.toLowerCase();
    case 'iban':
      return text.replace(/\s+/g, '').toUpperCase();
    case 'datetime':
      return text.replace(' ', 'T');
    case 'amount': {
      const number = /\d[\d,.' ]*\d|\d/.exec(text)?.[0];
      return number === undefined ? undefined : normalizeNumber(number);
    }
    case 'phone': {
      const digits = text.replace(/\D/g, '');
      return digits.length >= 7 && digits.length <= 15 ? `${text.trim().startsWith('+') ? '+' : ''}${digits}` : undefined;
    }
    case 'path':
      return posix.resolve('/', text);
  }
}

/**
 * A number as written (`1,200.50`, `1.200,50`, `1200`, `1 200`) in the form `1200.50`; `undefined` when it does not read as one.
 * The last separator followed by one or two digits is the decimal point; every other separator groups thousands.
 */
export function normalizeNumber(text: string): string | undefined {
  const trimmed = text.trim();
  const decimal = /[.,](\d{1,2})$/.exec(trimmed);
  const whole = (decimal ? trimmed.slice(0, decimal.index) : trimmed).replace(/[,.' ]/g, '');
  if (!/^\d+$/.test(whole)) return undefined;
  const value = Number(`${whole}.${decimal?.[1] ?? '0'}`);
  return Number.isFinite(value) ? value.toFixed(2) : undefined;
}

function trimPunctuation(text: string): string {
  return text.replace(/[.,;:!?]+$/, '');
}
