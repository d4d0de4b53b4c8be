/**
 * What the console knows of runs: the store's runs (any {@link RunStore}; the
 * ones that can list them) joined with the records in the runs folder, so a
 * run shows with its status from the store and its model, tools and timing
 * from its record. Records are read asynchronously and bounded in size: a
 * record is hostile text and may be large.
 * @module
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  MAX_SUMMARY_BYTES,
  RunRecorder,
  createRedactor,
  parseRunSummary,
  type RunRecordLine,
  type RunRecordSummary,
  type RunStore,
  type StoredRun,
} from '../../agent/index.js';
import { promptOf, SUMMARY_PREVIEW_CHARS, textOfParts } from '../../agent/run-recorder.js';
import { safeParseJson } from '../../shared/safe-json.js';
import { shownStatus } from './run-liveness.js';

/** A record larger than this is not read (the console says so rather than holding it in memory). */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

export interface RunSummary {
  runId: string;
  /** The store's status when it has the run, else the record's last stop (`running` when it has none yet). */
  status: string;
  model: string | undefined;
  tools: string[];
  costUsd: number | undefined;
  /** Active wall time (waiting for a person not counted). */
  durationMs: number | undefined;
  /** Milliseconds since the epoch: the run's first record line, else when the store first saved it. */
  startedAt: number | undefined;
  updatedAt: number | undefined;
  /** The task (the first user message), a preview; absent when neither the record's summary nor the store holds it. */
  prompt?: string;
  /** A completed run's final answer, a preview. */
  answer?: string;
  /** Why a stopped run stopped, a preview. */
  error?: string;
}

export interface ConsoleSources {
  store: RunStore;
  /** The folder of run records (`$TOOLWRIGHT_HOME/runs` for the CLI). */
  runsDir: string;
}

export type RecordRead = { lines: RunRecordLine[]; path: string } | { missing: true; path: string } | { tooLarge: true; path: string; bytes: number };

/**
 * Where a run's record may be: where the store says it is when that is inside the runs folder, else the runs folder's own
 * path for the run. A stored path elsewhere is never read: whoever can write a shared store could otherwise make the
 * console read and show any file of the operator's.
 */
function recordCandidates(sources: ConsoleSources, runId: string, stored: StoredRun | undefined): string[] {
  const own = RunRecorder.pathFor(sources.runsDir, runId);
  const storedPath = stored?.state.recordPath;
  return typeof storedPath === 'string' && storedPath !== own && isInside(sources.runsDir, storedPath) ? [storedPath, own] : [own];
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Reads a run's record: where the store says it is, else in the runs folder. Lines are redacted again, as `toolwright logs` does. */
export async function readRecord(sources: ConsoleSources, runId: string, stored?: StoredRun): Promise<RecordRead> {
  const candidates = recordCandidates(sources, runId, stored);
  for (const path of candidates) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (info.size > MAX_RECORD_BYTES) return { tooLarge: true, path, bytes: info.size };
    return { lines: await readRecordLines(path), path };
  }
  return { missing: true, path: candidates.at(-1)! };
}

async function readRecordLines(path: string): Promise<RunRecordLine[]> {
  const redact = createRedactor();
  const lines: RunRecordLine[] = [];
  for (const text of (await readFile(path, 'utf8')).split('\n')) {
    if (text.trim() === '') continue;
    const parsed = safeParseJson(text);
    // A torn last line, or a line that is not an event object, is skipped, as readRunRecord does.
    if (parsed.success && isRecordLine(parsed.value)) lines.push(redact(parsed.value) as RunRecordLine);
  }
  return lines;
}

/** Summaries read from records without one (written by an older version), per console: read once per path, size and mtime. */
const summariesOfOldRecords = new WeakMap<ConsoleSources, Map<string, { size: number; mtimeMs: number; summary: RunSummary | undefined }>>();
/** Old records kept summarised per console; beyond this the least recently listed are read again when next listed. */
const MAX_CACHED_SUMMARIES = 1_000;

/**
 * The list entry of a run's record, without reading the record: from the summary the recorder writes beside it at each
 * start and stop. A record without one (an older version's) is read once and its summary cached until its size or mtime
 * changes; one over {@link MAX_RECORD_BYTES} is not read. `undefined` when there is no record or nothing in it to show.
 */
async function summaryOfRecord(sources: ConsoleSources, runId: string, stored: StoredRun | undefined): Promise<RunSummary | undefined> {
  for (const path of recordCandidates(sources, runId, stored)) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    const indexed = await readSummary(RunRecorder.summaryPathFor(path));
    if (indexed) return fromIndex(runId, indexed);
    let cache = summariesOfOldRecords.get(sources);
    if (!cache) summariesOfOldRecords.set(sources, (cache = new Map()));
    const cached = cache.get(path);
    if (cached && cached.size === info.size && cached.mtimeMs === info.mtimeMs) {
      // Listed again: the most recently listed stay.
      cache.delete(path);
      cache.set(path, cached);
      return cached.summary;
    }
    const summary = info.size > MAX_RECORD_BYTES ? undefined : summarize(runId, await readRecordLines(path));
    cache.delete(path);
    cache.set(path, { size: info.size, mtimeMs: info.mtimeMs, summary });
    if (cache.size > MAX_CACHED_SUMMARIES) cache.delete(cache.keys().next().value!);
    return summary;
  }
  return undefined;
}

async function readSummary(path: string): Promise<RunRecordSummary | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_SUMMARY_BYTES) return undefined;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseRunSummary(text);
}

function fromIndex(runId: string, summary: RunRecordSummary): RunSummary {
  const redact = createRedactor();
  const startedAt = Date.parse(summary.startedAt);
  return {
    runId,
    status: summary.status,
    // Redacted again, as record lines are on reading: the file may be older than a redaction rule.
    model: summary.modelId === undefined ? undefined : redact.text(summary.modelId),
    tools: summary.tools.map((tool) => redact.text(tool)),
    costUsd: summary.costUsd,
    durationMs: summary.wallTimeMs,
    startedAt: Number.isFinite(startedAt) ? startedAt : undefined,
    updatedAt: undefined,
    ...previews({ prompt: summary.prompt, answer: summary.answer, error: summary.error }, redact.text),
  };
}

/** The previews that are there, redacted again (the file may be older than a redaction rule). */
function previews(
  values: Pick<RunSummary, 'prompt' | 'answer' | 'error'>,
  redactText: (text: string) => string,
): Pick<RunSummary, 'prompt' | 'answer' | 'error'> {
  const shown: Pick<RunSummary, 'prompt' | 'answer' | 'error'> = {};
  for (const key of ['prompt', 'answer', 'error'] as const) {
    const value = values[key];
    if (typeof value !== 'string') continue;
    // Redacted before it is cut: a secret cut in half would no longer look like one.
    const redacted = redactText(value);
    shown[key] = redacted.length > SUMMARY_PREVIEW_CHARS ? `${redacted.slice(0, SUMMARY_PREVIEW_CHARS)}…` : redacted;
  }
  return shown;
}

/** The most recent runs, newest first: the store's, and those with a record in the runs folder (from each record's summary). */
export async function listRuns(sources: ConsoleSources, limit = 100, now = Date.now()): Promise<RunSummary[]> {
  const byId = new Map<string, RunSummary>();
  const storedRuns = (await sources.store.listRuns?.({ limit })) ?? [];
  const storedById = new Map(storedRuns.map((run) => [run.runId, run]));
  for (const run of storedRuns) byId.set(run.runId, fromStored(run));
  const records = await recentRecords(sources.runsDir, limit);
  const recordWrites = new Map(records.map((record) => [record.runId, record.mtimeMs]));
  const summaries = await inBatches(records, (record) => summaryOfRecord(sources, record.runId, storedById.get(record.runId)));
  for (const [index, record] of records.entries()) {
    const fromRecord = summaries[index];
    const existing = byId.get(record.runId);
    if (!fromRecord) {
      if (!existing) byId.set(record.runId, { ...empty(record.runId), updatedAt: record.mtimeMs });
      continue;
    }
    byId.set(
      record.runId,
      existing
        ? {
            ...fromRecord,
            status: existing.status,
            costUsd: existing.costUsd ?? fromRecord.costUsd,
            updatedAt: existing.updatedAt,
            // The record's previews are redacted and cut already; the store's fill in what an older record's summary lacks.
            ...previews(
              { prompt: fromRecord.prompt ?? existing.prompt, answer: fromRecord.answer ?? existing.answer, error: fromRecord.error ?? existing.error },
              (text) => text,
            ),
          }
        : { ...fromRecord, updatedAt: record.mtimeMs },
    );
  }
  for (const summary of byId.values()) {
    const stored = storedById.get(summary.runId);
    const lastWriteAt = Math.max(stored?.updatedAt ?? -Infinity, recordWrites.get(summary.runId) ?? -Infinity);
    summary.status = shownStatus(
      {
        status: summary.status,
        lease: stored?.lease,
        lastWriteAt: Number.isFinite(lastWriteAt) ? lastWriteAt : undefined,
        session: summary.model?.startsWith('mcp-client:') === true,
      },
      now,
    );
  }
  return [...byId.values()].sort((a, b) => (b.startedAt ?? b.updatedAt ?? 0) - (a.startedAt ?? a.updatedAt ?? 0)).slice(0, limit);
}

/** Summaries read this many at a time, so the file reads overlap (1,000 runs on a 2-core machine: 0.4–0.5 s one by one, 0.15–0.3 s in batches). */
const READ_BATCH = 32;

async function inBatches<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += READ_BATCH) results.push(...(await Promise.all(items.slice(start, start + READ_BATCH).map(read))));
  return results;
}

/** A run's summary from its record lines. */
export function summarize(runId: string, lines: readonly RunRecordLine[]): RunSummary {
  const summary = empty(runId);
  summary.status = 'running';
  let lastText: string | undefined;
  for (const line of lines) {
    const time = Date.parse(line.time);
    if (summary.startedAt === undefined && Number.isFinite(time)) summary.startedAt = time;
    // The record is toolwright's own, but a file on disk: a line of the wrong shape is passed over rather than failing the list.
    if (line.type === 'model_request') {
      summary.prompt ??= promptOf(line.messages);
    } else if (line.type === 'model_response') {
      lastText = responseTextOf(line.response);
    } else if (line.type === 'run_started') {
      if (typeof line.modelId === 'string') summary.model ??= line.modelId;
      if (Array.isArray(line.tools)) for (const tool of line.tools) if (typeof tool === 'string' && !summary.tools.includes(tool)) summary.tools.push(tool);
    } else if (line.type === 'stop' && typeof line.status === 'string') {
      summary.status = line.status;
      summary.costUsd = typeof line.costUsd === 'number' ? line.costUsd : undefined;
      summary.durationMs = typeof line.usage?.wallTimeMs === 'number' ? line.usage.wallTimeMs : undefined;
      const answer = line.output !== undefined ? JSON.stringify(line.output) : lastText;
      summary.answer = line.status === 'completed' ? answer : undefined;
      summary.error = line.status === 'stopped' && typeof line.stopReason?.message === 'string' ? line.stopReason.message : undefined;
    }
  }
  return { ...summary, ...previews(summary, (text) => text) };
}

function responseTextOf(response: unknown): string | undefined {
  const content = (response as { content?: unknown } | null | undefined)?.content;
  return Array.isArray(content) ? textOfParts(content) : undefined;
}

function fromStored(run: StoredRun): RunSummary {
  const tools = [...new Set(run.state.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)))];
  return {
    runId: run.runId,
    status: run.status,
    model: run.state.modelId,
    tools,
    costUsd: run.state.costUsd,
    durationMs: run.state.usage.wallTimeMs,
    startedAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...previews(fromState(run), createRedactor().text),
  };
}

/** A stored run's task, and its answer or error once it ended. */
function fromState(run: StoredRun): Pick<RunSummary, 'prompt' | 'answer' | 'error'> {
  const values: Pick<RunSummary, 'prompt' | 'answer' | 'error'> = {};
  const prompt = promptOf(run.state.messages);
  if (prompt !== undefined) values.prompt = prompt;
  const last = run.state.messages.at(-1);
  if (run.status === 'completed' && last?.role === 'assistant') {
    const answer = responseTextOf(last);
    if (answer !== undefined) values.answer = answer;
  }
  return values;
}

function empty(runId: string): RunSummary {
  return { runId, status: 'unknown', model: undefined, tools: [], costUsd: undefined, durationMs: undefined, startedAt: undefined, updatedAt: undefined };
}

async function recentRecords(folder: string, limit: number): Promise<{ runId: string; mtimeMs: number }[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const found: { runId: string; mtimeMs: number }[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const info = await stat(join(folder, name)).catch(() => undefined);
    if (info?.isFile()) found.push({ runId: name.slice(0, -'.jsonl'.length), mtimeMs: info.mtimeMs });
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, limit);
}

function isRecordLine(value: unknown): value is RunRecordLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  return typeof line.type === 'string' && typeof line.time === 'string';
}
