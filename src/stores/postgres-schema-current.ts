/**
 * Whether the PostgreSQL run store's schema is already up to date, read without a transaction or a lock: a Worker opens
 * the store in every request (docs/deploy.md, "State on the edge"), and the migration step's transaction, advisory lock
 * and DDL checks cost five more round trips to the database each time.
 * @module
 */
import { migrate, POSTGRES_SCHEMA_VERSION } from './postgres-migrations.js';
import type { PostgresPool } from './postgres-pool.js';

/** PostgreSQL's codes for a table (42P01) or a schema (3F000) that does not exist yet: a database never migrated. */
const NOT_MIGRATED_YET = new Set(['42P01', '3F000']);

/**
 * Whether `schema` is at `version` exactly, in one statement. A schema not made yet reads as not current; a newer one
 * too, so that the migration step refuses it with its own words. Any other failure (the server unreachable) is thrown.
 */
export async function postgresSchemaIsCurrent(pool: PostgresPool, schema: string, version: number): Promise<boolean> {
  try {
    // Migrations commit their tables and their version row together: a version seen here has its tables.
    const { rows } = await pool.query(`SELECT COALESCE(MAX(version), 0) AS version FROM ${schema}.migrations`);
    return Number((rows[0] as { version: number | string }).version) === version;
  } catch (error) {
    if (NOT_MIGRATED_YET.has((error as { code?: string }).code ?? '')) return false;
    throw error;
  }
}

/** Brings `schema` up to date: one statement when it already is (every request of a Worker), the migrations otherwise. */
export async function ensureCurrentSchema(pool: PostgresPool, schema: string): Promise<void> {
  if (!(await postgresSchemaIsCurrent(pool, schema, POSTGRES_SCHEMA_VERSION))) await migrate(pool, schema);
}
