/**
 * `runAgent`: the guarded tool-calling loop. It ends in one of three typed
 * results (`completed`, `awaiting_confirmation`, `stopped`) and never hangs or
 * rejects for anything the model or a tool does.
 *
 * @example
 * ```ts
 * const result = await runAgent({ model, tools, prompt: 'Cancel my Pro plan', limits: { maxCostUsd: 0.05 } });
 * if (result.status === 'awaiting_confirmation') {
 *   // show result.pending[i].summary to a person, then:
 *   await resumeAgent(result.runId, [{ token: result.pending[0].token, decision: 'approve' }], { model, tools });
 * }
 * ```
 * @module
 */
import { randomHex } from '../shared/bytes.js';
import type { Tracer } from '@opentelemetry/api';
import type { Model } from '../models/types.js';
import type { StopReason } from '../protocol/model-exchange.js';
import type { Message } from '../protocol/messages.js';
import type { Policy } from '../policy/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import type { AnyTool } from '../tools/define-tool.js';
import { resolveOutput, type OutputOf, type OutputOption } from '../tools/define-output.js';
import { ToolRegistry, stderrLogger, type ToolLogger } from '../tools/tool-registry.js';
import { AgentLoop } from './agent-loop.js';
import type { LoopEnvironment, LoopStreamSink, ToolChoicePolicy } from './loop-environment.js';
import { CallPolicy, type ToolCallGuard } from './calls/call-policy.js';
import { resolveLimits, type AgentLimits } from './agent-limits.js';
import type { AgentResult } from './agent-result.js';
import { createAgentTelemetry } from './agent-telemetry.js';
import { DEFAULT_PRICES, findPrice, type PriceTable } from './price-table.js';
import { runRedactor, type Redactor } from './redact.js';
import { checkRouting, type RoutingOptions } from './route-tools.js';
import { resolveToolSearch, type ToolSearchOptions } from './tool-search.js';
import type { RunEvent } from './run-event.js';
import { RunRecorder } from './run-recorder.js';
import type { RunState } from './run-state.js';
import { checkStoreId, type RunStore } from './run-store.js';
import { sealRunStore } from './sealed-run-store.js';
import { defaultRunStore } from './default-run-store.js';

/**
 * Options shared by {@link runAgent} and `resumeAgent`. `Ctx` is the type of the run's `context`; `runAgent` infers it
 * from `context` and the tools, so a tool that needs another context type is a type error.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as AnyTool: options written without a context type accept any tool.
export interface AgentRuntimeOptions<Ctx = any> {
  /** The model to call. */
  model: Model;
  /** The tools the model may call: a registry (its tools' context types are not checked), or tools to put in one. */
  tools: ToolRegistry | readonly AnyTool<Ctx>[];
  /**
   * The run's typed context (the user, a database handle, a tenant): passed as it is to every tool (`execute(args, { context })`),
   * the tool's `confirm` and `summarize`, `guardToolCall` and the policy's hooks. It is never sent to the model and never
   * written to the record, the run store, telemetry or logs (except what `recordContext` returns), so `resumeAgent` needs
   * it again. Default: `undefined`.
   */
  context?: Ctx;
  /**
   * What of `context` the record may hold: its return value (JSON; redacted like every line) is written in the
   * `run_started` event as `context`. Default: nothing of the context is recorded.
   */
  recordContext?: (context: Ctx) => unknown;
  /** Guards and budgets; see {@link AgentLimits} for each default. On resume, they replace the stored ones field by field. */
  limits?: AgentLimits;
  /** Prices per model id, merged over the built-in table. */
  prices?: PriceTable;
  /**
   * Where paused runs live. Default: the SQLite store at `statePath` when one is given (opened only if the run needs a
   * confirmation), else one memory store per process (`processRunStore`): a paused run resumes in the same process, and
   * nothing touches the disk. Pass a store (or `statePath`) to resume after a restart.
   */
  store?: RunStore;
  /** A SQLite file to keep paused runs in, when no `store` is given. Default: none (see `store`); the CLI uses `$TOOLWRIGHT_HOME/state.db`. */
  statePath?: string;
  /**
   * The folder of run records (one JSONL file per run). Default: none, no record is written; `false` says the same.
   * The CLI uses `$TOOLWRIGHT_HOME/runs` (`defaultRunsDir()`).
   */
  recordDir?: string | false;
  /** Extra patterns redacted from the record, the store and the logs (strings match literally), besides the built-in rules (docs/agent.md, "Redaction"). */
  redact?: readonly (RegExp | string)[];
  /** Two-stage routing; `false` turns it off. Default: on above 20 tools with at least two categories. */
  routing?: RoutingOptions | false;
  /** Called before each valid tool call runs: allow it, ask a person first, or block it with a message for the model (where policies plug in). */
  guardToolCall?: ToolCallGuard<Ctx>;
  /**
   * A tool policy (`createPolicy`): checked before `guardToolCall`, its isolation wraps untrusted results, and its state is kept with the run for
   * resuming. Pass the same policy on resume.
   */
  policy?: Policy;
  /** Aborts the run: the model call and running tools see it, and the run stops with `aborted`. */
  signal?: AbortSignal;
  /** Called with each event as it happens (the record gets the same events, redacted). */
  onEvent?: (event: RunEvent & { runId: string }) => void;
  /** The tracer for spans. Default: the global OpenTelemetry tracer (a no-op unless an SDK is registered). */
  tracer?: Tracer;
  /** `gen_ai.agent.name` on the run span. Default: `toolwright`. */
  agentName?: string;
  /** Where internal tool failures are logged when `tools` is an array (their texts redacted). Default: stderr. */
  logger?: ToolLogger;
  /** The clock for confirmation expiry, in milliseconds since the epoch. Default: `Date.now`. */
  now?: () => number;
  /** Tool choice for the loop's model calls: fixed, or a function of the iteration (e.g. require a call first, then let the model answer). Default `auto`. */
  toolChoice?: ToolChoicePolicy;
  /**
   * Finish reasons besides `end_turn` that complete the run when the answer calls no tool. Default: none, so an answer
   * cut at `max_tokens`, stopped by a content filter, refused, or ended for another reason stops the run with its own
   * stop reason. Pass `['max_tokens']` where short, capped answers are expected.
   */
  acceptFinishReasons?: readonly StopReason[];
  /**
   * The schema the final answer must follow: a Zod v4 schema, a JSON Schema object (its root an object), or
   * `defineOutput(…)`. A completed run then has the validated value in `result.output`; an invalid answer gets one repair
   * turn, then the run stops with `output_invalid` (docs/agent.md, "Structured output"). Pass the same output on resume.
   */
  output?: OutputOption;
  /**
   * Search instead of declaring every tool: the provider's own search over deferred tools where the model has one, toolwright's
   * search tool elsewhere (see {@link ToolSearchOptions}). Routing is off when it is set. Default: off.
   */
  toolSearch?: ToolSearchOptions | false;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as AgentRuntimeOptions.
export interface RunAgentOptions<Ctx = any> extends AgentRuntimeOptions<Ctx> {
  /** The user's request, appended as a user message. */
  prompt?: string;
  /** A system message, put first. */
  system?: string;
  /** An earlier conversation to continue; `prompt` is appended to it. */
  messages?: readonly Message[];
  /** The run id. Default: a new `run_…` id. */
  runId?: string;
  temperature?: number;
  seed?: number;
  /** Data kept with the run for whoever resumes it (the CLI keeps the model spec and the tools module). */
  meta?: Record<string, unknown>;
  /**
   * `'auto'`: each model call marks its prefix cacheable (Anthropic breakpoints, OpenAI `prompt_cache_key`; README, "Prompt
   * caching"). Default `false`: request bodies stay as they were, and a one-step run pays no Anthropic cache-write premium.
   */
  cache?: 'auto' | false;
  /** With `cache: 'auto'`: the OpenAI `prompt_cache_key` (runs with the same key and prefix share a cache). Default: the run id. */
  cacheKey?: string;
  /**
   * `false`: one tool call per model response, asked of the provider (docs/providers.md) and held by the loop, which runs
   * the first distinct call and answers the others as not run.
   */
  parallelToolCalls?: boolean;
}

/**
 * `context` is required when the run's tools need one (their context type does not accept `undefined`), optional
 * otherwise.
 */
export type ContextRequirement<Ctx> = undefined extends Ctx ? unknown : { context: Ctx };

/**
 * Runs the loop until the model answers, a guard stops it, or a call needs a person's confirmation. `Ctx` is inferred
 * from the tools and `context`; `Output` from `output`, and it types `result.output` (see {@link OutputOf}).
 */
export async function runAgent<Ctx = undefined, Output extends OutputOption | undefined = undefined>(
  options: Omit<RunAgentOptions<Ctx>, 'output'> & { output?: Output } & ContextRequirement<Ctx>,
): Promise<AgentResult<OutputOf<Output>>> {
  return (await prepareAgentRun(options as RunAgentOptions).run()) as AgentResult<OutputOf<Output>>;
}

/**
 * Checks the options and builds a new run, throwing for a caller's mistake before anything runs; `run` drives it.
 * With `streaming`, every model call streams and its pieces go to the sink made for the run's state (`streamAgent`).
 * @internal
 */
export function prepareAgentRun(
  options: RunAgentOptions,
  streaming?: (state: RunState) => LoopStreamSink,
): { state: RunState; run: () => Promise<AgentResult> } {
  if (typeof options !== 'object' || options === null || !options.model || typeof options.model.generate !== 'function') {
    throw new InvalidArgumentError('runAgent needs { model, tools, prompt | messages }: `model` must be a Model (see createModel or createScriptedModel).');
  }
  const messages: Message[] = [];
  if (options.system !== undefined) messages.push({ role: 'system', content: options.system });
  messages.push(...structuredClone([...(options.messages ?? [])]));
  if (options.prompt !== undefined) messages.push({ role: 'user', content: options.prompt });
  if (messages.length === 0 || messages.every((message) => message.role === 'system')) {
    throw new InvalidArgumentError("runAgent needs a `prompt` or `messages` holding the user's request.");
  }
  const runId = options.runId ?? newRunId();
  // Refused now rather than when the run first pauses: the store would refuse it then.
  checkStoreId('run id', runId);
  // A library run writes nothing to disk unless asked: the caller names the folder (the CLI names $TOOLWRIGHT_HOME/runs).
  const recordDir = options.recordDir === undefined ? false : options.recordDir;
  const state: RunState = {
    version: 1,
    runId,
    modelId: options.model.id,
    messages,
    steps: [],
    usage: { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, wallTimeMs: 0 },
    costUsd: 0,
    iterations: 0,
    routed: false,
    routedTools: undefined,
    failureCounts: {},
    callCounts: {},
    pendingTurn: undefined,
    limits: { ...options.limits },
    settings: {
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.cache === 'auto' ? { cache: 'auto' as const, cacheKey: options.cacheKey ?? runId } : {}),
      ...(options.parallelToolCalls !== undefined ? { parallelToolCalls: options.parallelToolCalls } : {}),
    },
    meta: { ...options.meta },
    recordPath: recordDir === false ? undefined : RunRecorder.pathFor(recordDir, runId),
  };
  const { environment, close } = createEnvironment(options, state, false);
  if (streaming) environment.stream = streaming(state);
  return {
    state,
    run: async () => {
      try {
        return await new AgentLoop(state, environment).run();
      } finally {
        await close();
      }
    },
  };
}

/** Builds the loop's environment; `close` closes a store the environment opened itself. */
export function createEnvironment(
  options: AgentRuntimeOptions,
  state: RunState,
  persisted: boolean,
): { environment: LoopEnvironment; close: () => Promise<void> } {
  const limits = resolveLimits(state.limits);
  const redact = runRedactor(options);
  const given =
    options.tools instanceof ToolRegistry
      ? options.tools
      : new ToolRegistry(options.tools, { logger: redactingLogger(options.logger ?? stderrLogger, redact) });
  checkRouting(given.list(), options.routing);
  const toolSearch = resolveToolSearch(options.toolSearch, options.model, given.list(), {
    tools: () => given.list(),
    mayLoad: (name) => environment.callPolicy.mayLoad(name),
    load: (names) => {
      const loaded = (state.searchLoadedTools ??= []);
      for (const name of names) if (!loaded.includes(name)) loaded.push(name);
    },
  });
  const registry = toolSearch?.searchTool ? given.with([toolSearch.searchTool]) : given;
  const output = options.output === undefined ? undefined : resolveOutput(options.output);
  if (output && registry.has(output.name)) {
    throw new InvalidArgumentError(
      `The output's name "${output.name}" is also a tool's name; the model could not tell the answer from the call. Name the output otherwise: defineOutput(schema, { name: "…" }).`,
    );
  }
  const prices: PriceTable = { ...DEFAULT_PRICES, ...options.prices };
  const price = findPrice(options.model.id, prices);
  if (limits.maxCostUsd !== undefined && !price) {
    throw new InvalidArgumentError(
      `limits.maxCostUsd is set, but there is no price for the model "${options.model.id}". Pass prices: { "${options.model.id}": { inputPerMillion, outputPerMillion } }.`,
    );
  }
  let opened: Promise<RunStore> | undefined;
  // Runs and call outcomes are stored redacted, their secrets sealed beside them (sealed-run-store.ts).
  const store = (): Promise<RunStore> => {
    if (options.store) return Promise.resolve(sealRunStore(options.store, redact));
    opened ??= defaultRunStore(options).then((opened) => sealRunStore(opened, redact));
    return opened;
  };
  const environment: LoopEnvironment = {
    model: options.model,
    registry,
    limits,
    price,
    routing: options.routing,
    callPolicy: CallPolicy.start(
      {
        policy: options.policy,
        guard: options.guardToolCall,
        redactor: redact,
        context: options.context,
        toolNamed: (name) => registry.get(name),
        seed: state.settings.seed,
        resumedWithHistory: state.steps.length > 0,
        toolSearchTool: toolSearch?.searchTool,
      },
      state,
    ),
    context: options.context,
    ...(options.recordContext ? { recordedContext: contextToRecord(options.recordContext, options.context) } : {}),
    store,
    persisted,
    recorder: new RunRecorder(state.runId, state.recordPath, redact),
    redactor: redact,
    telemetry: createAgentTelemetry(options.tracer, redact),
    agentName: options.agentName ?? 'toolwright',
    signal: options.signal,
    onEvent: options.onEvent,
    now: options.now ?? Date.now,
    toolChoice: options.toolChoice,
    acceptFinishReasons: options.acceptFinishReasons ?? [],
    output,
    toolSearch,
  };
  return {
    environment,
    close: async () => {
      if (opened) await (await opened.catch(() => undefined))?.close();
    },
  };
}

/** What the caller's `recordContext` chose to record; a throw is the caller's bug, reported before the run starts. */
function contextToRecord(recordContext: (context: never) => unknown, context: unknown): unknown {
  if (typeof recordContext !== 'function')
    throw new InvalidArgumentError('`recordContext` must be a function (context) => value to record; leave it out to record nothing.');
  try {
    return recordContext(context as never);
  } catch (error) {
    throw new InvalidArgumentError(
      `\`recordContext\` threw (${error instanceof Error ? error.message : String(error)}). Make it return a JSON value, or leave it out to record nothing of the context.`,
      { cause: error },
    );
  }
}

/** A logger that gets redacted texts; an error stays an `Error` (with its message and stack redacted) so loggers can print its stack. */
function redactingLogger(logger: ToolLogger, redact: Redactor): ToolLogger {
  return {
    error(message, details) {
      const { error, ...rest } = details;
      const redacted = redact(rest) as Record<string, unknown>;
      if (error instanceof Error) {
        const copy = new Error(redact.text(error.message));
        copy.name = error.name;
        copy.stack = error.stack === undefined ? undefined : redact.text(error.stack);
        redacted.error = copy;
      } else if (error !== undefined) {
        redacted.error = redact(error);
      }
      logger.error(redact.text(message), redacted);
    },
  };
}

/** A new run id: time-ordered, then random. */
export function newRunId(): string {
  return `run_${Date.now().toString(36)}${randomHex(5)}`;
}
