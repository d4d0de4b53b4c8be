/**
 * OpenTelemetry spans following the GenAI semantic conventions: one
 * `invoke_agent` span per run, a `chat {model}` span per model call and an
 * `execute_tool {name}` span per tool call. Only `@opentelemetry/api` is used:
 * without a registered SDK its tracer is a no-op, and attributes are built
 * only for spans that record, so the cost is a few calls per step. Span
 * attributes hold names, ids and counts, never content; error messages in a
 * span's status go through the run's redactor (a provider error can quote a key).
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/
 * @module
 */
import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ModelResponse } from '../protocol/model-exchange.js';
import { createRedactor, type Redactor } from './redact.js';

/** The instrumentation name of toolwright's spans (the agent loop's and the MCP server's and client's). */
export const TRACER_NAME = 'toolwright';

export interface AgentTelemetry {
  /** Starts the run span. */
  startRun(attributes: { runId: string; agentName: string; provider: string; model: string }): SpanHandle;
}

export interface SpanHandle {
  /** Starts the span of a model call under this span. */
  startChat(attributes: { provider: string; model: string; maxOutputTokens: number | undefined; temperature: number | undefined }): ChatSpan;
  /** Starts the span of a tool call under this span. */
  startTool(attributes: { toolName: string; callId: string; description: string }): ToolSpan;
  setAttributes(build: () => Attributes): void;
  end(error?: { type: string; message: string }): void;
}

export interface ChatSpan {
  end(response: ModelResponse | undefined, error?: { type: string; message: string }): void;
}

export interface ToolSpan {
  end(outcome: { isError: boolean; errorType?: string }): void;
}

/** Telemetry through the tracer given, or the global one (a no-op unless the host app registered an SDK); status messages are redacted with `redactor`. */
export function createAgentTelemetry(tracer?: Tracer, redactor: Redactor = createRedactor()): AgentTelemetry {
  const resolved = (): Tracer => tracer ?? trace.getTracer(TRACER_NAME);
  const fail = (span: Span, error: { type: string; message: string }): void => {
    span.setAttribute('error.type', error.type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: redactor.text(error.message) });
  };
  return {
    startRun({ runId, agentName, provider, model }) {
      const span = resolved().startSpan(`invoke_agent ${agentName}`, { kind: SpanKind.INTERNAL }, context.active());
      if (span.isRecording()) {
        span.setAttributes({
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': agentName,
          'gen_ai.provider.name': provider,
          'gen_ai.request.model': requestModelName(model, provider),
          'gen_ai.conversation.id': runId,
        });
      }
      return handle(resolved, span, trace.setSpan(context.active(), span), fail);
    },
  };
}

function handle(resolved: () => Tracer, span: Span, parent: Context, fail: (span: Span, error: { type: string; message: string }) => void): SpanHandle {
  return {
    startChat({ provider, model, maxOutputTokens, temperature }) {
      const requested = requestModelName(model, provider);
      const chat = resolved().startSpan(`chat ${requested}`, { kind: SpanKind.CLIENT }, parent);
      if (chat.isRecording()) {
        chat.setAttributes({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': provider, 'gen_ai.request.model': requested });
        if (maxOutputTokens !== undefined) chat.setAttribute('gen_ai.request.max_tokens', maxOutputTokens);
        if (temperature !== undefined) chat.setAttribute('gen_ai.request.temperature', temperature);
      }
      return {
        end(response, error) {
          if (chat.isRecording()) {
            if (response) {
              chat.setAttributes({
                'gen_ai.response.model': response.modelId,
                'gen_ai.response.finish_reasons': [response.stopReason],
                'gen_ai.usage.input_tokens': response.usage.inputTokens,
                'gen_ai.usage.output_tokens': response.usage.outputTokens,
                ...cacheUsageAttributes(response.usage),
              });
            }
            if (error) fail(chat, error);
          }
          chat.end();
        },
      };
    },
    startTool({ toolName, callId, description }) {
      const tool = resolved().startSpan(`execute_tool ${toolName}`, { kind: SpanKind.INTERNAL }, parent);
      if (tool.isRecording()) {
        tool.setAttributes({
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': toolName,
          'gen_ai.tool.call.id': callId,
          'gen_ai.tool.type': 'function',
          'gen_ai.tool.description': description,
        });
      }
      return {
        end({ isError, errorType }) {
          if (isError && tool.isRecording()) fail(tool, { type: errorType ?? '_OTHER', message: `tool ${toolName} failed` });
          tool.end();
        },
      };
    },
    setAttributes(build) {
      if (span.isRecording()) span.setAttributes(build());
    },
    end(error) {
      if (error && span.isRecording()) fail(span, error);
      span.end();
    },
  };
}

/**
 * The model's name as its provider knows it (`gpt-4o-mini`), what the conventions put in `gen_ai.request.model` and
 * the chat span's name, and what viewers such as Langfuse match against their price tables: the model id without
 * toolwright's `provider:` prefix (`openai:gpt-4o-mini`), and an AI SDK model's also without its provider package's
 * name (`ai-sdk:google.generative-ai:gemini-2.5-flash`). An id without the prefix is kept whole.
 */
export function requestModelName(modelId: string, provider: string): string {
  const prefix = `${provider}:`;
  if (!modelId.startsWith(prefix)) return modelId;
  const name = modelId.slice(prefix.length);
  if (provider !== 'ai-sdk') return name;
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** OpenTelemetry's GenAI cache counts (both included in `gen_ai.usage.input_tokens`), where the usage has them. */
export function cacheUsageAttributes(usage: { cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined }): Record<string, number> {
  return {
    ...(usage.cacheReadTokens !== undefined ? { 'gen_ai.usage.cache_read.input_tokens': usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens !== undefined ? { 'gen_ai.usage.cache_creation.input_tokens': usage.cacheWriteTokens } : {}),
  };
}
