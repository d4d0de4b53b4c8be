/**
 * Runs for the run list, written as the recorder writes them (a JSONL record and its `<runId>.summary.json`) with fixed
 * times and texts, so that the list, its search, filters and pages, and the screenshots in docs/ come out the same on
 * every machine.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecordSummary } from '../../src/agent/index.js';

/** The first listed run's start; each next one starts 7 minutes earlier. */
export const LISTED_FROM = Date.parse('2026-03-02T09:00:00Z');

export interface ListedRun {
  runId: string;
  prompt: string;
  status: 'completed' | 'stopped' | 'running';
  answer?: string;
  error?: string;
  model: string;
  tools: string[];
  costUsd?: number;
  wallTimeMs?: number;
  startedAt: number;
}

const TASKS: { prompt: string; answer?: string; error?: string; tools: string[] }[] = [
  {
    prompt: 'Find the refund policy for annual plans and quote the paragraph on pro-rating.',
    answer: 'Annual plans are refunded pro rata for the unused months: "A customer who cancels…"',
    tools: ['search_docs'],
  },
  {
    prompt: 'What does invoice INV-2041 still owe?\nThe customer says they paid half already.',
    answer: 'INV-2041: $120 of $240 is still due.',
    tools: ['get_invoice'],
  },
  {
    prompt: 'Email acme the summary of ticket 7731.',
    error: 'The run reached its limit of 8 model calls before the model finished.',
    tools: ['get_ticket', 'send_email'],
  },
  {
    prompt: 'List the three oldest open tickets for the on-call engineer.',
    answer: '#7702 (12 days), #7715 (9 days), #7731 (6 days).',
    tools: ['search_tickets'],
  },
  { prompt: 'Refund the duplicate charge on INV-2077.', answer: 'Refunded $35 on INV-2077 (approved by a person).', tools: ['get_invoice', 'refund'] },
];
const MODELS = ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5', 'local:qwen3-0.6b-q8_0.gguf'];

/** `count` finished runs, newest first, cycling through a few tasks and models. */
export function listedRuns(count: number): ListedRun[] {
  return Array.from({ length: count }, (_, index) => {
    const task = TASKS[index % TASKS.length]!;
    const model = MODELS[index % MODELS.length]!;
    return {
      runId: `run_list_${String(index + 1).padStart(3, '0')}`,
      prompt: task.prompt,
      status: task.error !== undefined ? 'stopped' : 'completed',
      ...(task.answer !== undefined ? { answer: task.answer } : {}),
      ...(task.error !== undefined ? { error: task.error } : {}),
      model,
      tools: task.tools,
      // A local model has no price: it records $0, which the list must show as unknown.
      costUsd: model.startsWith('local:') ? 0 : 0.0012 + index / 10_000,
      wallTimeMs: 1_800 + index * 130,
      startedAt: LISTED_FROM - index * 7 * 60_000,
    } satisfies ListedRun;
  });
}

/**
 * Writes a run's record and summary. A run left `running` gets no stop line; `lastWriteAt` sets the record's mtime (a
 * run whose process died long ago stops changing its record).
 */
export function writeListedRun(runsDir: string, run: ListedRun, lastWriteAt?: number): void {
  const time = (offset: number) => new Date(run.startedAt + offset).toISOString();
  const lines: object[] = [
    { time: time(0), runId: run.runId, type: 'run_started', modelId: run.model, tools: run.tools, limits: {}, resumed: false },
    {
      time: time(10),
      runId: run.runId,
      type: 'model_request',
      step: 0,
      messages: [{ role: 'user', content: run.prompt }],
      tools: run.tools,
      toolChoice: 'auto',
      maxOutputTokens: undefined,
      estimatedInputTokens: 40,
    },
  ];
  if (run.status !== 'running') {
    lines.push({
      time: time(run.wallTimeMs ?? 1000),
      runId: run.runId,
      type: 'stop',
      status: run.status,
      ...(run.error !== undefined ? { stopReason: { kind: 'max_iterations', limit: 8, message: run.error } } : {}),
      usage: { wallTimeMs: run.wallTimeMs ?? 1000, modelCalls: 2, toolCalls: run.tools.length, inputTokens: 900, outputTokens: 120 },
      costUsd: run.costUsd ?? 0,
    });
  }
  const path = join(runsDir, `${run.runId}.jsonl`);
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const summary: RunRecordSummary = {
    version: 1,
    runId: run.runId,
    status: run.status,
    modelId: run.model,
    tools: run.tools,
    startedAt: time(0),
    updatedAt: time(run.wallTimeMs ?? 1000),
    prompt: run.prompt,
    ...(run.status !== 'running' ? { costUsd: run.costUsd ?? 0, wallTimeMs: run.wallTimeMs ?? 1000 } : {}),
    ...(run.answer !== undefined ? { answer: run.answer } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
  };
  writeFileSync(join(runsDir, `${run.runId}.summary.json`), JSON.stringify(summary));
  if (lastWriteAt !== undefined) utimesSync(path, lastWriteAt / 1000, lastWriteAt / 1000);
}
