/**
 * Where toolwright keeps per-user state: `$TOOLWRIGHT_HOME`, or `~/.toolwright`.
 * @module
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user folder: `TOOLWRIGHT_HOME` when set, else `~/.toolwright`. */
export function toolwrightHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.TOOLWRIGHT_HOME;
  return configured !== undefined && configured !== '' ? configured : join(homedir(), '.toolwright');
}

/** The default SQLite file holding pending runs and confirmations. */
export function defaultStatePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolwrightHome(env), 'state.db');
}

/** The default folder of run records (one JSONL file per run). */
export function defaultRunsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolwrightHome(env), 'runs');
}
