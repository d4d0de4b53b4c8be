/**
 * Any AI SDK language model as a toolwright model.
 * Internal barrel, not a package entry point: users import these from `toolwright/ai-sdk` (src/interop/ai-sdk/index.ts).
 * @module
 */
export { fromAISDKModel } from './from-ai-sdk-model.js';
export type { AISDKModelOptions } from './ai-sdk-model.js';
export type { AISDKLanguageModel, AISDKProviderOptions } from '../../formats/ai-sdk/ai-sdk-types.js';
