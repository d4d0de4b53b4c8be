/**
 * toolwright tools as OpenAI Agents SDK function tools (`Agent({ tools })`,
 * `run`). Each call goes through {@link ToolGuards}: the registry validates
 * and answers a bad call with its recovery text, the policy and the caller's
 * guard decide per call, budgets and the loop breaker count. A tool whose
 * `confirm` rule asks for a person gets the SDK's approval flow: the run ends
 * with an interruption, the host calls `result.state.approve(item)` (or
 * `reject`), and `run(agent, result.state)` resumes; the call then runs once,
 * with the person's approval in its `context.approval`.
 *
 * The parameters are the tool's own JSON Schema, sent with `strict: false`:
 * OpenAI's strict mode would need every property required and no open
 * objects, and toolwright validates every call anyway. Results reach the model
 * as text (failures included, so the model reads the recovery text).
 * @module
 */
import type { FunctionTool, RunContext, tool as sdkTool } from '@openai/agents';
import { createToolGuards, isToolGuards, type ToolGuards, type ToolGuardsOptions } from '../../agent/tool-guards.js';
import { resultText } from '../../formats/content-as-text.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { loadPeer } from '../../shared/load-peer.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { RegistrableTool, ToolRegistry } from '../../tools/tool-registry.js';
import type { ToolResult } from '../../tools/types.js';
import { objectRootSchema } from '../schema-shapes.js';

/** An OpenAI Agents SDK function tool made from a toolwright tool. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's own default for a tool's run context and parameters.
export type OpenAIAgentsTool = FunctionTool<any, any, string>;

/** Options of {@link toOpenAIAgentsTools} when it makes the guards itself (everything of `createToolGuards` but the tools). */
export type OpenAIAgentsToolsOptions = Omit<ToolGuardsOptions, 'tools'>;

/**
 * The tools of a registry (or list, or existing guards) as OpenAI Agents SDK tools; loads `@openai/agents` on first
 * use. Pass guards you made with `createToolGuards` to read `guards.stopped` between runs or share budgets.
 */
export async function toOpenAIAgentsTools(
  source: ToolGuards | ToolRegistry | readonly RegistrableTool[],
  options: OpenAIAgentsToolsOptions = {},
): Promise<OpenAIAgentsTool[]> {
  if (isToolGuards(source) && Object.keys(options).length > 0) {
    throw new InvalidArgumentError('toOpenAIAgentsTools: pass options to createToolGuards, not beside guards that already exist.');
  }
  const guards = isToolGuards(source) ? source : createToolGuards({ ...options, tools: source });
  const { tool } = await loadPeer('@openai/agents', 'toOpenAIAgentsTools', () => import('@openai/agents'));
  return guards.registry.list().map((entry) => agentsTool(tool, guards, entry));
}

function agentsTool(tool: typeof sdkTool, guards: ToolGuards, entry: AnyTool): OpenAIAgentsTool {
  const name = entry.name;
  const made = tool({
    name,
    description: entry.description,
    parameters: objectRootSchema(entry.inputSchema) as never,
    strict: false,
    // Asked before the call runs; an invalid call is not put to a person (it runs into its recovery text instead).
    needsApproval: async (_context: RunContext, input: unknown, callId?: string) =>
      callId !== undefined && (await guards.check({ id: callId, name, arguments: input })).action === 'confirm',
    execute: async (input: unknown, context?: RunContext, details?: { toolCall?: { callId: string; name: string }; signal?: AbortSignal }) => {
      const callId = details?.toolCall?.callId;
      if (callId === undefined) return resultText(noCallIdResult(name).content);
      // The SDK runs a call that needed approval only once the host approved it; the run context says so for this very call.
      const approved = context?.isToolApproved({ toolName: details?.toolCall?.name ?? name, callId }) === true;
      const call = await guards.run({ id: callId, name, arguments: input }, { signal: details?.signal, approved });
      return resultText(textParts(call.result));
    },
  });
  return made as OpenAIAgentsTool;
}

/** The part of an SDK interruption (`result.interruptions[i]`, a `RunToolApprovalItem`) that names the call waiting for a person. */
export interface OpenAIAgentsApprovalItem {
  rawItem: { callId?: string; name?: string; arguments?: string } | object;
}

/**
 * What to show the person deciding on an interruption: toolwright's redacted summary line, then the call's arguments
 * line by line, those that decide where the effect goes (recipients, destinations, accounts, amounts, paths) first and
 * whole up to their cap, the rest cut with the count of what was cut (the guards' `prompt`). `undefined` when the
 * guards do not ask a person about this call (or the item is not a function call).
 */
export async function openAIAgentsApprovalPrompt(guards: ToolGuards, item: OpenAIAgentsApprovalItem): Promise<string | undefined> {
  if (!isToolGuards(guards)) throw new InvalidArgumentError('openAIAgentsApprovalPrompt expects the guards the tools were made with (createToolGuards).');
  const raw = item.rawItem as { callId?: unknown; name?: unknown; arguments?: unknown };
  if (typeof raw.callId !== 'string' || typeof raw.name !== 'string') return undefined;
  const argumentsText = typeof raw.arguments === 'string' ? raw.arguments : '{}';
  const decision = await guards.check({ id: raw.callId, name: raw.name, argumentsText });
  return decision.action === 'confirm' ? decision.prompt : undefined;
}

/** The result as text parts; a structured-only result as its JSON. */
function textParts(result: ToolResult): ToolResult['content'] {
  if (result.content.length === 0 && result.structuredContent !== undefined) return [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  return result.content;
}

function noCallIdResult(name: string): ToolResult {
  return { content: [{ type: 'text', text: `The call to ${name} carried no call id, so it was not run. Make the call again.` }], isError: true };
}
