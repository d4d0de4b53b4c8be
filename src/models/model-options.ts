/**
 * Options every provider accepts, and where keys and base URLs come from when
 * the options do not say: the official SDKs' usual environment variables.
 * @module
 */
import type { LocalModelOptions } from './local/local-model-options.js';
import type { RetryEvent, RetryOptions } from './retry/call-with-retries.js';

export interface ModelOptions {
  /** The API key. Defaults to the provider's variable: `OPENAI_API_KEY` or `ANTHROPIC_API_KEY` (see docs/providers.md for OpenAI-compatible servers). */
  apiKey?: string;
  /** The API root. Defaults to `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`, then the provider's public endpoint. Required for `openai-compatible`. */
  baseURL?: string;
  /** For `openai:` models: `chat` (Chat Completions, the default) or `responses` (the Responses API). */
  api?: 'chat' | 'responses';
  /** The longest wait for an answer, or between two streamed events, per attempt. Default 600 000 ms (the SDKs' 10 minutes). */
  timeoutMs?: number;
  /** Retries on 408/409/429/5xx, connection failures and timeouts. Default 2. Shorthand for `retry.maxRetries`. */
  maxRetries?: number;
  /** Finer retry settings (backoff, longest honoured `retry-after`). */
  retry?: RetryOptions;
  /** Called before each retry wait, for logging. */
  onRetry?: (event: RetryEvent) => void;
  /** Output token cap when a request sets none. Anthropic requires one; default 4096 there, unset elsewhere. */
  maxOutputTokens?: number;
  /**
   * OpenAI and Anthropic: declare tools with `strict: true` (OpenAI Structured Outputs, Anthropic strict tool use); their schemas are rewritten
   * to the provider's strict subset. A tool's own `defineTool({ strict })` wins. Default `false`.
   */
  strictTools?: boolean;
  /** OpenAI Chat only: ask for usage in streams (`stream_options.include_usage`). Turn off for servers that reject the field. Default `true`. */
  streamUsage?: boolean;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one (proxies, instrumentation). */
  fetch?: typeof fetch;
  /** For `local:` models: threads, context size, sampling defaults, and whether calls are decoded under the token mask. */
  local?: LocalModelOptions;
  /** Where to read environment variables; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Anthropic only: extended thinking with this many tokens (`thinking: { type: 'enabled', budget_tokens }`; at least 1024, less than the output cap). */
  thinkingBudgetTokens?: number;
  /**
   * OpenAI Responses only: ask for `include: ['reasoning.encrypted_content']`, so that a reasoning model's reasoning items can be sent back
   * across function calls (toolwright sends `store: false`). Only reasoning models accept it; others answer 400. Default `false`.
   */
  includeEncryptedReasoning?: boolean;
  /** Anthropic only: declare every tool with `eager_input_streaming: true` (inputs stream unbuffered, possibly as invalid JSON). Default `false`. */
  eagerInputStreaming?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 600_000;

/** Reads a variable, treating an empty string as unset. */
export function readEnv(env: Readonly<Record<string, string | undefined>> | undefined, name: string): string | undefined {
  const source = env ?? (typeof process === 'undefined' ? {} : process.env);
  const value = source[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function retryOptions(options: ModelOptions): RetryOptions {
  return { ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) };
}
