/**
 * One suite, every format: declare the same tools, receive calls in the
 * provider's wire shape, run them through a real registry, and build the
 * result message the provider expects. Each format supplies only how its wire
 * looks; a skipped case carries its reason.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import type { OpenAIResponsesStreamEvent } from './openai-responses/openai-responses-tool-call-stream.js';
import type { Message, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { silentLogger, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallRequest } from '../tools/types.js';
import type { ToolExecution } from '../tools/tool-registry.js';
import { docTools } from './__fixtures__/tools.js';
import { AnthropicToolCallStream } from './anthropic/anthropic-tool-call-stream.js';
import { parseAnthropicToolCalls } from './anthropic/parse-anthropic-tool-calls.js';
import { toAnthropicResultMessage } from './anthropic/to-anthropic-result-message.js';
import { toAnthropicTools } from './anthropic/to-anthropic-tools.js';
import type { FormatWarning } from '../protocol/format-warning.js';
import { parseMcpToolCall } from './mcp/parse-mcp-tool-call.js';
import { toMcpCallToolResult } from './mcp/to-mcp-call-tool-result.js';
import { toMcpTools } from './mcp/to-mcp-tools.js';
import { OpenAIChatToolCallStream } from './openai-chat/openai-chat-tool-call-stream.js';
import { parseOpenAIChatToolCalls } from './openai-chat/parse-openai-chat-tool-calls.js';
import { toOpenAIChatResultMessages } from './openai-chat/to-openai-chat-result-messages.js';
import { toOpenAIChatTools } from './openai-chat/to-openai-chat-tools.js';
import { OpenAIResponsesToolCallStream } from './openai-responses/openai-responses-tool-call-stream.js';
import { parseOpenAIResponsesToolCalls } from './openai-responses/parse-openai-responses-tool-calls.js';
import { toOpenAIResponsesResultItems } from './openai-responses/to-openai-responses-result-items.js';
import { toOpenAIResponsesTools } from './openai-responses/to-openai-responses-tools.js';

/** A call as a model would make it: the arguments exactly as the model wrote them. */
interface ModelCall {
  id: string;
  name: string;
  argumentsJson: string;
}

/** What reached the model for one call id. */
interface WireResult {
  text: string;
  /** `undefined` for formats that have no error flag (OpenAI). */
  isError: boolean | undefined;
}

interface FormatCase {
  name: string;
  /** The declared tool names, read back from the wire declarations. */
  declare(registry: ToolRegistry): { names: string[]; warnings: FormatWarning[] };
  /** Puts the calls on the wire as the provider would, and reads them back with the format's parser. */
  receive(calls: ModelCall[], registry: ToolRegistry): ToolCallRequest[];
  /** Builds the result message(s) and reads back what the model will see, by call id. */
  answer(executions: ToolExecution[]): Map<string, WireResult>;
  /** Whether this format sends argument text the model may have broken (MCP and non-streamed Anthropic send parsed JSON). */
  sendsArgumentText: boolean;
  /** Declared with strict mode, so optional properties may come back as null. */
  strict?: boolean;
}

function chatCompletion(calls: ModelCall[]): ChatCompletion {
  return {
    id: 'chatcmpl-rt',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-4.1',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.argumentsJson } })),
        },
      },
    ],
  };
}

/** Splits text into pieces of at most `size` characters, as a stream would deliver it. */
function pieces(text: string, size = 5): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

function chatChunks(calls: ModelCall[]): ChatCompletionChunk[] {
  const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk => ({
    id: 'chatcmpl-rt',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-4.1',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: ChatCompletionChunk[] = [];
  calls.forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of pieces(call.argumentsJson)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, 'tool_calls'));
  return chunks;
}

function responsesOutput(calls: ModelCall[]): ResponseOutputItem[] {
  return calls.map((call) => ({ type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.name, arguments: call.argumentsJson }));
}

function responsesEvents(calls: ModelCall[]): OpenAIResponsesStreamEvent[] {
  const events: OpenAIResponsesStreamEvent[] = [];
  let sequence = 0;
  calls.forEach((call, index) => {
    const item = { type: 'function_call' as const, id: `fc_${call.id}`, call_id: call.id, name: call.name };
    events.push({ type: 'response.output_item.added', sequence_number: sequence++, output_index: index, item: { ...item, arguments: '' } });
    for (const delta of pieces(call.argumentsJson))
      events.push({ type: 'response.function_call_arguments.delta', sequence_number: sequence++, item_id: item.id, output_index: index, delta });
    events.push({
      type: 'response.function_call_arguments.done',
      sequence_number: sequence++,
      item_id: item.id,
      output_index: index,
      name: call.name,
      arguments: call.argumentsJson,
    });
    events.push({ type: 'response.output_item.done', sequence_number: sequence++, output_index: index, item: { ...item, arguments: call.argumentsJson } });
  });
  return events;
}

function anthropicMessage(calls: ModelCall[]): Pick<Message, 'content'> {
  return {
    content: calls.map((call) => {
      const parsed: unknown = JSON.parse(call.argumentsJson);
      return { type: 'tool_use' as const, id: call.id, name: call.name, input: parsed, caller: { type: 'direct' as const } };
    }),
  };
}

function anthropicEvents(calls: ModelCall[]): RawMessageStreamEvent[] {
  const events: RawMessageStreamEvent[] = [];
  calls.forEach((call, index) => {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {}, caller: { type: 'direct' } },
    });
    for (const partial_json of pieces(call.argumentsJson))
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    events.push({ type: 'content_block_stop', index });
  });
  return events;
}

function chatAnswer(executions: ToolExecution[]): Map<string, WireResult> {
  const { messages } = toOpenAIChatResultMessages(executions);
  return new Map(messages.map((message) => [message.tool_call_id, { text: String(message.content), isError: undefined }]));
}

function responsesAnswer(executions: ToolExecution[]): Map<string, WireResult> {
  const { items } = toOpenAIResponsesResultItems(executions);
  return new Map(
    items.map((item) => {
      const text =
        typeof item.output === 'string' ? item.output : item.output.map((part) => (part.type === 'input_text' ? part.text : `<${part.type}>`)).join('\n');
      return [item.call_id, { text, isError: undefined }];
    }),
  );
}

function anthropicAnswer(executions: ToolExecution[]): Map<string, WireResult> {
  const { message } = toAnthropicResultMessage(executions);
  expect(message.role).toBe('user');
  return new Map(
    message.content.map((block) => {
      const parts = Array.isArray(block.content) ? block.content : [];
      return [
        block.tool_use_id,
        { text: parts.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`)).join('\n'), isError: block.is_error ?? undefined },
      ];
    }),
  );
}

const formats: FormatCase[] = [
  {
    name: 'openai-chat',
    declare: (registry) => {
      const { tools, warnings } = toOpenAIChatTools(registry);
      return { names: tools.map((tool) => tool.function.name), warnings };
    },
    receive: (calls) => parseOpenAIChatToolCalls(chatCompletion(calls)),
    answer: chatAnswer,
    sendsArgumentText: true,
  },
  {
    name: 'openai-chat (strict)',
    strict: true,
    declare: (registry) => {
      const { tools, warnings } = toOpenAIChatTools(registry, { strict: true });
      expect(tools.every((tool) => tool.function.strict === true)).toBe(true);
      return { names: tools.map((tool) => tool.function.name), warnings };
    },
    receive: (calls, registry) => parseOpenAIChatToolCalls(chatCompletion(calls), { strict: true, tools: registry }),
    answer: chatAnswer,
    sendsArgumentText: true,
  },
  {
    name: 'openai-chat (stream)',
    declare: (registry) => {
      const { tools, warnings } = toOpenAIChatTools(registry);
      return { names: tools.map((tool) => tool.function.name), warnings };
    },
    receive: (calls) => {
      const stream = new OpenAIChatToolCallStream();
      for (const chunk of chatChunks(calls)) stream.push(chunk);
      return stream.toolCalls();
    },
    answer: chatAnswer,
    sendsArgumentText: true,
  },
  {
    name: 'openai-responses',
    declare: (registry) => {
      const { tools, warnings } = toOpenAIResponsesTools(registry);
      return { names: tools.map((tool) => tool.name), warnings };
    },
    receive: (calls) => parseOpenAIResponsesToolCalls({ output: responsesOutput(calls) }),
    answer: responsesAnswer,
    sendsArgumentText: true,
  },
  {
    name: 'openai-responses (strict stream)',
    strict: true,
    declare: (registry) => {
      const { tools, warnings } = toOpenAIResponsesTools(registry, { strict: true });
      return { names: tools.map((tool) => tool.name), warnings };
    },
    receive: (calls, registry) => {
      const stream = new OpenAIResponsesToolCallStream({ strict: true, tools: registry });
      for (const event of responsesEvents(calls)) stream.push(event);
      return stream.toolCalls();
    },
    answer: responsesAnswer,
    sendsArgumentText: true,
  },
  {
    name: 'anthropic',
    declare: (registry) => {
      const { tools, warnings } = toAnthropicTools(registry);
      return { names: tools.map((tool) => tool.name), warnings };
    },
    receive: (calls) => parseAnthropicToolCalls(anthropicMessage(calls)),
    answer: anthropicAnswer,
    sendsArgumentText: false,
  },
  {
    name: 'anthropic (stream)',
    declare: (registry) => {
      const { tools, warnings } = toAnthropicTools(registry);
      return { names: tools.map((tool) => tool.name), warnings };
    },
    receive: (calls) => {
      const stream = new AnthropicToolCallStream();
      for (const event of anthropicEvents(calls)) stream.push(event);
      return stream.toolCalls();
    },
    answer: anthropicAnswer,
    // Streamed input arrives as JSON text, which a cut or a model slip can break.
    sendsArgumentText: true,
  },
  {
    name: 'mcp',
    declare: (registry) => {
      const { tools, warnings } = toMcpTools(registry);
      return { names: tools.map((tool) => tool.name), warnings };
    },
    // MCP has one call per tools/call request; several calls are several requests.
    receive: (calls) =>
      calls.map((call) => parseMcpToolCall({ name: call.name, arguments: JSON.parse(call.argumentsJson) as Record<string, unknown> }, { id: call.id })),
    answer: (executions) =>
      new Map(
        executions.map((execution) => {
          const wire = toMcpCallToolResult(execution);
          return [
            execution.callId,
            { text: wire.content.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`)).join('\n'), isError: wire.isError },
          ];
        }),
      ),
    sendsArgumentText: false,
  },
];

async function run(format: FormatCase, calls: ModelCall[]): Promise<Map<string, WireResult>> {
  const registry = new ToolRegistry(docTools, { logger: silentLogger });
  const requests = format.receive(calls, registry);
  expect(requests.map((request) => request.id)).toEqual(calls.map((call) => call.id));
  const executions: ToolExecution[] = [];
  for (const request of requests) executions.push(await registry.call(request));
  return format.answer(executions);
}

const unknownToolText =
  'Unknown tool "get_weathr". Did you mean "get_weather"? Available tools: get_weather, send_email, get_time, take_screenshot. Call one of these by its exact name.';

describe.each(formats)('round trip: $name', (format) => {
  it('declares every tool of the registry', () => {
    const registry = new ToolRegistry(docTools, { logger: silentLogger });
    const { names, warnings } = format.declare(registry);
    expect(names).toEqual(['get_weather', 'send_email', 'get_time', 'take_screenshot']);
    // Strict mode reports its rewrites; the other formats take these schemas as they are.
    expect(warnings.map((warning) => `${warning.tool} ${warning.feature} ${warning.path}`)).toEqual(
      format.strict
        ? [
            'get_weather optional-property /properties/unit',
            'get_time additionalProperties /additionalProperties',
            'take_screenshot additionalProperties /additionalProperties',
          ]
        : [],
    );
  });

  it('runs several calls from one response and answers each by its id', async () => {
    const results = await run(format, [
      { id: 'call_1', name: 'get_weather', argumentsJson: '{"location":"Paris, France"}' },
      { id: 'call_2', name: 'get_weather', argumentsJson: '{"location":"Bogotá, Colombia","unit":"fahrenheit"}' },
      { id: 'call_3', name: 'send_email', argumentsJson: '{"to":"bob@email.com","body":"Hi bob"}' },
    ]);
    const ok = format.answer === chatAnswer || format.answer === responsesAnswer ? undefined : false;
    expect([...results.entries()]).toEqual([
      ['call_1', { text: 'Paris, France: 15 degrees celsius', isError: ok }],
      ['call_2', { text: 'Bogotá, Colombia: 15 degrees fahrenheit', isError: ok }],
      ['call_3', { text: '{"sent":true,"to":"bob@email.com"}', isError: ok }],
    ]);
  });

  it('answers a call to an unknown tool with the registry’s correction', async () => {
    const results = await run(format, [{ id: 'call_x', name: 'get_weathr', argumentsJson: '{"location":"Oslo"}' }]);
    expect(results.get('call_x')?.text).toBe(unknownToolText);
    if (results.get('call_x')?.isError !== undefined) expect(results.get('call_x')?.isError).toBe(true);
  });

  it.skipIf(!format.sendsArgumentText)(
    'carries the error for broken JSON arguments to the result message (skipped where arguments arrive parsed)',
    async () => {
      const results = await run(format, [
        { id: 'call_ok', name: 'get_time', argumentsJson: '{"timezone":"UTC"}' },
        { id: 'call_bad', name: 'get_weather', argumentsJson: '{"location": "Paris, France"' },
      ]);
      expect(results.get('call_ok')?.text).toBe('It is 09:30 in UTC.');
      const text = results.get('call_bad')?.text ?? '';
      expect(text.startsWith('The arguments for tool "get_weather" are not valid JSON: ')).toBe(true);
      expect(
        text.endsWith('Send the arguments again as one JSON object: keys in double quotes, strings in double quotes, no trailing commas, no comments.'),
      ).toBe(true);
    },
  );

  it.skipIf(!format.strict)('treats a strict-mode null for an optional property as absent (strict formats only)', async () => {
    const results = await run(format, [{ id: 'call_n', name: 'get_weather', argumentsJson: '{"location":"Lima","unit":null}' }]);
    expect(results.get('call_n')?.text).toBe('Lima: 15 degrees celsius');
  });

  it('carries an image result as far as the format allows', async () => {
    const results = await run(format, [{ id: 'call_img', name: 'take_screenshot', argumentsJson: '{"url":"https://example.com"}' }]);
    const text = results.get('call_img')?.text;
    if (format.answer === chatAnswer)
      expect(text).toBe('Screenshot of https://example.com\n[The tool returned an image (image/png, 68 bytes) that cannot be shown here.]');
    else if (format.answer === responsesAnswer) expect(text).toBe('Screenshot of https://example.com\n<input_image>');
    else expect(text).toBe('Screenshot of https://example.com\n<image>');
  });
});

describe('round trip: null is not absent without strict mode', () => {
  it('lets validation reject a null the tool did not allow', async () => {
    const results = await run(formats[0]!, [{ id: 'call_n', name: 'get_weather', argumentsJson: '{"location":"Lima","unit":null}' }]);
    expect(results.get('call_n')?.text.startsWith('Invalid arguments for tool "get_weather" (2 problems):\n1. $.unit: must be a string; got null.')).toBe(true);
  });
});
