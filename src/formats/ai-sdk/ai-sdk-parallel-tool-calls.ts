/**
 * `parallelToolCalls: false` through the AI SDK: `LanguageModelV4CallOptions` has no
 * such setting (each provider package keeps its own under `providerOptions`). For
 * `@ai-sdk/openai` and `@ai-sdk/anthropic` it is sent as their own option
 * (`ai-sdk-package-options.ts`); through any other package the request goes without it
 * and the agent loop's one-call-per-response rule is what holds.
 * @module
 */
import type { FormatWarning } from '../../protocol/format-warning.js';

export const AI_SDK_PARALLEL_TOOL_CALLS_WARNING: FormatWarning = {
  type: 'unsupported',
  provider: 'ai-sdk',
  feature: 'parallelToolCalls',
  path: '/parallelToolCalls',
  details:
    "the AI SDK's call options have no parallel tool call setting, so the model may still return several calls; runAgent runs the first and answers the others as not run (set the provider package's own option in providerOptions to stop them at the source)",
};
