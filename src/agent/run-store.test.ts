/** The memory and SQLite stores under the RunStore contract (test/fixtures/run-store-contract.ts), and what only SQLite does. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confirmation, describeRunStoreContract, lease, state } from '../../test/fixtures/run-store-contract.js';
import { createMemoryRunStore } from './memory-run-store.js';
import { openSqliteRunStore } from './sqlite-run-store.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-store-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeRunStoreContract('memory', async () => createMemoryRunStore());
describeRunStoreContract('sqlite', () => openSqliteRunStore({ path: join(folder, `${Math.random().toString(36).slice(2)}.db`) }));

describe('openSqliteRunStore', () => {
  it('shares state between two connections to one file, as two processes would', async () => {
    const path = join(folder, 'shared.db');
    const one = await openSqliteRunStore({ path });
    const two = await openSqliteRunStore({ path });
    expect(Buffer.from(await one.getSecret()).equals(Buffer.from(await two.getSecret()))).toBe(true);
    await one.saveRun({ runId: 'r', status: 'awaiting_confirmation', state: state('r') }, [confirmation('r', '0.0', 'apr_s')]);
    expect(await two.decide('r', '0.0', 'approve', undefined, 1)).toBe('decided');
    expect(await one.decide('r', '0.0', 'approve', undefined, 1)).toBe('already_decided');
    expect(await two.claimRun('r', { lease: lease('two', Date.now() + 60_000), now: Date.now() })).toEqual({ claimed: true });
    expect(await one.claimRun('r', { takeOver: true, lease: lease('one', Date.now() + 60_000), now: Date.now() })).toMatchObject({
      claimed: false,
      status: 'running',
      lease: { owner: 'two' },
    });
    expect(await one.beginCall('r', '0.0')).toBeUndefined();
    expect(await two.beginCall('r', '0.0')).toEqual({ status: 'executing' });
    await one.close();
    await two.close();
  });

  it('adds the lease columns to a store file written before leases existed', async () => {
    const path = join(folder, 'old.db');
    const Database = (await import('better-sqlite3')).default;
    const old = new Database(path);
    old.exec(
      `CREATE TABLE runs (run_id TEXT PRIMARY KEY, status TEXT NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
    );
    old.prepare(`INSERT INTO runs VALUES ('r', 'awaiting_confirmation', ?, 1, 1)`).run(JSON.stringify(state('r')));
    old.close();
    const store = await openSqliteRunStore({ path });
    expect((await store.loadRun('r'))?.lease).toBeUndefined();
    expect(await store.claimRun('r', { lease: lease('a', 5_000), now: 1_000 })).toEqual({ claimed: true });
    expect((await store.loadRun('r'))?.lease).toEqual(lease('a', 5_000));
    await store.close();
  });

  it('adds the claim columns to a store file written before claims existed; its calls keep no claim', async () => {
    const path = join(folder, 'old-calls.db');
    const Database = (await import('better-sqlite3')).default;
    const old = new Database(path);
    old.exec(`CREATE TABLE calls (run_id TEXT NOT NULL, call_key TEXT NOT NULL, status TEXT NOT NULL, outcome TEXT, PRIMARY KEY (run_id, call_key))`);
    old.prepare(`INSERT INTO calls VALUES ('r', '0.0', 'executing', NULL)`).run();
    old.close();
    const store = await openSqliteRunStore({ path });
    expect(await store.beginCall('r', '0.0', { toolName: 'refund', callId: 'c', digest: 'd' })).toEqual({ status: 'executing' });
    expect(await store.beginCall('r', '0.1', { toolName: 'refund', callId: 'c', digest: 'd' })).toBeUndefined();
    expect(await store.beginCall('r', '0.1')).toEqual({ status: 'executing', claim: { toolName: 'refund', callId: 'c', digest: 'd' } });
    await store.close();
  });

  it('explains an unusable path', async () => {
    const file = join(folder, 'a-file');
    writeFileSync(file, 'not a folder');
    await expect(openSqliteRunStore({ path: join(file, 'state.db') })).rejects.toMatchObject({
      code: 'TW_RUN_STORE',
      message: expect.stringContaining(`Cannot open the run store at "${join(file, 'state.db')}"`),
    });
  });
});

describe('the built-in stores', () => {
  // The factories have always returned plain objects of functions: callers spread a store to leave a method out or to
  // override one, and pass a single method on by itself.
  it.each([
    ['memory', async () => createMemoryRunStore()],
    ['sqlite (file)', () => openSqliteRunStore({ path: join(folder, 'plain.db') })],
    ['sqlite (:memory:)', () => openSqliteRunStore({ path: ':memory:' })],
  ])('%s: is a plain object whose methods work spread or taken off it', async (_name, open) => {
    const store = await open();
    const { listRuns: _listRuns, ...withoutListRuns } = store;
    expect(Object.keys(withoutListRuns).sort()).toEqual(
      [
        'beginCall',
        'claimRun',
        'close',
        'decide',
        'findConfirmation',
        'finishCall',
        'getSecret',
        'listConfirmations',
        'loadRun',
        'releaseLease',
        'renewLease',
        'saveRun',
      ].sort(),
    );
    await withoutListRuns.saveRun({ runId: 'plain', status: 'awaiting_confirmation', state: state('plain') }, [confirmation('plain', '0.0', 'apr_plain')]);
    const { loadRun, decide, getSecret } = store;
    expect((await loadRun('plain'))?.status).toBe('awaiting_confirmation');
    expect(await decide('plain', '0.0', 'approve', undefined, 1)).toBe('decided');
    expect((await getSecret()).length).toBe(32);
    await withoutListRuns.close();
  });
});
