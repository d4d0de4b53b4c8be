/**
 * Protocol: the provider-neutral conversation (messages, parts) and model call
 * (request, response, stream events) that formats convert and models send.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export type { FormatWarning, SchemaProvider } from './format-warning.js';
export type { AssistantMessage, ImagePart, Message, SystemMessage, TextPart, ToolCallPart, ToolMessage, ToolResultPart, UserMessage } from './messages.js';
export { toolCallsOf } from './model-exchange.js';
export type { ModelRequest, ModelResponse, ModelStreamEvent, StopReason, TokenUsage, ToolChoice } from './model-exchange.js';
