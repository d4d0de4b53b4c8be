/**
 * Options of a request that the AI SDK's call options (`LanguageModelV4CallOptions`) have no field for, but that the AI
 * SDK's own provider packages read from their `providerOptions` namespace: `parallelToolCalls: false` (`@ai-sdk/openai`'s
 * `parallelToolCalls`, sent as `parallel_tool_calls: false`; `@ai-sdk/anthropic`'s `disableParallelToolUse`, sent inside
 * `tool_choice`) and allowed tools (`@ai-sdk/openai`'s Responses `allowedTools`, sent as `tool_choice: { type:
 * 'allowed_tools' }` over the full tool list). The package is told by the model's `provider` id (`openai.chat`,
 * `openai.responses`, `anthropic.messages`); any other package gets none of these, and the caller keeps its fallback.
 * @module
 */
import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { ToolChoice } from '../../protocol/model-exchange.js';

const isOpenAIPackage = (provider: string): boolean => provider === 'openai.chat' || provider === 'openai.responses';
const isAnthropicPackage = (provider: string): boolean => provider.startsWith('anthropic.');

/** The provider options that stop parallel calls at the source, or `undefined` when the model's package has none. */
export function aiSDKParallelToolCallsOff(provider: string): SharedV4ProviderOptions | undefined {
  if (isOpenAIPackage(provider)) return { openai: { parallelToolCalls: false } };
  if (isAnthropicPackage(provider)) return { anthropic: { disableParallelToolUse: true } };
  return undefined;
}

/**
 * The provider options that allow only `allowed` while the full tool list is declared, or `undefined` when the request
 * allows every tool or the model's package cannot say it. Only `@ai-sdk/openai`'s Responses model has the option (its Chat
 * model has none). A forced tool or `none` (the package's `allowedTools` would override it) and an empty list (which the
 * package refuses) get `undefined` too: the caller declares only the allowed tools, as for the other packages.
 */
export function aiSDKAllowedTools(
  provider: string,
  allowed: readonly string[] | undefined,
  choice: ToolChoice | undefined,
): SharedV4ProviderOptions | undefined {
  if (provider !== 'openai.responses' || allowed === undefined || allowed.length === 0) return undefined;
  const mode = choice ?? 'auto';
  if (mode !== 'auto' && mode !== 'required') return undefined;
  return { openai: { allowedTools: { toolNames: [...allowed], mode } } };
}
