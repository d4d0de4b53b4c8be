/** One suite for every RunStore implementation: what the loop relies on for exactly-once execution. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from './agent-result.js';
import { createMemoryRunStore } from './memory-run-store.js';
import type { RunState } from './run-state.js';
import type { RunStore, StoredConfirmation } from './run-store.js';
import { openSqliteRunStore } from './sqlite-run-store.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-store-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const implementations: { name: string; open: () => Promise<RunStore> }[] = [
  { name: 'memory', open: async () => createMemoryRunStore() },
  { name: 'sqlite', open: () => openSqliteRunStore({ path: join(folder, `${Math.random().toString(36).slice(2)}.db`) }) },
];

function state(runId: string): RunState {
  return {
    version: 1,
    runId,
    modelId: 'scripted:model',
    messages: [{ role: 'user', content: 'hi' }],
    steps: [],
    usage: { inputTokens: 1, outputTokens: 2, modelCalls: 1, toolCalls: 0, wallTimeMs: 3 },
    costUsd: 0,
    iterations: 1,
    routed: true,
    routedTools: undefined,
    failureCounts: {},
    callCounts: {},
    pendingTurn: undefined,
    limits: {},
    settings: {},
    meta: { modelSpec: 'openai:gpt-4o-mini' },
    recordPath: undefined,
  };
}

function confirmation(runId: string, callKey: string, approvalId: string): StoredConfirmation {
  return {
    approvalId,
    runId,
    callKey,
    callId: `call_${callKey}`,
    toolName: 'refund',
    arguments: { amount: 5, note: null },
    summary: 'Refund $5',
    token: 'twc1.x.y',
    expiresAt: 2_000,
    createdAt: 1_000,
  };
}

function lease(owner: string, expiresAt: number) {
  return { owner, holder: `pid 1 on host-${owner}`, expiresAt };
}

const outcome: ToolCallOutcome = {
  callKey: '0.0',
  callId: 'c',
  toolName: 'refund',
  arguments: { amount: 5 },
  status: 'succeeded',
  result: { content: [{ type: 'text', text: 'ok' }], isError: false },
  durationMs: 1,
  truncated: false,
};

describe.each(implementations)('RunStore: $name', ({ open }) => {
  it('keeps one secret per store', async () => {
    const store = await open();
    const first = await store.getSecret();
    expect(first.byteLength).toBe(32);
    expect(Buffer.from(await store.getSecret()).equals(Buffer.from(first))).toBe(true);
    await store.close();
  });

  it('saves and loads a run with its state, keeping existing confirmations on a second save', async () => {
    const store = await open();
    await store.saveRun({ runId: 'r1', status: 'awaiting_confirmation', state: state('r1') }, [confirmation('r1', '0.0', 'apr_1')]);
    const loaded = await store.loadRun('r1');
    // A store keeps JSON: members that are undefined are dropped.
    expect(loaded).toMatchObject({ runId: 'r1', status: 'awaiting_confirmation', state: JSON.parse(JSON.stringify(state('r1'))) });
    expect(typeof loaded?.createdAt).toBe('number');
    expect(await store.decide('r1', '0.0', 'approve', undefined, 1_500)).toBe('decided');
    await store.saveRun({ runId: 'r1', status: 'awaiting_confirmation', state: state('r1') }, [
      confirmation('r1', '0.0', 'apr_1'),
      confirmation('r1', '1.0', 'apr_2'),
    ]);
    const all = await store.listConfirmations({ runId: 'r1' });
    expect(all.map((item) => [item.approvalId, item.decision])).toEqual([
      ['apr_1', 'approve'],
      ['apr_2', undefined],
    ]);
    expect(all[0]).toEqual({ ...confirmation('r1', '0.0', 'apr_1'), decision: 'approve', decidedAt: 1_500 });
    expect((await store.listConfirmations({ undecided: true })).map((item) => item.approvalId)).toEqual(['apr_2']);
    expect(await store.findConfirmation('apr_2')).toEqual(confirmation('r1', '1.0', 'apr_2'));
    expect(await store.loadRun('nope')).toBeUndefined();
    await store.close();
  });

  it('lists runs most recently updated first, up to a limit', async () => {
    const store = await open();
    const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
    for (const runId of ['run_a', 'run_b', 'run_c']) {
      await store.saveRun({ runId, status: 'awaiting_confirmation', state: state(runId) });
      await tick();
    }
    await store.saveRun({ runId: 'run_a', status: 'completed', state: state('run_a') });
    const listed = await store.listRuns!();
    expect(listed.map((run) => [run.runId, run.status])).toEqual([
      ['run_a', 'completed'],
      ['run_c', 'awaiting_confirmation'],
      ['run_b', 'awaiting_confirmation'],
    ]);
    expect(listed[0]!.state.meta).toEqual({ modelSpec: 'openai:gpt-4o-mini' });
    expect((await store.listRuns!({ limit: 2 })).map((run) => run.runId)).toEqual(['run_a', 'run_c']);
    await store.close();
  });

  it('decides a call once', async () => {
    const store = await open();
    await store.saveRun({ runId: 'r2', status: 'awaiting_confirmation', state: state('r2') }, [confirmation('r2', '0.0', 'apr_3')]);
    expect(await store.decide('r2', '0.0', 'deny', 'no', 1)).toBe('decided');
    expect(await store.decide('r2', '0.0', 'approve', undefined, 2)).toBe('already_decided');
    expect(await store.decide('r2', '9.9', 'approve', undefined, 2)).toBe('not_found');
    expect((await store.findConfirmation('apr_3'))?.reason).toBe('no');
  });

  it('lets one claim win, and takes over a running run only when asked and only once its lease ran out', async () => {
    const store = await open();
    await store.saveRun({ runId: 'r3', status: 'awaiting_confirmation', state: state('r3') });
    const first = lease('a', 10_000);
    expect(await store.claimRun('r3', { lease: first, now: 1_000 })).toEqual({ claimed: true });
    expect((await store.loadRun('r3'))?.lease).toEqual(first);
    // A live lease stands against anyone else, take-over or not.
    expect(await store.claimRun('r3', { lease: lease('b', 20_000), now: 2_000 })).toEqual({ claimed: false, status: 'running', lease: first });
    expect(await store.claimRun('r3', { takeOver: true, lease: lease('b', 20_000), now: 9_999 })).toEqual({ claimed: false, status: 'running', lease: first });
    // Ran out: a running run needs takeOver.
    expect(await store.claimRun('r3', { lease: lease('b', 20_000), now: 10_000 })).toEqual({ claimed: false, status: 'running' });
    expect(await store.claimRun('r3', { takeOver: true, lease: lease('b', 20_000), now: 10_000 })).toEqual({ claimed: true });
    expect((await store.loadRun('r3'))?.lease).toEqual(lease('b', 20_000));
    // Saving the state leaves the lease alone; a finished run is never claimed.
    await store.saveRun({ runId: 'r3', status: 'completed', state: state('r3') });
    expect((await store.loadRun('r3'))?.lease).toEqual(lease('b', 20_000));
    await store.releaseLease('r3', 'b');
    expect(await store.claimRun('r3', { takeOver: true, lease: lease('c', 40_000), now: 30_000 })).toEqual({ claimed: false, status: 'completed' });
    expect(await store.claimRun('missing', { lease: lease('c', 40_000), now: 30_000 })).toEqual({ claimed: false, status: undefined });
  });

  it('renews and releases a lease only for its owner', async () => {
    const store = await open();
    await store.saveRun({ runId: 'r5', status: 'awaiting_confirmation', state: state('r5') });
    expect(await store.claimRun('r5', { lease: lease('a', 5_000), now: 1_000 })).toEqual({ claimed: true });
    expect(await store.renewLease('r5', 'b', 99_000)).toBe(false);
    expect(await store.renewLease('r5', 'a', 8_000)).toBe(true);
    // Renewed: still live at 6 000, where the first expiry would have freed it.
    expect(await store.claimRun('r5', { takeOver: true, lease: lease('b', 20_000), now: 6_000 })).toMatchObject({
      claimed: false,
      lease: { owner: 'a', expiresAt: 8_000 },
    });
    await store.releaseLease('r5', 'b');
    expect((await store.loadRun('r5'))?.lease?.owner).toBe('a');
    await store.releaseLease('r5', 'a');
    expect((await store.loadRun('r5'))?.lease).toBeUndefined();
    expect(await store.renewLease('r5', 'a', 9_000)).toBe(false);
    expect(await store.renewLease('missing', 'a', 9_000)).toBe(false);
    // Released while running: the run needs takeOver, but nothing stands in its way.
    expect(await store.claimRun('r5', { takeOver: true, lease: lease('b', 20_000), now: 6_000 })).toEqual({ claimed: true });
  });

  it('begins a call once and returns its stored outcome afterwards', async () => {
    const store = await open();
    expect(await store.beginCall('r4', '0.0')).toBeUndefined();
    expect(await store.beginCall('r4', '0.0')).toEqual({ status: 'executing' });
    await store.finishCall('r4', '0.0', outcome);
    expect(await store.beginCall('r4', '0.0')).toEqual({ status: 'done', outcome });
    expect(await store.beginCall('r4', '0.1')).toBeUndefined();
  });

  it('keeps the claim a call was begun with, through its outcome, so a later caller can tell whether it is the same call', async () => {
    const store = await open();
    const claim = { toolName: 'refund', callId: 'c', digest: 'd1' };
    expect(await store.beginCall('r6', '0.0', claim)).toBeUndefined();
    expect(await store.beginCall('r6', '0.0', { toolName: 'other', callId: 'x', digest: 'd2' })).toEqual({ status: 'executing', claim });
    await store.finishCall('r6', '0.0', outcome);
    expect(await store.beginCall('r6', '0.0')).toEqual({ status: 'done', outcome, claim });
    // Arguments that have no digest keep none.
    expect(await store.beginCall('r6', '0.1', { toolName: 'refund', callId: 'c2' })).toBeUndefined();
    expect(await store.beginCall('r6', '0.1')).toEqual({ status: 'executing', claim: { toolName: 'refund', callId: 'c2' } });
  });
});

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
