/**
 * The optional packages a CLI command will load (the model's provider SDK, the run store's driver, the MCP SDK),
 * checked before the command does any work: a package found missing after the model call has been made (and paid
 * for) leaves a run half done, and one found missing at a time costs an install per package. Every missing package is
 * named in one message with one install command.
 *
 * A package is looked up from this module, the way the peer loaders' `import()` finds it (both walk up from the
 * installed toolwright to the app's node_modules), and only located, never loaded: the command imports it once, later.
 * @module
 */
import { createRequire } from 'node:module';
import { MissingPeerError } from '../shared/errors.js';
import { defaultStatePath } from '../agent/toolwright-home.js';
import { postgresUrlOf, type StoreOptions } from './cli-run-store.js';

/** A package a command needs, and what for (shown beside its name). */
export interface RequiredPackage {
  name: string;
  /** What needs it, e.g. "the model openai:gpt-4o-mini". */
  neededFor: string;
}

/** The provider SDK (or runtime) a model spec loads; none for a spec `createModel` rejects itself. */
export function modelPackages(spec: string): RequiredPackage[] {
  const provider = spec.slice(0, Math.max(0, spec.indexOf(':')));
  const neededFor = `the model ${spec}`;
  switch (provider) {
    case 'openai':
    case 'openai-responses':
    case 'openai-compatible':
      return [{ name: 'openai', neededFor }];
    case 'anthropic':
      return [{ name: '@anthropic-ai/sdk', neededFor }];
    case 'local':
      return [{ name: 'node-llama-cpp', neededFor }];
    default:
      return [];
  }
}

/** The driver of the run store the options name: pg for PostgreSQL, else better-sqlite3 for the SQLite file. */
export function storePackages(options: StoreOptions, env: NodeJS.ProcessEnv = process.env): RequiredPackage[] {
  return postgresUrlOf(options, env) !== undefined
    ? [{ name: 'pg', neededFor: 'the PostgreSQL run store' }]
    : [{ name: 'better-sqlite3', neededFor: `the run store (the SQLite file ${options.state ?? defaultStatePath()})` }];
}

/** The MCP SDK, when `--mcp` names servers. */
export function mcpPackages(servers: readonly string[] | undefined): RequiredPackage[] {
  return (servers ?? []).length > 0 ? [{ name: '@modelcontextprotocol/sdk', neededFor: '--mcp (tools from an MCP server)' }] : [];
}

/** Whether `name` can be found from here, as `import(name)` in toolwright would find it. */
export function isPackageInstalled(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(`${name}/package.json`);
    return true;
  } catch (error) {
    // A package whose `exports` hide package.json is installed all the same.
    return (error as { code?: unknown }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  }
}

/** The packages of `required` that are not installed, each named once. */
export function missingPackages(required: readonly RequiredPackage[], isInstalled: (name: string) => boolean = isPackageInstalled): RequiredPackage[] {
  const missing = new Map<string, RequiredPackage>();
  for (const needed of required) {
    if (missing.has(needed.name) || isInstalled(needed.name)) continue;
    missing.set(needed.name, needed);
  }
  return [...missing.values()];
}

/**
 * Several optional packages a command needs are not installed: all of them, with one install command. A
 * {@link MissingPeerError} (its `packageName` is the first), so code that handles one missing peer handles this too.
 */
export class MissingPackagesError extends MissingPeerError {
  readonly packageNames: readonly string[];
  /** `outcome`: what did not happen for want of them, e.g. "Nothing was run." */
  constructor(task: string, missing: readonly RequiredPackage[], outcome = 'Nothing was run.') {
    super(missing[0]?.name ?? '', task);
    this.packageNames = missing.map((needed) => needed.name);
    const list = missing.map((needed) => `${needed.name} (${needed.neededFor})`).join(', ');
    // The whole list replaces the one-package message the parent class writes.
    this.message =
      `${task} needs ${missing.length === 1 ? 'a package that is' : 'packages that are'} not installed: ${list}.${outcome === '' ? '' : ` ${outcome}`} ` +
      `Install ${missing.length === 1 ? 'it' : 'them'} in your app: npm i ${this.packageNames.join(' ')}`;
  }
}

/** Throws {@link MissingPackagesError} naming every package of `required` that is not installed; `task` says who needs them. */
export function requirePackages(
  task: string,
  required: readonly RequiredPackage[],
  options: { isInstalled?: (name: string) => boolean; outcome?: string } = {},
): void {
  const missing = missingPackages(required, options.isInstalled);
  if (missing.length > 0) throw new MissingPackagesError(task, missing, options.outcome);
}
