/**
 * OpenAI Agents SDK function tools under a toolwright registry: each becomes a
 * toolwright tool with the SDK tool's JSON Schema (`parameters`), an effect
 * the caller names, and an `execute` that invokes the SDK tool with the
 * validated arguments. The SDK tool keeps its own behaviour: its parser runs
 * again, and its `errorFunction` turns its failures into its own text.
 * @module
 */
import type { FunctionTool } from '@openai/agents';
import { InvalidArgumentError, ToolDefinitionError } from '../../shared/errors.js';
import { loadPeer } from '../../shared/load-peer.js';
import { isPlainObject } from '../../shared/own.js';
import { defineTool, type AnyTool, type ConfirmRule } from '../../tools/define-tool.js';
import type { ToolContext, ToolEffect } from '../../tools/types.js';
import { foreignToolEffect } from '../foreign-tool-effect.js';
import { as2020Schema } from '../schema-shapes.js';

export interface FromOpenAIAgentsToolsOptions {
  /** What each tool does to the world: one effect for all, or one per tool name (every tool must be named). */
  effect: ToolEffect | Readonly<Record<string, ToolEffect>>;
  /**
   * Whether a call needs a person, per tool name. Default: `false`. The SDK's `needsApproval` is an async function
   * whatever was declared, so it cannot become toolwright's rule, which must answer at once: name the tools here.
   */
  confirm?: Readonly<Record<string, ConfirmRule<Record<string, unknown>>>>;
  /** The run context value the SDK tools receive (`runContext.context`). Default: `{}`. */
  context?: unknown;
}

/** Any function tool of `@openai/agents`, whatever its context and parameters. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as the SDK's own AnyFunctionTool does.
export type AnyOpenAIAgentsFunctionTool = FunctionTool<any, any, any>;

/** Brings OpenAI Agents SDK function tools under toolwright (validation, recovery texts, policies, budgets); loads `@openai/agents` on first use. */
export async function fromOpenAIAgentsTools(tools: readonly AnyOpenAIAgentsFunctionTool[], options: FromOpenAIAgentsToolsOptions): Promise<AnyTool[]> {
  if (!Array.isArray(tools)) throw new InvalidArgumentError('fromOpenAIAgentsTools expects an array of tools made with tool() of @openai/agents.');
  if (typeof options !== 'object' || options === null || options.effect === undefined) {
    throw new InvalidArgumentError('fromOpenAIAgentsTools needs { effect }: "read" or "write" for every tool, or a map of tool name to effect.');
  }
  const { RunContext } = await loadPeer('@openai/agents', 'fromOpenAIAgentsTools', () => import('@openai/agents'));
  return tools.map((sdkTool) => {
    const name = String((sdkTool as { name?: unknown }).name);
    if (sdkTool.type !== 'function' || typeof sdkTool.invoke !== 'function') {
      throw new ToolDefinitionError(name, 'it is not a function tool of @openai/agents (hosted, computer and shell tools cannot run under toolwright).');
    }
    const effect = foreignToolEffect(options.effect, name, 'fromOpenAIAgentsTools');
    const confirm = options.confirm && Object.prototype.hasOwnProperty.call(options.confirm, name) ? options.confirm[name]! : false;
    const inputSchema = as2020Schema(sdkTool.parameters, name);
    return defineTool({
      name,
      description: sdkTool.description,
      effect,
      confirm,
      inputSchema,
      execute: async (args: Record<string, unknown>, context: ToolContext) => {
        const runContext = new RunContext(options.context ?? {});
        const output: unknown = await sdkTool.invoke(runContext, JSON.stringify(args), {
          toolCall: { type: 'function_call', callId: context.toolCallId, name, arguments: JSON.stringify(args) },
          signal: context.signal,
        });
        return typeof output === 'string' || isPlainObject(output) ? output : JSON.stringify(output ?? null);
      },
    });
  });
}
