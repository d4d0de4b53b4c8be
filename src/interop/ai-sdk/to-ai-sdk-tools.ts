/**
 * toolwright tools as Vercel AI SDK tools (`generateText`, `streamText`,
 * `ToolLoopAgent`). Each call goes through {@link ToolGuards}: the registry
 * validates the arguments and answers a bad call with its recovery text, the
 * policy and the caller's guard decide per call, budgets and the loop breaker
 * count, and a tool whose `confirm` rule asks for a person gets the AI SDK's
 * approval flow (`needsApproval`, answered by a `tool-approval-response`).
 *
 * Failures are returned, not thrown: the AI SDK would turn a thrown error into
 * its own `tool-error` part, while a returned result keeps toolwright's text
 * and reaches the model as an `error-text` output (`toModelOutput`). The tool
 * objects are built structurally, so this module imports nothing from `ai` at
 * run time (the schema carries the AI SDK's global schema marker).
 * @module
 */
import type { ModelMessage, Tool, ToolApprovalStatus } from 'ai';
import { createToolGuards, isToolGuards, type ToolGuards, type ToolGuardsOptions } from '../../agent/tool-guards.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { RegistrableTool, ToolRegistry } from '../../tools/tool-registry.js';
import type { ContentPart, ToolResult } from '../../tools/types.js';
import { objectRootSchema } from '../schema-shapes.js';

/** An AI SDK tool made from a toolwright tool: its input is the validated arguments object, its output toolwright's MCP-shaped result. */
export type AISDKTool = Tool<Record<string, unknown>, ToolResult>;

/** The output the model is sent, as the AI SDK types it. */
export type AISDKToolModelOutput = Awaited<ReturnType<NonNullable<AISDKTool['toModelOutput']>>>;

/** Options of {@link toAISDKTools} when it makes the guards itself (everything of `createToolGuards` but the tools). */
export type AISDKToolsOptions = Omit<ToolGuardsOptions, 'tools'>;

/** The AI SDK's marker of a ready schema object (`jsonSchema()` sets it; `Symbol.for`, so every copy of the AI SDK agrees). */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/**
 * The tools of a registry (or list, or existing guards) as an AI SDK tool set. Pass guards you made with
 * `createToolGuards` to read `guards.stopped` in a `stopWhen` condition, share budgets between requests, or feed
 * usage to `guards.recordUsage`; otherwise the options make new guards.
 */
export function toAISDKTools(source: ToolGuards | ToolRegistry | readonly RegistrableTool[], options: AISDKToolsOptions = {}): Record<string, AISDKTool> {
  const guards = isToolGuards(source) ? source : createToolGuards({ ...options, tools: source });
  if (isToolGuards(source) && Object.keys(options).length > 0) {
    throw new InvalidArgumentError('toAISDKTools: pass options to createToolGuards, not beside guards that already exist.');
  }
  const set: Record<string, AISDKTool> = {};
  for (const tool of guards.registry.list()) set[tool.name] = aiSDKTool(guards, tool);
  return set;
}

/** A per-tool `toolApproval` setting for `generateText`/`streamText`, as {@link toAISDKToolApproval} makes it. */
export type AISDKToolApproval = Record<string, (input: unknown, options: { toolCallId: string }) => Promise<ToolApprovalStatus>>;

/**
 * The AI SDK 7 way to ask for approval (`generateText({ toolApproval })`, which replaces the tools' own deprecated
 * `needsApproval`): for each tool of the guards, `user-approval` with toolwright's redacted summary and arguments (the
 * guards' `prompt`: those that decide where the effect goes first, each whole up to its cap) as the reason shown to the
 * person when the guards' decision is `confirm`, otherwise `not-applicable`.
 */
export function toAISDKToolApproval(guards: ToolGuards): AISDKToolApproval {
  if (!isToolGuards(guards)) throw new InvalidArgumentError('toAISDKToolApproval expects the guards the tools were made with (createToolGuards).');
  const approval: AISDKToolApproval = {};
  for (const name of guards.registry.names()) {
    approval[name] = async (input, options) => {
      const decision = await guards.check({ id: options.toolCallId, name, arguments: input });
      return decision.action === 'confirm' ? { type: 'user-approval', reason: decision.prompt } : { type: 'not-applicable' };
    };
  }
  return approval;
}

function aiSDKTool(guards: ToolGuards, tool: AnyTool): AISDKTool {
  const name = tool.name;
  const aiTool = {
    type: 'function',
    description: tool.description,
    inputSchema: aiSDKSchema(tool.inputSchema),
    // The AI SDK's own fields: its provider package sends them where its provider has them.
    ...(tool.examples !== undefined && tool.examples.length > 0 ? { inputExamples: tool.examples.map((example) => ({ input: example })) } : {}),
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    // Asked before the call runs; an invalid call is not put to a person (it runs into its recovery text instead).
    needsApproval: async (input: unknown, options: { toolCallId: string }) =>
      (await guards.check({ id: options.toolCallId, name, arguments: input })).action === 'confirm',
    execute: async (input: unknown, options: { toolCallId: string; messages: ModelMessage[]; abortSignal?: AbortSignal }) => {
      const call = await guards.run(
        { id: options.toolCallId, name, arguments: input },
        { signal: options.abortSignal, approved: approvedInMessages(options.messages, options.toolCallId) },
      );
      return call.result;
    },
    toModelOutput: ({ output }: { output: ToolResult }) => toModelOutput(output),
  };
  return aiTool as unknown as AISDKTool;
}

/** What the AI SDK's `jsonSchema(schema)` returns, without loading the AI SDK: no validation of its own, so the registry's validation and texts apply. */
function aiSDKSchema(schema: unknown) {
  return { [AI_SDK_SCHEMA]: true, _type: undefined, jsonSchema: objectRootSchema(schema), validate: undefined };
}

/**
 * Whether the conversation the AI SDK hands to `execute` holds a person's approval of this very call: a
 * `tool-approval-response` with `approved: true` to a `tool-approval-request` for the call id. Only the first response
 * to a call counts, as in the AI SDK.
 */
function approvedInMessages(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  if (!Array.isArray(messages)) return false;
  const approvalIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalIds.add(part.approvalId);
  }
  if (approvalIds.size === 0) return false;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-approval-response' && approvalIds.has(part.approvalId)) return part.approved === true;
  }
  return false;
}

/** A toolwright result as the AI SDK's model output: failures as `error-text`, text as `text`, media as `content` parts. */
export function toModelOutput(result: ToolResult): AISDKToolModelOutput {
  const parts = result.content.length === 0 && result.structuredContent !== undefined ? [textPart(JSON.stringify(result.structuredContent))] : result.content;
  const text = parts.map(partText).join('\n');
  if (result.isError) return { type: 'error-text', value: text };
  if (!parts.some((part) => part.type === 'image' || part.type === 'audio')) return { type: 'text', value: text };
  return {
    type: 'content',
    value: parts.map((part) =>
      part.type === 'image' || part.type === 'audio'
        ? { type: 'file' as const, mediaType: part.mimeType, data: { type: 'data' as const, data: part.data } }
        : { type: 'text' as const, text: partText(part) },
    ),
  };
}

function textPart(text: string): ContentPart {
  return { type: 'text', text };
}

function partText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'resource_link':
      return `Resource: ${part.title ?? part.name} <${part.uri}>`;
    case 'resource':
      return 'text' in part.resource ? `Resource ${part.resource.uri}:\n${part.resource.text}` : `[The tool returned a file ${part.resource.uri}.]`;
    default:
      return `[The tool returned ${part.type === 'image' ? 'an image' : 'audio'} (${part.mimeType}).]`;
  }
}
