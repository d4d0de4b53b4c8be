/**
 * Loads the `openai` SDK on first use and builds a client with the SDK's own
 * retries off (toolwright retries, see `callWithRetries`).
 * @module
 */
import type OpenAI from 'openai';
import { sdkClientOptions, type ProviderSettings } from '../provider-settings.js';
import { classifySdkError } from '../retry/classify-sdk-error.js';
import type { SdkClient } from '../sdk-model.js';
import { loadPeer } from '../../shared/load-peer.js';

export type OpenAIClient = SdkClient<OpenAI>;

export async function loadOpenAIClient(settings: ProviderSettings): Promise<OpenAIClient> {
  const sdk = await loadPeer('openai', 'An OpenAI model (openai:…)', () => import('openai'));
  const client = new sdk.OpenAI(sdkClientOptions(settings));
  return { client, classify: (error) => classifySdkError(error, sdk) };
}
