/**
 * Where toolwright keeps per-user state: `$TOOLWRIGHT_HOME`, or `~/.toolwright`.
 * Lives in shared because both the agent's stores and the local model's cache need it.
 * @module
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user folder: `TOOLWRIGHT_HOME` when set, else `~/.toolwright`. */
export function toolwrightHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.TOOLWRIGHT_HOME;
  return configured !== undefined && configured !== '' ? configured : join(homedir(), '.toolwright');
}
