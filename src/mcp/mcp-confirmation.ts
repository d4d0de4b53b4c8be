/**
 * Confirmation over MCP: a tool whose `confirm` rule says yes runs only after
 * a person approves. Whether a call needs one, and the line the person reads,
 * are decided by `src/tools/call-rules.ts`, as in the agent loop. The server
 * asks through `elicitation/create` when the client declared elicitation;
 * otherwise the call becomes a tool error that says how to get it approved. A {@link McpConfirmationHandler} replaces both
 * (the agent runtime's durable confirmation store plugs in here).
 * @module
 */
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { approvalText } from '../tools/call-summary.js';
import type { AnyTool } from '../tools/index.js';

/** One call waiting for a person's decision. */
export interface McpConfirmationRequest {
  tool: AnyTool;
  /** The validated arguments. */
  arguments: unknown;
  /** One line for a person, redacted: the tool's `summarize(args)`, or its name and canonical arguments (`src/tools/call-rules.ts`). */
  summary: string;
  /**
   * What to show the person: the summary line, then the redacted arguments one per line, those that decide where the
   * effect goes first and whole up to their cap (`approvalText`, `src/tools/call-summary.ts`), as elicitation shows them.
   */
  prompt: string;
  /** The JSON-RPC id of the `tools/call`, as a string. */
  callId: string;
  signal: AbortSignal;
}

/** The person's answer; `reason` reaches the model when the call is refused. */
export interface McpConfirmationDecision {
  approved: boolean;
  reason?: string;
}

/** Decides confirmations instead of elicitation (for example a queue a person answers later). */
export type McpConfirmationHandler = (request: McpConfirmationRequest) => Promise<McpConfirmationDecision>;

/** The form sent with `elicitation/create`: one required yes/no field. */
export const CONFIRMATION_SCHEMA = {
  type: 'object',
  properties: {
    approve: { type: 'boolean', title: 'Approve this call', description: 'Yes runs the tool once with the arguments shown.', default: false },
  },
  required: ['approve'],
} as const;

/**
 * The elicitation message: the summary line, then the arguments line by line with those that decide where the effect
 * goes first, each whole up to its cap (`approvalText`, `src/tools/call-summary.ts`). `shownArguments` are the redacted
 * arguments.
 */
export function confirmationPrompt(tool: AnyTool, summary: string, shownArguments: unknown): string {
  return confirmationMessage(tool, approvalText(summary, shownArguments, tool.decisiveArguments));
}

/** The elicitation message around a prompt {@link approvalText} made. */
export function confirmationMessage(tool: AnyTool, prompt: string): string {
  return `${confirmationPromptStart(tool.title ?? tool.name)}${prompt}${CONFIRMATION_PROMPT_END}`;
}

const CONFIRMATION_PROMPT_END = '\nApprove this call?';
function confirmationPromptStart(label: string): string {
  return `The assistant wants to run "${label}", which needs your approval:\n`;
}

/**
 * Whether `message` is {@link confirmationPrompt}'s text for the tool shown as `label` (its title, or its name): what
 * toolwright's MCP client checks before answering a server's confirmation request for a call to that tool.
 */
export function isConfirmationPromptFor(message: string, label: string): boolean {
  const start = confirmationPromptStart(label);
  return message.length >= start.length + CONFIRMATION_PROMPT_END.length && message.startsWith(start) && message.endsWith(CONFIRMATION_PROMPT_END);
}

/** Whether a requested form is {@link CONFIRMATION_SCHEMA}'s: an object with one field, `approve`, a required boolean, and nothing else. */
export function isConfirmationSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, properties, required } = schema as { type?: unknown; properties?: unknown; required?: unknown };
  if (type !== 'object' || typeof properties !== 'object' || properties === null) return false;
  const keys = Object.keys(properties);
  if (keys.length !== 1 || keys[0] !== 'approve') return false;
  const field: unknown = (properties as Record<string, unknown>).approve;
  if (typeof field !== 'object' || field === null || (field as { type?: unknown }).type !== 'boolean') return false;
  return Array.isArray(required) && required.length === 1 && required[0] === 'approve';
}

export function decisionFromElicitation(result: ElicitResult): McpConfirmationDecision {
  if (result.action === 'accept') {
    const approve = result.content?.approve;
    return approve === true ? { approved: true } : { approved: false, reason: 'the person answered no' };
  }
  return { approved: false, reason: result.action === 'decline' ? 'the person declined' : 'the person dismissed the request without answering' };
}

/** The tool error for a refused call: the model must not retry on its own. */
export function confirmationRefusedMessage(tool: AnyTool, reason: string | undefined): string {
  return `The call to "${tool.name}" did not run: it needs a person's approval and ${reason ?? 'it was not approved'}. Do not call it again unless the person asks you to; tell them what you wanted to do instead.`;
}

/** The tool error when nobody can be asked: says exactly how to get the call approved. */
export function confirmationUnavailableMessage(
  tool: AnyTool,
  summary: string,
  options: { preapprovable?: boolean; hint?: ((toolName: string, preapprovable: boolean) => string) | undefined } = {},
): string {
  // `--approve` lifts only the tool's own rule: for a call the server's policy or guard wants asked about, it would not help.
  const ways =
    options.hint?.(tool.name, options.preapprovable !== false) ??
    (options.preapprovable === false
      ? 'use an MCP client that supports elicitation.'
      : `use an MCP client that supports elicitation, or restart the server with \`toolwright serve --approve ${tool.name}\` to let this tool run without asking.`);
  return (
    `The call to "${tool.name}" did not run: it needs a person's approval, and this MCP client cannot ask for it (it did not declare the "elicitation" capability). ` +
    `Call that was refused: ${summary}. ` +
    `Tell the person what you want to do. To approve it they can ${ways}`
  );
}

/** The tool error when asking failed (timeout, client error). */
export function confirmationFailedMessage(tool: AnyTool): string {
  return `The call to "${tool.name}" did not run: it needs a person's approval and the request for approval failed. Ask the person whether to proceed before calling it again.`;
}
