/**
 * Protocol: the provider-neutral conversation (messages, parts) and model call
 * (request, response, stream events) that formats convert and models send.
 * Internal barrel, not a package entry point (see package.json `exports`): what users can import is
 * chosen name by name in src/index.ts. Use named exports, not wildcards.
 * @module
 */
export type { FormatWarning, SchemaProvider } from './format-warning.js';
export type {
  AssistantMessage,
  ImagePart,
  Message,
  ProviderTurnItems,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './messages.js';
export { toolCallsOf } from './model-exchange.js';
export type { ModelOutputFormat, ModelRequest, ModelResponse, ModelStreamEvent, StopReason, TokenUsage, ToolChoice } from './model-exchange.js';
export type { ModelToolSearch } from './model-exchange.js';
