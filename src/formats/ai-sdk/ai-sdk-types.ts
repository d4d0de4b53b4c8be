/**
 * The AI SDK's language-model specification as this adapter reads it: version
 * 4 (`@ai-sdk/provider` 4.x, AI SDK 7) and version 3 (AI SDK 5 and 6), which
 * differ only where files are carried. Types only; nothing here loads the AI SDK.
 * @module
 */
import type { LanguageModelV3, LanguageModelV4, SharedV4ProviderOptions } from '@ai-sdk/provider';

/** Any AI SDK language model toolwright can drive: a provider package's model (`google('gemini-2.5-flash')`, `openai('gpt-4o')`…). */
export type AISDKLanguageModel = LanguageModelV4 | LanguageModelV3;

/** The specification version a model declares (`specificationVersion`). */
export type AISDKSpecificationVersion = 'v3' | 'v4';

/** Provider-specific options, keyed by provider name, as the AI SDK passes them to a model (`{ google: { … } }`). */
export type AISDKProviderOptions = SharedV4ProviderOptions;
