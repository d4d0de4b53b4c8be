/**
 * The console's run list comes from an index, not from whole records: the
 * recorder writes `<runId>.summary.json` beside each record when a run starts
 * or resumes and at each stop, and the list reads that; a record an older
 * version wrote without one is read once and its summary kept until the file's
 * size or mtime changes.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRunStore, readRunRecord, resumeAgent, runAgent, RunRecorder, type RunStore } from '../../agent/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../models/scripted/scripted-model.js';
import { defineTool } from '../../tools/define-tool.js';
import { silentLogger } from '../../tools/tool-registry.js';
import { SUMMARY_PREVIEW_CHARS } from '../../agent/run-recorder.js';
import { listRuns, MAX_RECORD_BYTES, readRecord, summarize, type ConsoleSources } from './console-runs.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-console-runs-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const lookUp = defineTool<{ invoice: string }>({
  name: 'look_up',
  description: 'Reads an invoice.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
  execute: ({ invoice }) => `invoice ${invoice}: $40 due`,
});
const refund = defineTool<{ invoice: string }>({
  name: 'refund',
  description: 'Refunds an invoice.',
  effect: 'write',
  confirm: true,
  inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
  execute: () => 'refunded',
});
const note = defineTool<{ text: string }>({
  name: 'note',
  description: 'Writes a note.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: () => 'noted',
});

/** A store that cannot list runs: the list then shows what the records (their summaries) say, status included. */
function unlistedStore(): RunStore {
  const { listRuns: _listRuns, ...store } = createMemoryRunStore();
  return store;
}

const summaryOf = (recordPath: string) => JSON.parse(readFileSync(RunRecorder.summaryPathFor(recordPath), 'utf8')) as Record<string, unknown>;

/** What the list shows of a run, from its summary, next to what the whole record says. */
async function listedAndRecorded(sources: ConsoleSources, runId: string) {
  const listed = (await listRuns(sources)).find((run) => run.runId === runId);
  const recorded = summarize(runId, readRunRecord(RunRecorder.pathFor(sources.runsDir, runId)));
  return { listed: listed && { ...listed, updatedAt: undefined }, recorded };
}

describe('the run summary the recorder keeps', () => {
  it('says what the whole record says after a completed, a stopped, a paused and a resumed run', async () => {
    const runsDir = join(folder, 'kinds');
    const store = unlistedStore();
    const sources: ConsoleSources = { store, runsDir };
    const common = { recordDir: runsDir, store, logger: silentLogger };

    const completed = await runAgent({
      ...common,
      tools: [lookUp],
      prompt: 'Look up invoice 7.',
      model: createScriptedModel([toolCallTurn([{ id: 'c1', name: 'look_up', arguments: { invoice: '7' } }]), textTurn('It is $40.')]),
    });
    expect(completed.status).toBe('completed');
    const done = await listedAndRecorded(sources, completed.runId);
    expect(done.listed).toEqual({ ...done.recorded, updatedAt: undefined });
    expect(done.listed).toMatchObject({ status: 'completed', model: 'scripted:model', tools: ['look_up'], durationMs: completed.usage.wallTimeMs });
    // The task and the answer, for the list's previews (before, neither was in the summary: the list showed ids only).
    expect(done.listed).toMatchObject({ prompt: 'Look up invoice 7.', answer: 'It is $40.' });
    expect(done.listed?.error).toBeUndefined();

    const stopped = await runAgent({
      ...common,
      tools: [lookUp],
      prompt: 'Look up everything.',
      limits: { maxIterations: 1 },
      model: createScriptedModel([toolCallTurn([{ id: 'c1', name: 'look_up', arguments: { invoice: '1' } }])]),
    });
    expect(stopped.status).toBe('stopped');
    const halted = await listedAndRecorded(sources, stopped.runId);
    expect(halted.listed).toEqual({ ...halted.recorded, updatedAt: undefined });
    expect(halted.listed?.status).toBe('stopped');
    expect(halted.listed).toMatchObject({ prompt: 'Look up everything.', error: 'The run reached its limit of 1 model calls before the model finished.' });
    expect(halted.listed?.answer).toBeUndefined();

    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice: '7' } }]), textTurn('Refunded.')]);
    const paused = await runAgent({ ...common, tools: [refund], prompt: 'Refund invoice 7.', model });
    if (paused.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${paused.status}`);
    const waiting = await listedAndRecorded(sources, paused.runId);
    expect(waiting.listed).toEqual({ ...waiting.recorded, updatedAt: undefined });
    expect(waiting.listed).toMatchObject({ status: 'awaiting_confirmation', tools: ['refund'] });
    const startedAt = summaryOf(paused.recordPath!).startedAt;

    // Resumed with one more tool: the summary goes on from the pause (its start kept, the tools joined, the last stop's figures).
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], { ...common, tools: [refund, note], model });
    expect(resumed.status).toBe('completed');
    const finished = await listedAndRecorded(sources, paused.runId);
    expect(finished.listed).toEqual({ ...finished.recorded, updatedAt: undefined });
    expect(finished.listed).toMatchObject({ status: 'completed', tools: ['refund', 'note'], durationMs: resumed.usage.wallTimeMs });
    expect(finished.listed).toMatchObject({ prompt: 'Refund invoice 7.', answer: 'Refunded.' });
    expect(summaryOf(paused.recordPath!).startedAt).toBe(startedAt);
  });

  it('lists a run from its summary without reading its record: a record past the size the console reads is still listed whole', async () => {
    const runsDir = join(folder, 'large');
    const sources: ConsoleSources = { store: unlistedStore(), runsDir };
    const result = await runAgent({
      tools: [lookUp],
      recordDir: runsDir,
      store: sources.store,
      logger: silentLogger,
      prompt: 'Look up invoice 7.',
      model: createScriptedModel([toolCallTurn([{ id: 'c1', name: 'look_up', arguments: { invoice: '7' } }]), textTurn('It is $40.')]),
    });
    // Before the fix the list read every record whole on every request, and one over MAX_RECORD_BYTES showed as "unknown".
    appendFileSync(result.recordPath!, `${'x'.repeat(MAX_RECORD_BYTES)}\n`);
    expect(statSync(result.recordPath!).size).toBeGreaterThan(MAX_RECORD_BYTES);
    const [listed] = await listRuns(sources);
    expect(listed).toMatchObject({
      runId: result.runId,
      status: 'completed',
      model: 'scripted:model',
      tools: ['look_up'],
      durationMs: result.usage.wallTimeMs,
    });
  });

  it('reads a record without a summary (an older version wrote it) once, until its size or mtime changes', async () => {
    const runsDir = join(folder, 'old');
    const sources: ConsoleSources = { store: unlistedStore(), runsDir };
    const path = RunRecorder.pathFor(runsDir, 'run_old');
    const record = (modelId: string) =>
      [
        { time: '2026-01-01T00:00:00.000Z', runId: 'run_old', type: 'run_started', modelId, tools: ['look_up'], limits: {}, resumed: false },
        { time: '2026-01-01T00:00:01.000Z', runId: 'run_old', type: 'stop', status: 'completed', usage: { wallTimeMs: 1000 }, costUsd: 0 },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n';
    mkdirSync(runsDir, { recursive: true });
    // A whole second as mtime, so that setting it again gives the very same value.
    const mtime = 1_767_225_600;
    writeFileSync(path, record('model-aa'));
    utimesSync(path, mtime, mtime);
    expect(existsSync(join(runsDir, 'run_old.summary.json'))).toBe(false);
    expect((await listRuns(sources))[0]).toMatchObject({ runId: 'run_old', model: 'model-aa', status: 'completed' });
    // Same size, same mtime: the console does not read it again (it would show model-bb).
    writeFileSync(path, record('model-bb'));
    utimesSync(path, mtime, mtime);
    expect((await listRuns(sources))[0]).toMatchObject({ model: 'model-aa' });
    // Grown: read again.
    appendFileSync(path, '\n');
    expect((await listRuns(sources))[0]).toMatchObject({ model: 'model-bb' });
  });
});

describe('a record path the store names', () => {
  it('is read only inside the runs folder: a path a store writer planted elsewhere is never opened', async () => {
    const runsDir = join(folder, 'store-named');
    const store = createMemoryRunStore();
    const sources: ConsoleSources = { store, runsDir };
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice: '7' } }]), textTurn('Refunded.')]);
    const paused = await runAgent({ recordDir: runsDir, store, logger: silentLogger, tools: [refund], prompt: 'Refund invoice 7.', model });
    if (paused.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${paused.status}`);

    // A file of the operator's outside the runs folder, shaped like a record, named by the stored run.
    const outside = join(folder, 'operator-notes.jsonl');
    writeFileSync(outside, `${JSON.stringify({ type: 'run_start', runId: paused.runId, at: 1, model: 'planted-marker', tools: ['planted_tool'] })}\n`);
    const stored = (await store.loadRun(paused.runId))!;
    await store.saveRun({ ...stored, state: { ...stored.state, recordPath: outside } });

    const read = await readRecord(sources, paused.runId, await store.loadRun(paused.runId));
    expect(read.path).toBe(RunRecorder.pathFor(runsDir, paused.runId));
    expect(JSON.stringify(read)).not.toContain('planted');
    const listed = (await listRuns(sources)).find((run) => run.runId === paused.runId);
    expect(JSON.stringify(listed)).not.toContain('planted');

    // A stored path inside the runs folder is still followed.
    const inside = join(runsDir, 'moved.jsonl');
    writeFileSync(inside, readFileSync(RunRecorder.pathFor(runsDir, paused.runId)));
    await store.saveRun({ ...stored, state: { ...stored.state, recordPath: inside } });
    expect((await readRecord(sources, paused.runId, await store.loadRun(paused.runId))).path).toBe(inside);
  });
});

describe('the previews of a summary an older version wrote without redaction', () => {
  it('are redacted before they are cut, so a key across the cut is still taken out', async () => {
    const runsDir = join(folder, 'previews');
    mkdirSync(runsDir, { recursive: true });
    const key = 'sk-proj-Q7wLx9VbT2mZk4RcY8nD3fHs6JpA1eGu';
    const time = '2026-03-02T09:00:00.000Z';
    writeFileSync(
      join(runsDir, 'run_key.jsonl'),
      `${JSON.stringify({ time, runId: 'run_key', type: 'run_started', modelId: 'm', tools: [], limits: {}, resumed: false })}\n`,
    );
    const prompt = `${'x'.repeat(SUMMARY_PREVIEW_CHARS - 20)} ${key}`;
    const summary = { version: 1, runId: 'run_key', status: 'completed', tools: [], startedAt: time, updatedAt: time, prompt, answer: `key ${key}` };
    writeFileSync(join(runsDir, 'run_key.summary.json'), JSON.stringify(summary));
    const [listed] = await listRuns({ store: unlistedStore(), runsDir });
    expect(listed?.prompt).toBe(`${'x'.repeat(SUMMARY_PREVIEW_CHARS - 20)} [REDACTED]`);
    expect(listed?.answer).toBe('key [REDACTED]');
  });
});
