/**
 * Vercel AI SDK tools under a toolwright registry: each becomes a toolwright
 * tool with its JSON Schema (from a Zod, Standard Schema or `jsonSchema()`
 * input schema, through the AI SDK's own `asSchema`), an effect the caller
 * names (the AI SDK has no notion of one), and an `execute` that runs the AI
 * SDK tool. The registry validates first; the AI SDK schema's own validation
 * (a Zod refinement, a transform) runs after it, and a failure there reaches
 * the model as a tool error with its issues.
 * @module
 */
import type { Tool } from 'ai';
import { InvalidArgumentError, ToolDefinitionError } from '../../shared/errors.js';
import { loadPeer } from '../../shared/load-peer.js';
import { isPlainObject } from '../../shared/own.js';
import { defineTool, type AnyTool, type ConfirmRule } from '../../tools/define-tool.js';
import { ToolError } from '../../tools/tool-error.js';
import type { ToolContext, ToolEffect } from '../../tools/types.js';
import { foreignToolEffect } from '../foreign-tool-effect.js';
import { as2020Schema } from '../schema-shapes.js';

export interface FromAISDKToolsOptions {
  /** What each tool does to the world: one effect for all, or one per tool name (every tool must be named). */
  effect: ToolEffect | Readonly<Record<string, ToolEffect>>;
  /**
   * Whether a call needs a person, per tool name. Default: the AI SDK tool's `needsApproval` when it is a boolean; a
   * `needsApproval` function (which may be async) becomes `true`, since toolwright's rule must answer at once.
   */
  confirm?: Readonly<Record<string, ConfirmRule<Record<string, unknown>>>>;
}

/** Any AI SDK tool, whatever its input, output and context types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as the AI SDK's own ToolSet does.
export type AnyAISDKTool = Tool<any, any, any>;

/** Brings AI SDK tools under toolwright (validation, recovery texts, policies, budgets); loads `ai` on first use. */
export async function fromAISDKTools(tools: Readonly<Record<string, AnyAISDKTool>>, options: FromAISDKToolsOptions): Promise<AnyTool[]> {
  if (!isPlainObject(tools)) throw new InvalidArgumentError('fromAISDKTools expects a record of AI SDK tools, e.g. { weather: tool({ … }) }.');
  if (typeof options !== 'object' || options === null || options.effect === undefined) {
    throw new InvalidArgumentError('fromAISDKTools needs { effect }: "read" or "write" for every tool, or a map of tool name to effect.');
  }
  const { asSchema } = await loadPeer('ai', 'fromAISDKTools', () => import('ai'));
  const result: AnyTool[] = [];
  for (const [name, aiTool] of Object.entries(tools) as [string, AnyAISDKTool][]) {
    const effect = foreignToolEffect(options.effect, name, 'fromAISDKTools');
    if (aiTool.type === 'provider' || typeof aiTool.execute !== 'function') {
      throw new ToolDefinitionError(name, 'it has no execute function (a provider-executed or client-side AI SDK tool cannot run under toolwright).');
    }
    const schema = asSchema(aiTool.inputSchema);
    const inputSchema = as2020Schema(await schema.jsonSchema, name);
    const execute = aiTool.execute;
    const description = typeof aiTool.description === 'string' ? aiTool.description : name;
    const confirm: ConfirmRule<Record<string, unknown>> =
      options.confirm && Object.prototype.hasOwnProperty.call(options.confirm, name)
        ? options.confirm[name]!
        : typeof aiTool.needsApproval === 'boolean'
          ? aiTool.needsApproval
          : aiTool.needsApproval !== undefined;
    result.push(
      defineTool({
        name,
        description,
        effect,
        confirm,
        inputSchema,
        execute: async (args: Record<string, unknown>, context: ToolContext) => {
          let input: unknown = args;
          if (schema.validate) {
            const checked = await schema.validate(args);
            if (!checked.success)
              throw new ToolError(`The arguments were refused: ${checked.error.message}`, {
                kind: 'invalid_request',
                suggestion: 'Fix the arguments as the message says and call the tool again.',
              });
            input = checked.value;
          }
          const output: unknown = await lastValue(
            execute(input, { toolCallId: context.toolCallId, messages: [], abortSignal: context.signal, context: undefined }),
          );
          return typeof output === 'string' || isPlainObject(output) ? output : JSON.stringify(output ?? null);
        },
      }),
    );
  }
  return result;
}

/** An AI SDK `execute` may return a value, a promise, or an async iterable of preliminary results whose last one is the result. */
async function lastValue(returned: unknown): Promise<unknown> {
  const value = await returned;
  if (typeof value !== 'object' || value === null || typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return value;
  let last: unknown;
  for await (const item of value as AsyncIterable<unknown>) last = item;
  return last;
}
