/**
 * `toolwright lint --imported`: lints someone else's tools (a saved MCP `tools/list` result, or a tool pack)
 * as imported, and says for each tool what OpenAI strict mode will drop or rewrite and what the token mask
 * cannot enforce: the two places where a schema written for a validator loses meaning on its way to a model.
 * @module
 */
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { UnsupportedSchemaError, Vocabulary, compileJsonSchema, type VocabularyEntry } from '../../decoding/index.js';
import { toOpenAIStrictSchema } from '../../formats/provider-schema/index.js';
import { mcpToolsFromList, type McpImportWarning } from '../../mcp/import-mcp-tools.js';
import { ModuleLoadError } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/own.js';
import { safeParseJson } from '../../shared/safe-json.js';
import type { AnyTool } from '../../tools/index.js';
import { loadToolModule } from '../load-tool-module.js';

/** One keyword or feature lost or changed, where, and what it means for calls. */
export interface SchemaLoss {
  feature: string;
  /** JSON Pointer into the input schema; `''` is the root. */
  path: string;
  details: string;
}

/** What one imported tool's schema loses on the way to a model. */
export interface ImportedToolLosses {
  tool: string;
  /** The MCP server it came from, when known. */
  server: string | undefined;
  /** OpenAI strict mode (`strict: true`): what it removes (`dropped`) and what it expresses differently (`rewritten`). */
  strictMode: { dropped: SchemaLoss[]; rewritten: SchemaLoss[] };
  /**
   * The local token mask (`compileJsonSchema`): `refused` is why a strict compile refuses the schema (then only a
   * lenient compile works), `relaxed` what the lenient compile drops, `failed` why even that fails.
   */
  tokenMask: { refused: string | undefined; relaxed: SchemaLoss[]; failed: string | undefined };
}

/** The tools of an imported-tools file, and what was changed or left out while converting them. */
export interface LoadedImportedTools {
  source: string;
  tools: AnyTool[];
  warnings: McpImportWarning[];
}

/** Tokens for one byte each: compiling needs a vocabulary, and what a mask can enforce does not depend on the tokens. */
let byteVocabulary: Vocabulary | undefined;
function maskVocabulary(): Vocabulary {
  if (byteVocabulary === undefined) {
    const entries: VocabularyEntry[] = [];
    for (let byte = 0; byte < 256; byte++) entries.push({ bytes: Uint8Array.of(byte), text: `<0x${byte.toString(16).padStart(2, '0')}>` });
    entries.push({ bytes: undefined, text: '<eos>' });
    byteVocabulary = Vocabulary.fromEntries(entries, 'sentencepiece', { eosTokenIds: [entries.length - 1] });
  }
  return byteVocabulary;
}

/** What strict mode and the token mask lose of one tool's input schema. */
export function importedToolLosses(tool: AnyTool): ImportedToolLosses {
  const dropped: SchemaLoss[] = [];
  const rewritten: SchemaLoss[] = [];
  for (const warning of toOpenAIStrictSchema(tool.inputSchema).warnings) {
    (warning.type === 'unsupported' ? dropped : rewritten).push({ feature: warning.feature, path: warning.path, details: warning.details });
  }
  let refused: string | undefined;
  let relaxed: SchemaLoss[] = [];
  let failed: string | undefined;
  try {
    compileJsonSchema(tool.inputSchema, maskVocabulary());
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) refused = `"${error.keyword}" at ${error.pointer}: ${error.details}`;
    else failed = (error as Error).message;
  }
  if (refused !== undefined) {
    try {
      const grammar = compileJsonSchema(tool.inputSchema, maskVocabulary(), { lenient: true });
      relaxed = grammar.relaxed.map((entry) => ({ feature: entry.keyword, path: entry.pointer.replace(/^#/, ''), details: entry.details }));
    } catch (error) {
      failed = (error as Error).message;
    }
  }
  return {
    tool: tool.name,
    server: tool.origin.kind === 'mcp' ? tool.origin.server : undefined,
    strictMode: { dropped, rewritten },
    tokenMask: { refused, relaxed, failed },
  };
}

/**
 * Loads someone else's tools: a `.json` file holding a saved `tools/list` result (`{ "tools": [...] }`), its
 * array, or several servers' lists (`{ "servers": [{ "server": "github", "tools": [...] }] }`); any other path
 * is a tool pack module, as `toolwright lint` loads it.
 */
export async function loadImportedTools(path: string, cwd: string = process.cwd()): Promise<LoadedImportedTools> {
  if (extname(path).toLowerCase() !== '.json') {
    const loaded = await loadToolModule(path, { cwd });
    return { source: loaded.source, tools: loaded.tools, warnings: [] };
  }
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ModuleLoadError(file, `it cannot be read (${(error as Error).message}). Check the path (it is resolved from ${cwd}).`, { cause: error });
  }
  const parsed = safeParseJson(text);
  if (!parsed.success) throw new ModuleLoadError(file, `it is not valid JSON: ${parsed.error.message}. Save the server's tools/list result as it came.`);
  const value = parsed.value;
  const servers =
    isPlainObject(value) && Array.isArray(value.servers)
      ? value.servers.map((entry: unknown, index: number) => {
          if (!isPlainObject(entry) || typeof entry.server !== 'string') {
            throw new ModuleLoadError(file, `servers[${index}] needs a "server" name and a "tools" list.`);
          }
          return { server: entry.server, list: entry.tools };
        })
      : [{ server: file, list: value }];
  const tools: AnyTool[] = [];
  const warnings: McpImportWarning[] = [];
  for (const { server, list } of servers) {
    let converted: ReturnType<typeof mcpToolsFromList>;
    try {
      converted = mcpToolsFromList(list, { server });
    } catch (error) {
      throw new ModuleLoadError(file, `${(error as Error).message} Found something else for "${server}".`, { cause: error });
    }
    const taken = new Set(tools.map((tool) => tool.name));
    for (const tool of converted.tools) {
      if (taken.has(tool.name)) {
        warnings.push({ type: 'skipped', tool: tool.name, feature: 'duplicate-name', details: `another server's tool is already named "${tool.name}".` });
      } else tools.push(tool);
    }
    warnings.push(...converted.warnings);
  }
  return { source: file, tools, warnings };
}

/**
 * The human-readable losses, tool by tool: each dropped keyword with why, and rewrites (which keep meaning: optional
 * properties made nullable, objects closed) counted by kind; tools that lose nothing are counted, not listed.
 */
export function formatImportedLosses(losses: readonly ImportedToolLosses[]): string {
  const lines: string[] = [];
  let clean = 0;
  for (const entry of losses) {
    const { dropped, rewritten } = entry.strictMode;
    const mask = entry.tokenMask;
    if (dropped.length + rewritten.length === 0 && mask.refused === undefined && mask.failed === undefined) {
      clean++;
      continue;
    }
    lines.push('', `${entry.tool}${entry.server === undefined ? '' : `  (${entry.server})`}`);
    for (const loss of dropped) lines.push(`  strict mode drops ${loss.feature} at ${loss.path || '/'}: ${loss.details}`);
    if (rewritten.length > 0) {
      const byFeature = new Map<string, number>();
      for (const loss of rewritten) byFeature.set(loss.feature, (byFeature.get(loss.feature) ?? 0) + 1);
      lines.push(`  strict mode rewrites ${[...byFeature].map(([feature, count]) => `${feature} ×${count}`).join(', ')} (see --json for each)`);
    }
    if (mask.failed !== undefined) lines.push(`  token mask cannot compile it: ${mask.failed}`);
    else if (mask.refused !== undefined) {
      lines.push(`  token mask refuses ${mask.refused}; a lenient compile drops:`);
      for (const loss of mask.relaxed) lines.push(`    ${loss.feature} at ${loss.path || '/'}: ${loss.details}`);
    }
  }
  const total = losses.length;
  lines.push(`${lines.length > 0 ? '\n' : ''}${clean} of ${total} tool${total === 1 ? '' : 's'} lose nothing under OpenAI strict mode or the token mask.`);
  return lines.join('\n').replace(/^\n/, '') + '\n';
}
