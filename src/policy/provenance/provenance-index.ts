/**
 * A run's provenance index: every text that entered the run, labelled with
 * where it came from (the user, the system prompt, a trusted tool, an
 * untrusted tool), and the typed values the detectors find in each (URLs,
 * addresses, IBANs, amounts, phone numbers, paths, dates). A call argument is
 * attributed to sources by looking its typed values up by their normal form,
 * and its whole text up as a verbatim copy (case and whitespace ignored).
 *
 * What it sees: values copied, re-spaced, re-cased or re-formatted within
 * a kind (an IBAN with or without spaces, `1,200.00 EUR` as `1200`). What it
 * does not: a paraphrase, a value the model computed (a sum, a date moved by a
 * day), a value spelled out in words or split across arguments, or text past
 * the per-text cap. A value found in no source has no provenance; rules treat
 * it as not vouched for.
 * @module
 */
import { someOccurrence } from '../../shared/linear-search.js';
import { outputFields } from './output-fields.js';
import { detectValues, normalizeNumber, type DetectedValue, type ValueKind } from './value-detectors.js';

/** Where a text came from. */
export type ProvenanceOrigin = 'user' | 'system' | 'trusted' | 'untrusted';

/** One source of text in a run. */
export interface ProvenanceSource {
  origin: ProvenanceOrigin;
  /** The tool whose result it was (tool sources only). */
  toolName?: string;
  /** The call whose result it was (tool sources only). */
  callId?: string;
  /**
   * The field of the result the text was (`transactions[0].subject`), when the result was a JSON object or array
   * (output-fields.ts), or a trusted field of an untrusted result (`trust.fields`).
   */
  field?: string;
}

/** What a provenance rule reads: the sources of a typed value or of a verbatim text. */
export interface ProvenanceView {
  /** The sources in which a value of `kind` with this normal form was found. */
  sourcesOfValue(kind: ValueKind, value: string): readonly ProvenanceSource[];
  /** The sources that contain `text` verbatim (case-insensitive, whitespace collapsed, on word boundaries). */
  sourcesOfText(text: string): readonly ProvenanceSource[];
  /** The sources in which the number appears, as an amount or as a bare number. */
  sourcesOfNumber(value: number): readonly ProvenanceSource[];
  /**
   * The sources of each run of `PHRASE_WORDS` words in `text` that some source holds (case-insensitive, on word boundaries), in
   * the text's order. Optional: a view without it attributes no phrase.
   */
  sourcesOfPhrases?(text: string): readonly PieceSources[];
  /**
   * The sources of each value-like token in `text` (`isValueLikeToken`: a word with `.`, `/`, `@` or `:` inside, or with four
   * digits) that some source holds as a token of its own, case-insensitive, in the text's order. Optional, as above.
   */
  sourcesOfTokens?(text: string): readonly PieceSources[];
}

/** A piece of an argument (a run of words, or one value-like token) found in the run's sources. */
export interface PieceSources {
  /** The piece, lower case (a run of words joined by single spaces). */
  piece: string;
  sources: readonly ProvenanceSource[];
}

/**
 * How many words in a row make a phrase that can be said to be copied: fewer, and common collocations (`let me know if you`)
 * would be; more, and a sentence copied with one word changed every few words would not.
 */
export const PHRASE_WORDS = 6;

/** Text kept per source; beyond it a value in the tail is not attributed. */
export const MAX_INDEXED_CHARS = 200_000;

interface IndexedText {
  source: ProvenanceSource;
  /** Lower-case, whitespace collapsed. */
  folded: string;
  /** The text as indexed (capped), for the values a critical argument's output holds (`valuesInOutput`). */
  kept: string;
}

/** A typed value as a tool output holds it, with where it sits. */
export interface ValueInSource {
  value: DetectedValue;
  /** The line of its text the value sits on, trimmed; a long one cut to about 160 characters around the value. */
  line: string;
  /** The line's number in its text, from 1. */
  lineNumber: number;
  /** The field of the output the value sits in, when the output was a JSON object or array. */
  field?: string;
}

const BARE_NUMBER = /\d[\d,.']*\d|\d/g;

export class ProvenanceIndex implements ProvenanceView {
  readonly #texts: IndexedText[] = [];
  readonly #values = new Map<string, Set<number>>();
  /**
   * Every run of `PHRASE_WORDS` words (`phrase:…`) and every value-like token (`token:…`) of the texts indexed so far (the first
   * `#piecesUpTo`), built on the first query for either.
   */
  readonly #pieces = new Map<string, Set<number>>();
  #piecesUpTo = 0;
  /**
   * Texts added and not yet indexed, in the order they came: they are indexed, in that order, on the next query, so that
   * an index nobody asks (a session whose calls no rule checks against it) costs no detection.
   */
  #pending: { source: ProvenanceSource; text: string; toolOutput: boolean }[] = [];

  /** Adds a text under its source. */
  add(source: ProvenanceSource, text: string): void {
    this.#pending.push({ source: { ...source }, text: text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text, toolOutput: false });
  }

  /** Adds a tool's output under its source: a JSON object or array field by field, any other text as it is (`outputFields`). */
  addToolOutput(source: ProvenanceSource, text: string): void {
    this.#pending.push({ source: { ...source }, text, toolOutput: true });
  }

  /** Indexes the texts added since the last query. */
  #indexPending(): void {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    for (const { source, text, toolOutput } of pending) {
      if (!toolOutput) this.#index(source, text);
      else
        for (const item of outputFields(text, MAX_INDEXED_CHARS)) this.#index(item.field === undefined ? source : { ...source, field: item.field }, item.text);
    }
  }

  #index(source: ProvenanceSource, text: string): void {
    const kept = text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text;
    const index = this.#texts.length;
    this.#texts.push({ source: Object.freeze({ ...source }), folded: fold(kept), kept });
    for (const found of detectValues(kept)) this.#note(`${found.kind}:${found.value}`, index);
    for (const match of kept.matchAll(BARE_NUMBER)) {
      const number = normalizeNumber(match[0]);
      if (number !== undefined) this.#note(`number:${number}`, index);
    }
  }

  /**
   * Every value of `kind` in the tool output `source` (one this index returned) belongs to, every field of it, in order, each
   * with where it sits (its field, or its line): the candidates a person is shown beside a critical argument's value. Empty
   * for a source that is no tool output.
   */
  valuesInOutput(source: ProvenanceSource, kind: ValueKind): ValueInSource[] {
    if (source.callId === undefined) return [];
    this.#indexPending();
    const out: ValueInSource[] = [];
    for (const item of this.#texts) {
      if (item.source.callId !== source.callId || item.source.toolName !== source.toolName || item.source.origin !== source.origin) continue;
      const text = item.kept;
      for (const value of detectValues(text, [kind])) {
        const lineStart = text.lastIndexOf('\n', value.start - 1) + 1;
        const lineEnd = text.indexOf('\n', value.start);
        const full = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
        // A long line is shown around the value: a person must see it where it sits.
        const from = full.length <= 160 ? 0 : Math.max(0, Math.min(value.start - lineStart - 60, full.length - 159));
        const line = `${from > 0 ? '…' : ''}${full.slice(from, from + 159).trim()}${from + 159 < full.length ? '…' : ''}`;
        let lineNumber = 1;
        for (let index = text.indexOf('\n'); index !== -1 && index < value.start; index = text.indexOf('\n', index + 1)) lineNumber++;
        const field = item.source.field;
        out.push({ value, line, lineNumber, ...(field !== undefined ? { field } : {}) });
      }
    }
    return out;
  }

  sourcesOfValue(kind: ValueKind, value: string): readonly ProvenanceSource[] {
    this.#indexPending();
    return this.#sources(this.#values.get(`${kind}:${value}`));
  }

  sourcesOfNumber(value: number): readonly ProvenanceSource[] {
    if (!Number.isFinite(value)) return [];
    this.#indexPending();
    const key = Math.abs(value).toFixed(2);
    const indices = new Set([...(this.#values.get(`amount:${key}`) ?? []), ...(this.#values.get(`number:${key}`) ?? [])]);
    return this.#sources(indices);
  }

  sourcesOfText(text: string): readonly ProvenanceSource[] {
    const needle = fold(text);
    if (needle === '') return [];
    this.#indexPending();
    return this.#texts.filter((item) => containsOnBoundaries(item.folded, needle)).map((item) => item.source);
  }

  sourcesOfPhrases(text: string): readonly PieceSources[] {
    return this.#sourcesOfPieces('phrase', phrasesOf(fold(text)));
  }

  sourcesOfTokens(text: string): readonly PieceSources[] {
    return this.#sourcesOfPieces('token', valueLikeTokensOf(fold(text)));
  }

  #sourcesOfPieces(kind: 'phrase' | 'token', pieces: Iterable<string>): readonly PieceSources[] {
    this.#indexPending();
    // Texts indexed since the last query are split now, once each: a run with no rule that asks pays nothing.
    for (; this.#piecesUpTo < this.#texts.length; this.#piecesUpTo++) {
      const folded = this.#texts[this.#piecesUpTo]!.folded;
      for (const phrase of phrasesOf(folded)) this.#notePiece(`phrase:${phrase}`, this.#piecesUpTo);
      for (const token of valueLikeTokensOf(folded)) this.#notePiece(`token:${token}`, this.#piecesUpTo);
    }
    const found: PieceSources[] = [];
    const seen = new Set<string>();
    for (const piece of pieces) {
      const indices = this.#pieces.get(`${kind}:${piece}`);
      if (indices === undefined || seen.has(piece)) continue;
      seen.add(piece);
      found.push({ piece, sources: this.#sources(indices) });
    }
    return found;
  }

  #notePiece(key: string, index: number): void {
    let set = this.#pieces.get(key);
    if (!set) this.#pieces.set(key, (set = new Set()));
    set.add(index);
  }

  #note(key: string, index: number): void {
    let set = this.#values.get(key);
    if (!set) this.#values.set(key, (set = new Set()));
    set.add(index);
  }

  #sources(indices: ReadonlySet<number> | undefined): readonly ProvenanceSource[] {
    return indices === undefined ? [] : [...indices].map((index) => this.#texts[index]!.source);
  }
}

/** Every run of `PHRASE_WORDS` words (letters and digits) of a folded text, joined by single spaces; one pass. */
function* phrasesOf(folded: string): Generator<string> {
  const window: string[] = [];
  for (const match of withoutJsonBreaks(folded).matchAll(/[\p{L}\p{N}]+/gu)) {
    window.push(match[0]);
    if (window.length > PHRASE_WORDS) window.shift();
    if (window.length === PHRASE_WORDS) yield window.join(' ');
  }
}

/** Every value-like token of a folded text (`isValueLikeToken`), in order; one pass. */
function* valueLikeTokensOf(folded: string): Generator<string> {
  for (const match of withoutJsonBreaks(folded).matchAll(/[^\s"'`,;{}[\]()<>]+/g)) {
    const token = match[0].replace(/[.:!?]+$/, '');
    if (isValueLikeToken(token)) yield token;
  }
}

/**
 * Whether a token (a run of characters between spaces, quotes, brackets, commas and semicolons, without a trailing `.`, `:`,
 * `!` or `?`) looks like a value rather than a word: it has a `.`, `/`, `@`, `:`, fullwidth `＠` or `．` between two letters or
 * digits (`evil-login.app`, `t.me/x`, `12:30`) and is not single letters joined by dots, or has four digits or more (`INV-2291`).
 */
export function isValueLikeToken(token: string): boolean {
  // Single letters joined by dots are abbreviations (`e.g`, `i.e`, `U.S.A`), not values.
  if (/^(?:\p{L}\.)+\p{L}$/u.test(token)) return false;
  return /[\p{L}\p{N}][./@:＠．]+[\p{L}\p{N}]/u.test(token) || (token.match(/\d/g)?.length ?? 0) >= 4;
}

/** A JSON escape is a break between words: tool output is indexed as JSON text, where a line break is `\n`. */
function withoutJsonBreaks(text: string): string {
  return text.replace(/\\[nrt]/g, ' ');
}

/** Lower-case with runs of whitespace as one space, trimmed. */
export function fold(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Whether `needle` occurs in `haystack` not glued to a letter or digit on either side ("bob" is not in "bobby"). In one
 * linear pass over every occurrence: with `indexOf` from each occurrence, a model's argument of 50,000 `a`s against a tool
 * output of 200,000 `a`s (every occurrence glued) took 2.5 s.
 */
function containsOnBoundaries(haystack: string, needle: string): boolean {
  const checkBefore = WORD_CHARACTER.test(characterAt(needle, 0));
  const checkAfter = WORD_CHARACTER.test(characterBefore(needle, needle.length));
  return someOccurrence(haystack, needle, (start) => {
    const gluedBefore = checkBefore && start > 0 && WORD_CHARACTER.test(characterBefore(haystack, start));
    const gluedAfter = checkAfter && WORD_CHARACTER.test(characterAt(haystack, start + needle.length));
    return !gluedBefore && !gluedAfter;
  });
}

/** The code point ending just before `index` (a letter outside the BMP is two code units). */
function characterBefore(text: string, index: number): string {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.slice(index - 1, index);
}

/** The code point starting at `index`, or '' past the end. */
function characterAt(text: string, index: number): string {
  const codePoint = text.codePointAt(index);
  return codePoint === undefined ? '' : String.fromCodePoint(codePoint);
}

/** A typed value found in a call argument, with the sources that hold it. */
export interface SourcedValue {
  value: DetectedValue;
  sources: readonly ProvenanceSource[];
}

/**
 * Every value of `kinds` in an argument's text, with the sources it was found in. A digit run with no cue word of its own is a
 * code when some source holds it as one (`body: "482913"` after a mail said "your reset code is 482913"), and a code's sources
 * include every text holding its digits verbatim: a code the user typed without a cue word is the user's.
 */
export function sourcedValues(view: ProvenanceView, text: string, kinds: readonly ValueKind[]): SourcedValue[] {
  // Only when codes are asked for: a known code is masked like any code, and would hide its digits from the phone detector.
  const isKnownCode = kinds.includes('code') ? (digits: string) => view.sourcesOfValue('code', digits).length > 0 : undefined;
  return detectValues(text, kinds, { isKnownCode }).map((value) => ({
    value,
    sources:
      value.kind === 'code'
        ? [...new Set([...view.sourcesOfValue('code', value.value), ...view.sourcesOfText(value.value)])]
        : view.sourcesOfValue(value.kind, value.value),
  }));
}
