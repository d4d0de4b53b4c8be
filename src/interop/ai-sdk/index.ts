/**
 * `toolwright/ai-sdk`: toolwright inside the Vercel AI SDK (`toAISDKTools`),
 * AI SDK tools under toolwright (`fromAISDKTools`), and any AI SDK language
 * model as a toolwright `Model` (`fromAISDKModel`). `ai` (^7) is an optional
 * peer dependency, loaded only where a function needs it at run time;
 * `@ai-sdk/provider` is used for types only. Use named exports, not wildcards.
 * @module
 */
export { toAISDKToolApproval, toAISDKTools, toModelOutput } from './to-ai-sdk-tools.js';
export type { AISDKTool, AISDKToolApproval, AISDKToolModelOutput, AISDKToolsOptions } from './to-ai-sdk-tools.js';
export { fromAISDKTools } from './from-ai-sdk-tools.js';
export type { AnyAISDKTool, FromAISDKToolsOptions } from './from-ai-sdk-tools.js';
export { fromAISDKModel } from '../../models/ai-sdk/index.js';
export type { AISDKLanguageModel, AISDKModelOptions, AISDKProviderOptions } from '../../models/ai-sdk/index.js';
