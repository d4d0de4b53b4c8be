/**
 * Formats: one tool definition to OpenAI (Chat Completions and Responses),
 * Anthropic and MCP wire shapes and back — declarations, calls, results and
 * streamed calls, neutral conversations and model responses — plus the strict-schema rewrite and the schema linter.
 * Pure functions: no network, no provider SDK at runtime (only its types).
 * The package entry `toolwright/formats`, for a program that talks to a provider's SDK itself.
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
export type { SchemaProvider } from '../protocol/format-warning.js';
// What the one argument parse (toolCallPart) keeps when a call's text is not usable JSON.
export type { ForbiddenKey, JsonLimitExceeded, JsonParseFailure } from '../shared/safe-json.js';
export { OPENAI_STRICT_LIMITS, restoreOptionalNulls, schemaCompatibilityWarnings, toOpenAIStrictSchema } from './provider-schema/index.js';
export { ANTHROPIC_STRICT_LIMITS, toAnthropicStrictSchema } from './provider-schema/index.js';
export type { NullRestorePlan, StrictSchemaConversion } from './provider-schema/index.js';
export type { PartialToolCall } from './partial-tool-call.js';
export type { ToolSource } from './tool-source.js';
export type { ParseToolCallOptions } from './call-arguments.js';
export type { CallResult } from './content-as-text.js';

export { toOpenAIChatTools } from './openai-chat/to-openai-chat-tools.js';
export type { OpenAIChatTools, OpenAIToolsOptions } from './openai-chat/to-openai-chat-tools.js';
export { parseOpenAIChatToolCalls } from './openai-chat/parse-openai-chat-tool-calls.js';
export type { OpenAIChatToolCallsInput, ParseOpenAIChatToolCallsOptions } from './openai-chat/parse-openai-chat-tool-calls.js';
export { toOpenAIChatResultMessage, toOpenAIChatResultMessages } from './openai-chat/to-openai-chat-result-messages.js';
export type { OpenAIChatResultMessage, OpenAIChatResultMessages } from './openai-chat/to-openai-chat-result-messages.js';
export { convertToOpenAIChatMessages } from './openai-chat/convert-to-openai-chat-messages.js';
export type { OpenAIChatMessages } from './openai-chat/convert-to-openai-chat-messages.js';
export { OpenAIChatToolCallStream } from './openai-chat/openai-chat-tool-call-stream.js';
export type { OpenAIChatToolCallStreamOptions } from './openai-chat/openai-chat-tool-call-stream.js';

export { toOpenAIResponsesTools } from './openai-responses/to-openai-responses-tools.js';
export type { OpenAIResponsesTools } from './openai-responses/to-openai-responses-tools.js';
export { parseOpenAIResponsesToolCalls } from './openai-responses/parse-openai-responses-tool-calls.js';
export type { OpenAIResponsesToolCallsInput } from './openai-responses/parse-openai-responses-tool-calls.js';
export { toOpenAIResponsesResultItem, toOpenAIResponsesResultItems } from './openai-responses/to-openai-responses-result-items.js';
export type { OpenAIResponsesResultItem, OpenAIResponsesResultItems } from './openai-responses/to-openai-responses-result-items.js';
export { convertToOpenAIResponsesInput } from './openai-responses/convert-to-openai-responses-input.js';
export type { OpenAIResponsesInput } from './openai-responses/convert-to-openai-responses-input.js';
export { OpenAIResponsesToolCallStream } from './openai-responses/openai-responses-tool-call-stream.js';
export type { OpenAIResponsesStreamEvent } from './openai-responses/openai-responses-tool-call-stream.js';

export { toAnthropicTools } from './anthropic/to-anthropic-tools.js';
export type { AnthropicTools, AnthropicToolsOptions } from './anthropic/to-anthropic-tools.js';
export { parseAnthropicToolCalls } from './anthropic/parse-anthropic-tool-calls.js';
export type { AnthropicToolCallsInput } from './anthropic/parse-anthropic-tool-calls.js';
export { toAnthropicResultMessage, toAnthropicToolResultBlock } from './anthropic/to-anthropic-result-message.js';
export type { AnthropicResultMessage } from './anthropic/to-anthropic-result-message.js';
export { convertToAnthropicMessages } from './anthropic/convert-to-anthropic-messages.js';
export type { AnthropicMessages } from './anthropic/convert-to-anthropic-messages.js';
export { AnthropicToolCallStream } from './anthropic/anthropic-tool-call-stream.js';

export { toMcpAnnotations, toMcpTool, toMcpTools } from './mcp/to-mcp-tools.js';
export type { McpTools } from './mcp/to-mcp-tools.js';
export { parseMcpToolCall } from './mcp/parse-mcp-tool-call.js';
export type { ParseMcpToolCallOptions } from './mcp/parse-mcp-tool-call.js';
export { toMcpCallToolResult } from './mcp/to-mcp-call-tool-result.js';

export { DEFAULT_MAX_TOOLS_WITHOUT_ROUTING, LINT_RULES, lintTools } from './lint/index.js';
export type { LintFinding, LintOptions, LintRuleId, LintRuleInfo, LintSeverity } from './lint/index.js';
