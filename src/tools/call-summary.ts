/**
 * What a person deciding on a call reads about its arguments, made in one
 * place for every surface (the summary line, `toolwright approvals`, the
 * terminal prompt, the console card, MCP elicitation, the AI SDK and OpenAI
 * Agents approval bridges). A cut over the whole argument text hid what
 * mattered: canonical JSON sorts keys, so a long `body` pushed `to` past the
 * cut and a person approved mail to an address they never saw. Here the
 * arguments that decide where an effect goes (recipients, destinations,
 * accounts, amounts, paths, anything shaped like an address or a URL) come
 * first, each shown whole up to a per-value cap that says how much it left
 * out, never dropped; the rest follows, cut with the count of what was cut.
 *
 * It reads only the arguments (already redacted by the caller), never the
 * tool, so a surface that has only a stored confirmation (the CLI, the console)
 * derives the same summary from what will run, whatever summary line an older
 * version, a custom `summarize` or the store's writer left beside it.
 * @module
 */
import { canonicalJson } from '../shared/canonical-json.js';
import { showInvisible } from '../shared/visible-text.js';

/** The longest shown JSON text of one decisive argument, in UTF-16 code units; a longer one says how many it left out. */
export const DECISIVE_VALUE_MAX_CHARS = 200;
/** The longest shown JSON text of the other arguments together, in UTF-16 code units. */
export const OTHER_ARGUMENTS_MAX_CHARS = 300;
/** How deep the search for decisive arguments goes into nested objects and arrays; deeper values stay among the rest. */
const SEARCH_DEPTH = 8;

/** JSON text as a person is shown it: whole, or cut with the number of code units left out. */
export interface ShownText {
  /** The JSON text, possibly cut; bidirectional and zero-width characters written as `⟨U+XXXX⟩`. */
  text: string;
  /** How many UTF-16 code units of the JSON text were left out; 0 when it is shown whole. */
  omittedChars: number;
}

/** One argument that decides where the call's effect goes. */
export interface DecisiveArgument extends ShownText {
  /** Where it sits: a property name, or a path such as `message.to` or `payments[0].iban`. */
  path: string;
}

/** The arguments of one call as a person is shown them. */
export interface ArgumentsSummary {
  /** In canonical (sorted) order; every one found is listed, none dropped. */
  decisive: DecisiveArgument[];
  /** Everything else, as canonical JSON (the decisive ones taken out); absent when nothing else remains. */
  others?: ShownText;
}

/**
 * Words in a property name (split at `_`, `-`, `.`, spaces and camelCase) that mark it as deciding where an effect goes:
 * who receives, where it is sent or written, which account, how much.
 */
const DECISIVE_WORDS = new Set([
  'to', 'cc', 'bcc', 'recipient', 'recipients', 'email', 'emails', 'mail', 'address', 'addresses', 'destination', 'dest', 'url', 'urls',
  'uri', 'link', 'href', 'path', 'paths', 'file', 'files', 'filename', 'filepath', 'dir', 'directory', 'folder', 'account', 'iban', 'bic',
  'swift', 'routing', 'amount', 'price', 'currency', 'payee', 'beneficiary', 'target', 'host', 'hostname', 'domain', 'endpoint', 'webhook',
  'phone', 'wallet', 'command', 'cmd', 'channel',
]); // prettier-ignore

/** A string shaped like an e-mail address (an `@`, fullwidth `＠` included) or a URL (`scheme://`, `www.`, `data:`). */
const ADDRESS_SHAPE = /[@\uFF20]|:\/\/|^\s*www\.|^\s*data:/i;

/**
 * The arguments (already redacted) with the decisive ones first, each whole up to its cap, and the rest cut.
 * `declared` names top-level arguments a tool declares decisive (`defineTool({ decisiveArguments })`).
 */
export function describeArguments(args: unknown, declared: readonly string[] = []): ArgumentsSummary {
  const decisive: DecisiveArgument[] = [];
  const remaining = collect(args, '', 0, decisive, new Set(declared));
  const summary: ArgumentsSummary = { decisive };
  const nothingElse = remaining === undefined || (decisive.length > 0 && isEmptyObject(remaining));
  if (!nothingElse) summary.others = cut(jsonText(remaining), OTHER_ARGUMENTS_MAX_CHARS);
  return summary;
}

/** One line per decisive argument (`to: "mallory@evil.example"`), then `other arguments: …`, for a text surface. */
export function argumentLines(summary: ArgumentsSummary): string[] {
  const lines = summary.decisive.map((argument) => `${showInvisible(argument.path)}: ${shownText(argument)}`);
  if (summary.others) lines.push(`${summary.decisive.length > 0 ? 'other arguments' : 'arguments'}: ${shownText(summary.others)}`);
  return lines;
}

/** The arguments on one line, decisive first: `to: "a@b.example", {"body":"Hi"}` (the default summary's inside). */
export function inlineArguments(summary: ArgumentsSummary): string {
  const parts = summary.decisive.map((argument) => `${showInvisible(argument.path)}: ${shownText(argument)}`);
  if (summary.others) parts.push(shownText(summary.others));
  return parts.join(', ');
}

/**
 * What a text-only approval surface shows (MCP elicitation, the framework bridges): the call's summary line, then its
 * arguments line by line, decisive first, so a custom `summarize` or a cut line cannot hide them.
 */
export function approvalText(summary: string, args: unknown, declared?: readonly string[]): string {
  return [showInvisible(summary), ...argumentLines(describeArguments(args, declared)).map((line) => `  ${line}`)].join('\n');
}

/** The shown text with its cut said: `"Hello…"… (24700 more characters)`. */
export function shownText(shown: ShownText): string {
  return shown.omittedChars > 0 ? `${shown.text}… (${shown.omittedChars} more characters)` : shown.text;
}

/** `text` cut to at most `max` code units, never splitting a surrogate pair, with the count left out. */
export function cut(text: string, max: number): ShownText {
  if (text.length <= max) return { text: showInvisible(text), omittedChars: 0 };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: showInvisible(text.slice(0, end)), omittedChars: text.length - end };
}

/**
 * Moves the decisive arguments found under `value` into `found` and returns what remains (`undefined` when nothing
 * does). A property is decisive by its name, a string by its shape; an array of strings with one address-shaped
 * element is decisive as a whole, so its order and neighbours stay in view.
 */
function collect(value: unknown, path: string, depth: number, found: DecisiveArgument[], declared: ReadonlySet<string>): unknown {
  if (typeof value === 'string' && path !== '' && ADDRESS_SHAPE.test(value)) return take(value, path, found);
  if (typeof value !== 'object' || value === null || depth >= SEARCH_DEPTH) return value;
  if (Array.isArray(value)) {
    if (path !== '' && value.some((item) => typeof item === 'string' && ADDRESS_SHAPE.test(item))) return take(value, path, found);
    return value.map((item, index) => collect(item, `${path}[${index}]`, depth + 1, found, declared) ?? null);
  }
  const remaining: Record<string, unknown> = {};
  let removed = false;
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    const childPath = path === '' ? key : `${path}.${key}`;
    const decisive = isDecisiveName(key) || (path === '' && declared.has(key));
    const left = decisive ? take(child, childPath, found) : collect(child, childPath, depth + 1, found, declared);
    if (left === undefined) removed = true;
    else remaining[key] = left;
  }
  // An object whose every property was shown above is not repeated as `{}` among the rest.
  return removed && Object.keys(remaining).length === 0 && path !== '' ? undefined : remaining;
}

function take(value: unknown, path: string, found: DecisiveArgument[]): undefined {
  found.push({ path, ...cut(jsonText(value), DECISIVE_VALUE_MAX_CHARS) });
  return undefined;
}

function isDecisiveName(key: string): boolean {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => DECISIVE_WORDS.has(word));
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function jsonText(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch {
    return 'arguments that cannot be shown as JSON';
  }
}
