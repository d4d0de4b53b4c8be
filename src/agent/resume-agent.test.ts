import { describe, expect, it } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn, type ScriptedToolCall } from '../models/scripted/scripted-model.js';
import type { ModelRequest } from '../protocol/model-exchange.js';
import type { ToolMessage } from '../protocol/messages.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { ConfirmationRefusedError, RunLeasedError, RunNotFoundError, RunNotResumableError } from './agent-errors.js';
import { createConfirmationToken } from './confirmation-token.js';
import { createMemoryRunStore } from './memory-run-store.js';
import { decideConfirmation, listPendingConfirmations, resumeAgent } from './resume-agent.js';
import { runAgent } from './run-agent.js';
import type { RunStore } from './run-store.js';

interface Refund {
  invoice: string;
  amount: number;
}

function setup() {
  const executed: Refund[] = [];
  const refund = defineTool<Refund>({
    name: 'refund',
    description: 'Refunds an invoice.',
    effect: 'write',
    inputSchema: { type: 'object', properties: { invoice: { type: 'string' }, amount: { type: 'number' } }, required: ['invoice', 'amount'] },
    confirm: ({ amount }) => amount > 10,
    summarize: ({ invoice, amount }) => `Refund $${amount} on invoice ${invoice}`,
    execute: (args) => {
      executed.push(args);
      return `refunded ${args.invoice}`;
    },
  });
  const lookup = defineTool({ name: 'lookup', description: 'Looks up.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'found' });
  return { executed, tools: [refund, lookup], store: createMemoryRunStore() };
}

const base = { recordDir: false as const, logger: silentLogger, prompt: 'Refund what is owed.' };

function lastToolText(request: ModelRequest | undefined): string[] {
  const message = request?.messages.filter((item): item is ToolMessage => item.role === 'tool').at(-1);
  return (message?.results ?? []).map((item) => (item.result.content[0]?.type === 'text' ? item.result.content[0].text : ''));
}

async function pausedRun(
  store: RunStore,
  tools: ReturnType<typeof setup>['tools'],
  calls: ScriptedToolCall[] = [{ id: 'c1', name: 'refund', arguments: { invoice: 'INV-1', amount: 50 } }],
) {
  const model = createScriptedModel([toolCallTurn(calls), textTurn('All done.')]);
  const result = await runAgent({ ...base, model, tools, store });
  if (result.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${result.status}`);
  return { model, result };
}

describe('confirmation', () => {
  it('pauses with the tool, arguments, summary and a token per pending call, and runs nothing', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    expect(result.pending).toHaveLength(1);
    expect(result.pending[0]).toMatchObject({
      runId: result.runId,
      callId: 'c1',
      callKey: '0.0',
      toolName: 'refund',
      arguments: { invoice: 'INV-1', amount: 50 },
      summary: 'Refund $50 on invoice INV-1',
    });
    expect(result.pending[0]!.token).toMatch(/^twc1\.[\w-]+\.[\w-]+$/);
    expect(result.pending[0]!.approvalId).toMatch(/^apr_[0-9a-f]{10}$/);
    expect(Date.parse(result.pending[0]!.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect(executed).toEqual([]);
    expect((await store.loadRun(result.runId))?.status).toBe('awaiting_confirmation');
  });

  it('does not ask when the confirm rule says no', async () => {
    const { executed, tools, store } = setup();
    const model = createScriptedModel([toolCallTurn([{ name: 'refund', arguments: { invoice: 'INV-2', amount: 5 } }]), textTurn('ok')]);
    expect((await runAgent({ ...base, model, tools, store })).status).toBe('completed');
    expect(executed).toEqual([{ invoice: 'INV-2', amount: 5 }]);
  });

  it("gives the approved call, and only it, the person's approval in its context", async () => {
    const approvals: unknown[] = [];
    const refund = defineTool<Refund>({
      name: 'refund',
      description: 'Refunds an invoice.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { invoice: { type: 'string' }, amount: { type: 'number' } }, required: ['invoice', 'amount'] },
      confirm: ({ amount }) => amount > 10,
      summarize: ({ invoice, amount }) => `Refund $${amount} on invoice ${invoice}`,
      execute: (args, context) => {
        approvals.push([args.invoice, context.approval ?? 'none']);
        return 'ok';
      },
    });
    const tools = [refund];
    const store = createMemoryRunStore();
    const { result } = await pausedRun(store, tools, [
      { id: 'c1', name: 'refund', arguments: { invoice: 'INV-1', amount: 50 } },
      { id: 'c2', name: 'refund', arguments: { invoice: 'INV-2', amount: 5 } },
    ]);
    await resumeAgent(result.runId, [{ token: result.pending[0]!.token, decision: 'approve' }], {
      model: createScriptedModel([textTurn('ok')]),
      tools,
      store,
      recordDir: false,
    });
    expect(approvals).toEqual([
      ['INV-1', { approvedBy: 'person', summary: 'Refund $50 on invoice INV-1' }],
      ['INV-2', 'none'],
    ]);
  });

  it('runs an approved call once resumed, and the model sees its result', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    const model = createScriptedModel([textTurn('Refunded.')]);
    const resumed = await resumeAgent(result.runId, [{ token: result.pending[0]!.token, decision: 'approve' }], { model, tools, store, recordDir: false });
    expect(resumed.status).toBe('completed');
    expect(executed).toEqual([{ invoice: 'INV-1', amount: 50 }]);
    expect(lastToolText(model.requests[0])).toEqual(['refunded INV-1']);
    expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect((await store.loadRun(result.runId))?.status).toBe('completed');
  });

  it('tells the model "the user declined" on a denial, and the run goes on', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    const model = createScriptedModel([textTurn('Understood, no refund.')]);
    const resumed = await resumeAgent(result.runId, [{ token: result.pending[0]!.token, decision: 'deny', reason: 'Too large.' }], { model, tools, store });
    expect(resumed).toMatchObject({ status: 'completed', text: 'Understood, no refund.' });
    expect(executed).toEqual([]);
    expect(lastToolText(model.requests[0])).toEqual([
      'The user declined this call to refund (Too large), so it did not run. Do not call it again with the same arguments; carry on without it, or ask the user what to do instead.',
    ]);
    expect(resumed.steps[0]!.toolCalls[0]!.status).toBe('declined');
  });

  it('refuses a replayed token with a clear error, and the call still ran once', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    const token = result.pending[0]!.token;
    await resumeAgent(result.runId, [{ token, decision: 'approve' }], { model: createScriptedModel([textTurn('ok')]), tools, store });
    const replay = await resumeAgent(result.runId, [{ token, decision: 'approve' }], { model: createScriptedModel([textTurn('ok')]), tools, store }).catch(
      (error: unknown) => error,
    );
    expect(replay).toBeInstanceOf(ConfirmationRefusedError);
    expect(replay).toMatchObject({ code: 'TW_CONFIRMATION_REFUSED', reason: 'already_used' });
    expect((replay as Error).message).toBe(
      `The confirmation for refund (call "c1" of run "${result.runId}") was already used; a token decides once. If the run still waits, see \`toolwright approvals list\`.`,
    );
    // Resuming a finished run without a token is refused too.
    await expect(resumeAgent(result.runId, [], { model: createScriptedModel([]), tools, store })).rejects.toBeInstanceOf(RunNotResumableError);
    expect(executed).toHaveLength(1);
  });

  it('refuses a token bound to other arguments, another run, or forged', async () => {
    const { tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    const secret = await store.getSecret();
    const pending = result.pending[0]!;
    const otherArguments = createConfirmationToken(secret, { ...pending, arguments: { invoice: 'INV-1', amount: 5000 } }, Date.now() + 60_000);
    await expect(
      resumeAgent(result.runId, [{ token: otherArguments, decision: 'approve' }], { model: createScriptedModel([]), tools, store }),
    ).rejects.toMatchObject({
      reason: 'mismatch',
      message:
        'This confirmation token was issued for other arguments than the pending call has. A token confirms exactly one call with exactly its arguments; use the token printed with this call.',
    });
    const { result: other } = await pausedRun(store, tools);
    await expect(
      resumeAgent(result.runId, [{ token: other.pending[0]!.token, decision: 'approve' }], { model: createScriptedModel([]), tools, store }),
    ).rejects.toMatchObject({ reason: 'mismatch' });
    const [prefix, payload, mac] = pending.token.split('.');
    const forged = `${prefix}.${payload}.${mac!.slice(0, -2)}AA`;
    await expect(resumeAgent(result.runId, [{ token: forged, decision: 'approve' }], { model: createScriptedModel([]), tools, store })).rejects.toMatchObject({
      reason: 'forged',
    });
    await expect(
      resumeAgent(result.runId, [{ token: 'not a token', decision: 'approve' }], { model: createScriptedModel([]), tools, store }),
    ).rejects.toMatchObject({ reason: 'malformed' });
    // None of that consumed the real token.
    const resumed = await resumeAgent(result.runId, [{ token: pending.token, decision: 'approve' }], {
      model: createScriptedModel([textTurn('ok')]),
      tools,
      store,
    });
    expect(resumed.status).toBe('completed');
  });

  it('refuses an expired token for approval; on resume an expired call counts as declined', async () => {
    const { executed, tools, store } = setup();
    let now = Date.now();
    const clock = () => now;
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice: 'INV-1', amount: 50 } }])]);
    const paused = await runAgent({ ...base, model, tools, store, now: clock, limits: { confirmationTtlMs: 1000 } });
    if (paused.status !== 'awaiting_confirmation') throw new Error('expected a pause');
    now += 1001;
    await expect(
      resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], { model: createScriptedModel([]), tools, store, now: clock }),
    ).rejects.toMatchObject({
      reason: 'expired',
    });
    const after = createScriptedModel([textTurn('I will ask again later.')]);
    const resumed = await resumeAgent(paused.runId, [], { model: after, tools, store, now: clock });
    expect(resumed.status).toBe('completed');
    expect(executed).toEqual([]);
    expect(lastToolText(after.requests[0])[0]).toBe(
      'Nobody confirmed this call to refund before its confirmation expired, so it did not run. Ask the user before trying it again.',
    );
  });

  it("waits for every pending call of a turn, then runs the whole turn in the model's order", async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools, [
      { id: 'a', name: 'refund', arguments: { invoice: 'A', amount: 20 } },
      { id: 'l', name: 'lookup', arguments: {} },
      { id: 'b', name: 'refund', arguments: { invoice: 'B', amount: 30 } },
      { id: 'c', name: 'refund', arguments: { invoice: 'C', amount: 1 } },
    ]);
    expect(result.pending.map((item) => item.callId)).toEqual(['a', 'b']);
    const [first, second] = result.pending;
    const model = createScriptedModel([textTurn('Done.')]);
    const partial = await resumeAgent(result.runId, [{ token: second!.token, decision: 'approve' }], { model, tools, store });
    expect(partial.status).toBe('awaiting_confirmation');
    expect(partial.status === 'awaiting_confirmation' && partial.pending.map((item) => item.callId)).toEqual(['a']);
    expect(executed).toEqual([]);
    expect(model.requests).toHaveLength(0);
    const done = await resumeAgent(result.runId, [{ token: first!.token, decision: 'deny' }], { model, tools, store });
    expect(done.status).toBe('completed');
    expect(executed).toEqual([
      { invoice: 'B', amount: 30 },
      { invoice: 'C', amount: 1 },
    ]);
    expect(model.requests[0]!.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ callId: 'a' }, { callId: 'l' }, { callId: 'b' }, { callId: 'c' }] });
    expect(lastToolText(model.requests[0])[0]).toMatch(/^The user declined this call to refund/);
  });

  it('records decisions made outside a resume, and lists what is still pending', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    expect((await listPendingConfirmations({ store })).map((item) => item.approvalId)).toEqual([result.pending[0]!.approvalId]);
    const decided = await decideConfirmation({ token: result.pending[0]!.token, decision: 'approve' }, { store });
    expect(decided).toMatchObject({ toolName: 'refund', decision: 'approve' });
    expect(await listPendingConfirmations({ store })).toEqual([]);
    const resumed = await resumeAgent(result.runId, [], { model: createScriptedModel([textTurn('ok')]), tools, store });
    expect(resumed.status).toBe('completed');
    expect(executed).toHaveLength(1);
  });

  it('lets only one of two concurrent resumes continue the run', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    await decideConfirmation({ token: result.pending[0]!.token, decision: 'approve' }, { store });
    const outcomes = await Promise.allSettled([
      resumeAgent(result.runId, [], { model: createScriptedModel([textTurn('one')]), tools, store }),
      resumeAgent(result.runId, [], { model: createScriptedModel([textTurn('two')]), tools, store }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    // The winner holds the run's lease while it drives it.
    expect(rejected?.reason).toBeInstanceOf(RunLeasedError);
    expect(executed).toHaveLength(1);
    expect((await store.loadRun(result.runId))?.lease).toBeUndefined();
  });

  it('does not run a write again that was running when its process died', async () => {
    const { executed, tools, store } = setup();
    const { result } = await pausedRun(store, tools);
    await decideConfirmation({ token: result.pending[0]!.token, decision: 'approve' }, { store });
    // Simulate a process that claimed the run and began the call, then died: its lease ran out.
    await store.claimRun(result.runId, { lease: { owner: 'dead', holder: 'pid 1 on gone', expiresAt: Date.now() - 1 }, now: Date.now() - 1_000 });
    await store.beginCall(result.runId, '0.0');
    await expect(resumeAgent(result.runId, [], { model: createScriptedModel([]), tools, store })).rejects.toMatchObject({
      code: 'TW_RUN_NOT_RESUMABLE',
      status: 'running',
    });
    const model = createScriptedModel([textTurn('I will check first.')]);
    const resumed = await resumeAgent(result.runId, [], { model, tools, store, takeOver: true });
    expect(resumed.status).toBe('completed');
    expect(resumed.outcomeUnknown).toMatchObject([{ callKey: '0.0', toolName: 'refund', status: 'outcome_unknown' }]);
    expect(executed).toEqual([]);
    expect(lastToolText(model.requests[0])[0]).toBe(
      'The run was interrupted while this call to refund was running, so whether it took effect is unknown. Check its effect with a read-only tool before calling it again.',
    );
  });

  it('names an unknown run', async () => {
    const { tools, store } = setup();
    await expect(resumeAgent('run_missing', [], { model: createScriptedModel([]), tools, store })).rejects.toBeInstanceOf(RunNotFoundError);
  });
});
