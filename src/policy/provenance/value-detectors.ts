/**
 * Detectors for the kinds of value an injection needs to smuggle into a
 * legitimate call: URLs, e-mail addresses, IBANs, amounts with a currency,
 * one-time codes (digits with a cue word near: `reset code 482913`), phone
 * numbers, file paths, secrets (API keys, tokens, private keys), plus
 * dates and times (detected so they are not read as phone numbers, and for
 * rules that ask for them). Each detector
 * finds values in free text and gives them a normal form, so that the same
 * value written two ways (`DE89 3704…` and `de89-3704…`, `1,200.00 EUR` and
 * `EUR 1200`) is recognised as one. The provenance index keys on these forms.
 * That includes the ways an injection rewrites a value to slip past a
 * detector: a bare domain, a defanged or `data:` URL, an address written out
 * or with a fullwidth `＠`, a code of spaced digits, a lower-case or dashed
 * IBAN (docs/policy.md, "Rewritten values").
 *
 * Every pattern is linear (no nested quantifiers over overlapping classes),
 * and texts are scanned once per detector, in a fixed order: a span a
 * detector claims is masked for the later ones, so the digits of an IBAN or a
 * date never also count as a phone number. Secrets are looked for twice:
 * secrets of a known format (the redaction layer's list: `sk-…`, `ghp_…`,
 * `xoxb-…`, `AKIA…`, JWTs; and PEM private keys) first, before a URL or path can swallow them; opaque
 * high-entropy strings last, after every other kind has claimed its text (see
 * `isOpaqueSecret` for what counts).
 *
 * A secret's normal form is a digest (`sha256:` and 16 hex digits), never the
 * secret itself, so the provenance index and anything that prints its keys
 * hold no secret; `redactSecrets` and `describeDetected` show one only as its
 * first four characters and its length.
 * @module
 */
import { resolveFromRoot } from '../../shared/posix-path.js';
import { sha256Digest } from '../../shared/sha256.js';
import { parse as parseHost } from 'tldts';
import { DEFAULT_REDACTION_PATTERNS } from '../../shared/redaction/index.js';

/** A kind of value the detectors find. */
export type ValueKind = 'url' | 'email' | 'iban' | 'amount' | 'code' | 'phone' | 'path' | 'datetime' | 'secret';

/**
 * Every kind, in detection order (secrets of a known format are found first, and opaque ones last; see the module comment).
 * Codes come before phone numbers: an eight-digit code would otherwise read as one.
 */
export const VALUE_KINDS: readonly ValueKind[] = Object.freeze(['url', 'email', 'iban', 'datetime', 'amount', 'code', 'phone', 'path', 'secret']);

/**
 * The kinds a provenance rule checks when it names none: those that redirect mail, money or readers, and secrets and one-time
 * codes that would leave in a write (dates and times are left out).
 */
export const DEFAULT_PROVENANCE_KINDS: readonly ValueKind[] = Object.freeze(['url', 'email', 'iban', 'amount', 'code', 'phone', 'path', 'secret']);

/** One value found in a text. */
export interface DetectedValue {
  kind: ValueKind;
  /** The normal form the index keys on (lower-case address, IBAN without spaces, amount as `1200.00`…). */
  value: string;
  /** The text as it was written (for a secret: the secret itself; show it only through `describeDetected` or `redactSecrets`). */
  text: string;
  /** Where `text` starts in the scanned text (it ends `text.length` later). */
  start: number;
}

/** A dot written so that no link is made of it: `evil[.]example`, `evil(.)example`, `evil[dot]example`. */
const DEFANGED_DOT = String.raw`\[\.\]|\(\.\)|\[dot\]|\(dot\)`;
/** An `@` as typed, fullwidth (`＠`, `﹫`) or written out (` at `, `(at)`, `[at]`, `{at}`), with spaces around it allowed. */
const EMAIL_AT = String.raw`(?:\s*[@＠﹫]\s*|\s+at\s+|\s*[[({]\s*at\s*[\])}]\s*)`;
/** A dot of an address's domain: as typed, fullwidth or ideographic (`．`, `。`, `｡`), defanged or written out (` dot `). */
const EMAIL_DOT = String.raw`(?:[.．。｡]|\s+dot\s+|\s*(?:${DEFANGED_DOT})\s*)`;

/**
 * Top-level names reserved for tests, documentation and local networks (RFC 2606, 6761, 6762, 7686, 9476, and ICANN's
 * `.internal`): not in the public suffix list, but exactly what attackers in tests and evaluations write (`evil.example`).
 */
const SPECIAL_USE_NAMES: ReadonlySet<string> = new Set(['example', 'test', 'invalid', 'localhost', 'local', 'onion', 'alt', 'internal']);

/**
 * Public suffixes that are also common file extensions (`README.md`, `main.py`, `run.sh`, `lib.rs`, `a.zip`): a bare name
 * ending in one reads as a file, not a host. A host with a scheme, `www.` or a path is found whatever its suffix.
 */
const FILE_EXTENSION_SUFFIXES: ReadonlySet<string> = new Set(['md', 'py', 'sh', 'rs', 'pl', 'pm', 'ps', 'so', 'cc', 'mk', 'tf', 'zip', 'mov', 'ml']);

/** The generic top-level names older than 2012's word names (`.now`, `.map`, `.run`), which read as identifiers in prose and code. */
const LEGACY_GENERIC_NAMES: ReadonlySet<string> = new Set(['com', 'net', 'org', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'name', 'pro', 'mobi']);

/**
 * Whether a bare name (`evil-login.example`, `billing.co.uk`) is a host: its last label is a special-use name, or it ends in
 * an ICANN public suffix (the `tldts` package's copy of the public suffix list) that is a country code, a suffix of several
 * labels or a generic name older than the word names, and not a common file extension. Word names (`Date.now`,
 * `tools.map`) and camel-case names (`serverInfo.name`) read as code, not hosts; with a scheme, `www.` or a path any host is found.
 */
export function isPublicHost(name: string): boolean {
  if (/[a-z][A-Z]/.test(name)) return false;
  const host = name.toLowerCase();
  const last = host.slice(host.lastIndexOf('.') + 1);
  if (SPECIAL_USE_NAMES.has(last)) return true;
  if (FILE_EXTENSION_SUFFIXES.has(last)) return false;
  const parsed = parseHost(host, { allowPrivateDomains: false });
  const suffix = parsed.publicSuffix ?? '';
  return parsed.isIcann === true && parsed.domain !== null && (suffix.includes('.') || suffix.length === 2 || LEGACY_GENERIC_NAMES.has(suffix));
}

/** A URL as it would be typed: `hxxps` as `https`, defanged dots and colons as `.` and `:`. */
function refangUrl(text: string): string {
  return text
    .replace(/^hxxp/i, 'http')
    .replace(/\[\.\]|\(\.\)|\[dot\]|\(dot\)/gi, '.')
    .replace(/\[:\]|\(:\)/g, ':');
}

/** An address as it would be typed: `mallory at evil dot example`, `mallory＠evil．example` → `mallory@evil.example`. */
function typedAddress(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s*[[({]\s*at\s*[\])}]\s*|\s+at\s+|\s*[@＠﹫]\s*/, '@')
    .replace(/\s*(?:\[\.\]|\(\.\)|\[dot\]|\(dot\))\s*|\s+dot\s+|[．。｡]/g, '.');
}

/** Whether an IBAN (spaces and dashes taken out, upper case) passes its ISO 13616 check: the number it spells is 1 modulo 97. */
export function isValidIban(iban: string): boolean {
  let remainder = 0;
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const digit = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    remainder = (remainder * (digit >= 10 ? 100 : 10) + digit) % 97;
  }
  return remainder === 1;
}

const CURRENCY = String.raw`(?:EUR|USD|GBP|CHF|JPY|CAD|AUD|euros?|dollars?|pounds?|[€$£¥])`;
// At most seven thousands groups (10^24): unbounded, a long run of `100 100 100 …` is rescanned from every group (quadratic).
const NUMBER = String.raw`\d{1,3}(?:[,.' ]\d{3}){1,7}(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;

/**
 * Secrets whose format says what they are: the key and token formats the redaction layer knows (`DEFAULT_REDACTION_PATTERNS`:
 * `sk-…`, JWTs, AWS key ids, GitHub, Slack, Google and Stripe keys; one list, so a format added there is detected here too),
 * and PEM private-key blocks. Those patterns are linear (each starts after a one-character look-behind); a PEM body holds no
 * dash, so its scan stops at the next dash whatever follows, and a text of many BEGIN lines with no END costs one pass
 * (legacy encrypted blocks with `Proc-Type:` headers are missed whole; their base64 lines still read as opaque secrets).
 */
const KNOWN_SECRET = new RegExp(
  [
    String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[^-]{1,16384}-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----`,
    ...DEFAULT_REDACTION_PATTERNS.map((pattern) => pattern.source),
  ].join('|'),
  'g',
);

/** A run of base64, base64url or hex characters of at least 20, not glued to more of them; `isOpaqueSecret` decides. */
const OPAQUE_CANDIDATE = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/_=-])/g;

/**
 * How far (in bits per character) a candidate's entropy may fall below what a random string of its length and alphabet
 * would have; measured in value-detectors.test.ts (random keys found, identifiers and prose left alone).
 */
export const SECRET_ENTROPY_SLACK_BITS = 0.7;

/** The fewest word pieces per character (`getUserById2` is 4 pieces in 12): identifiers have long pieces, random strings short ones. */
export const MIN_SECRET_PIECES_PER_CHAR = 0.3;

const PATTERNS: Readonly<Record<ValueKind, RegExp>> = {
  secret: OPAQUE_CANDIDATE,
  // a backslash ends a URL: tool output is indexed as JSON text, where a newline after a link is the escape `\n`
  // A bare host has at most 16 labels of at most 63 characters (DNS allows 63): unbounded, a long `a.a.a.…` or `a-a-a-…` with
  // no slash is rescanned from every label (quadratic: 40,000 characters took 1.4 s). Four forms: a scheme or `www.` (defanged
  // too: `hxxps://`, `[.]`, `(.)`, `[:]`), a host with a path, a `data:` URL, and a bare host with no path. The bare host starts
  // only where a run of host characters starts (so a long run is tried once), and counts only if its last label is a public
  // suffix or a special-use name (`isPublicHost`, asked in `normalizeValue`).
  url: new RegExp(
    [
      String.raw`\b(?:h(?:tt|xx)ps?(?::|\[:\]|\(:\))\/\/|www(?:\.|${DEFANGED_DOT}))(?:${DEFANGED_DOT}|[^\s<>"'${'`'})\]}\\])+`,
      String.raw`\b(?:[a-z0-9][a-z0-9-]{0,62}(?:\.|${DEFANGED_DOT})){1,16}[a-z]{2,}\/[^\s<>"'${'`'})\]}\\]*`,
      String.raw`\bdata:(?:[a-z]{1,20}\/[\w.+-]{1,100})?(?:;[\w.+=-]{1,100}){0,8},[^\s"'${'`'})\\]*`,
      String.raw`(?<![\w.@＠﹫/:)\]-])(?:[a-z0-9][a-z0-9-]{0,62}(?:\.|${DEFANGED_DOT})){1,16}[a-z]{2,63}(?![\w@＠﹫/-]|\.[a-z0-9]|${DEFANGED_DOT})`,
    ].join('|'),
    'gi',
  ),
  // Starts only where a run of local-part characters starts: a match from inside a run implies one from its start, and without
  // the guard a long run with no '@' is rescanned from every position (quadratic: 60,000 characters took 4 s). The `@` may be
  // fullwidth (`＠`, `﹫`) or written out (` at `, `(at)`, `[at]`), and so may the dots (`．`, `。`, ` dot `, `(dot)`, `[.]`);
  // the domain's last label is checked in `normalizeValue`.
  email: new RegExp(String.raw`(?<![a-z0-9._%+-])[a-z0-9._%+-]+${EMAIL_AT}[a-z0-9-]+(?:${EMAIL_DOT}[a-z0-9-]+){1,16}(?![a-z0-9-])`, 'gi'),
  // Upper case with single spaces as before; a lower-case or dashed form counts only with a valid mod-97 check (`normalizeValue`).
  iban: /\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,4})?\b/gi,
  datetime: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b|\b\d{1,2}:\d{2}\b/g,
  amount: new RegExp(String.raw`${CURRENCY}\s?(?:${NUMBER})\b|\b(?:${NUMBER})\s?${CURRENCY}(?![a-z])`, 'gi'),
  // 4–10 digits, or two or three groups of 3–4, 4–10 single digits or 3–5 pairs, joined by one space or dash, standing alone:
  // no letter, digit or `_` glued on either side, and nothing that continues a number, phone number, path or URL (`+`, `(`,
  // `#`, `-`, `/`, a currency symbol or a digit group before; a decimal, time, `%`, `)`, `/` or `@` after). A letter before is allowed only as a JSON escape
  // (`\n482913`): tool output is indexed as JSON text. Whether it is a code is decided by its cue words (`codeCue`).
  code: /(?<!(?<!\\)[\p{L}\p{N}_]|[+(#/$€£¥-]|[\p{L}\p{N}][.,]|\p{N}:|[\p{N})][ ])(?:\d{3,4}(?:[ -]\d{3,4}){1,2}|\d{4,10}|\d(?:[ -]\d){3,9}|\d\d(?:[ -]\d\d){2,4})(?![\p{L}\p{N}_]|[ -]?\d|[.,:]\d|[)%/@]| %)/gu,
  phone: /(?:\+|\b)\d[\d ().-]{6,18}\d\b/g,
  path: /(?<![\w.:/-])\/[\w.-]+(?:\/[\w.-]+)+|(?<![\w.:/-])\/[\w-]+\.[a-z0-9]{1,8}\b/gi,
};

/** Options of `detectValues`. */
export interface DetectValuesOptions {
  /**
   * Whether a standalone run of 4–10 digits with no cue word nearby is a code anyway (digits only). `valuesFrom` says yes when
   * a source of the run holds it as a code, so `body: "482913"` is the reset code a mail named. Default: never.
   */
  isKnownCode?: (digits: string) => boolean;
}

/** Every value of the given kinds in `text`, in detection order (by kind, then position). */
export function detectValues(text: string, kinds: readonly ValueKind[] = VALUE_KINDS, options: DetectValuesOptions = {}): DetectedValue[] {
  const found: DetectedValue[] = [];
  let masked = text;
  for (const step of DETECTION_STEPS) {
    const kind = step === KNOWN_SECRET ? 'secret' : (step as ValueKind);
    const pattern = step === KNOWN_SECRET ? KNOWN_SECRET : PATTERNS[kind];
    pattern.lastIndex = 0;
    const spans: [number, number][] = [];
    for (const match of masked.matchAll(pattern)) {
      const raw = kind === 'secret' ? match[0] : trimPunctuation(match[0]);
      if (pattern === OPAQUE_CANDIDATE && !isOpaqueSecret(raw)) continue;
      const value = normalizeValue(kind, raw);
      if (value === undefined) continue;
      if (kind === 'code' && !hasCodeCue(masked, match.index, match.index + match[0].length) && options.isKnownCode?.(value) !== true) continue;
      spans.push([match.index, match.index + match[0].length]);
      if (kinds.includes(kind)) found.push({ kind, value, text: raw, start: match.index });
    }
    // Masked, not removed: positions stay put, and a later detector cannot join the text on either side of a claimed span.
    // One rebuild per detector, not per span: a text with thousands of values would otherwise be copied once per value.
    if (spans.length > 0) {
      const parts: string[] = [];
      let at = 0;
      for (const [start, end] of spans) {
        parts.push(masked.slice(at, start), ' '.repeat(end - start));
        at = end;
      }
      parts.push(masked.slice(at));
      masked = parts.join('');
    }
  }
  return found.sort((a, b) => VALUE_KINDS.indexOf(a.kind) - VALUE_KINDS.indexOf(b.kind));
}

const DETECTION_STEPS: readonly (ValueKind | RegExp)[] = Object.freeze([KNOWN_SECRET, ...VALUE_KINDS]);

/** How many words before a code candidate, and after it, are searched for a cue word (in the same sentence). */
export const CODE_CUE_WORDS_BEFORE = 6;
export const CODE_CUE_WORDS_AFTER = 4;

/**
 * Words that say a number is a one-time code, PIN or password. Whole words only (`PINE` is no cue); a few non-English words
 * are listed because they cost nothing. `one time` (`one-time`) is matched as a pair in `isCueAt`.
 */
const CODE_CUES: ReadonlySet<string> = new Set([
  ...['code', 'codes', 'passcode', 'passcodes', 'otp', 'totp', 'pin', 'pins', 'password', 'passwords', 'passphrase'],
  ...['verification', 'confirmation', 'reset', '2fa', 'mfa', 'token'],
  ...['codice', 'código', 'codigo', 'contraseña', 'passwort', 'kennwort', 'wachtwoord', 'bestätigungscode'],
  ...['sicherheitscode', 'zugangscode', 'einmalcode', 'verifizierungscode', 'aktivierungscode', 'verificatiecode'],
]);

/** Words that make a following `code` name no secret: a postal, dialling, bank-sort, status or product code. */
const NOT_SECRET_CODE_QUALIFIERS: ReadonlySet<string> = new Set([
  ...['zip', 'postal', 'post', 'area', 'country', 'dialing', 'dialling', 'calling', 'sort', 'routing', 'swift', 'bic'],
  ...['error', 'status', 'exit', 'return', 'response', 'http', 'tax', 'product', 'item', 'article', 'sku', 'airport', 'iata'],
  ...['language', 'currency', 'region', 'source', 'bar', 'qr', 'color', 'colour', 'iso', 'hs', 'promo', 'discount', 'coupon'],
]);

/** A sentence end: `.`, `!` or `?` before a space or the end, or a line break, except one after a colon (`Your code:\n\n482913`). */
const SENTENCE_END = /[.!?](?=\s|$)|(?<!:\s*)\n/;
/** Characters of context read on either side of a candidate: enough for the cue words, and a bound on the work per candidate. */
const CUE_CONTEXT_CHARS = 120;

/**
 * Whether a cue word stands within `CODE_CUE_WORDS_BEFORE` words before the candidate at `start`–`end` or
 * `CODE_CUE_WORDS_AFTER` after it, in the same sentence (a colon before a line break does not end it). A four-digit number
 * from 1900 to 2099, and a JSON number value, need the cue as the word right before them. The context read is bounded, so
 * the cost per candidate is constant.
 */
function hasCodeCue(text: string, start: number, end: number): boolean {
  const before = words(lastClause(unescapeBreaks(text.slice(Math.max(0, start - CUE_CONTEXT_CHARS), start))));
  const after = words(unescapeBreaks(text.slice(end, end + CUE_CONTEXT_CHARS)).split(SENTENCE_END)[0] ?? '');
  // A year, or a JSON number value (`"amount":1200` next to a `"reference":"Reset fee"`), is a code only by the word right
  // before it: `PIN 1984`, `"pin":1234`.
  if (/^(?:19|20)\d\d$/.test(text.slice(start, end)) || /"\s*:\s*$/.test(text.slice(Math.max(0, start - 8), start)))
    return before.length > 0 && isCueAt(before, before.length - 1);
  for (let index = Math.max(0, before.length - CODE_CUE_WORDS_BEFORE); index < before.length; index++) if (isCueAt(before, index)) return true;
  for (let index = 0; index < Math.min(after.length, CODE_CUE_WORDS_AFTER); index++) if (isCueAt(after, index)) return true;
  return false;
}

function isCueAt(list: readonly string[], index: number): boolean {
  const word = list[index]!;
  if (word === 'time') return list[index - 1] === 'one';
  if (!CODE_CUES.has(word)) return false;
  return !(word.startsWith('code') && NOT_SECRET_CODE_QUALIFIERS.has(list[index - 1] ?? ''));
}

/** JSON-escaped line breaks and tabs as the characters they stand for. */
function unescapeBreaks(text: string): string {
  return text.replace(/\\[nrt]/g, (escape) => (escape === '\\t' ? '\t' : '\n'));
}

function lastClause(text: string): string {
  const clauses = text.split(SENTENCE_END);
  return clauses[clauses.length - 1] ?? '';
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Whether a 20+ character run of base64/hex characters is an opaque secret. Deliberately not: a string of hex digits and
 * dashes alone (commit ids, hashes, UUIDs: tasks show them, so a hex-only key is missed by choice); one without both a
 * letter and a digit; one whose parts between `-`, `_`, `/` and `+` are each all letters or all digits
 * (`billing-test-suite-2026`); one made of few, long word pieces (`ThisIsALongIdentifier2`, under
 * `MIN_SECRET_PIECES_PER_CHAR`); and one whose entropy is more than `SECRET_ENTROPY_SLACK_BITS` under a random string's of
 * its length and alphabet (`release_notes_2026_12_04_v2`).
 */
export function isOpaqueSecret(text: string): boolean {
  const body = text.replace(/=+$/, '');
  if (body.length < 20) return false;
  if (/^[0-9a-f-]+$/i.test(body)) return false;
  if (!/[A-Za-z]/.test(body) || !/\d/.test(body)) return false;
  if (body.split(/[-_/+]+/).every((part) => /^(?:[A-Za-z]*|\d*)$/.test(part))) return false;
  const alphanumeric = body.replace(/[^A-Za-z0-9]/g, '').length;
  const pieces = body.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g)?.length ?? 0;
  if (pieces / alphanumeric < MIN_SECRET_PIECES_PER_CHAR) return false;
  return shannonEntropy(body) >= randomEntropy(body) - SECRET_ENTROPY_SLACK_BITS;
}

/**
 * About the entropy a random string of `text`'s length over `text`'s alphabet (its classes: lower, upper, digits, symbols)
 * has: log2 of its expected number of distinct characters.
 */
function randomEntropy(text: string): number {
  const alphabet = (/[a-z]/.test(text) ? 26 : 0) + (/[A-Z]/.test(text) ? 26 : 0) + (/\d/.test(text) ? 10 : 0) + (/[+/_-]/.test(text) ? 2 : 0);
  return Math.log2(alphabet * (1 - Math.pow(1 - 1 / alphabet, text.length)));
}

/** Bits per character of the string's own character distribution. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/** A secret as it may be shown: its first four characters and its length (`ghp_… (40 chars)`). */
export function redactSecret(text: string): string {
  const trimmed = text.trim();
  return `${trimmed.slice(0, 4)}… (${trimmed.length} chars)`;
}

/** The text with every secret in it redacted (`redactSecret`); the rest is left as it is. */
export function redactSecrets(text: string): string {
  const secrets = detectValues(text, ['secret']).map((found) => found.text);
  let out = text;
  for (const secret of secrets.sort((a, b) => b.length - a.length)) out = out.split(secret).join(redactSecret(secret));
  return out;
}

/** A detected value as it may be printed in an error or a report: a secret redacted, any other kind as written. */
export function describeDetected(value: Pick<DetectedValue, 'kind' | 'text'>): string {
  return value.kind === 'secret' ? redactSecret(value.text) : value.text;
}

/** The normal form of a value of `kind`, or `undefined` when the text is not one after all (a phone number with too few digits). */
export function normalizeValue(kind: ValueKind, text: string): string | undefined {
  switch (kind) {
    case 'url': {
      const typed = refangUrl(text);
      // A name with no scheme, `www.` or path is a host only if it ends in a public suffix (`file.txt`, `e.g.` are none).
      if (!/^(?:https?:\/\/|www\.|data:)/i.test(typed) && !typed.includes('/') && !isPublicHost(typed)) return undefined;
      // A data: URL's payload is case-sensitive (base64): only its media type is folded.
      if (/^data:/i.test(typed)) return typed.slice(0, typed.indexOf(',')).toLowerCase() + typed.slice(typed.indexOf(','));
      return typed
        .replace(/^https?:\/\//i, '')
        .replace(/^www\./i, '')
        .replace(/\/+$/, '')
        .toLowerCase();
    }
    case 'email': {
      const typed = typedAddress(text);
      const domain = typed.slice(typed.indexOf('@') + 1);
      if (!/\.[a-z]{2,}$/.test(domain)) return undefined;
      // Written out or spaced (`mallory at evil dot example`): an address only if the domain is a host, not any `x at y dot z`.
      return /[\s[({]/.test(text) && !isPublicHost(domain) ? undefined : typed;
    }
    case 'iban': {
      const compact = text.replace(/[\s-]+/g, '').toUpperCase();
      // The upper-case form is taken as before; a lower-case or dashed one must pass the check, or any word run would do.
      return /[a-z-]/.test(text) && !isValidIban(compact) ? undefined : compact;
    }
    case 'datetime':
      return text.replace(' ', 'T');
    case 'amount': {
      const number = /\d[\d,.' ]*\d|\d/.exec(text)?.[0];
      return number === undefined ? undefined : normalizeNumber(number);
    }
    case 'code': {
      const digits = text.replace(/\D/g, '');
      return digits.length >= 4 && digits.length <= 10 ? digits : undefined;
    }
    case 'phone': {
      const digits = text.replace(/\D/g, '');
      return digits.length >= 7 && digits.length <= 15 ? `${text.trim().startsWith('+') ? '+' : ''}${digits}` : undefined;
    }
    case 'path':
      return resolveFromRoot(text);
    case 'secret':
      // A digest, so the index keys on the secret without holding it. Line breaks, real or JSON-escaped, are dropped: a PEM block
      // read from a tool's JSON output and the same block written into an argument are one value.
      return `sha256:${sha256Digest(text.replace(/\\[nr]|\s+/g, ''), 'hex').slice(0, 16)}`;
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
