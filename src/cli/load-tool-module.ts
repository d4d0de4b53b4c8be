/**
 * Loads a tool pack: a module, given by path or package name, that exports tools.
 * Accepted shapes, in order: `export const tools = [...]` (or a ToolRegistry),
 * `export default [...]` (or a registry, or `{ tools, categories }`), or any
 * number of exported tools. `categories` may sit beside the tools.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MissingPeerError, ModuleLoadError } from '../shared/errors.js';
import { loadPeer } from '../shared/load-peer.js';
import { getOwn, isPlainObject } from '../shared/own.js';
import type { AnyTool } from '../tools/index.js';

/** A tool pack, loaded. */
export interface LoadedToolModule {
  /** The absolute path of the module file, or the package specifier as given. */
  source: string;
  /** Where the tools were found: `tools`, `default`, `default.tools`, or `named exports`. */
  foundIn: 'tools' | 'default' | 'default.tools' | 'named exports';
  tools: AnyTool[];
  /** Tool names per category, when the module exports `categories` (beside `tools` or inside the default export). */
  categories: Record<string, string[]> | undefined;
  /** The whole module namespace, for other exports (resources, prompts, policies). */
  exports: Record<string, unknown>;
}

export interface LoadToolModuleOptions {
  /** Relative paths are resolved from here. Default: `process.cwd()`. */
  cwd?: string;
}

const INDEX_FILES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'];
const MODULE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.tsx', '.jsx']);
const TYPESCRIPT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);

const HOW_TO_EXPORT =
  'Export them as `export const tools = [defineTool({ ... }), ...]` (a ToolRegistry works too), as the default export, or as named exports of defineTool(...) results.';

/** Loads a tool module and returns its tools; throws {@link ModuleLoadError} with what to change when it cannot. */
export async function loadToolModule(pathOrSpecifier: string, options: LoadToolModuleOptions = {}): Promise<LoadedToolModule> {
  if (typeof pathOrSpecifier !== 'string' || pathOrSpecifier.trim() === '') {
    throw new ModuleLoadError(
      String(pathOrSpecifier),
      'no module was given. Pass the path of a file that exports tools, such as ./tools.ts (`toolwright init` writes one).',
    );
  }
  const cwd = options.cwd ?? process.cwd();
  const target = resolveTarget(pathOrSpecifier, cwd);
  const namespace = await importModule(target, pathOrSpecifier);
  return extractTools(namespace, target.display);
}

/** Imports a module by path or package specifier (TypeScript through tsx when Node cannot run it); throws {@link ModuleLoadError}. */
export async function importUserModule(pathOrSpecifier: string, cwd: string = process.cwd()): Promise<{ namespace: Record<string, unknown>; display: string }> {
  const target = resolveTarget(pathOrSpecifier, cwd);
  return { namespace: await importModule(target, pathOrSpecifier), display: target.display };
}

/**
 * What {@link loadToolModule} would report as `source` for this path or specifier (the resolved file, or the package name),
 * without importing it: to compare a configured module with the one a run was stored with.
 */
export function toolModuleSource(pathOrSpecifier: string, options: LoadToolModuleOptions = {}): string {
  return resolveTarget(pathOrSpecifier, options.cwd ?? process.cwd()).display;
}

interface Target {
  /** What to import: a file URL, or a package specifier. */
  href: string;
  /** What messages call it. */
  display: string;
  /** The file's extension, when it is a file. */
  extension: string | undefined;
}

function resolveTarget(given: string, cwd: string): Target {
  const absolute = resolve(cwd, given);
  if (existsSync(absolute)) {
    let file = absolute;
    if (statSync(absolute).isDirectory()) {
      const index = INDEX_FILES.map((name) => join(absolute, name)).find((candidate) => existsSync(candidate));
      if (index === undefined)
        throw new ModuleLoadError(
          absolute,
          `it is a folder without ${INDEX_FILES.join(', ')}. Pass the module file itself, or add an index file that exports the tools.`,
        );
      file = index;
    }
    return { href: pathToFileURL(file).href, display: file, extension: extname(file) };
  }
  const looksLikePath = /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(given) || MODULE_EXTENSIONS.has(extname(given));
  if (looksLikePath) throw new ModuleLoadError(absolute, `no such file. Check the path (it is resolved from ${cwd}).`);
  // A package name: resolve it from the working directory, as the user's own code would.
  try {
    const resolved = createRequire(join(cwd, 'package.json')).resolve(given);
    return { href: pathToFileURL(resolved).href, display: given, extension: extname(resolved) };
  } catch {
    // An ESM-only package may not resolve through require; let import() try it.
    return { href: given, display: given, extension: undefined };
  }
}

/**
 * Node's error codes for "this is TypeScript and I will not (or cannot) run it":
 * no type stripping (Node 20, early 22), syntax that stripping cannot erase (enums,
 * namespaces), a pack under node_modules, or a `./x.js` import that names a `.ts`
 * file (tsx maps it; Node's stripping does not).
 */
const NODE_REFUSES_TYPESCRIPT = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING',
  'ERR_MODULE_NOT_FOUND',
]);

let tsxRegistered: Promise<void> | undefined;

/**
 * Registers tsx's module hooks once per process, so that `import()` of a `.ts`
 * file (and the `.ts` files it imports) works from the installed bin without
 * user-side flags. Loaded only when a TypeScript pack needs it: the library
 * itself never imports tsx.
 */
function registerTsx(): Promise<void> {
  tsxRegistered ??= loadPeer('tsx', 'Loading a TypeScript tool module', () => Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')])).then(
    ([esm, cjs]) => {
      // Both, as the tsx CLI does: a .ts file outside a `"type": "module"` package is CommonJS, which Node's require() loads.
      cjs.register();
      esm.register();
    },
  );
  return tsxRegistered;
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

async function importModule(target: Target, given: string): Promise<Record<string, unknown>> {
  try {
    try {
      return (await import(target.href)) as Record<string, unknown>;
    } catch (error) {
      // Under tsx, vitest or Node's own type stripping the first import works; otherwise load it through tsx.
      const isTypeScript = target.extension !== undefined && TYPESCRIPT_EXTENSIONS.has(target.extension);
      if (!isTypeScript || !NODE_REFUSES_TYPESCRIPT.has(String(errorCode(error)))) throw error;
      await registerTsx();
      // A fresh URL: Node keeps the failed attempt in its module map under the plain one.
      return (await import(`${target.href}?toolwright-tsx`)) as Record<string, unknown>;
    }
  } catch (error) {
    if (error instanceof MissingPeerError) throw error;
    const code = errorCode(error);
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && target.extension === undefined) {
      throw new ModuleLoadError(target.display, `no file or installed package is called "${given}". Pass a path (such as ./tools.ts) or install the package.`, {
        cause: error,
      });
    }
    throw new ModuleLoadError(
      target.display,
      `importing it failed: ${describeError(error)}. Fix the module so that it imports cleanly (try running it with node or tsx).`,
      { cause: error },
    );
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const text = `${error.name}: ${error.message.trim().replace(/\.+$/, '')}`;
  // One location from the user's code helps more than a stack trace.
  const frame = error.stack?.split('\n').find((line) => /^\s+at /.test(line) && !/node:internal|node_modules|\(node:/.test(line));
  const found = frame ? /\(?((?:file:\/\/)?[^()\s]+:\d+:\d+)\)?\s*$/.exec(frame)?.[1] : undefined;
  const where = found?.startsWith('file://') ? decodeURI(found.slice('file://'.length)) : found;
  return where && !text.includes(where) ? `${text} (at ${where})` : text;
}

/** A `defineTool` result, or anything shaped like one. */
export function isTool(value: unknown): value is AnyTool {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.name === 'string' &&
    typeof candidate.description === 'string' &&
    typeof candidate.inputSchema === 'object' &&
    candidate.inputSchema !== null &&
    typeof candidate.execute === 'function' &&
    (candidate.effect === 'read' || candidate.effect === 'write')
  );
}

function isRegistryLike(value: unknown): value is { list(): unknown[] } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { list?: unknown }).list === 'function';
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function toolList(value: unknown, exportName: string, source: string): AnyTool[] {
  const list = Array.isArray(value) ? value : isRegistryLike(value) ? value.list() : undefined;
  if (list === undefined) {
    throw new ModuleLoadError(source, `the export \`${exportName}\` is ${describeKind(value)}, not a list of tools or a ToolRegistry. ${HOW_TO_EXPORT}`);
  }
  list.forEach((item, index) => {
    if (!isTool(item)) {
      throw new ModuleLoadError(
        source,
        `${exportName}[${index}] is ${describeKind(item)}, not a tool. Create each tool with defineTool({ name, description, inputSchema, effect, execute }).`,
      );
    }
  });
  return list as AnyTool[];
}

function extractTools(namespace: Record<string, unknown>, source: string): LoadedToolModule {
  const fallback = getOwn(namespace, 'default');
  let tools: AnyTool[] | undefined;
  let foundIn: LoadedToolModule['foundIn'] = 'tools';
  let categoriesValue: unknown = getOwn(namespace, 'categories');
  const named = getOwn(namespace, 'tools');
  if (named !== undefined) {
    tools = toolList(named, 'tools', source);
  } else if (Array.isArray(fallback) || isRegistryLike(fallback)) {
    tools = toolList(fallback, 'default', source);
    foundIn = 'default';
  } else if (isPlainObject(fallback) && getOwn(fallback, 'tools') !== undefined) {
    tools = toolList(getOwn(fallback, 'tools'), 'default.tools', source);
    foundIn = 'default.tools';
    categoriesValue ??= getOwn(fallback, 'categories');
  } else {
    const loose = Object.values(namespace).filter(isTool);
    if (loose.length > 0) {
      tools = loose;
      foundIn = 'named exports';
    }
  }
  if (tools === undefined || tools.length === 0) {
    const exported = Object.keys(namespace);
    throw new ModuleLoadError(
      source,
      `it exports no tools (${exported.length === 0 ? 'it has no exports' : `its exports: ${exported.join(', ')}`}). ${HOW_TO_EXPORT}`,
    );
  }

  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw new ModuleLoadError(source, `two tools are named "${tool.name}". Tool names must be unique: rename one of them.`);
    seen.add(tool.name);
  }
  return { source, foundIn, tools, categories: readCategories(categoriesValue, seen, source), exports: namespace };
}

function readCategories(value: unknown, toolNames: ReadonlySet<string>, source: string): Record<string, string[]> | undefined {
  if (value === undefined) return undefined;
  const shape = 'map category names to lists of tool names, such as { billing: ["get_invoices", "create_refund"] }';
  if (!isPlainObject(value)) throw new ModuleLoadError(source, `the export \`categories\` is ${describeKind(value)}; it must ${shape}.`);
  const categories: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [category, members] of Object.entries(value)) {
    if (!Array.isArray(members) || !members.every((member): member is string => typeof member === 'string')) {
      throw new ModuleLoadError(source, `categories.${category} is not a list of tool names; \`categories\` must ${shape}.`);
    }
    const unknown = members.filter((member) => !toolNames.has(member));
    if (unknown.length > 0) {
      throw new ModuleLoadError(
        source,
        `categories.${category} names ${unknown.map((name) => `"${name}"`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not among the exported tools. Fix the name or export the tool.`,
      );
    }
    categories[category] = [...members];
  }
  return categories;
}
