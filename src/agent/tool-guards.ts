/**
 * toolwright's per-call guards for someone else's loop (the Vercel AI SDK's
 * `generateText`, the OpenAI Agents SDK's `run`, a hand-written loop): the
 * registry's validation and recovery texts, the policy session and the
 * caller's guard (the call pipeline's decide and run steps, `src/agent/calls/`,
 * exactly as in `runAgent`: a call the policy rewrote runs with the rewritten
 * arguments and the policy's note), the
 * tool's `confirm` rule with single-use approvals, the tool-call budget (and
 * the token and money budgets when the host reports usage), and the loop
 * breaker (`checkForLoop`, the same counts as in `runAgent`).
 *
 * The host loop keeps control of the model; the guards never throw for what a
 * model or a tool does. When a budget or the loop breaker trips, the guards
 * are `stopped`: the call that tripped them gets a note, and every later call
 * is refused with a text telling the model to stop calling tools. The host
 * ends its loop by checking {@link ToolGuards.stopped} (the adapters show how).
 *
 * State lives in memory, per guards object: create one per conversation (or
 * per request, accepting that counts start again).
 * @module
 */
import { randomHex } from '../shared/bytes.js';
import type { Message } from '../protocol/messages.js';
import type { Policy } from '../policy/types.js';
import { InvalidArgumentError } from '../shared/errors.js';
import type { Redactor } from '../shared/redaction/index.js';
import { approvalText } from '../tools/call-summary.js';
import type { AnyTool } from '../tools/define-tool.js';
import { ToolRegistry, type PreparedCall, type RegistrableTool, type ToolExecution, type ToolFailureCode, type ToolLogger } from '../tools/tool-registry.js';
import type { ToolCallRequest, ToolResult } from '../tools/types.js';
import { resolveLimits, type AgentLimits, type ResolvedLimits } from './agent-limits.js';
import { declinedMessage, toolBudgetMessage, type CallScopeName } from './agent-messages.js';
import type { AgentStopReason, ToolCallOutcome, ToolCallStatus } from './agent-result.js';
import { budgetStop, planModelCall, type BudgetStop, type CallPlan } from './budget.js';
import { toolCallEvent, toolResultEvent } from './calls/call-outcomes.js';
import { CallPolicy, type ToolCallGuard } from './calls/call-policy.js';
import { decideCall } from './calls/decide-call.js';
import { runCall, type RanCall } from './calls/run-call.js';
import { callSignature, checkForLoop } from './loop-breaker.js';
import { withRepeatedBlockNotice } from './repeated-block.js';
import { runRedactor } from './redact.js';
import type { RunEvent } from './run-event.js';
import type { RunState } from './run-state.js';

/** The limits the guards enforce: the tool-call budget, the loop breaker, the token and money budgets (from reported usage), and a tool timeout. */
export type ToolGuardLimits = Pick<
  AgentLimits,
  'maxToolCalls' | 'maxRepeatedFailures' | 'maxIdenticalCalls' | 'maxInputTokens' | 'maxOutputTokens' | 'maxCostUsd' | 'toolTimeoutMs'
>;

export interface ToolGuardsOptions {
  /** The tools: a registry, or tools to put in one (each schema compiled once, here). */
  tools: ToolRegistry | readonly RegistrableTool[];
  /** The policy (`createPolicy`); its session starts with the guards. */
  policy?: Policy | undefined;
  /** The caller's hook, consulted after the policy for every valid call (as `runAgent({ guardToolCall })`). */
  guardToolCall?: ToolCallGuard | undefined;
  limits?: ToolGuardLimits | undefined;
  /** Extra patterns to redact from the summaries a person is shown. */
  redact?: readonly (RegExp | string)[] | undefined;
  /** An id for the guards' run (the policy session's and the guard's `runId`). Default: a fresh one. */
  runId?: string | undefined;
  /**
   * What the user wrote (the prompt, the system prompt): the policy never counts a value found here as copied from untrusted
   * content. Give what you know when you create the guards.
   */
  trustedTexts?: readonly string[] | undefined;
  /**
   * The conversation's context (the user, a database handle, a tenant), as in `runAgent({ context })`: passed as it is to
   * every tool (`execute(args, { context })`), the policy session, the guard and the tool's confirm rule and summary; never
   * sent to the model. `check(call, { context })` and `run(call, { context })` override it for one call.
   */
  context?: unknown;
  /**
   * Tools whose own `confirm` rule is not applied: they run without `approved` (as `toolwright serve --approve`). The
   * policy and the guard may still ask a person for them. Default: none.
   */
  preapproved?: readonly string[] | undefined;
  /**
   * What the model-facing texts call the conversation the budget and the loop breaker stop: `run` (default), or
   * `session` (the MCP server's, whose limits are per session).
   */
  scope?: 'run' | 'session' | undefined;
  /**
   * How many call ids, and how many distinct calls (tool and arguments) for the loop breaker, the guards remember; past
   * it the oldest are forgotten, so that guards kept for days hold a bounded amount. A forgotten call id that comes back
   * is checked as a new call; a forgotten call's loop-breaker counts start again. Default: 10,000.
   */
  maxRememberedCalls?: number | undefined;
  /** Where internal tool failures are logged, when `tools` is a list. Default: stderr. */
  logger?: ToolLogger | undefined;
  /**
   * Told each call's events as `runAgent` records them, made by the same pipeline steps: `tool_call` when a call is first
   * checked, the policy's `policy_decision`s, and `tool_result` when it ends (ran, refused, or not run for the budget).
   * No confirmation events: the host asks the person, and a call it never runs ends without a `tool_result`. A
   * listener that throws does not break the call. Secrets are not redacted here: redact before anything reaches disk.
   */
  onEvent?: ((event: RunEvent) => void) | undefined;
}

/** What the guards say about a call before it runs. */
export type GuardDecision =
  | { action: 'run'; tool: AnyTool; arguments: unknown }
  | {
      action: 'confirm';
      tool: AnyTool;
      arguments: unknown;
      /** The redacted line to show the person deciding. */
      summary: string;
      /** Which stage wants a person: the policy, the guard, or (neither) the tool's own `confirm` rule (the one `preapproved` lifts). */
      askedBy: 'policy' | 'guard' | 'tool';
      /**
       * What to show the person deciding: the summary line, then the redacted arguments line by line, those that decide
       * where the effect goes first, each whole up to its cap (`approvalText`, `src/tools/call-summary.ts`).
       */
      prompt: string;
    }
  | {
      action: 'refuse';
      /**
       * `invalid`: unknown tool or bad arguments; `blocked`: the policy or guard said no; `stopped`: a budget or the loop
       * breaker ended tool use; `already_run`: this call id ran before.
       */
      reason: 'invalid' | 'blocked' | 'stopped' | 'already_run';
      /** What the model is sent instead of a result. */
      result: ToolResult;
      failureCode?: ToolFailureCode;
    };

/** Options of {@link ToolGuards.run}. */
export interface GuardedRunOptions {
  /** Aborts the tool; its `context.signal` fires. */
  signal?: AbortSignal | undefined;
  /**
   * Pass `true` only for a call a person approved (the host's approval flow). It approves this call id with the
   * arguments the guards checked, once: a second run of the same call id is refused.
   */
  approved?: boolean | undefined;
  onProgress?: ((progress: number, total?: number, message?: string) => void) | undefined;
  /**
   * This call's context, instead of the guards' `context`: the tool receives it, and the policy session, the guard and the
   * tool's rule see it (when `run` checks the call itself; a call checked before keeps the decision its `check` made).
   */
  context?: unknown;
}

/** A call's end, as the host gives it back to the model. */
export interface GuardedCall {
  callId: string;
  toolName: string;
  /** `needs_approval`: the call wants a person and `approved` was not given (it did not run). */
  status: ToolCallStatus | 'needs_approval';
  /** What the model is sent: the tool's result (screened by the policy), or a recovery text. */
  result: ToolResult;
  /** The registry's record of the run, when the tool ran or failed validation. */
  execution?: ToolExecution;
  /** Set when this call tripped a budget or the loop breaker. */
  stop?: ToolGuardsStop;
}

/** Why the guards stopped tool use. */
export type ToolGuardsStop = BudgetStop | Extract<AgentStopReason, { kind: 'loop_detected' }>;

/** Token usage (and cost, when the host knows it) of one model call, for the budgets. */
export interface GuardUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  costUsd?: number | undefined;
}

export interface ToolGuards {
  readonly registry: ToolRegistry;
  readonly runId: string;
  /** Set once a budget or the loop breaker stopped tool use; the host should end its loop. */
  readonly stopped: ToolGuardsStop | undefined;
  /** What was spent so far (tool calls run, reported tokens and cost). */
  spent(): { toolCalls: number; inputTokens: number; outputTokens: number; costUsd: number };
  /** The policy's text for the system prompt (the isolation convention), if any: add it to the host's instructions. */
  systemPrompt(): string | undefined;
  /**
   * Resolves, validates and decides a call without running it. The decision is kept for the call id, so that a later
   * {@link run} of the same call (same tool and arguments) uses it instead of asking the policy twice.
   */
  check(
    call: ToolCallRequest,
    options?: {
      /**
       * This call's context, instead of the guards' `context`, for the policy session, the guard, and the tool's `confirm`
       * rule and summary. Give the same one to `run`.
       */
      context?: unknown;
    },
  ): Promise<GuardDecision>;
  /** Checks (or reuses the check of) a call and runs it; never rejects for what the model or the tool did. */
  run(call: ToolCallRequest, options?: GuardedRunOptions): Promise<GuardedCall>;
  /**
   * Ends a checked call a person declined: it never runs (a later `run` of its id is refused), and its `tool_result`
   * event says `declined`. `text` is what the model is sent; default: the text `runAgent` sends for a declined call.
   */
  decline(call: ToolCallRequest, text?: string): GuardedCall;
  /** Counts a model call's usage against the budgets; returns the stop when one is passed (the guards are then stopped). */
  recordUsage(usage: GuardUsage): ToolGuardsStop | undefined;
  /** Before a model call: whether the token and money budgets allow it, and the output cap to send (as `runAgent` plans each call). */
  planModelCall(estimatedInputTokens?: number): CallPlan;
}

interface Checked {
  signature: string;
  decision: GuardDecision;
  /** The policy's note on arguments it rewrote, added to the result the model reads. */
  policyNote?: string;
}

/** Whether `value` is a {@link ToolGuards} object (the adapters take guards or tools). */
export function isToolGuards(value: unknown): value is ToolGuards {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolGuards).check === 'function' &&
    typeof (value as ToolGuards).run === 'function' &&
    typeof (value as ToolGuards).recordUsage === 'function'
  );
}

/** Creates the guards; throws {@link InvalidArgumentError} for bad limits or tools. */
export function createToolGuards(options: ToolGuardsOptions): ToolGuards {
  if (typeof options !== 'object' || options === null || !options.tools) {
    throw new InvalidArgumentError('createToolGuards expects { tools } (a ToolRegistry or a list of tools).');
  }
  const remembered = options.maxRememberedCalls;
  if (remembered !== undefined && !(Number.isInteger(remembered) && remembered >= 1)) {
    throw new InvalidArgumentError(`createToolGuards: \`maxRememberedCalls\` must be a positive integer (got ${JSON.stringify(remembered)}).`);
  }
  return new Guards(options);
}

class Guards implements ToolGuards {
  readonly registry: ToolRegistry;
  readonly runId: string;
  readonly #limits: ResolvedLimits;
  /** The loop breaker's counts, as a run keeps them. */
  readonly #loopCounts: Pick<RunState, 'failureCounts' | 'callCounts'> = { failureCounts: {}, callCounts: {} };
  readonly #usage = { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0 };
  #costUsd = 0;
  readonly #policy: CallPolicy;
  readonly #redactor: Redactor;
  readonly #systemPrompt: string | undefined;
  readonly #checked = new Map<string, Checked>();
  readonly #done = new Set<string>();
  readonly #changed = new Set<string>();
  readonly #context: unknown;
  readonly #onEvent: ((event: RunEvent) => void) | undefined;
  /** The calls (id and signature) whose `tool_call` event was told, so that a call checked twice is told once. */
  readonly #announced = new Set<string>();
  /** The signatures the loop breaker counts, least recently seen first (the oldest are forgotten past the cap). */
  readonly #countedSignatures = new Set<string>();
  readonly #maxRemembered: number;
  readonly #scope: CallScopeName;
  #reserved = 0;
  #stopped: ToolGuardsStop | undefined;

  constructor(options: ToolGuardsOptions) {
    this.registry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools, options.logger ? { logger: options.logger } : {});
    this.#limits = resolveLimits(options.limits);
    this.runId = options.runId ?? `guards_${Date.now().toString(36)}${randomHex(5)}`;
    // A fresh policy session reads the trusted texts from the scope's user messages, and puts its isolation text in a system message.
    const messages: Message[] = (options.trustedTexts ?? []).map((text) => ({ role: 'user', content: text }));
    const redactor = runRedactor({ redact: options.redact, tools: this.registry });
    this.#redactor = redactor;
    this.#context = options.context;
    this.#onEvent = options.onEvent;
    this.#maxRemembered = options.maxRememberedCalls ?? DEFAULT_MAX_REMEMBERED_CALLS;
    this.#scope = options.scope ?? 'run';
    const scope = { runId: this.runId, messages };
    const { policy, guardToolCall: guard, preapproved } = options;
    // The scope is this object's own and never stored, so the policy's state is not copied into it on every call.
    this.#policy = CallPolicy.start({ policy, guard, redactor, context: options.context, saveState: false, ...(preapproved ? { preapproved } : {}) }, scope);
    const system = messages.find((message) => message.role === 'system');
    this.#systemPrompt = system?.role === 'system' ? system.content : undefined;
  }

  get stopped(): ToolGuardsStop | undefined {
    return this.#stopped;
  }

  spent() {
    const usage = this.#usage;
    return { toolCalls: usage.toolCalls, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: this.#costUsd };
  }

  systemPrompt(): string | undefined {
    return this.#systemPrompt;
  }

  async check(call: ToolCallRequest, options: { context?: unknown } = {}): Promise<GuardDecision> {
    return (await this.#check(call, options)).decision;
  }

  async #check(call: ToolCallRequest, options: { context?: unknown }): Promise<Checked> {
    if (this.#done.has(call.id)) {
      return { signature: '', decision: refusal('already_run', alreadyRunMessage(String(call.name).slice(0, 80), call.id)) };
    }
    if (this.#stopped) {
      this.#announce(call, '');
      return { signature: '', decision: refusal('stopped', stoppedMessage(this.#stopped)) };
    }
    const known = preparedCalls.get(call);
    const prepared = known?.registry === this.registry ? known.prepared : this.#prepare(call);
    if (!prepared.success) {
      this.#announce(call, '');
      const decision: GuardDecision = { ...refusal('invalid', prepared.failure.message), failureCode: prepared.failure.code };
      return { signature: '', decision };
    }
    // A call its caller prepared is checked, then run, as the same object: hashed once.
    const signature =
      known?.registry === this.registry
        ? (known.signature ??= callSignature(prepared.tool.name, prepared.arguments))
        : callSignature(prepared.tool.name, prepared.arguments);
    const earlier = this.#checked.get(call.id);
    if (earlier && earlier.signature === signature) return earlier;
    // The same call id with other arguments than were checked (and maybe put to a person): decided afresh, and an approval given for the
    // earlier arguments does not carry over.
    if (earlier) this.#remember(this.#changed, call.id);
    const { tool } = prepared;
    this.#announce(call, signature);
    const valid = { callKey: call.id, callId: call.id, toolName: tool.name, request: { id: call.id, name: call.name }, tool, arguments: prepared.arguments };
    const context = 'context' in options ? { context: options.context } : {};
    const decided = await decideCall({ policy: this.#policy, registry: this.registry, step: 0, call: valid, ...context });
    for (const event of decided.events) this.#tell(event);
    const args = decided.arguments;
    // A block repeated up to the loop breaker's limit gets a notice instead of stopping the guards (repeated-block.ts); counted as #afterCall counts it,
    // and hashed only where the notice can be given.
    const counted =
      decided.call.blocked === true && this.#limits.maxRepeatedFailures !== false
        ? callSignature(String(call.name).slice(0, 80), call.arguments ?? call.argumentsText ?? {})
        : undefined;
    const { kind, summary, policyNote, invalidResult } = withRepeatedBlockNotice(decided.call, this.#loopCounts, counted, this.#limits, this.#scope);
    const decision: GuardDecision =
      kind === 'invalid'
        ? { action: 'refuse', reason: 'blocked', result: invalidResult! }
        : kind === 'confirm'
          ? {
              action: 'confirm',
              tool,
              arguments: args,
              summary: summary!,
              askedBy: decided.askedBy ?? 'tool',
              prompt: approvalText(summary!, this.#redactor.toolArguments(tool.name, args), tool.decisiveArguments),
            }
          : { action: 'run', tool, arguments: args };
    const checked: Checked = { signature, decision, ...(policyNote !== undefined ? { policyNote } : {}) };
    this.#checked.delete(call.id);
    this.#checked.set(call.id, checked);
    // A call checked and never run nor declined (a host that dropped it) is forgotten past the cap, oldest first.
    for (const id of this.#checked.keys()) {
      if (this.#checked.size <= this.#maxRemembered) break;
      this.#checked.delete(id);
      this.#changed.delete(id);
    }
    return checked;
  }

  /** The registry's argument limits, then its lookup and validation. */
  #prepare(call: ToolCallRequest): PreparedCall {
    const limited = this.registry.checkArgumentLimits(call);
    return limited ? { success: false, failure: limited } : this.registry.prepare(call);
  }

  async run(call: ToolCallRequest, options: GuardedRunOptions = {}): Promise<GuardedCall> {
    const callContext = 'context' in options ? { context: options.context } : {};
    const { decision, policyNote } = await this.#check(call, callContext);
    const toolName = decision.action === 'refuse' ? String(call.name).slice(0, 80) : decision.tool.name;
    if (decision.action === 'refuse') {
      if (decision.reason === 'already_run') return { callId: call.id, toolName, status: 'not_run', result: decision.result };
      if (decision.reason === 'stopped') {
        this.#tellResult(this.#outcome(call, toolName, call.arguments ?? call.argumentsText ?? {}, 'not_run', decision.result));
        return { callId: call.id, toolName, status: 'not_run', result: decision.result };
      }
      const status = decision.reason === 'blocked' ? 'blocked' : 'failed';
      // Invalid and blocked calls count for the loop breaker, as in runAgent: a model repeating them is looping.
      this.#remember(this.#done, call.id);
      const outcome = this.#outcome(call, toolName, call.arguments ?? call.argumentsText ?? {}, status, decision.result, decision.failureCode);
      this.#tellResult(outcome);
      return this.#afterCall({ callId: call.id, toolName, status, result: decision.result }, outcome);
    }
    if (decision.action === 'confirm' && (options.approved !== true || this.#changed.has(call.id))) {
      return { callId: call.id, toolName, status: 'needs_approval', result: errorResult(needsApprovalMessage(toolName)) };
    }
    const max = this.#limits.maxToolCalls;
    if (max !== undefined && this.#usage.toolCalls + this.#reserved + 1 > max) {
      const stop = budgetStop('toolCalls', max, this.#usage.toolCalls, 1);
      this.#stop(stop);
      const result = errorResult(`${toolBudgetMessage(toolName, max, this.#scope)} ${STOP_CALLING}`);
      this.#tellResult(this.#outcome(call, toolName, decision.arguments, 'not_run', result));
      return { callId: call.id, toolName, status: 'not_run', result, stop };
    }
    this.#remember(this.#done, call.id);
    this.#checked.delete(call.id);
    this.#changed.delete(call.id);
    this.#reserved++;
    let ran: RanCall;
    try {
      ran = await runCall({
        registry: this.registry,
        policy: this.#policy,
        step: 0,
        call: { callKey: call.id, callId: call.id, policyNote },
        tool: decision.tool,
        arguments: decision.arguments,
        ...('context' in options ? { screenContext: options.context } : {}),
        options: {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(this.#limits.toolTimeoutMs !== undefined && decision.tool.timeoutMs === undefined ? { timeoutMs: this.#limits.toolTimeoutMs } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          context: 'context' in options ? options.context : this.#context,
          ...(decision.action === 'confirm' ? { approval: { approvedBy: 'person' as const, summary: decision.summary } } : {}),
        },
      });
    } finally {
      this.#reserved--;
    }
    this.#usage.toolCalls++;
    this.#tell(ran.event);
    const { execution, outcome } = ran;
    const status = execution.failure ? 'failed' : 'succeeded';
    const counted = this.#outcome(call, toolName, decision.arguments, status, outcome.result, execution.failure?.code);
    return this.#afterCall({ callId: call.id, toolName, status, result: outcome.result, execution }, counted);
  }

  decline(call: ToolCallRequest, text?: string): GuardedCall {
    const checked = this.#checked.get(call.id)?.decision;
    const toolName = checked && checked.action !== 'refuse' ? checked.tool.name : String(call.name).slice(0, 80);
    if (this.#done.has(call.id)) return { callId: call.id, toolName, status: 'not_run', result: errorResult(alreadyRunMessage(toolName, call.id)) };
    this.#remember(this.#done, call.id);
    this.#checked.delete(call.id);
    this.#changed.delete(call.id);
    const args = checked && checked.action !== 'refuse' ? checked.arguments : (call.arguments ?? call.argumentsText ?? {});
    const result = errorResult(text ?? declinedMessage(toolName, undefined));
    // Not counted for the loop breaker: a person said no, the model did not fail.
    this.#tellResult(this.#outcome(call, toolName, args, 'declined', result));
    return { callId: call.id, toolName, status: 'declined', result };
  }

  recordUsage(usage: GuardUsage): ToolGuardsStop | undefined {
    const total = this.#usage;
    total.inputTokens += count(usage.inputTokens);
    total.outputTokens += count(usage.outputTokens);
    total.modelCalls++;
    this.#costUsd += count(usage.costUsd);
    const limits = this.#limits;
    let stop: BudgetStop | undefined;
    if (limits.maxInputTokens !== undefined && total.inputTokens > limits.maxInputTokens) {
      stop = budgetStop('inputTokens', limits.maxInputTokens, total.inputTokens, 0);
    } else if (limits.maxOutputTokens !== undefined && total.outputTokens >= limits.maxOutputTokens) {
      stop = budgetStop('outputTokens', limits.maxOutputTokens, total.outputTokens, 0);
    } else if (limits.maxCostUsd !== undefined && this.#costUsd >= limits.maxCostUsd) {
      stop = budgetStop('costUsd', limits.maxCostUsd, this.#costUsd, 0);
    }
    if (stop) this.#stop(stop);
    return stop;
  }

  planModelCall(estimatedInputTokens = 0): CallPlan {
    if (this.#stopped?.kind === 'budget') return { ok: false, stop: this.#stopped };
    const usage = this.#usage;
    const spent = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: this.#costUsd, toolCalls: usage.toolCalls, wallTimeMs: 0 };
    // Without a price the money budget is checked only from the cost the host reports (recordUsage).
    return planModelCall({ ...this.#limits, maxCostUsd: undefined, maxWallTimeMs: undefined }, spent, count(estimatedInputTokens), undefined);
  }

  #outcome(call: ToolCallRequest, toolName: string, args: unknown, status: ToolCallStatus, result: ToolResult, failureCode?: ToolFailureCode): ToolCallOutcome {
    const outcome: ToolCallOutcome = { callKey: call.id, callId: call.id, toolName, arguments: args, status, result, durationMs: 0, truncated: false };
    if (failureCode) outcome.failureCode = failureCode;
    return outcome;
  }

  /** Adds `key` to one of the guards' sets of call ids, forgetting the oldest past the cap. */
  #remember(set: Set<string>, key: string): void {
    set.delete(key);
    set.add(key);
    for (const oldest of set) {
      if (set.size <= this.#maxRemembered) break;
      set.delete(oldest);
    }
  }

  /** Tells a call's `tool_call` event, once per call id and arguments. */
  #announce(call: ToolCallRequest, signature: string): void {
    const key = `${call.id}\u0000${signature}`;
    if (this.#announced.has(key)) return;
    this.#remember(this.#announced, key);
    this.#tell(toolCallEvent(0, call.id, call, this.registry.get(call.name)?.effect));
  }

  /** Tells the `tool_result` event of a call that did not run (its outcome made here, as the loop makes them). */
  #tellResult(outcome: ToolCallOutcome): void {
    this.#tell({ ...toolResultEvent(outcome), step: 0 });
  }

  #tell(event: RunEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(event);
    } catch {
      // A failing listener must not break the call, as in runAgent.
    }
  }

  #afterCall(call: GuardedCall, outcome: ToolCallOutcome): GuardedCall {
    const loop = checkForLoop(this.#loopCounts, [outcome], this.#limits, this.#scope);
    this.#forgetOldCounts(outcome);
    if (!loop || this.#stopped) return call;
    this.#stop(loop);
    // The model reads the result that tripped the breaker with the reason beside it, so it stops at once instead of trying again.
    return { ...call, result: { ...call.result, content: [...call.result.content, { type: 'text', text: stoppedMessage(loop) }] }, stop: loop };
  }

  /** Keeps the loop breaker's counts to the most recently seen distinct calls: a loop repeats a recent call, not one from days ago. */
  #forgetOldCounts(outcome: ToolCallOutcome): void {
    // With the loop breaker off nothing was counted (checkForLoop), so there is nothing to forget, and no call to hash.
    if (this.#limits.maxRepeatedFailures === false && this.#limits.maxIdenticalCalls === false) return;
    const { callCounts, failureCounts } = this.#loopCounts;
    const signature = callSignature(outcome.toolName, outcome.arguments);
    if (!Object.prototype.hasOwnProperty.call(callCounts, signature)) return;
    const counted = this.#countedSignatures;
    counted.delete(signature);
    counted.add(signature);
    for (const oldest of counted) {
      if (counted.size <= this.#maxRemembered) break;
      counted.delete(oldest);
      delete callCounts[oldest];
      delete failureCounts[oldest];
    }
  }

  #stop(stop: ToolGuardsStop): void {
    this.#stopped ??= stop;
  }
}

/**
 * Calls their caller already prepared with the guards' registry, with their signature once hashed: the MCP server
 * prepares each call itself (to tell an unknown tool, a protocol error, from bad arguments) and then checks and runs it
 * through its session's guards as the same object, which is then validated and hashed once, not three times.
 */
const preparedCalls = new WeakMap<ToolCallRequest, { registry: ToolRegistry; prepared: PreparedCall; signature?: string }>();

/**
 * Hands the guards over `registry` what `registry.prepare(call)` gave for `call`, so that their `check` and `run` of this
 * same object do not prepare it again. The caller must not change the call's arguments afterwards.
 * @internal
 */
export function notePreparedCall(call: ToolCallRequest, registry: ToolRegistry, prepared: PreparedCall): void {
  preparedCalls.set(call, { registry, prepared });
}

/** {@link ToolGuardsOptions.maxRememberedCalls}'s default. */
const DEFAULT_MAX_REMEMBERED_CALLS = 10_000;

const STOP_CALLING = 'Do not call any more tools: answer the user now with what you have, and say what is left undone.';

function stoppedMessage(stop: ToolGuardsStop): string {
  return `Tool use for this task was stopped: ${stop.message} ${STOP_CALLING}`;
}

function needsApprovalMessage(toolName: string): string {
  return `This call to ${toolName} needs a person's approval, and none was given, so it did not run. Ask the user whether to go ahead, or carry on without it.`;
}

function alreadyRunMessage(toolName: string, callId: string): string {
  return `The call ${callId} to ${toolName} already ran (or was refused) once, so it was not run again. To repeat it, make a new call.`;
}

function refusal(reason: 'invalid' | 'blocked' | 'stopped' | 'already_run', text: string): Extract<GuardDecision, { action: 'refuse' }> {
  return { action: 'refuse', reason, result: errorResult(text) };
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A reported count: a finite non-negative number, else nothing (a host's missing or garbled usage must not break the sums). */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
