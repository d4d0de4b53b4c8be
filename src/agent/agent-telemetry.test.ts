import { trace, type Attributes, type Context, type Span, type SpanOptions, type SpanStatus, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { requestModelName } from './agent-telemetry.js';
import { runAgent } from './run-agent.js';

interface Recorded {
  name: string;
  parent: string | undefined;
  attributes: Attributes;
  status: SpanStatus | undefined;
  ended: boolean;
}

/** A tracer provider that keeps spans in memory, registered the way an SDK registers itself. */
function recordingProvider(): { provider: TracerProvider; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const names = new WeakMap<Span, string>();
  const tracer: Tracer = {
    startSpan(name: string, _options?: SpanOptions, context?: Context): Span {
      const parentSpan = context ? trace.getSpan(context) : undefined;
      const recorded: Recorded = { name, parent: parentSpan ? names.get(parentSpan) : undefined, attributes: {}, status: undefined, ended: false };
      spans.push(recorded);
      const span: Span = {
        spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
        setAttribute(key, value) {
          if (value !== undefined) recorded.attributes[key] = value;
          return span;
        },
        setAttributes(attributes) {
          Object.assign(recorded.attributes, attributes);
          return span;
        },
        addEvent: () => span,
        addLink: () => span,
        addLinks: () => span,
        setStatus(status) {
          recorded.status = status;
          return span;
        },
        updateName: () => span,
        end() {
          recorded.ended = true;
        },
        isRecording: () => true,
        recordException() {},
      };
      names.set(span, name);
      return span;
    },
    startActiveSpan: (() => {
      throw new Error('not used');
    }) as Tracer['startActiveSpan'],
  };
  return { provider: { getTracer: () => tracer }, spans };
}

afterEach(() => trace.disable());

const lookup = defineTool({ name: 'lookup', description: 'Looks up.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'found' });
const broken = defineTool({
  name: 'broken',
  description: 'Breaks.',
  effect: 'read',
  inputSchema: { type: 'object' },
  execute: () => {
    throw new Error('boom');
  },
});

describe('OpenTelemetry spans', () => {
  it('emits invoke_agent, chat and execute_tool spans with GenAI attributes when an SDK is registered', async () => {
    const { provider, spans } = recordingProvider();
    trace.setGlobalTracerProvider(provider);
    const model = createScriptedModel(
      [
        toolCallTurn(
          [
            { id: 'c1', name: 'lookup', arguments: {} },
            { id: 'c2', name: 'broken', arguments: {} },
          ],
          { usage: { inputTokens: 12, outputTokens: 3 }, modelId: 'gpt-4o-mini-2024-07-18' },
        ),
        textTurn('ok', { usage: { inputTokens: 20, outputTokens: 1 } }),
      ],
      { id: 'openai:gpt-4o-mini' },
    );
    const result = await runAgent({ model, tools: [lookup, broken], prompt: 'Find it.', recordDir: false, logger: silentLogger, agentName: 'support-bot' });
    expect(spans.map((span) => [span.name, span.parent])).toEqual([
      ['invoke_agent support-bot', undefined],
      ['chat gpt-4o-mini', 'invoke_agent support-bot'],
      ['execute_tool lookup', 'invoke_agent support-bot'],
      ['execute_tool broken', 'invoke_agent support-bot'],
      ['chat gpt-4o-mini', 'invoke_agent support-bot'],
    ]);
    expect(spans.every((span) => span.ended)).toBe(true);
    expect(spans[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support-bot',
      'gen_ai.provider.name': 'openai',
      'gen_ai.conversation.id': result.runId,
      'gen_ai.usage.input_tokens': 32,
      'gen_ai.usage.output_tokens': 4,
    });
    expect(spans[1]!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(spans[2]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
    });
    expect(spans[2]!.status).toBeUndefined();
    expect(spans[3]!.attributes).toMatchObject({ 'gen_ai.tool.name': 'broken', 'error.type': 'internal_error' });
    expect(spans[3]!.status?.code).toBe(2);
  });

  it('carries the cache reads and writes a provider reported, on each chat span and totalled on the run span', async () => {
    const { provider, spans } = recordingProvider();
    const model = createScriptedModel([
      toolCallTurn([{ id: 'c1', name: 'lookup', arguments: {} }], { usage: { inputTokens: 100, outputTokens: 3, cacheWriteTokens: 90 } }),
      textTurn('ok', { usage: { inputTokens: 120, outputTokens: 1, cacheReadTokens: 90, cacheWriteTokens: 25 } }),
    ]);
    await runAgent({ model, tools: [lookup], prompt: 'x', recordDir: false, logger: silentLogger, tracer: provider.getTracer('mine') });
    const cacheAttributes = (attributes: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(attributes).filter(([name]) => name.startsWith('gen_ai.usage.cache')));
    expect(spans.filter((span) => span.name.startsWith('chat')).map((span) => cacheAttributes(span.attributes))).toEqual([
      { 'gen_ai.usage.cache_creation.input_tokens': 90 },
      { 'gen_ai.usage.cache_read.input_tokens': 90, 'gen_ai.usage.cache_creation.input_tokens': 25 },
    ]);
    expect(cacheAttributes(spans[0]!.attributes)).toEqual({ 'gen_ai.usage.cache_read.input_tokens': 90, 'gen_ai.usage.cache_creation.input_tokens': 115 });
  });

  it('uses a tracer passed in, and is silent without one or an SDK', async () => {
    const { provider, spans } = recordingProvider();
    const model = createScriptedModel([textTurn('ok')]);
    await runAgent({ model, tools: [lookup], prompt: 'x', recordDir: false, tracer: provider.getTracer('mine') });
    expect(spans.map((span) => span.name)).toEqual(['invoke_agent toolwright', 'chat model']);
    const quiet = await runAgent({ model: createScriptedModel([textTurn('ok')]), tools: [lookup], prompt: 'x', recordDir: false });
    expect(quiet.status).toBe('completed');
    expect(spans).toHaveLength(2);
  });
});

describe('requestModelName', () => {
  it("gives gen_ai.request.model the provider's model name, without toolwright's provider prefix", () => {
    expect(requestModelName('openai:gpt-4o-mini', 'openai')).toBe('gpt-4o-mini');
    expect(requestModelName('openai-compatible:qwen2.5:7b', 'openai-compatible')).toBe('qwen2.5:7b');
    expect(requestModelName('ai-sdk:google.generative-ai:gemini-2.5-flash', 'ai-sdk')).toBe('gemini-2.5-flash');
    expect(requestModelName('my-model', 'custom')).toBe('my-model');
  });
});
