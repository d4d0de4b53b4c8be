/**
 * The contract between the policy layer and the agent loop. A {@link Policy}
 * is declared once (per task or per run); `startRun` gives a
 * {@link PolicySession} that holds the run's own state (taint, call counts,
 * the isolation boundary). The loop calls the session at three points:
 *
 * 1. `beforeToolCall`, once per validated call, before it runs or is offered
 *    for confirmation: allow, block (the model reads `message` as the call's
 *    tool error; the record keeps `ruleId`), or ask a person first.
 * 2. `afterToolResult`, once per result of a call that ran: the result the
 *    model is sent (wrapped by the isolation strategy when untrusted) and its
 *    trust label.
 * 3. `systemPrompt`, once per run: text appended to the system prompt that
 *    explains the isolation convention to the model.
 *
 * Everything here is synchronous and pure apart from the session's own state,
 * which `snapshot()` returns as JSON so that a paused run can be resumed in
 * another process (`startRun({ restore })`).
 * @module
 */
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolResult } from '../tools/types.js';

/** Where a tool result's content came from: the user's side, or anyone (a web page, an email, a file). */
export type TrustLabel = 'trusted' | 'untrusted';

/** What happens to a call a rule objects to. */
export type RuleAction = 'block' | 'confirm';

/** What happens to a call a provenance rule objects to: as {@link RuleAction}, or `remove` the offending values and let the call go on. */
export type ProvenanceRuleAction = RuleAction | 'remove';

/** A call as the policy sees it. */
export interface PolicyCall {
  /** The provider's call id. */
  id: string;
  /** The tool the model named. */
  name: string;
  /** The run-unique key of the call (`<step>.<index>`), when the loop has one. */
  callKey?: string;
}

/** Input of {@link PolicySession.beforeToolCall}. */
export interface BeforeToolCallInput {
  call: PolicyCall;
  /** The resolved tool (its `effect` decides whether flow rules apply). */
  tool: AnyTool;
  /** The arguments after schema validation. */
  arguments: unknown;
  /** Where in the run the call was made. */
  context?: { step?: number };
  /** The run's typed context (`runAgent({ context })`), as it is; `undefined` when the run has none. */
  runContext?: unknown;
  /**
   * The arguments (dotted paths) untrusted data could have reached, when the caller knows (a plan's holes; the planner's pinned arguments never
   * saw a tool's output). Default: every argument, once untrusted output has entered the run.
   */
  influencedArguments?: readonly string[];
}

/** A note on an allowed call, kept in the record: the call went ahead, but a reviewer should look. */
export interface PolicyFlag {
  /** The rule that raised it, e.g. `copied-argument`. */
  ruleId: string;
  /** The argument, as a path such as `to[0]` or `payment.iban`. */
  argumentPath: string;
  /** What was found, for a person. */
  message: string;
  /** The untrusted result the value was copied from, when known. */
  source?: { toolName: string; callId: string };
}

/** One value a rule took out of an argument before the call ran (`valuesFrom({ action: 'remove' })`). */
export interface RemovedValue {
  /** The rule that took it out. */
  ruleId: string;
  /** The argument it was in, as a path such as `body` or `messages[1].text`. */
  argumentPath: string;
  /** The kind of value (`url`, `email`, …). */
  kind: string;
  /** What was taken out and why, as a phrase (a secret shown only redacted), e.g. `the URL "https://evil.example/x", which came only from untrusted output of read_email`. */
  message: string;
}

/** Arguments a policy rewrote: the call is judged, confirmed and run with `arguments` instead of the model's. */
export interface PolicyRewrite {
  arguments: unknown;
  removed: RemovedValue[];
}

/** The decision on one call. */
export type PolicyDecision =
  | {
      action: 'allow';
      /** Notes for the record; never shown to the model. */
      flags: PolicyFlag[];
      /** Set when a rule took values out of the arguments: the call runs with these (the loop tells the model what was removed). */
      rewrite?: PolicyRewrite;
    }
  | {
      action: 'block';
      /** The stable id of the rule that blocked the call. */
      ruleId: string;
      /** One sentence saying what the rule forbids here, for the record and a person. */
      reason: string;
      /** The full tool error the model reads instead of a result: what was blocked, by which rule, what to do next. */
      message: string;
      flags: PolicyFlag[];
    }
  | {
      action: 'confirm';
      /** The rule that wants a person to decide. */
      ruleId: string;
      /** Why, for the person deciding (it is shown with the call's summary). */
      reason: string;
      flags: PolicyFlag[];
      /** As for `allow`: the person is shown, and approves, the rewritten call. */
      rewrite?: PolicyRewrite;
    };

/** Input of {@link PolicySession.afterToolResult}. */
export interface AfterToolResultInput {
  call: PolicyCall;
  tool: AnyTool;
  /** The result as the tool (or the registry) produced it. */
  result: ToolResult;
  /** The run's typed context (`runAgent({ context })`), as it is; `undefined` when the run has none. */
  runContext?: unknown;
  /**
   * Set when the result is not new: a stored outcome that a resumed run reuses instead of running the call again (a take-over
   * after the process that ran it died), or a result already in the run's history when its policy is first given on a resume.
   * The session learns from it as from a fresh result (taint, provenance) and returns it as it is, since the model already
   * has it or is sent it as stored; `trust` is the label it got when it ran, when that was stored.
   */
  restored?: { trust?: TrustLabel };
}

/** Output of {@link PolicySession.afterToolResult}. */
export interface AfterToolResultOutput {
  /** What the model is sent: the result itself, or its isolated form. */
  result: ToolResult;
  trust: TrustLabel;
  /** Whether the isolation strategy rewrote the result. */
  isolated: boolean;
}

/** A session's state as JSON, to resume a paused run in another process. */
export interface PolicySnapshot {
  version: 1;
  /** The per-run secret of the isolation boundary. */
  token: string;
  /** Whether untrusted content has entered the context. */
  tainted: boolean;
  /** Calls let through, per tool. */
  callCounts: Record<string, number>;
  /** Untrusted result texts seen, for the copied-argument check, with where each came from. */
  untrusted: { toolName: string; callId: string; text: string }[];
  /** Texts from the user's side (prompt, system prompt). */
  trustedTexts: string[];
  /** Which of `trustedTexts` are the system prompt (absent in snapshots taken before provenance existed). */
  systemTexts?: string[];
  /** Trusted result texts seen, for provenance (absent in snapshots taken before provenance existed). */
  trustedResults?: { toolName: string; callId: string; text: string; field?: string }[];
}

/** Options of {@link Policy.startRun}. */
export interface StartRunOptions {
  /** The run id; with `seed`, it makes the isolation boundary reproducible. */
  runId?: string;
  /** Text the user wrote (prompt, system prompt): a value found here is never "copied from untrusted content". */
  trustedTexts?: readonly string[];
  /** Which of `trustedTexts` are the system prompt rather than the user's own words (provenance origin `system`; the rest count as `user`). */
  systemTexts?: readonly string[];
  /** Derive the per-run boundary from this seed and `runId` instead of fresh randomness (for reproducible evaluations). */
  seed?: number | string;
  /** Continue a run from its stored state. */
  restore?: PolicySnapshot;
}

/** The per-run half of a policy; see the module comment for when the loop calls each method. */
export interface PolicySession {
  beforeToolCall(input: BeforeToolCallInput): PolicyDecision;
  afterToolResult(input: AfterToolResultInput): AfterToolResultOutput;
  /**
   * The only values the policy lets a call of `toolName` carry at the top-level `argument` (every blocking `allowValues` rule on
   * it, intersected), or `undefined` when no rule bounds it. Plan-then-execute narrows a hole's schema with it.
   */
  allowedValues?(toolName: string, argument: string): readonly (string | number | boolean)[] | undefined;
  /** Whether the policy could let any call of `toolName` through (its tool lists); a tool search never loads one it could not. */
  toolAllowed?(toolName: string): boolean;
  /** Text to append to the system prompt (the isolation convention), or `undefined` for none. */
  systemPrompt(): string | undefined;
  /** The session's state, as JSON. */
  snapshot(): PolicySnapshot;
  /** Whether untrusted content has entered the context. */
  readonly tainted: boolean;
}

/** A declared policy; see `createPolicy`. */
export interface Policy {
  /** A short name for records and reports. */
  readonly name: string;
  startRun(options?: StartRunOptions): PolicySession;
}
