/**
 * Which run store a command uses: PostgreSQL when `--store postgres://…` or
 * `TOOLWRIGHT_DATABASE_URL` names one (for runs shared by several instances),
 * else the SQLite file at `--state` (default `$TOOLWRIGHT_HOME/state.db`).
 * The flag beats the variable, and `--state` beats the variable too, so an
 * explicit choice on the command line always wins.
 * @module
 */
import { defaultStatePath, openSqliteRunStore, type RunStore } from '../agent/index.js';
import { createPostgresRunStore } from '../stores/index.js';
import { InvalidArgumentError } from '../shared/errors.js';

/** The options every store-using command takes. */
export interface StoreOptions {
  /** The SQLite file of pending runs. */
  state?: string;
  /** A PostgreSQL connection string (`postgres://…`). */
  store?: string;
}

export const STORE_OPTION_HELP =
  'a PostgreSQL run store shared by several instances (postgres://user@host/db; default TOOLWRIGHT_DATABASE_URL, else the SQLite file)';

/** The PostgreSQL connection string the options name, if any; throws when they name two stores or something else. */
export function postgresUrlOf(options: StoreOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (options.store !== undefined && options.state !== undefined) {
    throw new InvalidArgumentError('Pass --store (PostgreSQL) or --state (a SQLite file), not both.');
  }
  const url = options.store ?? (options.state === undefined ? env.TOOLWRIGHT_DATABASE_URL || undefined : undefined);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    const from = options.store !== undefined ? '--store' : 'TOOLWRIGHT_DATABASE_URL';
    // The value is not echoed: a connection string carries a password.
    throw new InvalidArgumentError(`${from} must be a PostgreSQL connection string starting with postgres:// or postgresql://; use --state for a SQLite file.`);
  }
  return url;
}

/** Opens the store the options name; the caller closes it. */
export async function openCliRunStore(options: StoreOptions): Promise<RunStore> {
  const url = postgresUrlOf(options);
  if (url !== undefined) return createPostgresRunStore({ connectionString: url, maxConnections: 4 });
  return openSqliteRunStore({ path: options.state ?? defaultStatePath() });
}
