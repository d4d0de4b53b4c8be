/**
 * `node:fs` and `node:path` for the agent's Node features that read or write files (a run record in `recordDir`): reached
 * when the feature runs, through {@link nodeBuiltin}, so that the core loads where there is no file system (workerd,
 * Vercel's edge runtime, a browser) and only the feature fails there, saying what to do instead.
 * @module
 */
import { InvalidArgumentError } from './errors.js';
import { nodeBuiltin, type NodeBuiltins } from './node-builtin.js';

/** `node:fs` and `node:path`; throws {@link InvalidArgumentError} naming `feature` and what to do `instead` where the runtime has none. */
export function nodeFileSystem(feature: string, instead: string): { fs: NodeBuiltins['node:fs']; path: NodeBuiltins['node:path'] } {
  const fs = nodeBuiltin('node:fs');
  const path = nodeBuiltin('node:path');
  if (fs === undefined || path === undefined) {
    throw new InvalidArgumentError(`${feature} needs a file system, which this runtime does not have (Node, Bun and Deno have one). ${instead}`);
  }
  return { fs, path };
}
