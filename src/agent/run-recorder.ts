/**
 * Writes a run's record: one JSON event per line, appended synchronously so
 * that the record survives a crash up to the last event, with secrets redacted
 * before anything touches the disk.
 * @module
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseJson } from '../shared/safe-json.js';
import type { Redactor } from './redact.js';
import type { RunEvent, RunRecordLine } from './run-event.js';

export class RunRecorder {
  /** The record file, or `undefined` when recording is off. */
  readonly path: string | undefined;
  readonly #runId: string;
  readonly #redact: Redactor;
  #fd: number | undefined;

  constructor(runId: string, path: string | undefined, redact: Redactor) {
    this.#runId = runId;
    this.path = path;
    this.#redact = redact;
  }

  /** The record path of a run in a folder. */
  static pathFor(folder: string, runId: string): string {
    return join(folder, `${runId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);
  }

  write(event: RunEvent): void {
    if (this.path === undefined) return;
    if (this.#fd === undefined) {
      mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
      // Records hold whole conversations: readable by their owner only.
      this.#fd = openSync(this.path, 'a', 0o600);
    }
    const line = this.#redact({ time: new Date().toISOString(), runId: this.#runId, ...event });
    writeSync(this.#fd, `${JSON.stringify(line, replacer)}\n`);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** Reads a JSONL record; a line that does not parse (a torn last write) is skipped. */
export function readRunRecord(path: string): RunRecordLine[] {
  const lines: RunRecordLine[] = [];
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    const parsed = safeParseJson(text);
    if (parsed.success) lines.push(parsed.value as RunRecordLine);
  }
  return lines;
}

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
