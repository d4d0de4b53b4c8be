/**
 * The decide step of the call pipeline (`docs/agent.md`, "One call, three steps"), and the screen of the run step: the
 * one seam every caller (the agent loop, `createToolGuards`, plan-then-execute) consults about a tool call: before a valid call runs
 * ({@link CallPolicy.decide}: run it, ask a person with this summary, or block
 * it with this message) and after it ran ({@link CallPolicy.screen}: what the
 * model is sent). Behind it, in this order:
 *
 * 1. the run's policy session (`runAgent({ policy })`, from `src/policy`):
 *    started for the run or restored on resume, its isolation text added to
 *    the system prompt once, its state kept in the run state;
 * 2. the caller's {@link ToolCallGuard} (`runAgent({ guardToolCall })`);
 * 3. the tool's own `confirm` rule and summary (`src/tools/call-rules.ts`,
 *    shared with the MCP server).
 *
 * The first block wins and stops the checks; otherwise the first stage that
 * wants a person decides it (its reason is shown beside the summary); otherwise
 * the tool's rule does. A stage that throws or answers nonsense asks a person.
 * @module
 */
import type { Message } from '../../protocol/messages.js';
import { removedValuesNote } from '../../policy/policy-messages.js';
import type { Policy, PolicyRewrite, PolicySession, PolicySnapshot, RemovedValue, TrustLabel } from '../../policy/types.js';
import type { Redactor } from '../../shared/redaction/index.js';
import { needsConfirmation, summarizeCall } from '../../tools/call-rules.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { ToolResult } from '../../tools/types.js';
import type { RunEvent } from '../run-event.js';

/** The guard's verdict when there is no guard. */
const ALLOWED: ToolCallVerdict = Object.freeze({ action: 'allow' });

/** What a guard is shown. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as AgentRuntimeOptions: a guard written without a context type fits any run.
export interface ToolCallCheck<Ctx = any> {
  runId: string;
  callId: string;
  toolName: string;
  tool: AnyTool;
  /** The validated arguments. */
  arguments: unknown;
  /** The transcript so far, the assistant message with this call included. */
  messages: readonly Message[];
  /** The run's context (`runAgent({ context })`), as it is. */
  context: Ctx;
}

/** `allow`: run as the tool's own `confirm` rule says; `confirm`: ask a person first; `block`: do not run, and tell the model `message`. */
export type ToolCallVerdict =
  { action: 'allow' } | { action: 'confirm'; /** Shown to the person beside the call's summary. */ reason?: string } | { action: 'block'; message: string };

/** The caller's hook, consulted after the policy for every call that resolved and validated, before anything of its turn runs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as ToolCallCheck.
export type ToolCallGuard<Ctx = any> = (check: ToolCallCheck<Ctx>) => ToolCallVerdict | Promise<ToolCallVerdict>;

/** A valid call, as the loop hands it to the seam. */
export interface CallUnderCheck {
  step: number;
  callKey: string;
  callId: string;
  tool: AnyTool;
  /** The validated arguments. */
  arguments: unknown;
  /** The arguments untrusted data reached (plan-then-execute's holes), for the policy's flow rules; absent: any of them may have. */
  influencedArguments?: readonly string[];
  /**
   * This call's own context, handed to every stage instead of the seam's (an MCP server makes one per `tools/call`).
   * Absent (the key itself): the seam's context.
   */
  context?: unknown;
}

/**
 * What the decide step reads and keeps of the conversation its calls belong to (a run's state fits it; a host loop's
 * guards or a plan make one): never a whole run state, so no caller has to fake one.
 */
export interface CallScope {
  runId: string;
  /** The transcript so far: the guard is shown it, a fresh policy reads the user's texts from it, and its isolation text joins its system message. */
  messages: Message[];
  /** The policy session's state, written after each check and result (a run stores it when it pauses). */
  policy?: PolicySnapshot | undefined;
}

/** Arguments the policy rewrote: the loop validates them again and runs (or offers) the call with them, and adds `note` to its result. */
export interface RewrittenCall {
  arguments: unknown;
  removed: RemovedValue[];
  /** What the model is told beside the result. */
  note: string;
}

/** What the loop does with a valid call; with `rewritten`, the call is run or offered with those arguments instead of the model's. */
export type CallDecision =
  | { action: 'run'; rewritten?: RewrittenCall }
  | {
      action: 'confirm';
      /** The line shown to the person, redacted. */
      summary: string;
      /** Why a person is asked: the policy's or the guard's reason; absent when the tool's own rule asks. */
      reason?: string;
      /** Which stage wants a person: the policy, the caller's guard, or (when neither does) the tool's own `confirm` rule. */
      askedBy: 'policy' | 'guard' | 'tool';
      rewritten?: RewrittenCall;
    }
  | { action: 'block'; message: string; /** The policy's reason for a block (the guard gives only a message). */ reason?: string };

/** A result after the policy saw it: what the model is sent, and its trust label for the record. */
export interface ScreenedResult {
  result: ToolResult;
  trust: TrustLabel;
  isolated: boolean;
}

export interface CallPolicyOptions {
  policy?: Policy | undefined;
  guard?: ToolCallGuard | undefined;
  /** The run's redactor: the summary a person sees goes through it. */
  redactor: Redactor;
  /** The run's context, handed to every stage (policy session, guard, the tool's rule and summary) and kept nowhere else. */
  context?: unknown;
  /** The run's tools by name: a policy first given on a resume labels the results the run already holds by their tools. */
  toolNamed?: (name: string) => AnyTool | undefined;
  /** The run's seed, handed to a fresh policy session. */
  seed?: number | undefined;
  /** Set when the scope already holds steps a policy never saw (a resume that first brings a policy): their results are labelled. */
  resumedWithHistory?: boolean | undefined;
  /** Record the policy's decision on every call, a plain allow included (plan-then-execute's record); default: only flags, rewrites and refusals. */
  recordEveryDecision?: boolean | undefined;
  /** Tools whose own `confirm` rule is not applied (`toolwright serve --approve`); the policy and the guard may still ask a person. */
  preapproved?: readonly string[] | undefined;
  /**
   * toolwright's own tool search (`runAgent({ toolSearch })`): the policy's tool lists are not asked about it, since it reads only the
   * run's tool descriptions and returns only tools the policy allows (see {@link CallPolicy.mayLoad}); the guard still is.
   */
  toolSearchTool?: AnyTool | undefined;
  /**
   * `false`: the session's state is not written into the scope after each check and result, for a caller that never stores
   * it (`createToolGuards`: a host loop's or an MCP session's). The state holds every untrusted result the session read, so
   * copying it on every call would make each call cost more the longer the session lasts. Default `true` (a run stores it when it pauses).
   */
  saveState?: boolean | undefined;
}

export class CallPolicy {
  readonly #session: PolicySession | undefined;
  readonly #guard: ToolCallGuard | undefined;
  readonly #redactor: Redactor;
  readonly #state: CallScope;
  readonly #context: unknown;
  readonly #recordEveryDecision: boolean;
  readonly #preapproved: ReadonlySet<string>;
  readonly #toolSearchTool: AnyTool | undefined;
  readonly #saveState: boolean;

  private constructor(session: PolicySession | undefined, options: CallPolicyOptions, state: CallScope) {
    this.#session = session;
    this.#guard = options.guard;
    this.#redactor = options.redactor;
    this.#state = state;
    this.#context = options.context;
    this.#recordEveryDecision = options.recordEveryDecision === true;
    this.#preapproved = new Set(options.preapproved ?? []);
    this.#toolSearchTool = options.toolSearchTool;
    this.#saveState = options.saveState !== false;
  }

  /** The context a call's stages are handed: its own when it brings one, else the seam's. */
  #contextOf(call: { context?: unknown }): unknown {
    return 'context' in call ? call.context : this.#context;
  }

  /** Whether a tool search may declare or return `toolName`: the policy session's tool lists allow it (a session that cannot say: no). */
  mayLoad(toolName: string): boolean {
    if (!this.#session?.toolAllowed) return true;
    try {
      return this.#session.toolAllowed(toolName) === true;
    } catch {
      return false;
    }
  }

  /** The seam around a policy session its caller already started (plan-then-execute; an MCP session), with no system prompt of its own to add. */
  static around(session: PolicySession | undefined, options: Omit<CallPolicyOptions, 'policy'>, scope: CallScope): CallPolicy {
    return new CallPolicy(session, options, scope);
  }

  /** The seam of a run: starts the policy's session (or restores it from the run state); a fresh run gets the isolation text in its system prompt. */
  static start(options: CallPolicyOptions, state: CallScope): CallPolicy {
    const { policy } = options;
    if (!policy) return new CallPolicy(undefined, options, state);
    if (state.policy) return new CallPolicy(policy.startRun({ runId: state.runId, restore: state.policy }), options, state);
    const trustedTexts = state.messages.flatMap((message) =>
      message.role === 'system'
        ? [message.content]
        : message.role === 'user'
          ? typeof message.content === 'string'
            ? [message.content]
            : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
          : [],
    );
    const systemTexts = state.messages.flatMap((message) => (message.role === 'system' ? [message.content] : []));
    const session = policy.startRun({
      runId: state.runId,
      trustedTexts,
      systemTexts,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    });
    const addition = session.systemPrompt();
    if (addition) addSystemText(state.messages, addition);
    const seam = new CallPolicy(session, options, state);
    // A run that went on without a policy until now (resumed with one): what it already read is labelled as if the
    // policy had seen it arrive, so that its next write is not judged as if the run had read nothing.
    if (options.resumedWithHistory) seam.#restoreHistory(options.toolNamed);
    seam.#save();
    return seam;
  }

  #restoreHistory(toolNamed: ((name: string) => AnyTool | undefined) | undefined): void {
    for (const message of this.#state.messages) {
      if (message.role !== 'tool') continue;
      for (const part of message.results) {
        const tool = toolNamed?.(part.toolName);
        // A tool this process no longer has cannot be labelled by the policy's rules; its result is judged by none.
        if (tool) this.restore(part.callId, tool, part.result, undefined);
      }
    }
  }

  /** The decision on a valid call, and the record events the checks produced (to be emitted in order). */
  async decide(call: CallUnderCheck): Promise<{ decision: CallDecision; events: RunEvent[] }> {
    const events: RunEvent[] = [];
    const policy = this.#askPolicy(call);
    if (policy.event) events.push(policy.event);
    if (policy.verdict.action === 'block') {
      const reason = policy.event?.type === 'policy_decision' ? policy.event.reason : undefined;
      return { decision: { ...policy.verdict, ...(reason !== undefined ? { reason } : {}) }, events };
    }
    // Everything after the policy (the guard, the tool's rule, the person) sees the call that would run: the rewritten one.
    const rewritten: RewrittenCall | undefined = policy.rewrite && {
      arguments: policy.rewrite.arguments,
      removed: policy.rewrite.removed,
      note: removedValuesNote(call.tool.name, policy.rewrite.removed),
    };
    const checked = rewritten ? { ...call, arguments: rewritten.arguments } : call;
    const withRewrite = rewritten ? { rewritten } : {};
    // Without a guard there is nothing to wait for: no await, so no extra microtask per call.
    const guarded = this.#guard ? await this.#askGuard(checked) : ALLOWED;
    if (guarded.action === 'block') return { decision: guarded, events };
    const askedBy = policy.verdict.action === 'confirm' ? 'policy' : guarded.action === 'confirm' ? 'guard' : 'tool';
    const escalated = policy.verdict.action === 'confirm' ? policy.verdict : guarded.action === 'confirm' ? guarded : undefined;
    const context = this.#contextOf(call);
    if (!escalated && (this.#preapproved.has(call.tool.name) || !needsConfirmation(call.tool, checked.arguments, context))) {
      return { decision: { action: 'run', ...withRewrite }, events };
    }
    // The person sees secret arguments as [REDACTED]: they know one was set, and the summary can be stored and printed.
    const reason = escalated?.reason;
    const summary = summarizeCall(call.tool, checked.arguments, { redactor: this.#redactor, reason, context });
    return { decision: { action: 'confirm', summary, ...(reason !== undefined ? { reason } : {}), askedBy, ...withRewrite }, events };
  }

  /**
   * The result the model is sent after a call ran; `undefined` when the run has no policy (the result goes as it is).
   * `call.context`, when given, is the call's own context (as in {@link CallUnderCheck}).
   */
  screen(callId: string, tool: AnyTool, result: ToolResult, call: { context?: unknown } = {}): ScreenedResult | undefined {
    if (!this.#session) return undefined;
    try {
      const runContext = this.#contextOf(call);
      const output = this.#session.afterToolResult({ call: { id: callId, name: tool.name }, tool, result, runContext });
      this.#save();
      return output;
    } catch {
      // A policy that cannot label a result must not pass it on unlabelled as trusted: the model gets a neutral note instead.
      return { result: withheldResult(tool), trust: 'untrusted', isolated: false };
    }
  }

  /**
   * A stored outcome a resumed run reuses instead of running its call again: the policy learns from its result (taint,
   * provenance) as in the process that ran it, under the label stored with it (or labels it again); the stored result is
   * what the model is sent. Without this, a run taken over after a crash would judge its next write as if it had never read
   * what that call returned. Returns the note to send instead when the policy could not take the result in.
   */
  restore(callId: string, tool: AnyTool, result: ToolResult, trust: TrustLabel | undefined): ToolResult | undefined {
    if (!this.#session) return undefined;
    try {
      const restored = trust !== undefined ? { trust } : {};
      this.#session.afterToolResult({ call: { id: callId, name: tool.name }, tool, result, runContext: this.#context, restored });
      this.#save();
      return undefined;
    } catch {
      return withheldResult(tool);
    }
  }

  #askPolicy(call: CallUnderCheck): { verdict: ToolCallVerdict; event: RunEvent | undefined; rewrite?: PolicyRewrite } {
    const { step, callKey, callId, tool } = call;
    if (!this.#session || (this.#toolSearchTool !== undefined && tool === this.#toolSearchTool)) return { verdict: { action: 'allow' }, event: undefined };
    const base = { type: 'policy_decision' as const, step, callKey, callId, toolName: tool.name };
    let decision: ReturnType<PolicySession['beforeToolCall']>;
    try {
      decision = this.#session.beforeToolCall({
        call: { id: callId, name: tool.name, callKey },
        tool,
        arguments: call.arguments,
        context: { step },
        ...(call.influencedArguments ? { influencedArguments: call.influencedArguments } : {}),
        runContext: this.#contextOf(call),
      });
      this.#save();
    } catch (error) {
      // A policy that cannot decide asks a person; it never ends the run.
      const reason = error instanceof Error ? error.message : String(error);
      return {
        verdict: { action: 'confirm', reason: 'the policy check failed' },
        event: { ...base, action: 'confirm', ruleId: 'policy-error', reason, flags: [] },
      };
    }
    const flags = decision.flags;
    const rewrite = decision.action !== 'block' && decision.rewrite ? decision.rewrite : undefined;
    const removed = rewrite ? { removed: rewrite.removed } : {};
    switch (decision.action) {
      case 'block':
        return {
          verdict: { action: 'block', message: decision.message },
          event: { ...base, flags, action: 'block', ruleId: decision.ruleId, reason: decision.reason },
        };
      case 'confirm':
        return {
          verdict: { action: 'confirm', reason: decision.reason },
          event: { ...base, flags, action: 'confirm', ruleId: decision.ruleId, reason: decision.reason, ...removed },
          ...(rewrite ? { rewrite } : {}),
        };
      default:
        return {
          verdict: { action: 'allow' },
          event: flags.length > 0 || rewrite || this.#recordEveryDecision ? { ...base, flags, action: 'allow', ...removed } : undefined,
          ...(rewrite ? { rewrite } : {}),
        };
    }
  }

  async #askGuard(call: CallUnderCheck): Promise<ToolCallVerdict> {
    const guard = this.#guard;
    if (!guard) return { action: 'allow' };
    try {
      const verdict = await guard({
        runId: this.#state.runId,
        callId: call.callId,
        toolName: call.tool.name,
        tool: call.tool,
        arguments: call.arguments,
        messages: this.#state.messages,
        context: this.#contextOf(call),
      });
      if (verdict && (verdict.action === 'allow' || verdict.action === 'confirm')) return verdict;
      if (verdict && verdict.action === 'block' && typeof verdict.message === 'string') return verdict;
      return { action: 'confirm', reason: 'the policy gave no usable verdict' };
    } catch {
      return { action: 'confirm', reason: 'the policy check failed' };
    }
  }

  /** Writes the session's state into the run state (stored with it when the run pauses). */
  #save(): void {
    if (this.#session && this.#saveState) this.#state.policy = this.#session.snapshot();
  }
}

function withheldResult(tool: AnyTool): ToolResult {
  return { content: [{ type: 'text', text: `The result of ${tool.name} could not be checked by the run's policy, so it is withheld.` }], isError: true };
}

function addSystemText(messages: Message[], text: string): void {
  const index = messages.findIndex((message) => message.role === 'system');
  const existing = messages[index];
  if (existing && existing.role === 'system') messages[index] = { role: 'system', content: `${existing.content}\n\n${text}` };
  else messages.unshift({ role: 'system', content: text });
}
