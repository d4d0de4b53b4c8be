/**
 * better-sqlite3, loaded on first use by the SQLite stores. A module of its own so that the stores' public declaration
 * files never name better-sqlite3's types: an app without it typechecks `toolwright` with `skipLibCheck: false`.
 * @module
 */
import type BetterSqlite3 from 'better-sqlite3';
import { MissingPeerError } from '../shared/errors.js';
import { loadPeer } from '../shared/load-peer.js';
import { RunStoreError } from './agent-errors.js';

/** better-sqlite3, for `feature` (the function that needs it, named in the error when it is missing). */
export async function loadBetterSqlite3(feature: string): Promise<typeof BetterSqlite3> {
  try {
    return (await loadPeer('better-sqlite3', feature, () => import('better-sqlite3'))).default;
  } catch (error) {
    if (error instanceof MissingPeerError) throw error;
    throw new RunStoreError(
      `better-sqlite3 could not be loaded (${(error as Error).message}). Install it with \`npm install better-sqlite3\` and make sure its native addon is built (\`npm rebuild better-sqlite3\`), or pass another store.`,
      { cause: error },
    );
  }
}
