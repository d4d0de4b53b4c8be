/**
 * OpenAI Responses programmatic tool calling: tools that allow calls from code are declared with
 * `allowed_callers: ['programmatic']` (or both kinds) beside `{ type: 'programmatic_tool_calling' }`; the
 * `function_call` items the hosted program makes carry `caller: { type: 'program', caller_id }`. The `program` and
 * `program_output` items are kept as the turn's provider items and replayed as received (the `program` item's
 * `fingerprint` must round-trip), and each result of a call from code names the same caller.
 * @module
 */
import type { CustomTool, FunctionTool, ResponseInputItem, Tool } from 'openai/resources/responses/responses';
import type { ProviderTurnItems, ToolCallPart } from '../../protocol/messages.js';
import { toolAllowsCaller, type AnyTool } from '../../tools/define-tool.js';
import type { ProgrammaticCaller } from '../../tools/types.js';

/** The `caller` of a `function_call` item, when the hosted program made the call; `undefined` for a direct call. */
export function responsesCaller(item: { caller?: { type: string; caller_id?: string } | null }): ProgrammaticCaller | undefined {
  const caller = item.caller;
  if (caller == null || caller.type !== 'program' || typeof caller.caller_id !== 'string') return undefined;
  return { type: 'programmatic', id: caller.caller_id, runner: 'program' };
}

/** The `caller` to send on a replayed call or its output, as OpenAI sent it. */
export function responsesCallerParam(caller: ProgrammaticCaller | undefined): { caller?: { type: 'program'; caller_id: string } } {
  return caller === undefined ? {} : { caller: { type: 'program', caller_id: caller.id } };
}

/**
 * The declarations with `allowed_callers` set on each tool that allows programmatic calls, and the
 * `programmatic_tool_calling` tool appended when any does; unchanged when none does.
 */
export function withResponsesProgrammaticCalls(tools: readonly AnyTool[], declared: (FunctionTool | CustomTool)[]): Tool[] {
  if (!tools.some((tool) => toolAllowsCaller(tool, 'programmatic'))) return declared;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const marked = declared.map((declaration): Tool => {
    const tool = byName.get(declaration.name);
    if (tool === undefined || !toolAllowsCaller(tool, 'programmatic')) return declaration;
    return { ...declaration, allowed_callers: toolAllowsCaller(tool, 'direct') ? ['direct', 'programmatic'] : ['programmatic'] };
  });
  return [...marked, { type: 'programmatic_tool_calling' }];
}

/** Whether an output item is one the hosted program runner made (`program`, `program_output`). */
export function isResponsesProgramItem(item: { type: string }): boolean {
  return item.type === 'program' || item.type === 'program_output';
}

/** The turn's program items as provider items, or `undefined` when it ran none. */
export function responsesProviderItems(items: readonly { item: unknown; before: number }[]): ProviderTurnItems | undefined {
  return items.length === 0 ? undefined : { provider: 'openai-responses', items: items.map(({ item, before }) => ({ before, item })) };
}

/** The turn's provider items that come before the content part at `partIndex` (`content.length`: those after all parts). */
export function responsesItemsBefore(items: ProviderTurnItems | undefined, partIndex: number, partCount: number): ResponseInputItem[] {
  if (items?.provider !== 'openai-responses') return [];
  return items.items.filter(({ before }) => (partIndex >= partCount ? before >= partCount : before === partIndex)).map(({ item }) => item as ResponseInputItem);
}

/** Each call of the turn made from code, by call id, so that its output names the same caller. */
export function programmaticCallers(parts: readonly { type: string }[]): Map<string, ProgrammaticCaller> {
  const callers = new Map<string, ProgrammaticCaller>();
  for (const part of parts) {
    const call = part as ToolCallPart;
    if (call.type === 'tool-call' && call.caller !== undefined) callers.set(call.id, call.caller);
  }
  return callers;
}
