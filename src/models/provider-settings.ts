/**
 * A provider's settings once options and environment are resolved: what every
 * SDK-backed model needs to build its client and to word its errors.
 * @module
 */
import type { ProviderErrorContext } from './provider-errors.js';
import { DEFAULT_TIMEOUT_MS, retryOptions, type ModelOptions } from './model-options.js';
import { ProviderTransport } from './provider-transport.js';

export interface ProviderSettings {
  /** `openai`, `openai-compatible` or `anthropic`: the first half of the model's id. */
  provider: string;
  /** The model id sent to the provider. */
  modelName: string;
  apiKey: string;
  /** `undefined` lets the SDK use its public endpoint. */
  baseURL: string | undefined;
  context: ProviderErrorContext;
  options: ModelOptions;
}

export function createTransport(settings: ProviderSettings): ProviderTransport {
  return new ProviderTransport(settings.context, {
    retry: retryOptions(settings.options),
    timeoutMs: settings.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    onRetry: settings.options.onRetry,
  });
}

/**
 * The client options both official SDKs take alike: the key and endpoint, the SDK's own retries off
 * (the transport retries, see `callWithRetries`), the per-attempt timeout, extra headers and a custom fetch.
 */
export function sdkClientOptions(settings: ProviderSettings) {
  const options = settings.options;
  return {
    apiKey: settings.apiKey,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
}
