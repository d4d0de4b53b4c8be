/** A lost or refused PostgreSQL server, as each runtime words it, reported as TW_RUN_STORE_UNAVAILABLE naming the server. */
import { describe, expect, it } from 'vitest';
import { reportingLostServer, type PostgresPool } from './postgres-pool.js';

/** A pool whose every query and connection fails with `error`. */
function failingPool(error: Error): PostgresPool {
  return { query: () => Promise.reject(error), connect: () => Promise.reject(error) };
}

describe('reportingLostServer', () => {
  it("reports workerd's refused connection (cloudflare:sockets gives no code) as the store unavailable, naming the server", async () => {
    // What pg-cloudflare's socket rejects with in workerd when nothing listens on the port (or the address is not allowed).
    const refused = new Error('proxy request failed, cannot connect to the specified address');
    const pool = reportingLostServer(failingPool(refused), 'db.example.com:5432/app');
    for (const attempt of [() => pool.query('SELECT 1'), () => pool.connect()]) {
      await expect(attempt()).rejects.toMatchObject({
        code: 'TW_RUN_STORE_UNAVAILABLE',
        store: 'postgres',
        message: expect.stringContaining('The PostgreSQL run store at db.example.com:5432/app cannot be reached'),
        cause: refused,
      });
    }
  });

  it("reports Node's refusal by its code, and leaves a query's own error as it is", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await expect(reportingLostServer(failingPool(refused), 'here').query('SELECT 1')).rejects.toMatchObject({ code: 'TW_RUN_STORE_UNAVAILABLE' });
    const syntax = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
    await expect(reportingLostServer(failingPool(syntax), 'here').query('SELEC 1')).rejects.toBe(syntax);
  });
});
