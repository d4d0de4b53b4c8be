/**
 * `toolwright/ai-sdk`: toolwright inside the Vercel AI SDK (`toAISDKTools`)
 * and AI SDK tools under toolwright (`fromAISDKTools`). `ai` (^7) is an
 * optional peer dependency, loaded only where a function needs it at run time.
 * Use named exports, not wildcards.
 * @module
 */
export { toAISDKToolApproval, toAISDKTools, toModelOutput } from './to-ai-sdk-tools.js';
export type { AISDKTool, AISDKToolApproval, AISDKToolModelOutput, AISDKToolsOptions } from './to-ai-sdk-tools.js';
export { fromAISDKTools } from './from-ai-sdk-tools.js';
export type { AnyAISDKTool, FromAISDKToolsOptions } from './from-ai-sdk-tools.js';
