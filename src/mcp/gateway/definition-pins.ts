/**
 * Definition pinning for the gateway: a digest of what the model and the host read of each upstream tool, recorded
 * when a person approves the server, so that a definition changed afterwards (a rug pull: a harmless tool that later
 * tells the model to forward every file) is noticed and withheld until approved again, with the change shown.
 *
 * The pin file is JSON, `{ "version": 1, "servers": { "<server>": { "<tool>": { "digest", "approvedAt", "definition" } } } }`;
 * the pinned definition is kept beside its digest so that a later change can be shown field by field.
 * @module
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { randomHex } from '../../shared/bytes.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { ToolwrightError } from '../../shared/errors.js';
import { appendPointer } from '../../shared/json-schema/json-pointer.js';
import { nodeFileSystem } from '../../shared/node-file-system.js';
import { getOwn, isPlainObject } from '../../shared/own.js';
import { sha256Digest } from '../../shared/sha256.js';
import { showInvisible } from '../../shared/visible-text.js';

/** An upstream tool as its server lists it (`tools/list`). */
export type McpToolDescriptor = McpTool;

/**
 * The fields of a tool that are pinned: what the model reads (name, description, schemas) and what the host shows a
 * person or decides by (title, annotations). `_meta` is left out because it is addressed to neither (servers put
 * implementation data there, some of it per listing, which would make every pin look changed), and `execution` because
 * it says how a call is carried (inline or as a task), not what the tool does; the gateway decides the call mode from
 * it on every listing anyway. Icons are presentation only and left out too.
 */
export interface PinnedDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The pinned fields in the order a diff shows them. */
const PINNED_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
type PinnedField = (typeof PINNED_FIELDS)[number];
const TEXT_FIELDS: ReadonlySet<PinnedField> = new Set(['name', 'title', 'description']);

export interface DefinitionPin {
  /** `sha256:<hex>` of the definition's canonical JSON ({@link definitionDigest}). */
  digest: string;
  /** When a person approved it (ISO 8601). */
  approvedAt: string;
  /** What was approved, kept to show a later change. */
  definition: PinnedDefinition;
}

export interface DefinitionPins {
  version: 1;
  /** Server name → tool name (as the server lists it) → pin. */
  servers: Record<string, Record<string, DefinitionPin>>;
}

/** A pin file that cannot be used: not JSON, another shape, or a pin whose definition does not match its digest. */
export class DefinitionPinsError extends ToolwrightError {
  readonly path: string;
  constructor(path: string, problem: string, options: { cause?: unknown } = {}) {
    super(
      'TW_INVALID_PIN_FILE',
      `The gateway's pin file ${path} cannot be used: ${problem}. ` +
        'Nothing was approved from it. Restore the file from a backup, or delete it and approve each server again (`toolwright gateway approve`).',
      options,
    );
    this.path = path;
  }
}

/** The pinned fields of `descriptor`, absent ones left out. */
export function pinnedDefinition(descriptor: McpToolDescriptor | PinnedDefinition): PinnedDefinition {
  const definition: PinnedDefinition = { name: descriptor.name, inputSchema: descriptor.inputSchema };
  if (descriptor.title !== undefined) definition.title = descriptor.title;
  if (descriptor.description !== undefined) definition.description = descriptor.description;
  if (descriptor.outputSchema !== undefined) definition.outputSchema = descriptor.outputSchema;
  if (descriptor.annotations !== undefined) definition.annotations = descriptor.annotations as Record<string, unknown>;
  return definition;
}

/** `sha256:<hex>` over the canonical JSON of the tool's pinned fields: key order does not change it, any pinned field does. */
export function definitionDigest(descriptor: McpToolDescriptor | PinnedDefinition): string {
  return `sha256:${sha256Digest(canonicalJson(pinnedDefinition(descriptor)), 'hex')}`;
}

/** No pins: what a missing pin file reads as. */
export function emptyPins(): DefinitionPins {
  return { version: 1, servers: nullRecord() };
}

/** A pin file larger than this is refused unread: pins for thousands of tools fit well under it. */
const MAX_PIN_FILE_BYTES = 32 * 1024 * 1024;
const DIGEST_SHAPE = /^sha256:[0-9a-f]{64}$/;

/** Reads the pin file; a missing file is no pins, anything unusable throws {@link DefinitionPinsError}. */
export async function readPins(path: string): Promise<DefinitionPins> {
  const { fs } = nodeFileSystem('The gateway pin file', 'Keep the pins where the gateway runs on Node, Bun or Deno.');
  let text: string;
  try {
    const { size } = await fs.promises.stat(path);
    if (size > MAX_PIN_FILE_BYTES) throw new DefinitionPinsError(path, `it is ${size} bytes long, more than the ${MAX_PIN_FILE_BYTES} a pin file may be`);
    text = await fs.promises.readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return emptyPins();
    if (DefinitionPinsError.isInstance(error)) throw error;
    throw new DefinitionPinsError(path, `it could not be read (${(error as Error).message})`, { cause: error });
  }
  let parsed: unknown;
  try {
    // Plain JSON.parse: keys such as "__proto__" become own properties, and every lookup below goes through getOwn.
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DefinitionPinsError(path, `it is not JSON (${(error as Error).message})`, { cause: error });
  }
  return validatePins(path, parsed);
}

function validatePins(path: string, parsed: unknown): DefinitionPins {
  if (!isPlainObject(parsed)) throw new DefinitionPinsError(path, 'it is not a JSON object');
  if (getOwn(parsed, 'version') !== 1) throw new DefinitionPinsError(path, `its "version" is ${JSON.stringify(getOwn(parsed, 'version')) ?? 'missing'}, not 1`);
  const servers = getOwn(parsed, 'servers');
  if (!isPlainObject(servers)) throw new DefinitionPinsError(path, 'its "servers" is not an object of server names');
  const pins = emptyPins();
  for (const [server, tools] of Object.entries(servers)) {
    const where = `servers[${JSON.stringify(server)}]`;
    if (!isPlainObject(tools)) throw new DefinitionPinsError(path, `${where} is not an object of tool names`);
    const serverPins = nullRecord<DefinitionPin>();
    for (const [tool, pin] of Object.entries(tools)) {
      const at = `${where}[${JSON.stringify(tool)}]`;
      if (!isPlainObject(pin)) throw new DefinitionPinsError(path, `${at} is not an object`);
      const { digest, approvedAt, definition } = {
        digest: getOwn(pin, 'digest'),
        approvedAt: getOwn(pin, 'approvedAt'),
        definition: getOwn(pin, 'definition'),
      };
      if (typeof digest !== 'string' || !DIGEST_SHAPE.test(digest)) throw new DefinitionPinsError(path, `${at}.digest is not "sha256:" and 64 hex digits`);
      if (typeof approvedAt !== 'string' || Number.isNaN(Date.parse(approvedAt))) throw new DefinitionPinsError(path, `${at}.approvedAt is not a date`);
      if (!isPlainObject(definition) || getOwn(definition, 'name') !== tool || !isPlainObject(getOwn(definition, 'inputSchema'))) {
        throw new DefinitionPinsError(path, `${at}.definition is not a tool definition named ${JSON.stringify(tool)} with an object inputSchema`);
      }
      const kept = definition as unknown as PinnedDefinition;
      // A definition edited by hand would make a later diff show something other than what was approved.
      if (definitionDigest(kept) !== digest) throw new DefinitionPinsError(path, `${at}.definition does not match its digest (the file was edited)`);
      defineOwn(serverPins, tool, { digest, approvedAt, definition: pinnedDefinition(kept) });
    }
    defineOwn(pins.servers, server, serverPins);
  }
  return pins;
}

/** Writes the pin file whole (a temporary file beside it, then renamed over it), mode 0600, creating its folder. */
export async function writePins(path: string, pins: DefinitionPins): Promise<void> {
  const { fs, path: paths } = nodeFileSystem('The gateway pin file', 'Keep the pins where the gateway runs on Node, Bun or Deno.');
  await fs.promises.mkdir(paths.dirname(path), { recursive: true, mode: 0o700 });
  // A reader (another gateway process) sees the old file or the new one, never half of one.
  const temporary = `${path}.${randomHex(6)}.tmp`;
  try {
    await fs.promises.writeFile(temporary, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await fs.promises.rename(temporary, path);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

export type DefinitionState = 'approved' | 'changed' | 'new';

export interface DefinitionComparison {
  /** One entry per listed tool, in the listed order. */
  tools: { name: string; state: DefinitionState; digest: string; pin?: DefinitionPin }[];
  /** Tools pinned for the server that it no longer lists. */
  removed: { name: string; pin: DefinitionPin }[];
}

/**
 * How each tool a server lists stands against its pins: `approved` (same digest), `changed` (another digest), `new`
 * (not pinned); and the pinned tools it no longer lists.
 */
export function comparePins(server: string, listed: readonly McpToolDescriptor[], pins: DefinitionPins): DefinitionComparison {
  const serverPins = getOwn(pins.servers, server);
  const seen = new Set<string>();
  const tools = listed.map((descriptor) => {
    seen.add(descriptor.name);
    const digest = definitionDigest(descriptor);
    const pin = serverPins === undefined ? undefined : getOwn(serverPins, descriptor.name);
    if (pin === undefined) return { name: descriptor.name, state: 'new' as const, digest };
    return { name: descriptor.name, state: pin.digest === digest ? ('approved' as const) : ('changed' as const), digest, pin };
  });
  const removed = serverPins === undefined ? [] : Object.entries(serverPins).flatMap(([name, pin]) => (seen.has(name) ? [] : [{ name, pin }]));
  return { tools, removed };
}

export interface ApproveOptions {
  /** Approve only these tool names (others keep their pins, or stay unpinned). Default: every listed tool. */
  only?: readonly string[];
  /** The approval time. Default: now. */
  now?: Date;
}

/**
 * New pins with the server's listed tools approved as they are listed now (all, or `only` those); the given pins are
 * not changed. Pins of tools the server no longer lists are kept unless every listed tool is approved, which approves
 * the server's whole current list.
 */
export function approveDefinitions(pins: DefinitionPins, server: string, listed: readonly McpToolDescriptor[], options: ApproveOptions = {}): DefinitionPins {
  const only = options.only === undefined ? undefined : new Set(options.only);
  const approvedAt = (options.now ?? new Date()).toISOString();
  const next = emptyPins();
  for (const [name, tools] of Object.entries(pins.servers)) defineOwn(next.servers, name, name === server ? copyRecord(tools) : tools);
  const serverPins = only === undefined ? nullRecord<DefinitionPin>() : (getOwn(next.servers, server) ?? nullRecord<DefinitionPin>());
  for (const descriptor of listed) {
    if (only !== undefined && !only.has(descriptor.name)) continue;
    const definition = structuredClone(pinnedDefinition(descriptor));
    defineOwn(serverPins, descriptor.name, { digest: definitionDigest(definition), approvedAt, definition });
  }
  defineOwn(next.servers, server, serverPins);
  return next;
}

/** Bounds on {@link describeDefinitionChange}'s text, whatever the definitions hold. */
export const DEFINITION_DIFF_LIMITS = {
  /** Lines of the whole diff. */
  maxLines: 80,
  /** Characters of one line (a text line, or one schema change with its values). */
  maxLineChars: 200,
  /** Characters of one value shown in a schema change. */
  maxValueChars: 80,
  /** A text field's lines compared with the longest-common-subsequence table, each side, after the common start and end are set aside. */
  maxDiffedLines: 300,
  /** A text line longer than this is split after its sentences' ends before comparing. */
  splitLinesOver: 100,
  /** Schema nodes visited per field. */
  maxSchemaNodes: 20_000,
} as const;

/**
 * What changed between an approved definition and the one listed now, field by field, for a person: a text field
 * (`description`, `title`, `name`) as lines removed (`-`) and added (`+`), a long line split after its sentences first;
 * a schema or the annotations as the JSON Pointers added, removed and changed, with short quoted values. Invisible and
 * control characters are written visibly (`⟨U+202E⟩`), and the text is bounded: at most {@link DEFINITION_DIFF_LIMITS}
 * lines and characters, with a count of what was left out. An empty string when nothing pinned changed.
 */
export function describeDefinitionChange(pinned: PinnedDefinition, current: McpToolDescriptor | PinnedDefinition): string {
  const before = pinnedDefinition(pinned);
  const after = pinnedDefinition(current);
  const lines: string[] = [];
  for (const field of PINNED_FIELDS) {
    const old = before[field];
    const now = after[field];
    if (canonicalJson(old) === canonicalJson(now)) continue;
    if (TEXT_FIELDS.has(field)) {
      lines.push(`${field}:`, ...textDiff(typeof old === 'string' ? old : undefined, typeof now === 'string' ? now : undefined).map((line) => `  ${line}`));
    } else {
      lines.push(`${field}:`, ...valueDiff(old, now).map((line) => `  ${line}`));
    }
  }
  const { maxLines, maxLineChars } = DEFINITION_DIFF_LIMITS;
  const shown = lines.slice(0, maxLines).map((line) => cut(visible(line), maxLineChars));
  if (lines.length > maxLines) shown.push(`… ${lines.length - maxLines} more lines of changes not shown`);
  return shown.join('\n');
}

/** A text field's change as `-` and `+` lines around the unchanged ones that separate them (kept as `  `). */
function textDiff(old: string | undefined, now: string | undefined): string[] {
  if (old === undefined) return ['(absent before)', ...splitText(now ?? '').map((line) => `+ ${line}`)];
  if (now === undefined) return [...splitText(old).map((line) => `- ${line}`), '(absent now)'];
  const a = splitText(old);
  const b = splitText(now);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: string[] = [];
  if (start > 0) out.push(`  ${a[start - 1]}`);
  out.push(...middleDiff(a.slice(start, endA), b.slice(start, endB)));
  if (endA < a.length) out.push(`  ${a[endA]}`);
  return out;
}

/** The changed middle: a longest-common-subsequence diff when both sides are short enough, else all removed then all added. */
function middleDiff(a: string[], b: string[]): string[] {
  const { maxDiffedLines } = DEFINITION_DIFF_LIMITS;
  if (a.length > maxDiffedLines || b.length > maxDiffedLines || a.length === 0 || b.length === 0) {
    return [...a.map((line) => `- ${line}`), ...b.map((line) => `+ ${line}`)];
  }
  // common[i][j]: the longest common subsequence of a[i..] and b[j..]; at most 300 × 300 cells.
  const width = b.length + 1;
  const common = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i * width + j] = a[i] === b[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && common[(i + 1) * width + j]! >= common[i * width + j + 1]!)) {
      out.push(`- ${a[i++]}`);
    } else {
      out.push(`+ ${b[j++]}`);
    }
  }
  return out;
}

/**
 * Lines, a long one split at the spaces after each sentence's end (`.`, `!`, `?`, `:`) or a tag's (`</IMPORTANT>`), so
 * that an inserted sentence or tagged block shows as lines of its own.
 */
function splitText(text: string): string[] {
  const { splitLinesOver } = DEFINITION_DIFF_LIMITS;
  return text.split(/\r\n|\r|\n/).flatMap((line) => (line.length > splitLinesOver ? line.split(/(?<=[.!?:>])\s+/) : [line]));
}

/** A schema's (or the annotations') change as the pointers added, removed and changed, shallowest first where a whole subtree differs. */
function valueDiff(old: unknown, now: unknown): string[] {
  const { maxSchemaNodes, maxLines } = DEFINITION_DIFF_LIMITS;
  const out: string[] = [];
  const stack: { pointer: string; old: unknown; now: unknown }[] = [{ pointer: '', old, now }];
  let visited = 0;
  let unshown = 0;
  while (stack.length > 0) {
    const { pointer, old: a, now: b } = stack.pop()!;
    if (++visited > maxSchemaNodes) {
      out.push(`… the schemas are too large to compare further (${maxSchemaNodes} nodes compared)`);
      break;
    }
    const where = pointer === '' ? '(the whole value)' : pointer;
    if (a === undefined) {
      record(`added ${where}: ${short(b)}`);
    } else if (b === undefined) {
      record(`removed ${where}: ${short(a)}`);
    } else if (isPlainObject(a) && isPlainObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().reverse();
      for (const key of keys) stack.push({ pointer: appendPointer(pointer, key), old: getOwn(a, key), now: getOwn(b, key) });
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (let index = a.length - 1; index >= 0; index--)
        stack.push({ pointer: appendPointer(pointer, index), old: a[index] as unknown, now: b[index] as unknown });
    } else if (canonicalJson(a) !== canonicalJson(b)) {
      record(`changed ${where}: ${short(a)} → ${short(b)}`);
    }
  }
  if (unshown > 0) out.push(`… ${unshown} more changes not shown`);
  return out;

  function record(line: string): void {
    if (out.length < maxLines) out.push(line);
    else unshown++;
  }
}

/** A value's JSON, cut to {@link DEFINITION_DIFF_LIMITS.maxValueChars}: a string shows quoted. */
function short(value: unknown): string {
  return cut(canonicalJson(value), DEFINITION_DIFF_LIMITS.maxValueChars);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}… (${text.length - max + 1} more characters)`;
}

/** Control characters (but tab) written as `⟨U+001B⟩`, as {@link showInvisible} writes the invisible ones: a terminal shows them instead of obeying them. */
function visible(line: string): string {
  return showInvisible(line).replace(/\p{Cc}/gu, (char) => (char === '\t' ? char : `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`));
}

function nullRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function copyRecord<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const copy = nullRecord<T>();
  for (const [key, value] of Object.entries(record)) defineOwn(copy, key, value);
  return copy;
}

/** Sets an own property even for a key such as `__proto__`, which assignment would treat as the prototype. */
function defineOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
