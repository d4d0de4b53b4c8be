/**
 * `toolwright/openai-agents`: toolwright inside the OpenAI Agents SDK
 * (`toOpenAIAgentsTools`) and its function tools under toolwright
 * (`fromOpenAIAgentsTools`). `@openai/agents` (^0.20) is an optional peer
 * dependency, loaded on first use. Use named exports, not wildcards.
 * @module
 */
export { openAIAgentsApprovalPrompt, toOpenAIAgentsTools } from './to-openai-agents-tools.js';
export type { OpenAIAgentsApprovalItem, OpenAIAgentsTool, OpenAIAgentsToolsOptions } from './to-openai-agents-tools.js';
export { fromOpenAIAgentsTools } from './from-openai-agents-tools.js';
export type { AnyOpenAIAgentsFunctionTool, FromOpenAIAgentsToolsOptions } from './from-openai-agents-tools.js';
