/**
 * Runs after a crash or a race. Reproduces, then pins down: a run resumed by
 * two processes at once is driven by one (the other is refused by the lease);
 * a process killed with SIGKILL between claiming an approved write and
 * finishing it leaves the run to a take-over once its lease runs out, which
 * starts the write again only for a tool that accepts an idempotency key and
 * otherwise reports the call as outcome unknown, never as a silent success.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ToolRegistry, defineTool, resumeAgent, runAgent, silentLogger, type AnyTool, type Model, type RunStore, type ToolContext } from '../../src/index.js';
import { createMemoryRunStore, openSqliteRunStore } from '../../src/stores/index.js';
import { decideConfirmation, type RunEvent } from '../../src/agent/package-entry.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folder = mkdtempSync(join(tmpdir(), 'tw-leases-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// --- In one process, with the memory store -------------------------------------------------------------

function appendTool(options: { idempotent?: boolean; execute?: (args: { line: string }, context: ToolContext) => Promise<string> | string } = {}) {
  const calls: { line: string; key: string | undefined }[] = [];
  const tool = defineTool<{ line: string }>({
    name: 'append_line',
    description: 'Appends a line to the ledger.',
    effect: 'write',
    confirm: true,
    ...(options.idempotent ? { acceptsIdempotencyKey: true } : {}),
    inputSchema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
    execute: (args, context) => {
      calls.push({ line: args.line, key: context.idempotencyKey });
      return options.execute ? options.execute(args, context) : 'appended';
    },
  });
  return { tool, calls };
}

async function approvedRun(store: RunStore, tool: ReturnType<typeof appendTool>['tool']): Promise<string> {
  const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'append_line', arguments: { line: 'paid invoice 7' } }])]);
  const result = await runAgent({ model, tools: [tool], store, prompt: 'Pay invoice 7.', recordDir: false, logger: silentLogger });
  if (result.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${result.status}`);
  await decideConfirmation({ token: result.pending[0]!.token, decision: 'approve' }, { store });
  return result.runId;
}

/** What a process that claimed the run, began the call and then died leaves in the store. */
async function simulateDeadClaim(store: RunStore, runId: string): Promise<void> {
  const past = Date.now() - 60_000;
  expect(await store.claimRun(runId, { lease: { owner: 'dead', holder: 'pid 1 on gone', expiresAt: past + 1_000 }, now: past })).toEqual({ claimed: true });
  expect(await store.beginCall(runId, '0.0')).toBeUndefined();
}

const common = { recordDir: false as const, logger: silentLogger };

afterEach(() => {
  vi.useRealTimers();
});

describe('leases in one process', () => {
  it('holds the lease while the run is driven, renews it past its length, refuses a take-over, then releases it and stops the heartbeat', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const store = createMemoryRunStore();
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    let started!: () => void;
    const running = new Promise<void>((done) => (started = done));
    const { tool } = appendTool({
      execute: async () => {
        started();
        await gate;
        return 'appended';
      },
    });
    const runId = await approvedRun(store, tool);
    const driving = resumeAgent(runId, [], { ...common, tools: [tool], store, model: createScriptedModel([textTurn('Paid.')]), leaseMs: 1_000 });
    await running;
    expect((await store.loadRun(runId))?.lease).toMatchObject({ holder: `pid ${process.pid} on ${hostname()}` });
    // Ten lease lengths later, the heartbeat has kept the lease live.
    await vi.advanceTimersByTimeAsync(10_000);
    const lease = (await store.loadRun(runId))?.lease;
    expect(lease!.expiresAt).toBeGreaterThan(Date.now());
    await expect(
      resumeAgent(runId, [], { ...common, tools: [tool], store, model: createScriptedModel([textTurn('again')]), takeOver: true }),
    ).rejects.toMatchObject({
      code: 'TW_RUN_LEASED',
      holder: lease!.holder,
      leaseExpiresAt: lease!.expiresAt,
      message: expect.stringContaining(`is being continued by another process (${lease!.holder})`),
    });
    release();
    expect((await driving).status).toBe('completed');
    expect((await store.loadRun(runId))?.lease).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops driving a run whose lease another process took: records no outcome, asks no model, starts no further call, saves nothing over that process', async () => {
    const store = createMemoryRunStore();
    const notes: string[] = [];
    const note = defineTool<{ text: string }>({
      name: 'note',
      description: 'Writes a note.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => {
        notes.push(text);
        return 'noted';
      },
    });
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    let started!: () => void;
    const running = new Promise<void>((done) => (started = done));
    const { tool } = appendTool({
      execute: async () => {
        started();
        await gate;
        return 'appended';
      },
    });
    const runId = await approvedRun(store, tool);
    const model = createScriptedModel([toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: 'paid' } }]), textTurn('Paid.')]);
    const driving = resumeAgent(runId, [], { ...common, tools: [tool, note], store, model });
    await running;
    // Another process judged this one dead (say it froze past its lease) and took the run over.
    const thief = { owner: 'other', holder: 'pid 2 on host-b', expiresAt: Date.now() + 3_600_000 };
    expect(await store.claimRun(runId, { takeOver: true, lease: thief, now: Date.now() + 60_000 })).toEqual({ claimed: true });
    release();
    await expect(driving).rejects.toMatchObject({ code: 'TW_RUN_LEASED', leaseLost: true, message: expect.stringContaining('lost the lease') });
    // The call it was running when the lease went stays `executing` for the new owner (outcome unknown), not `done`.
    expect(await store.beginCall(runId, '0.0')).toMatchObject({ status: 'executing' });
    expect(model.requests).toHaveLength(0);
    expect(notes).toEqual([]);
    expect(await store.beginCall(runId, '1.0')).toBeUndefined();
    expect(await store.loadRun(runId)).toMatchObject({ status: 'running', lease: thief });
  });

  it('starts a call begun by a dead process again, with the same idempotency key, only for a tool that accepts one', async () => {
    const store = createMemoryRunStore();
    const { tool, calls } = appendTool({ idempotent: true });
    const runId = await approvedRun(store, tool);
    await simulateDeadClaim(store, runId);
    await expect(resumeAgent(runId, [], { ...common, tools: [tool], store, model: createScriptedModel([]) })).rejects.toMatchObject({
      code: 'TW_RUN_NOT_RESUMABLE',
      message: expect.stringContaining('takeOver: true'),
    });
    const result = await resumeAgent(runId, [], { ...common, tools: [tool], store, model: createScriptedModel([textTurn('Paid.')]), takeOver: true });
    expect(result.status).toBe('completed');
    expect(result.outcomeUnknown).toBeUndefined();
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({ status: 'succeeded' });
    expect(calls).toEqual([{ line: 'paid invoice 7', key: `${runId}:0.0` }]);
  });

  it('does not start a plain write again: the model and the caller are told its outcome is unknown', async () => {
    const store = createMemoryRunStore();
    const { tool, calls } = appendTool();
    const runId = await approvedRun(store, tool);
    await simulateDeadClaim(store, runId);
    const model = createScriptedModel([textTurn('I will check the ledger first.')]);
    const result = await resumeAgent(runId, [], { ...common, tools: [tool], store, model, takeOver: true });
    expect(calls).toEqual([]);
    expect(result.outcomeUnknown).toMatchObject([{ callKey: '0.0', toolName: 'append_line', status: 'outcome_unknown', result: { isError: true } }]);
    const told = model.requests[0]?.messages.at(-1);
    expect(told).toMatchObject({
      role: 'tool',
      results: [{ callId: 'c1', result: { isError: true, content: [{ type: 'text', text: expect.stringContaining('whether it took effect is unknown') }] } }],
    });
  });

  it('passes the same idempotency key for a call in every process, and none for a plain registry call', async () => {
    const store = createMemoryRunStore();
    const { tool, calls } = appendTool({ idempotent: true });
    const runId = await approvedRun(store, tool);
    await resumeAgent(runId, [], { ...common, tools: [tool], store, model: createScriptedModel([textTurn('Paid.')]) });
    expect(calls).toEqual([{ line: 'paid invoice 7', key: `${runId}:0.0` }]);
    await new ToolRegistry([tool], { logger: silentLogger }).call({ id: 'x', name: 'append_line', arguments: { line: 'direct' } });
    expect(calls.at(-1)).toEqual({ line: 'direct', key: undefined });
  });

  it('refuses a lease length that is no duration, and a non-boolean acceptsIdempotencyKey', async () => {
    const store = createMemoryRunStore();
    const { tool } = appendTool();
    await expect(resumeAgent('run_x', [], { ...common, tools: [tool], store, model: createScriptedModel([]), leaseMs: 0 })).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringContaining('leaseMs'),
    });
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        effect: 'write',
        inputSchema: { type: 'object' },
        acceptsIdempotencyKey: 'yes' as unknown as boolean,
        execute: () => 'ok',
      }),
    ).toThrow(/acceptsIdempotencyKey` must be true or false/);
  });
});

// --- Take-overs after a crash past the pending turn -----------------------------------------------------

/**
 * A process that can die. Until `die()`, its store is the real one; after, every step fails as in a process that is
 * gone, except that its lease is let go (a dead process's lease runs out; letting it go at once spares the wait).
 * `loseSaves` drops every save of the run state, as a process that died before its saves reached the store would
 * (or a version of toolwright that saved a run only when it paused or ended).
 */
function mortalStore(store: RunStore, options: { loseSaves?: boolean } = {}) {
  let dead = false;
  const alive = <T>(step: () => Promise<T>): Promise<T> => (dead ? Promise.reject(new Error('this process is dead')) : step());
  const wrapped: RunStore = {
    getSecret: () => alive(() => store.getSecret()),
    saveRun: (run, confirmations) => alive(async () => (options.loseSaves ? undefined : store.saveRun(run, confirmations))),
    loadRun: (runId) => alive(() => store.loadRun(runId)),
    listConfirmations: (filter) => alive(() => store.listConfirmations(filter)),
    findConfirmation: (approvalId) => alive(() => store.findConfirmation(approvalId)),
    decide: (...args) => alive(() => store.decide(...args)),
    claimRun: (runId, claim) => alive(() => store.claimRun(runId, claim)),
    renewLease: (...args) => alive(() => store.renewLease(...args)),
    releaseLease: (...args) => store.releaseLease(...args),
    beginCall: (...args) => alive(() => store.beginCall(...args)),
    finishCall: (...args) => alive(() => store.finishCall(...args)),
    close: async () => {},
  };
  return { store: wrapped, die: () => void (dead = true) };
}

/** A plain write whose calls are listed; a call whose text is `hang` waits until its run is aborted. */
function noteTool(onHang: () => void = () => {}) {
  const started: string[] = [];
  const tool = defineTool<{ text: string; channel?: string }>({
    name: 'note',
    description: 'Writes a note.',
    effect: 'write',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, channel: { type: 'string' } }, required: ['text'] },
    execute: async ({ text, channel }, context) => {
      started.push(channel === undefined ? text : `${channel}:${text}`);
      if (text === 'hang') {
        onHang();
        await new Promise((_done, fail) => context.signal.addEventListener('abort', () => fail(new Error('aborted')), { once: true }));
      }
      return `noted ${text}`;
    },
  });
  return { tool, started };
}

const toolText = (outcome: { result: { content: readonly { type: string; text?: string }[] } } | undefined) =>
  outcome?.result.content.map((part) => part.text ?? '').join('');

/** Resumes an approved run in a process that will die; resolves once it has (or has ended), never rejects. */
async function driveAndDie(runId: string, tools: readonly AnyTool[], model: Model, mortal: ReturnType<typeof mortalStore>, abort: AbortController) {
  return resumeAgent(runId, [], { ...common, tools, store: mortal.store, model, signal: abort.signal }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
}

describe('take-over after a crash past the pending turn', () => {
  it('never hands a different call the stored outcome of the call the dead process ran under the same key: the new call runs', async () => {
    const store = createMemoryRunStore();
    const { tool: append } = appendTool();
    const note = noteTool();
    const runId = await approvedRun(store, append);
    // The first process runs the approved write, then a note at step 1, and dies before any save reached the store.
    const first = await driveAndDie(
      runId,
      [append, note.tool],
      createScriptedModel([toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: 'invoice 7 paid' } }]), textTurn('Done.')]),
      mortalStore(store, { loseSaves: true }),
      new AbortController(),
    );
    expect(first.result?.status).toBe('completed');
    expect(note.started).toEqual(['invoice 7 paid']);
    // The take-over replays the model from the paused state, and this time the model answers differently at step 1.
    const model = createScriptedModel([toolCallTurn([{ id: 'c2b', name: 'note', arguments: { text: 'invoice 8 paid' } }]), textTurn('Done.')]);
    const events: RunEvent[] = [];
    const result = await resumeAgent(runId, [], {
      ...common,
      tools: [append, note.tool],
      store,
      model,
      takeOver: true,
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe('completed');
    expect(note.started).toEqual(['invoice 7 paid', 'invoice 8 paid']);
    expect(events.filter((event) => event.type === 'call_superseded')).toEqual([
      expect.objectContaining({
        step: 1,
        callKey: '1.0',
        callId: 'c2',
        toolName: 'note',
        status: 'succeeded',
        supersededBy: { callId: 'c2b', toolName: 'note', storeKey: expect.stringMatching(/^1\.0~[A-Za-z0-9_-]{43}$/) },
      }),
    ]);
    expect(result.steps[1]?.toolCalls[0]).toMatchObject({ callKey: '1.0', callId: 'c2b', arguments: { text: 'invoice 8 paid' }, status: 'succeeded' });
    expect(toolText(result.steps[1]?.toolCalls[0])).toBe('noted invoice 8 paid');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      results: [{ callId: 'c2b', result: { content: [{ type: 'text', text: 'noted invoice 8 paid' }] } }],
    });
    // The earlier call is not lost: the caller learns that it ran, under which key, and what replaced it.
    expect(result.supersededCalls).toMatchObject([
      { callKey: '1.0', callId: 'c2', toolName: 'note', arguments: { text: 'invoice 7 paid' }, status: 'succeeded', supersededBy: 'c2b' },
    ]);
    expect(result.outcomeUnknown).toBeUndefined();
    // The approved write of the pending turn was the same call: its stored outcome stands, it did not run again.
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({ callKey: '0.0', status: 'succeeded' });
  });

  it('reports a write the dead process left running under a key the model now gives another call as outcome unknown, and runs the new call', async () => {
    const store = createMemoryRunStore();
    const { tool: append } = appendTool();
    const abort = new AbortController();
    const mortal = mortalStore(store, { loseSaves: true });
    const note = noteTool(() => {
      mortal.die();
      abort.abort();
    });
    const runId = await approvedRun(store, append);
    const first = await driveAndDie(
      runId,
      [append, note.tool],
      createScriptedModel([toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: 'hang' } }])]),
      mortal,
      abort,
    );
    expect(first.error).toBeDefined();
    const model = createScriptedModel([toolCallTurn([{ id: 'c2b', name: 'note', arguments: { text: 'invoice 8 paid' } }]), textTurn('Done.')]);
    const result = await resumeAgent(runId, [], { ...common, tools: [append, note.tool], store, model, takeOver: true });
    expect(result.status).toBe('completed');
    expect(note.started).toEqual(['hang', 'invoice 8 paid']);
    expect(result.steps[1]?.toolCalls[0]).toMatchObject({ callKey: '1.0', callId: 'c2b', status: 'succeeded' });
    expect(result.outcomeUnknown).toMatchObject([{ callKey: '1.0', callId: 'c2', toolName: 'note', status: 'outcome_unknown', supersededBy: 'c2b' }]);
    expect(result.supersededCalls).toEqual(result.outcomeUnknown);
  });

  it('still reuses the stored outcome when the replayed call is the same tool with canonically the same arguments', async () => {
    const store = createMemoryRunStore();
    const { tool: append } = appendTool();
    const note = noteTool();
    const runId = await approvedRun(store, append);
    await driveAndDie(
      runId,
      [append, note.tool],
      createScriptedModel([toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: 'paid', channel: 'ops' } }]), textTurn('Done.')]),
      mortalStore(store, { loseSaves: true }),
      new AbortController(),
    );
    // Same call, keys in another order, another provider id: the same call, so it must not run twice.
    const model = createScriptedModel([toolCallTurn([{ id: 'c2b', name: 'note', argumentsText: '{"channel":"ops","text":"paid"}' }]), textTurn('Done.')]);
    const result = await resumeAgent(runId, [], { ...common, tools: [append, note.tool], store, model, takeOver: true });
    expect(note.started).toEqual(['ops:paid']);
    expect(toolText(result.steps[1]?.toolCalls[0])).toBe('noted paid');
    // The stored result answers the call id of this request, so the transcript stays well formed for the provider.
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      results: [{ callId: 'c2b', result: { content: [{ type: 'text', text: 'noted paid' }] } }],
    });
    expect(result.supersededCalls).toBeUndefined();
  });

  it('gives the call that replaced another its own idempotency key, so a tool deduping on keys does not mistake it for the other', async () => {
    const store = createMemoryRunStore();
    const { tool: append } = appendTool();
    const keys: string[] = [];
    const ledger = defineTool<{ line: string }>({
      name: 'ledger',
      description: 'Appends to the ledger, once per idempotency key.',
      effect: 'write',
      acceptsIdempotencyKey: true,
      inputSchema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
      execute: ({ line }, context) => {
        keys.push(context.idempotencyKey!);
        return `wrote ${line}`;
      },
    });
    const runId = await approvedRun(store, append);
    await driveAndDie(
      runId,
      [append, ledger],
      createScriptedModel([toolCallTurn([{ id: 'c2', name: 'ledger', arguments: { line: 'a' } }]), textTurn('Done.')]),
      mortalStore(store, { loseSaves: true }),
      new AbortController(),
    );
    const result = await resumeAgent(runId, [], {
      ...common,
      tools: [append, ledger],
      store,
      model: createScriptedModel([toolCallTurn([{ id: 'c2b', name: 'ledger', arguments: { line: 'b' } }]), textTurn('Done.')]),
      takeOver: true,
    });
    expect(toolText(result.steps[1]?.toolCalls[0])).toBe('wrote b');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(`${runId}:1.0`);
    expect(keys[1]).toMatch(new RegExp(`^${runId}:1\\.0~[A-Za-z0-9_-]{43}$`));
  });

  it('saves each turn before running its calls: a take-over continues that turn instead of asking the model again', async () => {
    const store = createMemoryRunStore();
    const { tool: append } = appendTool();
    const note = noteTool();
    const runId = await approvedRun(store, append);
    const abort = new AbortController();
    const mortal = mortalStore(store);
    // The first process finishes the note of step 1, then dies while the model answers step 2.
    const dying = createScriptedModel([
      toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: 'invoice 7 paid' } }]),
      () => {
        mortal.die();
        abort.abort();
        return new Promise<never>(() => {});
      },
    ]);
    expect((await driveAndDie(runId, [append, note.tool], dying, mortal, abort)).error).toBeDefined();
    const model = createScriptedModel([textTurn('Done.')]);
    const result = await resumeAgent(runId, [], { ...common, tools: [append, note.tool], store, model, takeOver: true });
    expect(result.status).toBe('completed');
    // Step 1 was not asked again: the model's first request already holds the note's stored result.
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      results: [{ callId: 'c2', result: { content: [{ type: 'text', text: 'noted invoice 7 paid' }] } }],
    });
    expect(note.started).toEqual(['invoice 7 paid']);
    expect(result.steps.map((step) => step.toolCalls.map((call) => `${call.callKey} ${call.toolName} ${call.status}`))).toEqual([
      ['0.0 append_line succeeded'],
      ['1.0 note succeeded'],
      [],
    ]);
    expect(result.supersededCalls).toBeUndefined();
  });

  it('reports a write of a later turn that was running when its process died as outcome unknown, and does not run it again', async () => {
    const store = createMemoryRunStore();
    const { tool: append } = appendTool();
    const abort = new AbortController();
    const mortal = mortalStore(store);
    const note = noteTool(() => {
      mortal.die();
      abort.abort();
    });
    const runId = await approvedRun(store, append);
    await driveAndDie(
      runId,
      [append, note.tool],
      createScriptedModel([toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: 'hang' } }])]),
      mortal,
      abort,
    );
    const model = createScriptedModel([textTurn('I will check the notes first.')]);
    const result = await resumeAgent(runId, [], { ...common, tools: [append, note.tool], store, model, takeOver: true });
    expect(note.started).toEqual(['hang']);
    expect(result.outcomeUnknown).toMatchObject([{ callKey: '1.0', callId: 'c2', toolName: 'note', status: 'outcome_unknown' }]);
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      results: [{ callId: 'c2', result: { isError: true, content: [{ type: 'text', text: expect.stringContaining('whether it took effect is unknown') }] } }],
    });
  });

  it('keeps argument values out of the SQLite file: a claim stores a keyed digest, not the arguments', async () => {
    const secret = 'ghp_' + 'Z7'.repeat(18);
    const statePath = join(folder, 'digest.db');
    const store = await openSqliteRunStore({ path: statePath });
    try {
      const { tool: append } = appendTool();
      const note = noteTool();
      const runId = await approvedRun(store, append);
      await driveAndDie(
        runId,
        [append, note.tool],
        createScriptedModel([toolCallTurn([{ id: 'c2', name: 'note', arguments: { text: secret } }]), textTurn('Done.')]),
        mortalStore(store, { loseSaves: true }),
        new AbortController(),
      );
      const result = await resumeAgent(runId, [], {
        ...common,
        tools: [append, note.tool],
        store,
        model: createScriptedModel([toolCallTurn([{ id: 'c2b', name: 'note', arguments: { text: 'other' } }]), textTurn('Done.')]),
        takeOver: true,
      });
      expect(result.supersededCalls).toMatchObject([{ callKey: '1.0', arguments: { text: secret } }]);
    } finally {
      await store.close();
    }
    for (const file of [statePath, `${statePath}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(secret.slice(4)))).toBe(false);
    }
  });
});

// --- Real processes on one SQLite file ----------------------------------------------------------------

const script = join(folder, 'child.mts');
writeFileSync(
  script,
  `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { defineTool, resumeAgent, runAgent } from ${JSON.stringify(join(root, 'src/index.ts'))};
import { decideConfirmation } from ${JSON.stringify(join(root, 'src/agent/package-entry.ts'))};
import { createScriptedModel, textTurn, toolCallTurn } from ${JSON.stringify(join(root, 'src/test.ts'))};

const [mode, statePath, files, arg, leaseMs, takeOver] = process.argv.slice(2);
const env = process.env;
const ledger = files + '.ledger';
const starts = files + '.starts';
const pause = (ms) => new Promise((done) => setTimeout(done, ms));
const appendLine = defineTool({
  name: 'append_line',
  description: 'Appends a line to the ledger.',
  effect: 'write',
  confirm: true,
  acceptsIdempotencyKey: env.TW_IDEMPOTENT === '1',
  inputSchema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
  execute: async (args, context) => {
    appendFileSync(starts, context.idempotencyKey + '\\n');
    if (env.TW_HANG === 'before') {
      writeFileSync(files + '.ready', String(process.pid));
      // Hangs until killed; the interval stands for work in flight.
      setInterval(() => {}, 1000);
      await new Promise(() => {});
    }
    if (env.TW_HANG === 'idle') {
      writeFileSync(files + '.ready', String(process.pid));
      // Nothing keeps the process alive but what the runtime holds.
      await new Promise(() => {});
    }
    if (env.TW_GATE) while (!existsSync(env.TW_GATE)) await pause(50);
    if (env.TW_IDEMPOTENT === '1') {
      const applied = existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\\n') : [];
      if (applied.some((line) => line.startsWith(context.idempotencyKey + ' '))) return 'already applied';
      appendFileSync(ledger, context.idempotencyKey + ' ' + args.line + '\\n');
    } else {
      appendFileSync(ledger, args.line + '\\n');
    }
    if (env.TW_HANG === 'after') {
      writeFileSync(files + '.ready', String(process.pid));
      setInterval(() => {}, 1000);
      await new Promise(() => {});
    }
    return 'appended';
  },
});
const common = { tools: [appendLine], statePath, recordDir: false };
try {
  if (mode === 'start') {
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'append_line', arguments: { line: 'paid invoice 7' } }])]);
    const result = await runAgent({ ...common, model, prompt: 'Pay invoice 7.' });
    const { token } = result.pending[0];
    await decideConfirmation({ token, decision: 'approve' }, { statePath });
    console.log(JSON.stringify({ status: result.status, runId: result.runId }));
  } else if (mode === 'resume') {
    const result = await resumeAgent(arg, [], { ...common, model: createScriptedModel([textTurn('Paid.')]), leaseMs: Number(leaseMs), takeOver: takeOver === 'take-over' });
    const call = result.steps[0].toolCalls[0];
    console.log(JSON.stringify({ status: result.status, callStatus: call.status, toolText: call.result.content[0].text, outcomeUnknown: (result.outcomeUnknown ?? []).map((item) => item.callKey) }));
  }
} catch (error) {
  console.log(JSON.stringify({ error: error.code ?? error.name, message: error.message }));
}
`,
);

interface ChildOutput {
  status?: string;
  runId?: string;
  callStatus?: string;
  toolText?: string;
  outcomeUnknown?: string[];
  error?: string;
  message?: string;
}

interface Child {
  process: ChildProcess;
  done: Promise<{ output: ChildOutput | undefined; code: number | null; signal: string | null }>;
}

function spawnChild(args: string[], env: Record<string, string> = {}): Child {
  let process_!: ChildProcess;
  const done = new Promise<{ output: ChildOutput | undefined; code: number | null; signal: string | null }>((settle) => {
    process_ = execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: root, timeout: 120_000, env: { ...process.env, ...env } },
      (_error, stdout) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        settle({ output: line.startsWith('{') ? (JSON.parse(line) as ChildOutput) : undefined, code: process_.exitCode, signal: process_.signalCode });
      },
    );
  });
  return { process: process_, done };
}

async function child(args: string[], env: Record<string, string> = {}): Promise<ChildOutput> {
  const { output, code, signal } = await spawnChild(args, env).done;
  if (!output) throw new Error(`child ${args[0]} printed no result (exit ${code}, signal ${signal})`);
  return output;
}

async function waitForFile(path: string, what: string): Promise<void> {
  // Child processes load TypeScript: on a loaded machine that takes seconds.
  for (let waited = 0; waited < 120_000; waited += 100) {
    if (existsSync(path)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

/** A paused run with its write approved, in a fresh store; returns the run id and the stem of its files. */
async function approvedRunInFile(name: string, env: Record<string, string>): Promise<{ statePath: string; files: string; runId: string }> {
  const statePath = join(folder, `${name}.db`);
  const files = join(folder, name);
  const started = await child(['start', statePath, files], env);
  expect(started.status).toBe('awaiting_confirmation');
  return { statePath, files, runId: started.runId! };
}

/** Takes the run over once the dead process's lease runs out: until then the lease refuses, and nothing else may. */
async function takeOverWhenFree(statePath: string, files: string, runId: string, env: Record<string, string>): Promise<ChildOutput> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const output = await child(['resume', statePath, files, runId, '2000', 'take-over'], env);
    if (output.error !== 'TW_RUN_LEASED') return output;
    await sleep(500);
  }
  throw new Error('the lease of the killed process never ran out');
}

/** Resumes in a child that hangs in the tool as `hang` says, and kills it with SIGKILL there. */
async function killMidCall(statePath: string, files: string, runId: string, env: Record<string, string>): Promise<void> {
  const doomed = spawnChild(['resume', statePath, files, runId, '2000'], env);
  await waitForFile(`${files}.ready`, 'the tool to start in the child');
  doomed.process.kill('SIGKILL');
  expect((await doomed.done).signal).toBe('SIGKILL');
}

describe('leases across real processes', { timeout: 300_000 }, () => {
  it('lets one of two processes racing to resume a run drive it; the other gets TW_RUN_LEASED; the write runs once', async () => {
    const gate = join(folder, 'race.gate');
    const { statePath, files, runId } = await approvedRunInFile('race', {});
    const env = { TW_GATE: gate };
    const first = spawnChild(['resume', statePath, files, runId, '30000'], env);
    const second = spawnChild(['resume', statePath, files, runId, '30000'], env);
    // The winner waits at the gate inside the write, so the first to finish is the loser, refused while the winner runs.
    const loser = await Promise.race([first.done, second.done]);
    expect(loser.output).toMatchObject({
      error: 'TW_RUN_LEASED',
      message: expect.stringMatching(/is being continued by another process \(pid \d+ on .+\) whose lease runs until/),
    });
    // The loser can be refused before the winner, holding the lease, has reached the tool.
    await waitForFile(`${files}.starts`, 'the winner to start the write');
    expect(lines(`${files}.starts`)).toHaveLength(1);
    writeFileSync(gate, '');
    const [one, two] = await Promise.all([first.done, second.done]);
    const outputs = [one.output, two.output];
    expect(outputs.filter((output) => output?.status === 'completed')).toHaveLength(1);
    expect(lines(`${files}.ledger`)).toEqual(['paid invoice 7']);
    expect(lines(`${files}.starts`)).toEqual([`${runId}:0.0`]);
  });

  it('after a SIGKILL before a plain write took effect, reports its outcome unknown on take-over and never runs it again', async () => {
    const { statePath, files, runId } = await approvedRunInFile('plain', {});
    await killMidCall(statePath, files, runId, { TW_HANG: 'before' });
    const taken = await takeOverWhenFree(statePath, files, runId, {});
    expect(taken).toMatchObject({
      status: 'completed',
      callStatus: 'outcome_unknown',
      outcomeUnknown: ['0.0'],
      toolText: expect.stringContaining('whether it took effect is unknown'),
    });
    expect(lines(`${files}.starts`)).toHaveLength(1);
    expect(lines(`${files}.ledger`)).toEqual([]);
    // Done: nobody can run it again.
    expect(await child(['resume', statePath, files, runId, '2000', 'take-over'])).toMatchObject({ error: 'TW_RUN_NOT_RESUMABLE' });
  });

  it('after a SIGKILL before an idempotency-key write took effect, runs it on take-over: once in all', async () => {
    const { statePath, files, runId } = await approvedRunInFile('idem-before', { TW_IDEMPOTENT: '1' });
    await killMidCall(statePath, files, runId, { TW_IDEMPOTENT: '1', TW_HANG: 'before' });
    const taken = await takeOverWhenFree(statePath, files, runId, { TW_IDEMPOTENT: '1' });
    expect(taken).toMatchObject({ status: 'completed', callStatus: 'succeeded', outcomeUnknown: [], toolText: 'appended' });
    expect(lines(`${files}.starts`)).toEqual([`${runId}:0.0`, `${runId}:0.0`]);
    expect(lines(`${files}.ledger`)).toEqual([`${runId}:0.0 paid invoice 7`]);
  });

  it('after a SIGKILL after an idempotency-key write took effect, starts it again on take-over with the same key, and the tool dedupes it', async () => {
    const { statePath, files, runId } = await approvedRunInFile('idem-after', { TW_IDEMPOTENT: '1' });
    await killMidCall(statePath, files, runId, { TW_IDEMPOTENT: '1', TW_HANG: 'after' });
    expect(lines(`${files}.ledger`)).toEqual([`${runId}:0.0 paid invoice 7`]);
    const taken = await takeOverWhenFree(statePath, files, runId, { TW_IDEMPOTENT: '1' });
    expect(taken).toMatchObject({ status: 'completed', callStatus: 'succeeded', outcomeUnknown: [], toolText: 'already applied' });
    expect(lines(`${files}.starts`)).toEqual([`${runId}:0.0`, `${runId}:0.0`]);
    expect(lines(`${files}.ledger`)).toEqual([`${runId}:0.0 paid invoice 7`]);
  });

  it('does not keep a process alive with its heartbeat', async () => {
    const { statePath, files, runId } = await approvedRunInFile('idle', {});
    // The tool waits on nothing that keeps a process alive: with an unref'd heartbeat, Node exits (code 13, an unsettled await).
    const { code, signal } = await spawnChild(['resume', statePath, files, runId, '30000'], { TW_HANG: 'idle' }).done;
    expect(existsSync(`${files}.ready`)).toBe(true);
    expect(signal).toBeNull();
    expect(code).toBe(13);
  });
});
