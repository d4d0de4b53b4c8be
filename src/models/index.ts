/**
 * Models: one provider-neutral contract, provider adapters, and a scripted model for tests.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { resultText } from './types.js';
export type {
  AssistantMessage,
  ImagePart,
  Message,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  StopReason,
  SystemMessage,
  TextPart,
  TokenUsage,
  ToolCallPart,
  ToolChoice,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './types.js';
export { CHARACTERS_PER_TOKEN, IMAGE_TOKEN_ESTIMATE, estimateInputTokens, estimateTextTokens } from './estimate-tokens.js';
export { ScriptExhaustedError, ScriptedModel, createScriptedModel, errorTurn, textTurn, toolCallTurn } from './scripted/scripted-model.js';
export type { ScriptedModelOptions, ScriptedResponse, ScriptedToolCall, ScriptedTurn, ScriptedTurnContext } from './scripted/scripted-model.js';
