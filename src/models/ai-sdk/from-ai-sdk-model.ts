/**
 * `fromAISDKModel`: any AI SDK language model as a toolwright {@link Model}, so
 * `runAgent` reaches every provider the AI SDK has without toolwright writing
 * one by hand: `fromAISDKModel(google('gemini-2.5-flash'))`.
 * @module
 */
import type { AISDKLanguageModel } from '../../formats/ai-sdk/ai-sdk-types.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import type { Model } from '../types.js';
import { AISDKModel, type AISDKModelOptions } from './ai-sdk-model.js';

/**
 * Wraps an AI SDK language model (specification v4, AI SDK 7; or v3, AI SDK 5
 * and 6) from any provider package. The model's id is
 * `ai-sdk:<provider>:<modelId>` (e.g. `ai-sdk:google.generative-ai:gemini-2.5-flash`),
 * which is what a price table names. Retries, timeouts and errors behave as for
 * toolwright's own providers; the provider package's settings (key, base URL,
 * fetch) stay in the provider package.
 *
 * ```ts
 * import { google } from '@ai-sdk/google';
 * const model = fromAISDKModel(google('gemini-2.5-flash'));
 * const result = await runAgent({ model, tools, prompt: 'What is the weather in Paris?' });
 * ```
 */
export function fromAISDKModel(languageModel: AISDKLanguageModel, options: AISDKModelOptions = {}): Model {
  if (typeof languageModel === 'string') {
    throw new InvalidArgumentError(
      `fromAISDKModel needs a model object from a provider package, such as google('gemini-2.5-flash'); the string "${languageModel}" would need the AI SDK's gateway, which fromAISDKModel does not load.`,
    );
  }
  const candidate = languageModel as unknown as Record<string, unknown> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.doGenerate !== 'function' || typeof candidate.doStream !== 'function') {
    throw new InvalidArgumentError(
      'fromAISDKModel needs an AI SDK language model (an object with doGenerate and doStream), such as google("gemini-2.5-flash") from @ai-sdk/google.',
    );
  }
  if (candidate.specificationVersion !== 'v4' && candidate.specificationVersion !== 'v3') {
    throw new InvalidArgumentError(
      `fromAISDKModel reads AI SDK language models of specification v3 or v4; this one declares ${JSON.stringify(candidate.specificationVersion)}. Install a release of its provider package made for AI SDK 5 or later.`,
    );
  }
  return new AISDKModel(languageModel, options);
}
