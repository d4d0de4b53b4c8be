/**
 * Loads the `openai` SDK on first use and builds a client with the SDK's own
 * retries off (toolwright retries, see `callWithRetries`).
 * @module
 */
import type OpenAI from 'openai';
import type * as OpenAISdk from 'openai';
import { sdkClientOptions, type ProviderSettings } from '../provider-settings.js';
import { classifySdkError } from '../retry/classify-sdk-error.js';
import type { SdkClient } from '../sdk-model.js';
import { loadPeer } from '../../shared/load-peer.js';

export type OpenAIClient = SdkClient<OpenAI>;

type OpenAIModule = typeof OpenAISdk;

let importOpenAI: () => Promise<OpenAIModule> = () => import('openai');

/**
 * For tests only (no entry exports it): loads the SDK from elsewhere, so that the
 * provider suites run against both `openai` majors (6 and 7, whose public API toolwright
 * uses is the same); `undefined` restores `import('openai')`.
 */
export function setOpenAISdkImportForTests(load: (() => Promise<OpenAIModule>) | undefined): void {
  importOpenAI = load ?? (() => import('openai'));
}

export async function loadOpenAIClient(settings: ProviderSettings): Promise<OpenAIClient> {
  const sdk = await loadPeer('openai', 'An OpenAI model (openai:…)', importOpenAI);
  const client = new sdk.OpenAI(sdkClientOptions(settings));
  return { client, classify: (error) => classifySdkError(error, sdk) };
}
