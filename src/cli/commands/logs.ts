/**
 * `toolwright logs <runId>`: prints a run's record as a timeline (or the raw
 * JSONL with `--json`).
 * @module
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { RunRecorder, createRedactor, defaultRunsDir, defaultStatePath, findPrice, readRunRecord, type RunRecordLine } from '../../agent/index.js';
import { STORE_OPTION_HELP, openCliRunStore, postgresUrlOf } from '../cli-run-store.js';
import { missingPackages, storePackages, type RequiredPackage } from '../required-packages.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { escapeInvisibleInJson, showInvisible } from '../../shared/visible-text.js';
import { formatEvent, terminalIo, type AgentCliIo } from './run.js';

export interface LogsOptions {
  /** The folder of run records. */
  runs?: string;
  /** The SQLite file of pending runs (to find the record of a run that was paused). */
  state?: string;
  /** A PostgreSQL run store (`postgres://…`); default `TOOLWRIGHT_DATABASE_URL`. */
  store?: string;
  json?: boolean;
}

/** Finds a run's record: where the store says, else in the runs folder. */
export async function findRecord(runId: string, options: LogsOptions): Promise<string> {
  const inFolder = RunRecorder.pathFor(options.runs ?? defaultRunsDir(), runId);
  if (existsSync(inFolder)) return inFolder;
  const [driver] = missingPackages(storePackages(options));
  if (driver !== undefined) throw new InvalidArgumentError(noStoreToSearch(runId, options, driver));
  const store = await openCliRunStore(options);
  try {
    const stored = await store.loadRun(runId);
    const path = stored?.state.recordPath;
    if (path !== undefined && existsSync(path)) return path;
  } finally {
    await store.close();
  }
  throw new InvalidArgumentError(`No record for run "${runId}" in ${options.runs ?? defaultRunsDir()}. Pass --runs with the folder the run wrote to.`);
}

/**
 * "No such run" when the store's driver is not installed: with no driver, nothing can have stored a run in a SQLite
 * file that does not exist; a file that exists (or a PostgreSQL store) may hold runs, and then the driver is what the
 * user needs to read them.
 */
function noStoreToSearch(runId: string, options: LogsOptions, driver: RequiredPackage): string {
  const postgres = postgresUrlOf(options) !== undefined;
  const state = options.state ?? defaultStatePath();
  const where = `No record for run "${runId}" in ${options.runs ?? defaultRunsDir()}`;
  if (!postgres && !existsSync(state)) {
    return `${where}, and no run store at ${state} (${driver.name} is not installed, so no run was stored there). Pass --runs with the folder the run wrote to.`;
  }
  return `${where}. To look in ${driver.neededFor} as well, install its driver: npm i ${driver.name}. Or pass --runs with the folder the run wrote to.`;
}

export async function printLogs(runId: string, options: LogsOptions, io: AgentCliIo): Promise<RunRecordLine[]> {
  // Records are redacted when written; redacting again covers records an older version wrote, and costs one walk.
  const redact = createRedactor();
  const lines = readRunRecord(await findRecord(runId, options)).map((line) => redact(line) as RunRecordLine);
  if (options.json) {
    for (const line of lines) io.out(`${escapeInvisibleInJson(JSON.stringify(line))}\n`);
    return lines;
  }
  // The record keeps no price table: a model the built-in table lacks shows "price unknown", not $0.
  let priceKnown = true;
  for (const line of lines) {
    if (line.type === 'run_started') priceKnown = findPrice(line.modelId) !== undefined;
    const text = formatLine(line, priceKnown);
    if (text !== undefined) io.out(`${line.time.slice(11, 23)}  ${showInvisible(text).replace(/\n/g, '\n              ')}\n`);
  }
  return lines;
}

function formatLine(line: RunRecordLine, priceKnown: boolean): string | undefined {
  switch (line.type) {
    case 'run_started':
      return `${line.resumed ? 'resumed' : 'started'} run ${line.runId} with ${line.modelId} (${line.tools.length} tools)`;
    case 'model_request':
      return `model call ${line.step}: ${line.messages.length} messages, ${line.tools.length} tools, ~${line.estimatedInputTokens} input tokens${line.maxOutputTokens !== undefined ? `, cap ${line.maxOutputTokens} output tokens` : ''}`;
    case 'model_response':
      return (
        formatEvent(line) ??
        `model answered (${line.response.stopReason}), ${line.response.usage.inputTokens} in / ${line.response.usage.outputTokens} out tokens`
      );
    case 'tool_call':
      return undefined;
    case 'confirmation_requested':
      return line.pending.map((item) => `waiting for confirmation ${item.approvalId}: ${item.summary}`).join('\n');
    case 'stop':
      return `${line.status}${line.stopReason ? ` (${line.stopReason.kind}: ${line.stopReason.message})` : ''} · ${line.usage.modelCalls} model calls · ${line.usage.toolCalls} tool calls · ${line.usage.inputTokens} in / ${line.usage.outputTokens} out tokens · ${priceKnown ? `$${line.costUsd.toFixed(4)}` : 'price unknown'}`;
    default:
      return formatEvent(line)?.trim();
  }
}

export function registerLogsCommand(program: Command): void {
  program
    .command('logs')
    .description("Print a run's record: every model call, tool call, confirmation and the stop.")
    .argument('<runId>', 'the run id')
    .option('--runs <folder>', 'the folder of run records (default $TOOLWRIGHT_HOME/runs)')
    .option('--state <file>', 'the SQLite file of pending runs')
    .option('--store <url>', STORE_OPTION_HELP)
    .option('--json', 'print the raw JSONL events')
    .action(async (runId: string, options: LogsOptions) => {
      await printLogs(runId, options, terminalIo());
    });
}
