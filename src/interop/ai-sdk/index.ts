export { fromAISDKModel } from '../../models/ai-sdk/index.js';
export type { AISDKLanguageModel, AISDKModelOptions, AISDKProviderOptions } from '../../models/ai-sdk/index.js';
