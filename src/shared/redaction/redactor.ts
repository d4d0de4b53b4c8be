/**
 * The one redaction layer every sink uses (run records, the run store, CLI
 * output, span status messages, logged errors). It walks values, not their
 * serialized text, so JSON escapes are never cut; a string that holds JSON
 * (argument text, a provider body) is parsed, redacted as a structure and
 * written back; other text gets the shape and `name=value` rules of
 * `text-patterns.ts`. Three rules decide what is secret:
 *
 * - by schema: a tool argument marked `writeOnly` or `x-sensitive` (found
 *   wherever an object names the tool: `toolName`/`name` beside
 *   `arguments`/`argumentsText`/`input`/`args`, which covers the agent's
 *   events and messages and the OpenAI and Anthropic wire bodies);
 * - by name: a field whose name {@link isSensitiveName} judges a credential;
 * - by value: key and token shapes in any string, plus the caller's patterns.
 *
 * It never throws: cycles, getters that throw, and nesting past
 * {@link MAX_REDACTION_DEPTH} become markers.
 * @module
 */
import { isPlainObject } from '../own.js';
import { safeParseJson } from '../safe-json.js';
import { schemaSensitivity, type SensitivityNode } from './schema-sensitivity.js';
import { isSensitiveName } from './sensitive-names.js';
import { REDACTED, redactSecretsInText } from './text-patterns.js';

/** Containers nested deeper than this are replaced by {@link TOO_DEEP}. Tool arguments are refused past 64 levels, so a run's own data stays well within. */
export const MAX_REDACTION_DEPTH = 100;
export const TOO_DEEP = '[REDACTED: nested too deep]';
export const CIRCULAR = '[REDACTED: circular]';
export const UNREADABLE = '[REDACTED: unreadable]';

/** JSON text longer than this is not parsed; the text rules still apply to it. */
const MAX_JSON_TEXT_CHARS = 8_000_000;
const ARGUMENT_KEYS = new Set(['arguments', 'argumentsText', 'input', 'args']);

export interface RedactorOptions {
  /** Extra value patterns; a string matches literally. A regular expression runs as given, so keep it linear-time. */
  patterns?: readonly (RegExp | string)[];
  /** Tools whose input schemas mark secret arguments (`writeOnly`, `x-sensitive`). */
  tools?: Iterable<{ readonly name: string; readonly inputSchema?: unknown }>;
}

/** A replaced value and where it was, so that a store can keep it sealed and put it back. */
export interface RedactedOriginal {
  path: (string | number)[];
  value: unknown;
}

export interface Redactor {
  /** A redacted copy of `value` (plain JSON-like data; the input is never changed). */
  (value: unknown): unknown;
  /** `text` with the value and `name=value` rules applied. */
  text(text: string): string;
  /** A tool's arguments, redacted by its schema as well as by name and value. */
  toolArguments(toolName: string, args: unknown): unknown;
  /** Like calling the redactor, and also returns each replaced value with its path. */
  withOriginals(value: unknown): { value: unknown; originals: RedactedOriginal[] };
}

interface PathLink {
  parent: PathLink | undefined;
  key: string | number;
}

interface WalkContext {
  ancestors: Set<object>;
  /** Collected only for the outermost value: values inside parsed JSON text are restored with their whole string. */
  originals: RedactedOriginal[] | undefined;
  changes: number;
}

/** Builds a redactor. `options` may be the list of extra patterns alone, as before. */
export function createRedactor(options: readonly (RegExp | string)[] | RedactorOptions = {}): Redactor {
  const resolved: RedactorOptions = Array.isArray(options) ? { patterns: options as readonly (RegExp | string)[] } : (options as RedactorOptions);
  const patterns: RegExp[] = [];
  const literals: string[] = [];
  for (const pattern of resolved.patterns ?? []) {
    if (typeof pattern === 'string') literals.push(pattern);
    else if (pattern instanceof RegExp) patterns.push(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`));
  }
  const toolNodes = new Map<string, SensitivityNode>();
  for (const tool of resolved.tools ?? []) {
    // A malformed tool is the registry's to report; here it only adds no schema.
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') continue;
    const node = schemaSensitivity(tool.inputSchema);
    if (node) toolNodes.set(tool.name, node);
  }

  const redactText = (text: string, names?: ReadonlySet<string>): string => redactSecretsInText(text, patterns, literals, names);

  const remember = (context: WalkContext, path: PathLink | undefined, value: unknown): void => {
    context.changes++;
    if (!context.originals) return;
    const keys: (string | number)[] = [];
    for (let link = path; link; link = link.parent) keys.push(link.key);
    context.originals.push({ path: keys.reverse(), value });
  };

  const walkString = (text: string, depth: number, node: SensitivityNode | undefined): string => {
    const first = text.trimStart()[0];
    if ((first === '{' || first === '[') && text.length <= MAX_JSON_TEXT_CHARS) {
      const parsed = safeParseJson(text, { maxDepth: Math.max(1, MAX_REDACTION_DEPTH - depth), maxChars: MAX_JSON_TEXT_CHARS });
      if (parsed.success && typeof parsed.value === 'object' && parsed.value !== null) {
        const inner: WalkContext = { ancestors: new Set(), originals: undefined, changes: 0 };
        const redacted = walk(parsed.value, depth + 1, node, undefined, inner);
        if (inner.changes === 0) return text;
        return JSON.stringify(redacted) ?? REDACTED;
      }
    }
    return redactText(text, node?.names);
  };

  const walk = (value: unknown, depth: number, node: SensitivityNode | undefined, path: PathLink | undefined, context: WalkContext): unknown => {
    if (typeof value === 'string') {
      const out = walkString(value, depth, node);
      if (out !== value) remember(context, path, value);
      return out;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_REDACTION_DEPTH) {
      remember(context, path, value);
      return TOO_DEEP;
    }
    if (context.ancestors.has(value)) {
      context.changes++;
      return CIRCULAR;
    }
    context.ancestors.add(value);
    try {
      return walkObject(value, depth, node, path, context);
    } catch {
      // A proxy or exotic object that refuses to be read is not recorded at all.
      remember(context, path, value);
      return UNREADABLE;
    } finally {
      context.ancestors.delete(value);
    }
  };

  const walkObject = (value: object, depth: number, node: SensitivityNode | undefined, path: PathLink | undefined, context: WalkContext): unknown => {
    if (Array.isArray(value)) {
      const out: unknown[] = new Array<unknown>(value.length);
      for (let index = 0; index < value.length; index++) {
        const item = read(value, index, context);
        out[index] = secretAt(node?.items, undefined, item)
          ? replaced(context, { parent: path, key: index }, item)
          : walk(item, depth + 1, node?.items, { parent: path, key: index }, context);
      }
      return out;
    }
    if (value instanceof Error) {
      const recorded: Record<string, unknown> = { name: value.name, message: walk(value.message, depth + 1, undefined, undefined, context) };
      if (value.stack !== undefined) recorded.stack = walk(value.stack, depth + 1, undefined, undefined, context);
      return recorded;
    }
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(value), depth + 1, node, path, context);
    const argumentsNode = node === undefined ? toolArgumentsNode(value) : undefined;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = read(value, key, context);
      const child = argumentsNode !== undefined && ARGUMENT_KEYS.has(key) ? argumentsNode : node ? (node.properties.get(key) ?? node.anyProperty) : undefined;
      const link = { parent: path, key };
      setOwn(out, key, secretAt(child, key, item) ? replaced(context, link, item) : walk(item, depth + 1, child, link, context));
    }
    return out;
  };

  const toolArgumentsNode = (value: object): SensitivityNode | undefined => {
    if (toolNodes.size === 0 || !isPlainObject(value)) return undefined;
    const name = typeof value.toolName === 'string' ? value.toolName : typeof value.name === 'string' ? value.name : undefined;
    return name === undefined ? undefined : toolNodes.get(name);
  };

  const replaced = (context: WalkContext, link: PathLink, item: unknown): string => {
    remember(context, link, item);
    return REDACTED;
  };

  const read = (container: object, key: string | number, context: WalkContext): unknown => {
    try {
      return (container as Record<string | number, unknown>)[key];
    } catch {
      context.changes++;
      return UNREADABLE;
    }
  };

  const run = (value: unknown, node: SensitivityNode | undefined, originals: RedactedOriginal[] | undefined): unknown => {
    const context: WalkContext = { ancestors: new Set(), originals, changes: 0 };
    try {
      if (node && secretAt(node, undefined, value)) return replaced(context, { parent: undefined, key: '' }, value);
      return walk(value, 0, node, undefined, context);
    } catch {
      return UNREADABLE;
    }
  };

  const redactor = ((value: unknown) => run(value, undefined, undefined)) as Redactor;
  redactor.text = (text) => {
    try {
      return typeof text === 'string' ? redactText(text) : text;
    } catch {
      return UNREADABLE;
    }
  };
  redactor.toolArguments = (toolName, args) => run(args, toolNodes.get(toolName), undefined);
  redactor.withOriginals = (value) => {
    const originals: RedactedOriginal[] = [];
    return { value: run(value, undefined, originals), originals };
  };
  return redactor;
}

/** Puts sealed originals back into a redacted copy (see {@link Redactor.withOriginals}). Paths that no longer exist are skipped. */
export function restoreRedacted(value: unknown, originals: readonly RedactedOriginal[]): unknown {
  let root = value;
  for (const { path, value: original } of originals) {
    if (path.length === 0 || (path.length === 1 && path[0] === '')) {
      root = original;
      continue;
    }
    let container: unknown = root;
    for (const key of path.slice(0, -1)) {
      container =
        typeof container === 'object' && container !== null && Object.prototype.hasOwnProperty.call(container, key)
          ? (container as Record<string | number, unknown>)[key]
          : undefined;
    }
    if (typeof container === 'object' && container !== null) setOwn(container as Record<string | number, unknown>, path[path.length - 1]!, original);
  }
  return root;
}

/**
 * Whether the value at a place is replaced whole: the schema marks it, or its field name is a credential's; empty values and flags stay, so a reader
 * sees whether a secret was set.
 */
function secretAt(node: SensitivityNode | undefined, key: string | undefined, value: unknown): boolean {
  if (value === undefined || value === null || value === '' || typeof value === 'boolean') return false;
  return (node?.sensitive ?? false) || (key !== undefined && isSensitiveName(key));
}

/** Sets a property even when the key is `__proto__`, which plain assignment would treat as the prototype. */
function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
