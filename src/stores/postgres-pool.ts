/**
 * The part of a node-postgres pool the PostgreSQL run store uses, and that pool with a refused or lost connection
 * reported as {@link RunStoreUnavailableError} naming the server.
 * @module
 */
import { RunStoreUnavailableError } from '../agent/agent-errors.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { loadPeer } from '../shared/load-peer.js';

/** Where a PostgreSQL store keeps its tables: a connection string or a pool, and the schema. */
export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:5432/database`; the store opens a pool of its own and ends it on `close()`. */
  connectionString?: string;
  /** A pool of the caller's (`new pg.Pool(...)`), used as is and left open on `close()`. */
  pool?: PostgresPool;
  /** The schema the tables live in; default `toolwright`. Lower-case letters, digits and `_`. */
  schema?: string;
  /** Connections in the pool the store opens itself; default 10. */
  maxConnections?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,40}$/;

/** The pool a store uses (the caller's, or one opened from the connection string, which `endPool` ends) and its checked schema. */
export async function openPostgresPool(
  options: PostgresConnectionOptions,
  feature: string,
): Promise<{ pool: PostgresPool; schema: string; endPool: () => Promise<void> }> {
  const schema = options.schema ?? 'toolwright';
  if (!SCHEMA_NAME.test(schema)) {
    throw new InvalidArgumentError(`The schema name "${schema}" is not a plain lower-case identifier (letters, digits, _); pick one such as "toolwright".`);
  }
  if ((options.connectionString === undefined) === (options.pool === undefined)) {
    throw new InvalidArgumentError(`${feature} takes exactly one of connectionString (postgres://…) or pool (a pg.Pool).`);
  }
  if (options.pool) return { pool: options.pool, schema, endPool: async () => {} };
  const pg = (await loadPeer('pg', feature, () => import('pg'))).default;
  const own = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  // An idle connection the server dropped is reported on the pool; unheard, it would end the process.
  own.on('error', () => {});
  return { pool: own as unknown as PostgresPool, schema, endPool: () => own.end() };
}

/** The part of a node-postgres client the store uses (a `pg.PoolClient`). */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a node-postgres pool the store uses (a `pg.Pool`). */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  connect(): Promise<PostgresClient>;
}

/** Runs `work` in one transaction on a connection of its own: committed when it resolves, rolled back when it throws. */
export async function inTransaction(pool: PostgresPool, work: (client: PostgresClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  // The pool stops listening to a client it hands out: a server that goes away meanwhile (a restart, a failover) emits
  // an 'error' on the client that nobody would hear, which ends the process. The query it breaks reports it instead.
  let lost: Error | undefined;
  const onLost = (error: Error) => {
    lost = error;
  };
  client.on('error', onLost);
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.removeListener('error', onLost);
    // A broken connection is closed, not handed to the next caller.
    client.release(lost);
  }
}

/** Where a connection string points, without the user or the password: `host:port/database`. */
export function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'the server of the connection string';
  }
}

/** Node's and PostgreSQL's codes for a server that refused, dropped or is closing the connection (class 08 and 57P01–03). */
const LOST_SERVER_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);
/**
 * node-postgres's own words for a connection it lost (it gives these no code), and workerd's for a connection refused
 * through `cloudflare:sockets` (no code either; test/runtimes/postgres-in-workerd.test.ts sees them).
 */
const LOST_SERVER_TEXT =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|cannot connect to the specified address/i;

function isLostServer(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (LOST_SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && LOST_SERVER_TEXT.test(message)) return true;
  // Node tries each address of a host name: a refusal on all of them is an AggregateError.
  return Array.isArray(errors) && errors.some(isLostServer);
}

/**
 * The pool, with a refused or lost connection reported as {@link RunStoreUnavailableError} naming the server: a resume
 * whose database went away fails with a typed error that says what to check, not a bare `ECONNREFUSED`.
 */
export function reportingLostServer(pool: PostgresPool, server: string): PostgresPool {
  const translate = (error: unknown): never => {
    if (!isLostServer(error)) throw error;
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new RunStoreUnavailableError(
      'postgres',
      `The PostgreSQL run store at ${server} cannot be reached (${reason}); what this step would have stored may not be stored. Check that the server runs and accepts connections there (the connection string, the network), then resume the run again (with takeOver once its lease ran out, if it was being continued).`,
      { cause: error },
    );
  };
  return {
    query: (text, values) => pool.query(text, values).catch(translate),
    connect: async () => {
      const client = await pool.connect().catch(translate);
      return {
        query: (text, values) => client.query(text, values).catch(translate),
        release: (error) => client.release(error),
        on: ((event: 'notification' | 'error', listener: never) => client.on(event as 'error', listener)) as PostgresClient['on'],
        removeListener: (event, listener) => client.removeListener(event, listener),
      };
    },
  };
}
