/**
 * Node's built-in modules, reached when a function that needs one runs instead of when its module loads. A module
 * that imports `node:fs` at the top cannot be bundled for a browser at all, although most of what it exports never
 * touches a file; through this, only the function that reads a file needs one. `process.getBuiltinModule` is Node's
 * synchronous way in (Node 20.16 and later; Bun and Deno have it too).
 * @module
 */
import type * as asyncHooks from 'node:async_hooks';
import type * as crypto from 'node:crypto';
import type * as fs from 'node:fs';
import type * as nodeModule from 'node:module';
import type * as os from 'node:os';
import type * as path from 'node:path';
import type * as zlib from 'node:zlib';

export interface NodeBuiltins {
  'node:async_hooks': typeof asyncHooks;
  'node:crypto': typeof crypto;
  'node:fs': typeof fs;
  'node:module': typeof nodeModule;
  'node:os': typeof os;
  'node:path': typeof path;
  'node:zlib': typeof zlib;
}

interface HostProcess {
  getBuiltinModule?: (id: string) => unknown;
}

/** Node's built-in module `id`, or undefined where the runtime has none (a browser, a Worker without Node compatibility). */
export function nodeBuiltin<Id extends keyof NodeBuiltins>(id: Id): NodeBuiltins[Id] | undefined {
  const host = (globalThis as { process?: HostProcess }).process;
  return host?.getBuiltinModule?.(id) as NodeBuiltins[Id] | undefined;
}

/** Lets the process exit with `timer` pending: Node keeps it alive otherwise; web runtimes give a number and need nothing. */
export function unrefTimer(timer: unknown): void {
  (timer as { unref?: () => void } | null)?.unref?.();
}
