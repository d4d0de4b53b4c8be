/**
 * The glue between a run and a policy (`runAgent({ policy })`): starts the
 * policy's session for the run (or restores it on resume), adds the isolation
 * convention to the system prompt once, asks the session about each valid
 * call, passes each result through it (isolation, trust label), and keeps its
 * state in the run state so that a paused run resumes with the same taint,
 * counts and boundary.
 * @module
 */
import type { Message } from '../protocol/messages.js';
import type { Policy, PolicySession, TrustLabel } from '../policy/types.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolResult } from '../tools/types.js';
import type { RunEvent } from './run-event.js';
import type { RunState } from './run-state.js';
import type { ToolCallVerdict } from './tool-call-guard.js';

export class RunPolicy {
  readonly #session: PolicySession;
  readonly #state: RunState;

  private constructor(session: PolicySession, state: RunState) {
    this.#session = session;
    this.#state = state;
  }

  /** Starts the policy's session for a run, or restores it from the run state; a fresh run gets the isolation text in its system prompt. */
  static start(policy: Policy, state: RunState): RunPolicy {
    if (state.policy) return new RunPolicy(policy.startRun({ runId: state.runId, restore: state.policy }), state);
    const trustedTexts = state.messages.flatMap((message) => (message.role === 'system' ? [message.content] : message.role === 'user' ? (typeof message.content === 'string' ? [message.content] : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))) : []));
    const session = policy.startRun({ runId: state.runId, trustedTexts, ...(state.settings.seed !== undefined ? { seed: state.settings.seed } : {}) });
    const addition = session.systemPrompt();
    if (addition) addSystemText(state.messages, addition);
    const run = new RunPolicy(session, state);
    run.save();
    return run;
  }

  /** The session's verdict on a valid call, and the record event for anything but a plain allow. */
  before(step: number, callKey: string, callId: string, tool: AnyTool, args: unknown): { verdict: ToolCallVerdict; event: RunEvent | undefined } {
    const decision = this.#session.beforeToolCall({ call: { id: callId, name: tool.name, callKey }, tool, arguments: args, context: { step } });
    this.save();
    const base = { type: 'policy_decision' as const, step, callKey, callId, toolName: tool.name, flags: decision.flags };
    switch (decision.action) {
      case 'block':
        return { verdict: { action: 'block', message: decision.message }, event: { ...base, action: 'block', ruleId: decision.ruleId, reason: decision.reason } };
      case 'confirm':
        return { verdict: { action: 'confirm', reason: decision.reason }, event: { ...base, action: 'confirm', ruleId: decision.ruleId, reason: decision.reason } };
      default:
        return { verdict: { action: 'allow' }, event: decision.flags.length > 0 ? { ...base, action: 'allow' } : undefined };
    }
  }

  /** The result the model is sent, and its trust label. */
  after(callId: string, tool: AnyTool, result: ToolResult): { result: ToolResult; trust: TrustLabel; isolated: boolean } {
    const output = this.#session.afterToolResult({ call: { id: callId, name: tool.name }, tool, result });
    this.save();
    return output;
  }

  /** Writes the session's state into the run state (stored with it when the run pauses). */
  save(): void {
    this.#state.policy = this.#session.snapshot();
  }
}

function addSystemText(messages: Message[], text: string): void {
  const index = messages.findIndex((message) => message.role === 'system');
  const existing = messages[index];
  if (existing && existing.role === 'system') messages[index] = { role: 'system', content: `${existing.content}\n\n${text}` };
  else messages.unshift({ role: 'system', content: text });
}
