/**
 * Where toolwright keeps per-user state: `$TOOLWRIGHT_HOME`, or `~/.toolwright`.
 * Lives in shared because both the agent's stores and the local model's cache need it.
 * @module
 */
import { InvalidArgumentError } from './errors.js';
import { nodeBuiltin } from './node-builtin.js';

/**
 * The environment's variables as these functions read them: `process.env` fits, and the declaration files name no
 * `NodeJS` namespace, so an app without `@types/node` typechecks them.
 */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** The per-user folder: `TOOLWRIGHT_HOME` when set, else `~/.toolwright`. */
export function toolwrightHome(env: EnvironmentVariables = process.env): string {
  const configured = env.TOOLWRIGHT_HOME;
  if (configured !== undefined && configured !== '') return configured;
  // reached on call, so that modules which only name the folder (the vocabulary index) still bundle for a browser
  const os = nodeBuiltin('node:os');
  const path = nodeBuiltin('node:path');
  if (os === undefined || path === undefined)
    throw new InvalidArgumentError('This runtime has no home folder (no node:os). Set TOOLWRIGHT_HOME, or pass the folder to use explicitly.');
  return path.join(os.homedir(), '.toolwright');
}
