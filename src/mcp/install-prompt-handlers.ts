/**
 * `prompts/list`, `prompts/get` and `completion/complete` over a pack's
 * prompts and resource templates.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CompleteResult, GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../tools/index.js';
import type { ToolLogger } from '../tools/index.js';
import type { McpPrompt, PromptGetResult, PromptMessage } from './mcp-prompt.js';
import type { CompleteFunction } from './mcp-resource.js';
import type { CompiledTemplate } from './install-resource-handlers.js';
import { paginate } from './paginate.js';
import { ProtocolError } from './protocol-error.js';

/** MCP caps one completion response at 100 values. */
const COMPLETION_MAX_VALUES = 100;

export function installPromptHandlers(server: Server, options: { prompts: readonly McpPrompt[]; pageSize: number; logger: ToolLogger }): void {
  const byName = new Map(options.prompts.map((prompt) => [prompt.name, prompt]));
  const listed: Prompt[] = options.prompts.map((prompt) => {
    const entry: Prompt = { name: prompt.name, description: prompt.description };
    if (prompt.title !== undefined) entry.title = prompt.title;
    if (prompt.arguments) {
      entry.arguments = prompt.arguments.map((argument) => {
        const listedArgument: NonNullable<Prompt['arguments']>[number] = { name: argument.name };
        if (argument.description !== undefined) listedArgument.description = argument.description;
        if (argument.required !== undefined) listedArgument.required = argument.required;
        return listedArgument;
      });
    }
    return entry;
  });

  server.setRequestHandler(ListPromptsRequestSchema, (request) => {
    const { page, nextCursor } = paginate(listed, request.params?.cursor, options.pageSize);
    return nextCursor === undefined ? { prompts: page } : { prompts: page, nextCursor };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const prompt = byName.get(request.params.name);
    if (!prompt) throw unknownPrompt(request.params.name, [...byName.keys()]);
    const args: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, request.params.arguments ?? {});
    const missing = (prompt.arguments ?? [])
      .filter((argument) => argument.required && typeof args[argument.name] !== 'string')
      .map((argument) => argument.name);
    if (missing.length > 0) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Prompt "${prompt.name}" needs the argument${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')}. Send them in params.arguments as strings.`,
      );
    }
    let produced: PromptGetResult;
    try {
      produced = await prompt.get({ ...args }, { signal: extra.signal });
    } catch (error) {
      if (error instanceof ProtocolError || error instanceof McpError) throw error;
      if (ToolError.isInstance(error)) throw new ProtocolError(ErrorCode.InternalError, `Prompt "${prompt.name}" failed: ${error.message}`);
      options.logger.error(`prompt "${prompt.name}" threw`, { prompt: prompt.name, error });
      throw new ProtocolError(ErrorCode.InternalError, `Prompt "${prompt.name}" failed inside the server; the details are in the server's log.`);
    }
    return normalizePrompt(produced, prompt);
  });
}

export function installCompletionHandler(
  server: Server,
  options: { prompts: readonly McpPrompt[]; templates: readonly CompiledTemplate[]; logger: ToolLogger },
): void {
  const prompts = new Map(options.prompts.map((prompt) => [prompt.name, prompt]));
  const templates = new Map(options.templates.map(({ template }) => [template.uriTemplate, template]));

  server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    let complete: CompleteFunction | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = prompts.get(ref.name);
      if (!prompt) throw unknownPrompt(ref.name, [...prompts.keys()]);
      complete = prompt.arguments?.find((candidate) => candidate.name === argument.name)?.complete;
    } else {
      const template = templates.get(ref.uri);
      if (!template) throw new ProtocolError(ErrorCode.InvalidParams, `No resource template "${ref.uri}". List them with resources/templates/list.`);
      complete = template.complete && Object.prototype.hasOwnProperty.call(template.complete, argument.name) ? template.complete[argument.name] : undefined;
    }
    if (!complete) return { completion: { values: [] } };
    let values: readonly string[];
    try {
      values = await complete(argument.value, { arguments: { ...context?.arguments } });
    } catch (error) {
      options.logger.error(`completion for "${argument.name}" threw`, { argument: argument.name, error });
      throw new ProtocolError(ErrorCode.InternalError, `Completing "${argument.name}" failed inside the server; the details are in the server's log.`);
    }
    const strings = values.filter((value): value is string => typeof value === 'string');
    const shown = strings.slice(0, COMPLETION_MAX_VALUES);
    return { completion: { values: shown, total: strings.length, hasMore: strings.length > shown.length } };
  });
}

function unknownPrompt(name: string, available: readonly string[]): ProtocolError {
  const shown = name.length > 80 ? name.slice(0, 79) + '…' : name;
  return new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt "${shown}". Available prompts: ${available.length === 0 ? 'none' : available.join(', ')}.`);
}

function normalizePrompt(produced: PromptGetResult, prompt: McpPrompt): GetPromptResult {
  if (typeof produced === 'string') return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: produced } }] };
  const messages: PromptMessage[] = Array.isArray(produced) ? produced : produced.messages;
  const description = Array.isArray(produced) ? prompt.description : (produced.description ?? prompt.description);
  return { description, messages: messages as GetPromptResult['messages'] };
}
