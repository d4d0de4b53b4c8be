/**
 * The store a run uses when the caller passes none: the SQLite file at `statePath` when one is named, else the
 * process's memory store. A library run so writes nothing to disk unless asked; the CLI names `$TOOLWRIGHT_HOME/state.db`.
 * @module
 */
import { processRunStore } from './memory-run-store.js';
import type { RunStore } from './run-store.js';
import { openSqliteRunStore } from './sqlite-run-store.js';

/** The default store for these options. Closing it is always safe: the process's memory store ignores `close`. */
export function defaultRunStore(options: { statePath?: string | undefined }): Promise<RunStore> {
  return options.statePath !== undefined ? openSqliteRunStore({ path: options.statePath }) : Promise.resolve(processRunStore());
}
