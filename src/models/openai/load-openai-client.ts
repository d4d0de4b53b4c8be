/**
 * Loads the `openai` SDK on first use and builds a client with the SDK's own
 * retries off (toolwright retries, see `callWithRetries`).
 * @module
 */
import type OpenAI from 'openai';
import type { ProviderSettings } from '../provider-settings.js';
import { DEFAULT_TIMEOUT_MS } from '../model-options.js';
import type { ClassifiedFailure } from '../retry/call-with-retries.js';
import { classifySdkError } from '../retry/classify-sdk-error.js';
import { loadPeer } from '../../shared/load-peer.js';

export interface OpenAIClient {
  client: OpenAI;
  classify: (error: unknown) => ClassifiedFailure;
}

export async function loadOpenAIClient(settings: ProviderSettings): Promise<OpenAIClient> {
  const sdk = await loadPeer('openai', 'An OpenAI model (openai:…)', () => import('openai'));
  const options = settings.options;
  const client = new sdk.OpenAI({
    apiKey: settings.apiKey,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { client, classify: (error) => classifySdkError(error, sdk) };
}
