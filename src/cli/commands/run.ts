/**
 * `toolwright run --model <spec> --tools <module> "<task>"`: runs the agent
 * loop (`streamAgent`) and prints each step as it happens, the answer token by
 * token (redacted like the record, so held back a few words). A call that needs confirmation is
 * asked in the terminal, or left pending with `--no-interactive` (approve it
 * later with `toolwright approvals`, continue with `toolwright resume`).
 * Exit codes: 0 completed or left pending, 1 stopped by a guard, 2 bad input.
 * @module
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import {
  resumeAgent,
  resumeAgentStream,
  runRedactor,
  SELECT_CATEGORY_TOOL,
  streamAgent,
  type AgentLimits,
  type AgentResult,
  type AgentRuntimeOptions,
  type AgentStreamEvent,
  type ConfirmationDecision,
  type PendingConfirmation,
  type RunEvent,
  type RunStore,
} from '../../agent/index.js';
import { DEFAULT_PRICES, findPrice } from '../../agent/price-table.js';
import { defaultRunsDir, defaultStatePath } from '../../agent/toolwright-home.js';
import { createModel } from '../../models/create-model.js';
import { DEFAULT_RETRY } from '../../models/retry/call-with-retries.js';
import { StatusLine, useColor } from '../status-line.js';
import { STORE_OPTION_HELP, openCliRunStore, postgresUrlOf } from '../cli-run-store.js';
import { resultText } from '../../formats/content-as-text.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/own.js';
import type { Redactor } from '../../shared/redaction/index.js';
import { escapeInvisibleInJson, showInvisible } from '../../shared/visible-text.js';
import { argumentLines, describeArguments } from '../../tools/call-summary.js';
import type { ImportedMcpTools } from '../../mcp/index.js';
import { loadMcpModule } from '../load-mcp.js';
import { loadToolModule } from '../load-tool-module.js';
import { RunEndingRecorder, SIGNAL_EXIT_CODES, runInterruptibly } from '../run-ending.js';
import { toolModuleFrom } from '../tool-module-argument.js';
import { wholeNumberOption, type WholeNumberRange } from '../number-option.js';
import { mcpPackages, modelPackages, requirePackages, storePackages } from '../required-packages.js';

/** Where the agent commands write, and how they ask a person. */
export interface AgentCliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Asks a question and resolves to the answer; absent when no terminal is attached. */
  ask?: (question: string) => Promise<string>;
  /** `err` is a terminal: the status line is redrawn in place there. Default `false`: a plain line per retry. */
  errIsTTY?: boolean;
  /** Colour what goes to `err` (a terminal, `NO_COLOR` unset). Default `false`. */
  color?: boolean;
}

/** The terminal: stdout, stderr, and questions on stdin when it is a TTY. */
export function terminalIo(): AgentCliIo {
  const io: AgentCliIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    errIsTTY: process.stderr.isTTY === true,
    color: useColor(process.stderr.isTTY),
  };
  if (process.stdin.isTTY) {
    io.ask = async (question) => {
      const prompt = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await prompt.question(question);
      } finally {
        prompt.close();
      }
    };
  }
  return io;
}

/** What the CLI keeps with a run so that `resume` and `approvals approve --resume` can rebuild it. */
export interface RunMeta {
  modelSpec: string;
  /** The absolute path (or package name) of the tool module; empty when every tool comes from MCP servers. */
  toolsModule: string;
  /** MCP servers (a command line or a URL) whose tools join the run. */
  mcp?: string[];
  baseURL?: string;
  route?: boolean;
}

/** Options shared by `run` and `resume`. */
export interface AgentCommandOptions {
  /** `provider:model`. */
  model?: string;
  /** The tool module. */
  tools?: string;
  baseUrl?: string;
  /** The SQLite file of pending runs. */
  state?: string;
  /** A PostgreSQL run store (`postgres://…`); default `TOOLWRIGHT_DATABASE_URL`. */
  store?: string;
  /** The folder of run records. */
  runs?: string;
  /** `false` with `--no-record`. */
  record?: boolean;
  /** `false` with `--no-interactive`. */
  interactive?: boolean;
  json?: boolean;
  maxIterations?: string;
  maxCost?: string;
  maxToolCalls?: string;
  maxTokens?: string;
  timeout?: string;
  /** Retries of a failed provider request (429, 5xx, connection, timeout); default 2. */
  maxRetries?: string;
  /** Resolve the tool module from here. Default: `process.cwd()`. */
  cwd?: string;
  /** MCP servers whose tools join the run: commands to spawn (stdio) or `http(s)://` URLs. */
  mcp?: string[];
  /** Aborts the run (SIGINT, SIGTERM): it stops and records a stop of kind `aborted`. */
  signal?: AbortSignal;
  /** Given the function that records the run's stop before the process exits on a second signal. */
  onHardExit?: (recordStop: (signal: string) => void) => void;
}

export interface RunCommandOptions extends AgentCommandOptions {
  system?: string;
  route?: boolean;
}

/** Runs a task from the command line; resolves to the final result (after any confirmations asked in the terminal). */
export async function runRunCommand(task: string, options: RunCommandOptions, io: AgentCliIo): Promise<AgentResult> {
  if (options.model === undefined) throw new InvalidArgumentError('--model is required, e.g. --model openai:gpt-4o-mini.');
  if (options.tools === undefined && (options.mcp ?? []).length === 0) {
    throw new InvalidArgumentError(
      'toolwright run needs the module that exports the tools, before the task or with --tools: toolwright run --model … ./tools.ts "…" (or --tools ./tools.ts), unless --mcp names a server whose tools to use.',
    );
  }
  if (typeof task !== 'string' || task.trim() === '')
    throw new InvalidArgumentError('Give the task as the last argument, in quotes: toolwright run --model … --tools … "Refund invoice inv_000102".');
  const meta: RunMeta = { modelSpec: options.model, toolsModule: options.tools ?? '' };
  if ((options.mcp ?? []).length > 0) meta.mcp = [...options.mcp!];
  if (options.baseUrl !== undefined) meta.baseURL = options.baseUrl;
  if (options.route) meta.route = true;
  checkAgentCommand('run', options);
  const runtime = await buildRuntime(meta, options, io);
  try {
    meta.toolsModule = runtime.toolsModule;
    // The answer prints as it streams; one reader prints every step, in order (onEvent stays with the resumed runs of settle).
    const run = streamAgent({
      ...runtime.options,
      onEvent: undefined,
      prompt: task,
      ...(options.system !== undefined ? { system: options.system } : {}),
      meta: { ...meta },
    });
    return await recordingItsEnd(run.runId, runtime, options, async (ending) => {
      for await (const event of run.redacted()) {
        ending.saw(event);
        runtime.printStream(event);
      }
      return settle(await run.result, runtime.options, options, io, (event) => {
        ending.saw(event);
        runtime.printStream(event);
      });
    });
  } finally {
    await runtime.close();
  }
}

/**
 * Runs `body` (which feeds the run's events to the recorder) so that the run's record ends with a stop even when an
 * error escapes the loop or a second signal ends the process (src/cli/run-ending.ts).
 */
export async function recordingItsEnd(
  runId: string,
  runtime: { options: AgentRuntimeOptions },
  options: AgentCommandOptions,
  body: (ending: RunEndingRecorder) => Promise<AgentResult>,
): Promise<AgentResult> {
  const ending = new RunEndingRecorder(runId, runtime.options.recordDir, runRedactor(runtime.options));
  const hardExit = (signal: string) => ending.ended(`The process was interrupted (${signal} twice) before the run could stop.`);
  options.onHardExit?.(hardExit);
  try {
    return await body(ending);
  } catch (error) {
    ending.ended(`The run ended on an error: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/** The model, tools and runtime options for a run, from its meta and the command-line options. */
export async function buildRuntime(
  meta: RunMeta,
  options: AgentCommandOptions,
  io: AgentCliIo,
): Promise<{ options: AgentRuntimeOptions; toolsModule: string; printStream: (event: AgentStreamEvent) => void; close: () => Promise<void> }> {
  const limits = parseLimits(options);
  const maxRetries = wholeNumber(options.maxRetries, '--max-retries');
  const status = new StatusLine({
    stream: { write: (text) => io.err(text) },
    isTTY: io.errIsTTY === true,
    color: io.color === true,
    maxRetries: maxRetries ?? DEFAULT_RETRY.maxRetries,
  });
  const loaded =
    meta.toolsModule === ''
      ? { tools: [], categories: undefined, source: '' }
      : await loadToolModule(meta.toolsModule, options.cwd !== undefined ? { cwd: options.cwd } : {});
  const model = createModel(meta.modelSpec, {
    ...(meta.baseURL !== undefined ? { baseURL: meta.baseURL } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    onRetry: (event) => status.retrying(event),
  });
  // Remote MCP tools join the run as ordinary registry entries: validated locally, under the same guards and confirmations.
  const imported: ImportedMcpTools[] = [];
  const close = async () => {
    await Promise.all(imported.map((connection) => connection.close().catch(() => {})));
  };
  try {
    for (const server of meta.mcp ?? []) {
      const { importMcpTools } = await loadMcpModule('--mcp (importing tools from an MCP server)');
      const connection = await importMcpTools({ server });
      imported.push(connection);
      for (const warning of connection.warnings) io.err(`warning (${server}): ${warning.tool}: ${warning.details}\n`);
    }
  } catch (error) {
    await close();
    throw error;
  }
  const runtime: AgentRuntimeOptions = {
    model,
    tools: [...loaded.tools, ...imported.flatMap((connection) => connection.tools)],
    limits,
    // The CLI keeps its state under $TOOLWRIGHT_HOME, named here because a library run keeps none on disk by default.
    recordDir: options.record === false ? false : (options.runs ?? defaultRunsDir()),
    logger: { error: () => {} },
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
  const postgresUrl = postgresUrlOf(options);
  let store: RunStore | undefined;
  if (postgresUrl !== undefined) {
    try {
      store = runtime.store = await openCliRunStore(options);
    } catch (error) {
      await close();
      throw error;
    }
  } else {
    runtime.statePath = options.state ?? defaultStatePath();
  }
  // The module's map names each category's tools, which need no `category` field of their own.
  if (meta.route) runtime.routing = { categories: loaded.categories ?? [...new Set(loaded.tools.flatMap((tool) => (tool.category ? [tool.category] : [])))] };
  // The terminal gets what the record gets: events redacted, the tools' schemas included.
  const redact = runRedactor(runtime);
  runtime.onEvent = (event) => {
    // The status line (stderr) shows each wait for the model, in --json mode too; stdout gets the steps only without --json.
    if (event.type === 'model_request') status.modelCallStarted(meta.modelSpec);
    else if (event.type === 'model_response' || event.type === 'model_error') status.modelCallEnded();
    if (options.json) return;
    const line = formatEvent(redact(event) as RunEvent);
    if (line !== undefined) io.out(`${showInvisible(line)}\n`);
  };
  return {
    options: runtime,
    toolsModule: loaded.source,
    printStream: streamPrinter(io, status, meta.modelSpec, options.json === true),
    close: async () => {
      status.modelCallEnded();
      await close();
      await store?.close();
    },
  };
}

/**
 * Prints a streamed run's (redacted) events as they come: the answer token by token after `assistant: `, each call and
 * result on a line of its own, the status line while the model is silent. With `--json`, stdout gets nothing here
 * (the JSON result comes at the end) and only the status line shows.
 */
function streamPrinter(io: AgentCliIo, status: StatusLine, label: string, json: boolean): (event: AgentStreamEvent) => void {
  /** The step whose answer line is open, and whether the last text printed ended its line. */
  let open: number | undefined;
  let endsLine = true;
  const write = (text: string) => {
    if (text === '') return;
    // Model and tool text reaches a person here: a bidirectional or zero-width character is shown, never obeyed.
    io.out(showInvisible(text));
    endsLine = text.endsWith('\n');
  };
  const closeAnswer = () => {
    if (open === undefined) return;
    if (!endsLine) write('\n');
    open = undefined;
  };
  return (event) => {
    switch (event.type) {
      case 'step_started':
        closeAnswer();
        status.modelCallStarted(label);
        return;
      case 'text_delta': {
        // Tokens are flowing: the wait is over, and the status line must not be drawn over them.
        status.modelCallEnded();
        if (json) return;
        if (open === event.step) return write(event.text);
        closeAnswer();
        const text = event.text.trimStart();
        if (text === '') return;
        open = event.step;
        write(`assistant: ${text}`);
        return;
      }
      case 'step_finished':
      case 'model_error':
        status.modelCallEnded();
        break;
      case 'reasoning_delta':
      case 'tool_call_start':
      case 'tool_call_delta':
      case 'tool_call_end':
      case 'tool_progress':
        return;
    }
    closeAnswer();
    if (json) return;
    const line = event.type === 'tool_call' ? formatCall(event.toolName, event.argumentsText, event.arguments) : formatEvent(event as RunEvent);
    if (line !== undefined) write(`${line}\n`);
  };
}

function formatCall(toolName: string, argumentsText: string | undefined, args: unknown): string | undefined {
  return toolName === SELECT_CATEGORY_TOOL ? undefined : `→ ${toolName} ${argumentsText ?? compact(args, 200)}`;
}

/**
 * Asks the pending confirmations in the terminal (when allowed and possible), resumes, and prints the final result.
 * With `printStream`, a resumed run streams and prints through it (`run`); without, its steps print from `onEvent`.
 */
export async function settle(
  first: AgentResult,
  runtime: AgentRuntimeOptions,
  options: AgentCommandOptions,
  io: AgentCliIo,
  printStream?: (event: AgentStreamEvent) => void,
): Promise<AgentResult> {
  let result = first;
  const redact = runRedactor(runtime);
  while (result.status === 'awaiting_confirmation' && options.interactive !== false && io.ask) {
    const decisions: ConfirmationDecision[] = [];
    for (const pending of result.pending) {
      io.out(`\n? ${pendingText(redact, pending, '    ')}`);
      let answer = (await io.ask('  Approve this call? [y/N, a = all arguments] ')).trim().toLowerCase();
      // Every argument, one step away: shown whole (redacted), then the question again.
      if (answer === 'a') {
        const all = JSON.stringify(redact.toolArguments(pending.toolName, pending.arguments), null, 2) ?? 'none';
        io.out(`${escapeInvisibleInJson(redact.text(all)).replace(/^/gm, '    ')}\n`);
        answer = (await io.ask('  Approve this call? [y/N] ')).trim().toLowerCase();
      }
      const approved = answer === 'y' || answer === 'yes';
      decisions.push({ token: pending.token, decision: approved ? 'approve' : 'deny', ...(approved ? {} : { reason: 'declined in the terminal' }) });
    }
    if (printStream) {
      const resumed = resumeAgentStream(result.runId, decisions, { ...runtime, onEvent: undefined });
      for await (const event of resumed.redacted()) printStream(event);
      result = await resumed.result;
    } else {
      result = await resumeAgent(result.runId, decisions, runtime);
    }
  }
  // Printed redacted (a pending call's token too: approve by id with `toolwright approvals`); the caller gets the result as it is.
  const shown = redact(result) as AgentResult;
  const priceKnown = findPrice(runtime.model.id, { ...DEFAULT_PRICES, ...runtime.prices }) !== undefined;
  // Without a price the cost is unknown, not zero: JSON says `costUsd: null, priceKnown: false`.
  io.out(
    options.json
      ? `${escapeInvisibleInJson(JSON.stringify({ ...shown, costUsd: priceKnown ? shown.costUsd : null, priceKnown }, null, 2))}\n`
      : showInvisible(formatResult(shown, { priceKnown })),
  );
  return result;
}

/** The range of each numeric option of `run` and `resume`, named in the usage error. */
const NUMBER_RANGES = {
  '--max-iterations': { min: 1, max: 1000 },
  '--max-tool-calls': { min: 0, max: 100_000 },
  '--max-tokens': { min: 1, max: 10_000_000 },
  // A day, in milliseconds.
  '--timeout': { min: 1, max: 86_400_000 },
  '--max-retries': { min: 0, max: 20 },
} as const satisfies Record<string, WholeNumberRange>;

function wholeNumber(value: string | undefined, flag: keyof typeof NUMBER_RANGES): number | undefined {
  return wholeNumberOption(flag, value, NUMBER_RANGES[flag]);
}

function parseLimits(options: AgentCommandOptions): AgentLimits {
  const limits: AgentLimits = {};
  const iterations = wholeNumber(options.maxIterations, '--max-iterations');
  if (iterations !== undefined) limits.maxIterations = iterations;
  const toolCalls = wholeNumber(options.maxToolCalls, '--max-tool-calls');
  if (toolCalls !== undefined) limits.maxToolCalls = toolCalls;
  const tokens = wholeNumber(options.maxTokens, '--max-tokens');
  if (tokens !== undefined) limits.maxOutputTokens = tokens;
  const timeout = wholeNumber(options.timeout, '--timeout');
  if (timeout !== undefined) limits.maxWallTimeMs = timeout;
  if (options.maxCost !== undefined) {
    const cost = Number(options.maxCost);
    if (!Number.isFinite(cost) || cost < 0) throw new InvalidArgumentError(`--max-cost must be an amount in USD, such as 0.05 (got "${options.maxCost}").`);
    limits.maxCostUsd = cost;
  }
  return limits;
}

/**
 * What `run` and `resume` check before any work: every numeric option, then every package the run will load (the
 * model's SDK, the store's driver, the MCP SDK), all named at once.
 */
export function checkAgentCommand(command: string, options: AgentCommandOptions): void {
  parseLimits(options);
  wholeNumber(options.maxRetries, '--max-retries');
  requirePackages(`toolwright ${command}`, [
    ...(options.model !== undefined ? modelPackages(options.model) : []),
    ...storePackages(options),
    ...mcpPackages(options.mcp),
  ]);
}

/** One line for an event, or `undefined` for events the terminal does not show. */
export function formatEvent(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'routing':
      return `» routing: ${event.category ?? 'no category chosen'} (${event.tools.length} tools offered)`;
    case 'model_response': {
      const lines: string[] = [];
      for (const part of event.response.content) {
        if (part.type === 'text' && part.text.trim() !== '') lines.push(`assistant: ${part.text.trim()}`);
        const call = part.type === 'tool-call' ? formatCall(part.name, part.argumentsText, part.arguments) : undefined;
        if (call !== undefined) lines.push(call);
      }
      return lines.length === 0 ? undefined : lines.join('\n');
    }
    case 'model_error':
      return `! model call failed: ${cliWording(event.error.message)}`;
    case 'unexpected_stop':
      return `! the model stopped early (${event.finishReason}${event.providerStopReason !== undefined ? `: ${compactText(event.providerStopReason, 60)}` : ''})${event.toolCalls > 0 ? `; its ${event.toolCalls} tool call${event.toolCalls === 1 ? '' : 's'} did not run` : ''}`;
    case 'turn_limited':
      return `! one response asked for ${event.requested} tool calls; only the first ${event.limit} run`;
    case 'tool_result': {
      const text = compactText(resultText(event.result.content), 200);
      if (event.status === 'succeeded') return `  ✓ ${event.toolName} (${Math.round(event.durationMs)} ms): ${text}`;
      if (event.status === 'failed') return `  ✗ ${event.toolName}${event.failure ? ` [${event.failure.code}]` : ''}: ${text}`;
      return `  – ${event.toolName} ${event.status.replace(/_/g, ' ')}`;
    }
    case 'confirmation_decided':
      return `  ${event.decision === 'approve' ? 'approved' : event.decision === 'deny' ? 'denied' : 'expired'}: ${event.toolName} (${event.callId})`;
    default:
      return undefined;
  }
}

/**
 * The end of a run, for a person. The answer itself is not repeated: the steps already showed it as an `assistant:`
 * line. Without a price for the model (`priceKnown: false`) the cost reads "price unknown", never `$0.0000`.
 */
export function formatResult(result: AgentResult, options: { priceKnown?: boolean } = {}): string {
  const cost = options.priceKnown === false ? 'price unknown' : `$${result.costUsd.toFixed(4)}`;
  const totals = `${result.usage.modelCalls} model calls · ${result.usage.toolCalls} tool calls · ${result.usage.inputTokens} in / ${result.usage.outputTokens} out tokens · ${cost}`;
  const record = result.recordPath === undefined ? '' : `\nrecord: ${result.recordPath}`;
  switch (result.status) {
    case 'completed':
      return `\n— completed (run ${result.runId}) · ${totals}${record}\n`;
    case 'stopped':
      return `\n— stopped (${result.stopReason.kind}, run ${result.runId}): ${cliWording(result.stopReason.message)}\n  ${totals}${record}\n`;
    case 'awaiting_confirmation':
      return `\n— waiting for confirmation (run ${result.runId}):\n${result.pending.map(formatPending).join('')}\nApprove or deny each: toolwright approvals approve <id> | toolwright approvals deny <id>\nthen continue:       toolwright resume ${result.runId} --model … --tools … (your settings, as for this run)\n  ${totals}${record}\n`;
  }
}

/**
 * A waiting call as the terminal shows it (`approvals list`, a run's result): its summary line, then its arguments
 * line by line with those that decide where the effect goes first, each whole up to its cap (`describeArguments`), and
 * where to read them all. `pending` is already redacted.
 */
export function formatPending(pending: Pick<PendingConfirmation, 'approvalId' | 'summary' | 'toolName' | 'arguments' | 'expiresAt'>): string {
  const lines = argumentLines(describeArguments(pending.arguments)).map((line) => `      ${line}\n`);
  return (
    `  ${pending.approvalId}  ${showInvisible(pending.summary)}\n      ${pending.toolName} · expires ${pending.expiresAt}\n${lines.join('')}` +
    `      all arguments: toolwright approvals show ${pending.approvalId}\n`
  );
}

/** The terminal question's text for one waiting call: the summary line and its arguments, decisive first, redacted. */
function pendingText(redact: Redactor, pending: PendingConfirmation, indent: string): string {
  const lines = argumentLines(describeArguments(redact.toolArguments(pending.toolName, pending.arguments)));
  return `${showInvisible(redact.text(pending.summary))}\n${lines.map((line) => `${indent}${redact.text(line)}\n`).join('')}`;
}

/** Reads the CLI's meta back from a stored run. */
export function readRunMeta(meta: Record<string, unknown>): Partial<RunMeta> {
  const out: Partial<RunMeta> = {};
  if (!isPlainObject(meta)) return out;
  if (typeof meta.modelSpec === 'string') out.modelSpec = meta.modelSpec;
  if (typeof meta.toolsModule === 'string') out.toolsModule = meta.toolsModule;
  if (Array.isArray(meta.mcp) && meta.mcp.every((server) => typeof server === 'string')) out.mcp = meta.mcp as string[];
  if (typeof meta.baseURL === 'string') out.baseURL = meta.baseURL;
  if (meta.route === true) out.route = true;
  return out;
}

/**
 * A library message in the CLI's words: the provider errors advise raising the `maxRetries` option, which the CLI
 * spells `--max-retries`.
 */
export function cliWording(message: string): string {
  return message.replace(/\braise maxRetries\b/g, 'raise --max-retries');
}

function compact(value: unknown, max: number): string {
  return compactText(JSON.stringify(value) ?? '', max);
}

function compactText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Adds the options `run` and `resume` share. */
export function addAgentOptions(command: Command): Command {
  return command
    .option(
      '--base-url <url>',
      "the provider API root (an OpenAI-compatible server such as http://127.0.0.1:11434/v1); default: the provider's, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL",
    )
    .option('--max-iterations <n>', 'model calls before the run stops (default 10)')
    .option('--max-cost <usd>', 'stop before a model call would pass this many USD')
    .option('--max-tool-calls <n>', 'tool calls allowed in the run')
    .option('--max-tokens <n>', 'output tokens allowed in the run')
    .option('--timeout <ms>', 'active wall time allowed in the run, in milliseconds')
    .option('--max-retries <n>', 'retries of a failed model request (429, 5xx, connection, timeout), waiting as the provider asks (default 2)')
    .option('--no-interactive', 'leave confirmations pending instead of asking in the terminal')
    .option('--state <file>', 'the SQLite file of pending runs (default $TOOLWRIGHT_HOME/state.db, ~/.toolwright/state.db)')
    .option('--store <url>', STORE_OPTION_HELP)
    .option('--runs <folder>', 'where run records are written (default $TOOLWRIGHT_HOME/runs)')
    .option('--no-record', 'write no run record')
    .option('--json', 'print the final result as JSON instead of the steps');
}

export function registerRunCommand(program: Command): void {
  addAgentOptions(
    program
      .command('run')
      .description('Run a task with a model and a tool module, printing each step; confirmations are asked in the terminal.')
      .argument('[module]', 'the module that exports the tools (or --tools), e.g. ./tools.ts')
      .argument('[task]', 'what to do, in quotes')
      // Checked by runRunCommand rather than commander's requiredOption, whose check would pre-empt an unknown option's report (--modle).
      .option(
        '--model <spec>',
        'provider:model, e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, openai-compatible:qwen3 (keys from OPENAI_API_KEY / ANTHROPIC_API_KEY)',
      )
      .option('--tools <module>', 'a module that exports tools, e.g. ./tools.ts (`toolwright init` writes one)')
      .option(
        '--mcp <server>',
        'also use the tools of an MCP server: a command to spawn ("npx -y some-server") or an http(s):// URL; repeat for several',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option('--system <text>', 'a system message')
      .option('--route', 'pick a tool category first (two-stage routing), whatever the number of tools'),
  )
    .addHelpText('after', '\nExit codes: 0 completed (or left waiting for confirmation), 1 stopped by a limit or a model error, 2 bad input.')
    .action(async (first: string | undefined, second: string | undefined, options: RunCommandOptions) => {
      // One word is the task; two are the tool module, then the task.
      const [module, task] = second === undefined ? [undefined, first] : [first, second];
      const tools = module === undefined && options.tools === undefined ? undefined : toolModuleFrom('run', module, options.tools, './tools.ts "…"');
      const { value: result, interrupted } = await runInterruptibly((control) =>
        runRunCommand(task ?? '', { ...options, ...(tools !== undefined ? { tools } : {}), ...control }, terminalIo()),
      );
      if (interrupted !== undefined) process.exitCode = SIGNAL_EXIT_CODES[interrupted];
      else if (result.status === 'stopped') process.exitCode = 1;
    });
}
