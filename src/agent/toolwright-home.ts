/**
 * Where toolwright keeps per-user state: `$TOOLWRIGHT_HOME`, or `~/.toolwright`.
 * @module
 */
import { join } from 'node:path';
import { toolwrightHome, type EnvironmentVariables } from '../shared/toolwright-home.js';

export { toolwrightHome };

/** The default SQLite file holding pending runs and confirmations. */
export function defaultStatePath(env: EnvironmentVariables = process.env): string {
  return join(toolwrightHome(env), 'state.db');
}

/** The default folder of run records (one JSONL file per run). */
export function defaultRunsDir(env: EnvironmentVariables = process.env): string {
  return join(toolwrightHome(env), 'runs');
}
