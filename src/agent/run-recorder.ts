/**
 * Writes a run's record: one JSON event per line, appended synchronously so
 * that the record survives a crash up to the last event, with secrets redacted
 * before anything touches the disk. A Node feature (Node, Bun, Deno): where the runtime has no
 * file system, naming a record directory throws, and a run records nothing unless asked.
 * @module
 */
import { nodeFileSystem } from '../shared/node-file-system.js';
import { withoutEncryptedReasoning } from '../formats/reasoning-parts.js';
import { safeParseJson } from '../shared/safe-json.js';
import type { Redactor } from './redact.js';
import type { RunEvent, RunRecordLine } from './run-event.js';

/**
 * A run's index entry, `<runId>.summary.json` beside its record, written when the run starts or resumes and at each stop:
 * what a list of runs shows, without reading the record. Its fields are what the record's lines say (the model and tools
 * of its `run_started` lines, the last `stop`'s status, cost and active time), redacted as the record is.
 */
export interface RunRecordSummary {
  version: 1;
  runId: string;
  /** The last stop's status, or `running` after a start or resume with no stop yet. */
  status: string;
  modelId?: string;
  /** Every tool offered, over the start and each resume. */
  tools: string[];
  costUsd?: number;
  /** Active wall time at the last stop (waiting for a person not counted). */
  wallTimeMs?: number;
  /** The time of the record's first line (ISO). */
  startedAt: string;
  /** The time of the line that last changed the summary (ISO). */
  updatedAt: string;
  /** The task: the text of the first user message the model was sent, cut to {@link SUMMARY_PREVIEW_CHARS}. */
  prompt?: string;
  /** At a completed stop: the final answer (the validated output as JSON, else the last response's text), cut likewise. */
  answer?: string;
  /** At a stopped stop: why it stopped (the stop reason's message), cut likewise. */
  error?: string;
}

/** The prompt, answer and error in a summary are previews: a list shows a line of each, the record holds them whole. */
export const SUMMARY_PREVIEW_CHARS = 500;

/** A summary file larger than this is no summary of ours: it is not read. */
export const MAX_SUMMARY_BYTES = 256 * 1024;

export class RunRecorder {
  /** The record file, or `undefined` when recording is off. */
  readonly path: string | undefined;
  readonly #runId: string;
  readonly #redact: Redactor;
  #fd: number | undefined;
  /** The summary kept up to date, or `undefined` for a record begun by a version that wrote none (its summary would miss the start). */
  #summary: RunRecordSummary | undefined;
  /** The text of the last model response, kept for the summary's answer at the stop. */
  #lastResponseText: string | undefined;
  /** Whether a request of this recorder was looked at for the task (once is enough: it is the first user message). */
  #promptSought = false;

  constructor(runId: string, path: string | undefined, redact: Redactor) {
    this.#runId = runId;
    this.path = path;
    this.#redact = redact;
  }

  /** The record path of a run in a folder. */
  static pathFor(folder: string, runId: string): string {
    return recordFiles().path.join(folder, `${runId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);
  }

  /** Where the summary of the record at `recordPath` is kept. */
  static summaryPathFor(recordPath: string): string {
    return `${recordPath.endsWith('.jsonl') ? recordPath.slice(0, -'.jsonl'.length) : recordPath}.summary.json`;
  }

  write(event: RunEvent): void {
    if (this.path === undefined) return;
    const time = new Date().toISOString();
    if (this.#fd === undefined) {
      const { fs, path } = recordFiles();
      fs.mkdirSync(path.join(this.path, '..'), { recursive: true, mode: 0o700 });
      // Records hold whole conversations: readable by their owner only.
      this.#fd = fs.openSync(this.path, 'a', 0o600);
      // A new record starts a summary; a continued one goes on from its summary (none when an older version began it).
      this.#summary =
        fs.fstatSync(this.#fd).size === 0
          ? { version: 1, runId: this.#runId, status: 'running', tools: [], startedAt: time, updatedAt: time }
          : readRunSummary(RunRecorder.summaryPathFor(this.path));
    }
    // Encrypted reasoning is the provider's to read: the record keeps its length, the run state (the store) the payload to replay.
    const line = this.#redact(withoutEncryptedReasoning({ time, runId: this.#runId, ...event }));
    recordFiles().fs.writeSync(this.#fd, `${JSON.stringify(line, replacer)}\n`);
    if (event.type === 'model_response') this.#lastResponseText = responseText(line as RunRecordLine);
    // The prompt is written once, at the first request: one more write per run, not one per step.
    const firstRequest = event.type === 'model_request' && !this.#promptSought && this.#summary !== undefined && this.#summary.prompt === undefined;
    if (event.type === 'model_request') this.#promptSought = true;
    if (event.type === 'run_started' || event.type === 'stop' || firstRequest) this.#updateSummary(line as RunRecordLine);
  }

  /** Folds a start or a stop into the summary and writes it whole (to a temporary file, then renamed, so a reader never sees half). */
  #updateSummary(line: RunRecordLine): void {
    const summary = this.#summary;
    if (!summary || this.path === undefined) return;
    summary.updatedAt = line.time;
    if (line.type === 'run_started') {
      summary.status = 'running';
      summary.modelId ??= line.modelId;
      for (const tool of line.tools) if (!summary.tools.includes(tool)) summary.tools.push(tool);
    } else if (line.type === 'model_request') {
      const prompt = promptOf(line.messages);
      if (prompt !== undefined) summary.prompt = preview(prompt);
    } else if (line.type === 'stop') {
      summary.status = line.status;
      summary.costUsd = line.costUsd;
      summary.wallTimeMs = line.usage.wallTimeMs;
      delete summary.answer;
      delete summary.error;
      const answer = line.output !== undefined ? JSON.stringify(line.output, replacer) : this.#lastResponseText;
      if (line.status === 'completed' && answer !== undefined) summary.answer = preview(answer);
      if (line.status === 'stopped' && line.stopReason) summary.error = preview(line.stopReason.message);
    }
    const path = RunRecorder.summaryPathFor(this.path);
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      const { fs } = recordFiles();
      fs.writeFileSync(temporary, JSON.stringify(summary), { mode: 0o600 });
      fs.renameSync(temporary, path);
    } catch {
      // The summary is an index: without it a list reads the record instead. The record itself was written.
    }
  }

  close(): void {
    if (this.#fd !== undefined) recordFiles().fs.closeSync(this.#fd);
    this.#fd = undefined;
  }
}

function recordFiles(): ReturnType<typeof nodeFileSystem> {
  return nodeFileSystem('A run record (`recordDir`)', 'Leave `recordDir` unset and follow the run through `onEvent` or `streamAgent`.');
}

/** Reads a JSONL record; a line that does not parse (a torn last write) is skipped. */
export function readRunRecord(path: string): RunRecordLine[] {
  const lines: RunRecordLine[] = [];
  for (const text of recordFiles().fs.readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    const parsed = safeParseJson(text);
    if (parsed.success) lines.push(parsed.value as RunRecordLine);
  }
  return lines;
}

/** A record's summary file, or `undefined` when there is none or it is not one (a list then reads the record). */
export function readRunSummary(path: string): RunRecordSummary | undefined {
  let text: string;
  try {
    text = recordFiles().fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return parseRunSummary(text);
}

/** A summary file's text as a summary, checked field by field: the file is on disk, and anything may have written it. */
export function parseRunSummary(text: string): RunRecordSummary | undefined {
  if (text.length > MAX_SUMMARY_BYTES) return undefined;
  const parsed = safeParseJson(text);
  if (!parsed.success || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return undefined;
  const value = parsed.value as Record<string, unknown>;
  const { runId, status, modelId, tools, costUsd, wallTimeMs, startedAt, updatedAt, prompt, answer, error } = value;
  if (value.version !== 1 || typeof runId !== 'string' || typeof status !== 'string' || typeof startedAt !== 'string' || typeof updatedAt !== 'string')
    return undefined;
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === 'string')) return undefined;
  const summary: RunRecordSummary = { version: 1, runId, status, tools: [...(tools as string[])], startedAt, updatedAt };
  if (typeof modelId === 'string') summary.modelId = modelId;
  if (typeof costUsd === 'number') summary.costUsd = costUsd;
  if (typeof wallTimeMs === 'number') summary.wallTimeMs = wallTimeMs;
  // Taken as they are (the file is at most MAX_SUMMARY_BYTES): a reader that redacts them again cuts them after.
  if (typeof prompt === 'string') summary.prompt = prompt;
  if (typeof answer === 'string') summary.answer = answer;
  if (typeof error === 'string') summary.error = error;
  return summary;
}

/** The task of a conversation: the text of its first user message, or `undefined` when it has none. */
export function promptOf(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  const first = messages.find((message: unknown) => (message as { role?: unknown } | null)?.role === 'user') as { content?: unknown } | undefined;
  if (!first) return undefined;
  if (typeof first.content === 'string') return first.content;
  if (!Array.isArray(first.content)) return undefined;
  return textOfParts(first.content);
}

/** The text parts of a content list (a message's or a response's), joined; `undefined` when there are none. */
export function textOfParts(parts: readonly unknown[]): string | undefined {
  const texts = parts.flatMap((part) => {
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
    return type === 'text' && typeof text === 'string' ? [text] : [];
  });
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function responseText(line: RunRecordLine): string | undefined {
  return line.type === 'model_response' && Array.isArray(line.response?.content) ? textOfParts(line.response.content) : undefined;
}

function preview(text: string): string {
  return text.length > SUMMARY_PREVIEW_CHARS ? `${text.slice(0, SUMMARY_PREVIEW_CHARS)}…` : text;
}

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
