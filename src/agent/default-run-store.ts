/**
 * The store a run uses when the caller passes none: the SQLite file at `statePath` when one is named, else the
 * process's memory store. A library run so writes nothing to disk unless asked; the CLI names `$TOOLWRIGHT_HOME/state.db`.
 * The SQLite store is imported only when a path is named: it needs Node's file system, which the core does not load.
 * @module
 */
import { processRunStore } from './memory-run-store.js';
import type { RunStore } from './run-store.js';

/** The default store for these options. Closing it is always safe: the process's memory store ignores `close`. */
export function defaultRunStore(options: { statePath?: string | undefined }): Promise<RunStore> {
  if (options.statePath === undefined) return Promise.resolve(processRunStore());
  const path = options.statePath;
  return import('./sqlite-run-store.js').then(({ openSqliteRunStore }) => openSqliteRunStore({ path }));
}
