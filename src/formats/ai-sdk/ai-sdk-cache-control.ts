/**
 * Prompt caching through an AI SDK model, in the provider options the AI SDK's own provider packages read:
 * `providerOptions.anthropic.cacheControl` on the last tool, the last system message and the last message (the breakpoints
 * toolwright places on Anthropic Messages, see `anthropic-cache-control.ts`), and the call's
 * `providerOptions.openai.promptCacheKey`. A package reads only its own namespace, so the others pass unread; Gemini caches
 * implicitly and reports its cache reads without being asked.
 * @module
 */
import type { LanguageModelV4CallOptions, SharedV4ProviderOptions } from '@ai-sdk/provider';
import { isPlainObject } from '../../shared/own.js';

const ANTHROPIC_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** Adds the cache options to `callOptions` in place; marked entries are replaced by copies. */
export function addAISDKCacheOptions(callOptions: LanguageModelV4CallOptions, cacheKey: string | undefined): void {
  const tools = callOptions.tools;
  if (tools !== undefined && tools.length > 0) {
    const last = tools[tools.length - 1]!;
    if (last.type === 'function') tools[tools.length - 1] = { ...last, providerOptions: merged(last.providerOptions, ANTHROPIC_BREAKPOINT) };
  }
  const prompt = callOptions.prompt;
  const lastSystem = prompt.findLastIndex((message) => message.role === 'system');
  const marked = new Set([lastSystem, prompt.length - 1].filter((index) => index >= 0));
  callOptions.prompt = prompt.map((message, index) =>
    marked.has(index) ? { ...message, providerOptions: merged(message.providerOptions, ANTHROPIC_BREAKPOINT) } : message,
  );
  if (cacheKey !== undefined) callOptions.providerOptions = merged(callOptions.providerOptions, { openai: { promptCacheKey: cacheKey } });
}

/** `base` with `added`'s namespaces merged one level down, so a caller's own options in the same namespace are kept. */
export function merged(base: SharedV4ProviderOptions | undefined, added: SharedV4ProviderOptions): SharedV4ProviderOptions {
  const result: SharedV4ProviderOptions = { ...base };
  for (const [namespace, options] of Object.entries(added)) {
    const existing = result[namespace];
    result[namespace] = isPlainObject(existing) ? { ...existing, ...options } : options;
  }
  return result;
}
