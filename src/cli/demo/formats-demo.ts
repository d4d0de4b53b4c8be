/**
 * The first part of `toolwright demo`: one definition through every wire format,
 * one call through each format's full round trip, the exact text a model reads
 * for each kind of mistake, and the linter over the example packs. Offline.
 * @module
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Message as AnthropicMessage } from '@anthropic-ai/sdk/resources/messages';
import type { Response as OpenAIResponse } from 'openai/resources/responses/responses';
import {
  lintTools,
  parseAnthropicToolCalls,
  parseMcpToolCall,
  parseOpenAIChatToolCalls,
  parseOpenAIResponsesToolCalls,
  toAnthropicResultMessage,
  toAnthropicTools,
  toMcpCallToolResult,
  toMcpTools,
  toOpenAIChatResultMessages,
  toOpenAIChatTools,
  toOpenAIResponsesResultItems,
  toOpenAIResponsesTools,
  type LintFinding,
} from '../../formats/index.js';
import type { FormatWarning } from '../../protocol/index.js';
import { ToolNotFoundError } from '../../shared/errors.js';
import { ToolRegistry, silentLogger, type AnyTool, type ToolCallRequest, type ToolFailureCode } from '../../tools/index.js';

export interface DemoPack {
  name: string;
  tools: readonly AnyTool[];
}

export interface FormatRoundTrip {
  format: 'openai-chat' | 'openai-responses' | 'anthropic' | 'mcp';
  /** The tool declaration as the provider receives it. */
  declaration: unknown;
  /** The provider's tool call, as it arrives on the wire. */
  wireCall: unknown;
  /** The neutral call parsed from it. */
  parsed: ToolCallRequest;
  /** The result message sent back to the provider. */
  resultMessage: unknown;
  warnings: FormatWarning[];
}

export interface ErrorExample {
  situation: string;
  code: ToolFailureCode;
  /** The exact text the model reads. */
  modelSees: string;
}

export interface FormatsDemoReport {
  packs: { name: string; tools: number; categories: string[] }[];
  roundTrips: FormatRoundTrip[];
  strictWarnings: number;
  errors: ErrorExample[];
  lint: { pack: string; errors: number; warnings: number; findings: LintFinding[] }[];
}

const CONJUGATE_ARGUMENTS = { verb: 'eat', tense: 'past_simple', person: '3sg' };

function findTool(packs: readonly DemoPack[], name: string): AnyTool {
  for (const pack of packs) for (const tool of pack.tools) if (tool.name === name) return tool;
  throw new ToolNotFoundError(
    name,
    packs.flatMap((pack) => pack.tools.map((tool) => tool.name)),
  );
}

export async function runFormatsDemo(packs: readonly DemoPack[], lintPacks: readonly DemoPack[] = packs): Promise<FormatsDemoReport> {
  const conjugate = findTool(packs, 'conjugate');
  const registry = new ToolRegistry(
    packs.flatMap((pack) => pack.tools),
    { logger: silentLogger },
  );
  const argumentsText = JSON.stringify(CONJUGATE_ARGUMENTS);
  const roundTrips: FormatRoundTrip[] = [];

  {
    const declared = toOpenAIChatTools([conjugate], { strict: true });
    const wire: ChatCompletion = {
      id: 'chatcmpl-demo',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [{ id: 'call_demo1', type: 'function', function: { name: 'conjugate', arguments: argumentsText } }],
          },
        },
      ],
    };
    const parsed = parseOpenAIChatToolCalls(wire, { strict: true, tools: [conjugate] });
    const executions = await Promise.all(parsed.map((call) => registry.call(call)));
    const results = toOpenAIChatResultMessages(executions);
    roundTrips.push({
      format: 'openai-chat',
      declaration: declared.tools[0],
      wireCall: wire.choices[0]!.message.tool_calls![0],
      parsed: parsed[0]!,
      resultMessage: results.messages[0],
      warnings: [...declared.warnings, ...results.warnings],
    });
  }
  {
    const declared = toOpenAIResponsesTools([conjugate]);
    const wire = {
      output: [{ type: 'function_call', id: 'fc_demo', call_id: 'call_demo2', name: 'conjugate', arguments: argumentsText, status: 'completed' }],
    } as unknown as OpenAIResponse;
    const parsed = parseOpenAIResponsesToolCalls(wire);
    const executions = await Promise.all(parsed.map((call) => registry.call(call)));
    const results = toOpenAIResponsesResultItems(executions);
    roundTrips.push({
      format: 'openai-responses',
      declaration: declared.tools[0],
      wireCall: (wire as unknown as { output: unknown[] }).output[0],
      parsed: parsed[0]!,
      resultMessage: results.items[0],
      warnings: [...declared.warnings, ...results.warnings],
    });
  }
  {
    const declared = toAnthropicTools([conjugate]);
    const wire = {
      id: 'msg_demo',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Let me check that conjugation.' },
        { type: 'tool_use', id: 'toolu_demo3', name: 'conjugate', input: CONJUGATE_ARGUMENTS },
      ],
    } as unknown as AnthropicMessage;
    const parsed = parseAnthropicToolCalls(wire);
    const executions = await Promise.all(parsed.map((call) => registry.call(call)));
    const results = toAnthropicResultMessage(executions);
    roundTrips.push({
      format: 'anthropic',
      declaration: declared.tools[0],
      wireCall: wire.content[1],
      parsed: parsed[0]!,
      resultMessage: results.message,
      warnings: [...declared.warnings, ...results.warnings],
    });
  }
  {
    const declared = toMcpTools([conjugate]);
    const wire = { name: 'conjugate', arguments: CONJUGATE_ARGUMENTS };
    const parsed = parseMcpToolCall(wire, { id: 'request-1' });
    const execution = await registry.call(parsed);
    roundTrips.push({
      format: 'mcp',
      declaration: declared.tools[0],
      wireCall: { jsonrpc: '2.0', id: 'request-1', method: 'tools/call', params: wire },
      parsed,
      resultMessage: { jsonrpc: '2.0', id: 'request-1', result: toMcpCallToolResult(execution) },
      warnings: declared.warnings,
    });
  }

  const strictWarnings = toOpenAIChatTools(
    packs.flatMap((pack) => pack.tools),
    { strict: true },
  ).warnings.length;

  const mistakes: { situation: string; call: ToolCallRequest }[] = [
    { situation: 'The model calls a tool that does not exist', call: { id: 'e1', name: 'conjugat', argumentsText } },
    {
      situation: 'The model sends arguments that are not JSON (unquoted keys)',
      call: { id: 'e2', name: 'conjugate', argumentsText: '{verb: eat, tense: past_simple}' },
    },
    { situation: 'The model sends values outside the enums', call: { id: 'e3', name: 'conjugate', arguments: { verb: 'ate', tense: 'past', person: '3sg' } } },
    {
      situation: 'The tool runs and reports a domain error',
      call: { id: 'e4', name: 'conjugate', arguments: { verb: 'must', tense: 'past_simple', person: '3sg' } },
    },
  ];
  const errors: ErrorExample[] = [];
  for (const mistake of mistakes) {
    const execution = await registry.call(mistake.call);
    const first = execution.result.content[0];
    errors.push({
      situation: mistake.situation,
      code: execution.failure?.code ?? ('none' as ToolFailureCode),
      modelSees: first?.type === 'text' ? first.text : '',
    });
  }

  const lint = lintPacks.map((pack) => {
    const findings = lintTools(pack.tools);
    return {
      pack: pack.name,
      errors: findings.filter((finding) => finding.severity === 'error').length,
      warnings: findings.filter((finding) => finding.severity === 'warning').length,
      findings,
    };
  });

  return {
    packs: packs.map((pack) => ({
      name: pack.name,
      tools: pack.tools.length,
      categories: [...new Set(pack.tools.map((tool) => tool.category).filter((category): category is string => category !== undefined))],
    })),
    roundTrips,
    strictWarnings,
    errors,
    lint,
  };
}
