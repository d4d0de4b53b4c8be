/**
 * The hook through which policies reach the loop: called for every call that
 * resolved and validated, before anything runs. It may let the call run, ask a
 * person first (even for a tool without `confirm`), or block it with a message
 * the model reads. A guard that throws is treated as "confirm": failing safe
 * means asking a person.
 * @module
 */
import type { Message } from '../protocol/messages.js';
import type { AnyTool } from '../tools/define-tool.js';

/** What a guard is shown. */
export interface ToolCallCheck {
  runId: string;
  callId: string;
  toolName: string;
  tool: AnyTool;
  /** The validated arguments. */
  arguments: unknown;
  /** The transcript so far, the assistant message with this call included. */
  messages: readonly Message[];
}

/** `allow`: run as the tool's own `confirm` rule says; `confirm`: ask a person first; `block`: do not run, and tell the model `message`. */
export type ToolCallVerdict = { action: 'allow' } | { action: 'confirm'; /** Shown to the person beside the call's summary. */ reason?: string } | { action: 'block'; message: string };

export type ToolCallGuard = (check: ToolCallCheck) => ToolCallVerdict | Promise<ToolCallVerdict>;
