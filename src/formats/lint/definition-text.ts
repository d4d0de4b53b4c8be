/**
 * The text of a tool definition that a model reads and someone else may have
 * written: the tool's title and description, and every `title`, `description`,
 * `default`, `examples`, `enum` and `const` string inside its input and output
 * schemas (property names too, for invisible characters). The poisoning checks
 * (tw/hidden-instruction, tw/conceals-from-user, tw/cross-tool-reference,
 * tw/invisible-characters, tw/encoded-blob, tw/long-description, tw/shadowing)
 * all read it from here, once per tool.
 *
 * Every helper is linear in the text: a hostile server can send a description
 * of any length.
 * @module
 */
import { escapePointer } from '../../shared/json-schema/json-pointer.js';
import { walkSubschemas } from '../../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../../shared/own.js';
import { showInvisible } from '../../shared/visible-text.js';
import type { AnyTool } from '../../tools/index.js';

/** Where a piece of text sits: a title or description, a value the schema suggests (default, example, enum, const), or a property name. */
export type DefinitionTextField = 'title' | 'description' | 'value' | 'property name';

/** One string of a tool definition. */
export interface DefinitionText {
  /** JSON Pointer into the tool definition (`/description`, `/inputSchema/properties/to/enum/2`). */
  pointer: string;
  field: DefinitionTextField;
  /** As the server sent it. */
  raw: string;
  /** What a model reads once invisible characters are taken out: tag characters as the ASCII they spell, other format characters dropped, NFKC. */
  revealed: string;
}

/** Schema keywords whose strings a model reads as guidance: a suggested value is text too ("default": "Ignore the user…"). */
const VALUE_KEYWORDS = ['default', 'examples', 'enum', 'const'] as const;

/** Strings deeper than this inside one `default` or `examples` value are not read: no model is steered by the 65th level of an example. */
const MAX_VALUE_DEPTH = 64;

const cache = new WeakMap<AnyTool, DefinitionText[]>();

/** The definition's texts, the tool's own first, then each schema's in the walker's order (unused `$defs` included: the model reads them too). */
export function definitionTexts(tool: AnyTool): readonly DefinitionText[] {
  const cached = cache.get(tool);
  if (cached !== undefined) return cached;
  const texts: DefinitionText[] = [];
  const add = (pointer: string, field: DefinitionTextField, raw: unknown): void => {
    if (typeof raw === 'string' && raw !== '') texts.push({ pointer, field, raw, revealed: revealText(raw) });
  };
  add('/title', 'title', tool.title);
  add('/description', 'description', tool.description);
  for (const [key, schema] of [
    ['inputSchema', tool.inputSchema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    walkSubschemas(
      schema,
      ({ schema: subschema, pointer, keyword, key: propertyName }) => {
        if (keyword === 'properties' && typeof propertyName === 'string') add(pointer, 'property name', propertyName);
        add(`${pointer}/title`, 'title', subschema.title);
        add(`${pointer}/description`, 'description', subschema.description);
        for (const valueKeyword of VALUE_KEYWORDS) {
          if (valueKeyword in subschema) collectStrings(subschema[valueKeyword], `${pointer}/${valueKeyword}`, (at, text) => add(at, 'value', text));
        }
      },
      { rootPointer: `/${key}` },
    );
  }
  cache.set(tool, texts);
  return texts;
}

/** Every string inside a JSON value, with its pointer; iterative, so a deep value cannot exhaust the stack. */
function collectStrings(value: unknown, pointer: string, found: (pointer: string, text: string) => void): void {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer, depth: 0 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.value === 'string') found(entry.pointer, entry.value);
    if (entry.depth >= MAX_VALUE_DEPTH) continue;
    if (Array.isArray(entry.value)) {
      for (let index = entry.value.length - 1; index >= 0; index--) {
        stack.push({ value: entry.value[index], pointer: `${entry.pointer}/${index}`, depth: entry.depth + 1 });
      }
    } else if (isPlainObject(entry.value)) {
      const keys = Object.keys(entry.value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        stack.push({ value: entry.value[key], pointer: `${entry.pointer}/${escapePointer(key)}`, depth: entry.depth + 1 });
      }
    }
  }
}

/** Unicode tag characters (U+E0000–U+E007F): invisible, yet U+E0020–U+E007E spell ASCII that a model's tokenizer reads. */
const TAG_CHARACTER = /[\u{E0000}-\u{E007F}]/gu;

/**
 * Characters nobody sees: every format character (`\p{Cf}`: zero-width, bidirectional controls, soft hyphen, tags…), the
 * variation selectors (`\p{Variation_Selector}`, which can encode a byte each), and the Hangul fillers that render as blank letters.
 */
const HIDDEN_CHARACTER = /[\p{Cf}\p{Variation_Selector}\u115F\u1160\u3164\uFFA0]/gu;

/** Emoji sequences use U+200D between pictographs and U+FE0F after one; those are not hiding anything. */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const SKIN_TONE_OR_PRESENTATION = /^(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)$/u;

/** What a text hides: how many invisible characters (outside emoji sequences), where the first and last are, and of which kinds. */
export interface HiddenCharacters {
  count: number;
  /** Offset of the first one. */
  first: number;
  /** Offset just after the last one. */
  end: number;
  kinds: Set<string>;
}

/**
 * The invisible characters of `text` that are not part of an emoji sequence, summed up in one pass; nothing is kept per
 * character, so a text made of them costs no more than a scan. `undefined` when there are none.
 */
export function findHiddenCharacters(text: string): HiddenCharacters | undefined {
  let found: HiddenCharacters | undefined;
  HIDDEN_CHARACTER.lastIndex = 0;
  for (let match = HIDDEN_CHARACTER.exec(text); match !== null; match = HIDDEN_CHARACTER.exec(text)) {
    const char = match[0];
    const index = match.index;
    if (char === '\u200D' && PICTOGRAPH.test(pictographBefore(text, index)) && PICTOGRAPH.test(codePointAt(text, index + 1))) continue;
    if ((char === '\uFE0F' || char === '\uFE0E') && isEmojiPresentation(text, index)) continue;
    found ??= { count: 0, first: index, end: index, kinds: new Set() };
    found.count++;
    found.end = index + char.length;
    found.kinds.add(kindOfHidden(char));
  }
  return found;
}

/** The kind of an invisible character, as a message names it. */
function kindOfHidden(char: string): string {
  const code = char.codePointAt(0)!;
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag characters';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f || code === 0x061c) {
    return 'bidirectional controls';
  }
  if ((code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef) || (code >= 0x180b && code <= 0x180f && code !== 0x180e)) {
    return 'variation selectors';
  }
  if ((code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff) return 'zero-width characters';
  return 'other invisible characters';
}

/** One U+FE0F/U+FE0E right after a pictograph, a digit, `#` or `*` (keycaps) selects how it is drawn; a run of selectors encodes data. */
function isEmojiPresentation(text: string, index: number): boolean {
  const before = codePointBefore(text, index);
  const after = codePointAt(text, index + 1);
  return (PICTOGRAPH.test(before) || /^[0-9#*]$/.test(before)) && !/^\p{Variation_Selector}$/u.test(after);
}

/** The code point before `index`, stepping back over skin tones and presentation selectors (👍🏽‍ is still a pictograph before the joiner). */
function pictographBefore(text: string, index: number): string {
  let at = index;
  for (let steps = 0; steps < 4; steps++) {
    const previous = codePointBefore(text, at);
    if (!SKIN_TONE_OR_PRESENTATION.test(previous)) return previous;
    at -= previous.length;
  }
  return '';
}

function codePointAt(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? '' : String.fromCodePoint(code);
}

function codePointBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) return text.slice(index - 2, index);
  return text.slice(index - 1, index);
}

/** The text a model reads: tag characters as the ASCII they spell, other invisible characters dropped, then NFKC (fullwidth `ｉｇｎｏｒｅ` → `ignore`). */
export function revealText(text: string): string {
  return text
    .replace(TAG_CHARACTER, (char) => {
      const code = char.codePointAt(0)! - 0xe0000;
      return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : '';
    })
    .replace(HIDDEN_CHARACTER, '')
    .normalize('NFKC');
}

/**
 * `text` with every invisible character shown: the bidirectional and zero-width ones as `⟨U+202E⟩` (`showInvisible`, as the
 * console and confirmations show them), a run of tag characters as the text it spells, `⟨tags: "…"⟩`, any other as `⟨U+XXXX⟩`.
 */
export function showHiddenText(text: string): string {
  return showInvisible(text)
    .replace(/[\u{E0000}-\u{E007F}]+/gu, (run) => `⟨tags: ${JSON.stringify(revealText(run))}⟩`)
    .replace(HIDDEN_CHARACTER, (char) => `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** How much of a text a message quotes around the offending part. */
const QUOTE_CONTEXT = 60;
const QUOTE_MAX = 200;

/** The offending part of `text` with a little context, cut with `…`, invisible characters shown, as a JSON string. */
export function quoteExcerpt(text: string, start = 0, end = text.length): string {
  const from = Math.max(0, start - QUOTE_CONTEXT);
  const to = Math.min(text.length, Math.max(end, start) + QUOTE_CONTEXT, from + QUOTE_MAX);
  const excerpt = `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  return JSON.stringify(showHiddenText(excerpt));
}

/** How a message names where a text sits: `the description`, `the enum value at /inputSchema/properties/mode/enum/1`. */
export function describePlace(text: DefinitionText): string {
  if (text.pointer === '/description') return 'its description';
  if (text.pointer === '/title') return 'its title';
  const what = text.field === 'value' ? `the ${valueKeywordOf(text.pointer)} value` : `the ${text.field}`;
  return `${what} at ${text.pointer}`;
}

function valueKeywordOf(pointer: string): string {
  for (const keyword of VALUE_KEYWORDS) if (pointer.includes(`/${keyword}`)) return keyword === 'examples' ? 'example' : keyword;
  return 'suggested';
}

/** The fix for a definition that talks to the model behind its importer's back. */
export const POISONED_TEXT_FIX =
  'Do not import this tool, or strip its description and schema texts (the gateway\'s `poisoning: "strip"`); if you trust the server, ask its author to remove the text.';

/**
 * Identifier-like words (`send_email`, `post-message`, `getUser`) with their offsets: the words that can name a tool.
 * Each match starts where a run of word characters starts, so the scan is linear.
 */
export function* identifierWords(text: string): Generator<{ word: string; index: number }> {
  for (const match of text.matchAll(/(?<![\w-])[\w-]+/g)) yield { word: match[0], index: match.index };
}

/** Whether a tool name is also a plain English word (`search`, `fetch`), which a description may use without meaning the tool. */
export function isPlainWord(name: string): boolean {
  return /^[a-z]+$/i.test(name) && !/[a-z][A-Z]/.test(name);
}

/** The sentences of a text (split at `.`, `!`, `?`, `;` and line breaks), with their offsets; one linear scan. */
export function* sentencesOf(text: string): Generator<{ sentence: string; index: number }> {
  for (const match of text.matchAll(/[^.!?;\n]+/g)) yield { sentence: match[0], index: match.index };
}
