/**
 * `toolwright/test`: what users need to test their own agents and tools without
 * a network or a key — a scripted model that replays given turns and records
 * every request it received.
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { ScriptExhaustedError, ScriptedModel, createScriptedModel, errorTurn, estimateInputTokens, textTurn, toolCallTurn } from './models/index.js';
export type { ScriptedModelOptions, ScriptedResponse, ScriptedToolCall, ScriptedTurn, ScriptedTurnContext } from './models/index.js';
