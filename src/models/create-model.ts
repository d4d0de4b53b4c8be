/**
 * `createModel('openai:gpt-4o-mini')`: one entry point for every SDK-backed
 * provider. Keys and base URLs come from the options, else from the variables
 * the official SDKs read. Nothing is sent until the first request.
 * @module
 */
import { AnthropicModel } from './anthropic/anthropic-model.js';
import { LazyLocalModel } from './local/create-local-model.js';
import { readEnv, type ModelOptions } from './model-options.js';
import { OpenAIChatModel } from './openai/openai-chat-model.js';
import { OpenAIResponsesModel } from './openai/openai-responses-model.js';
import { InvalidModelSpecError, MissingApiKeyError } from './provider-errors.js';
import type { ProviderSettings } from './provider-settings.js';
import type { Model } from './types.js';

/** The providers `createModel` knows, as written before the colon. */
export const MODEL_PROVIDERS = ['openai', 'openai-responses', 'anthropic', 'openai-compatible', 'local'] as const;

export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A placeholder key for local servers that ignore keys (Ollama, llama.cpp): the SDK refuses to start without one. */
const NO_KEY = 'not-needed';

/**
 * Creates a model from `provider:model`:
 * - `openai:<model>`: Chat Completions (`api: 'responses'` for the Responses API); `OPENAI_API_KEY`, `OPENAI_BASE_URL`.
 * - `openai-responses:<model>`: the Responses API.
 * - `anthropic:<model>`: Messages; `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`.
 * - `openai-compatible:<model>`: Chat Completions at `baseURL` (Ollama `http://127.0.0.1:11434/v1`, vLLM, llama.cpp, LM Studio).
 * - `local:<path.gguf>`: a GGUF file run in-process by node-llama-cpp, tool calls decoded under toolwright's token mask (`options.local`).
 */
export function createModel(spec: string, options: ModelOptions = {}): Model {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) {
    throw new InvalidModelSpecError(
      spec,
      `write it as provider:model, e.g. "openai:gpt-4o-mini" or "anthropic:claude-sonnet-4-5" (providers: ${MODEL_PROVIDERS.join(', ')}).`,
    );
  }
  const provider = spec.slice(0, colon);
  const modelName = spec.slice(colon + 1);
  switch (provider) {
    case 'openai':
    case 'openai-responses': {
      const settings = officialSettings(OPENAI, modelName, options);
      return provider === 'openai-responses' || options.api === 'responses' ? new OpenAIResponsesModel(settings) : new OpenAIChatModel(settings);
    }
    case 'openai-compatible': {
      const settings = compatibleSettings(spec, modelName, options);
      return options.api === 'responses' ? new OpenAIResponsesModel(settings) : new OpenAIChatModel(settings);
    }
    case 'anthropic':
      return new AnthropicModel(officialSettings(ANTHROPIC, modelName, options));
    case 'local':
      return new LazyLocalModel(modelName, options.local);
    case 'ai-sdk':
      // The provider package builds an AI SDK model (its key, URL, fetch); a string cannot say which package, so it is never loaded from one.
      throw new InvalidModelSpecError(
        spec,
        `AI SDK models come from their provider package, not a string: wrap one with fromAISDKModel from toolwright/ai-sdk, e.g. fromAISDKModel(${aiSDKExample(modelName)}).`,
      );
    default:
      throw new InvalidModelSpecError(
        spec,
        `unknown provider "${provider}"; use one of ${MODEL_PROVIDERS.join(', ')} (any OpenAI-compatible server works as openai-compatible:<model> with a baseURL).`,
      );
  }
}

/** `google:gemini-2.5-flash` → `google('gemini-2.5-flash')`, the call that builds that model in its provider package. */
function aiSDKExample(modelName: string): string {
  const colon = modelName.indexOf(':');
  if (colon <= 0) return `google('${modelName}')`;
  return `${modelName.slice(0, colon).split('.')[0]}('${modelName.slice(colon + 1)}')`;
}

/** A provider with an official SDK and public endpoint: where its key and base URL come from when the options do not say. */
interface OfficialProvider {
  provider: 'openai' | 'anthropic';
  providerName: string;
  keyVariable: string;
  baseURLVariable: string;
  publicBaseURL: string;
}

const OPENAI: OfficialProvider = {
  provider: 'openai',
  providerName: 'OpenAI',
  keyVariable: 'OPENAI_API_KEY',
  baseURLVariable: 'OPENAI_BASE_URL',
  publicBaseURL: 'https://api.openai.com/v1',
};

const ANTHROPIC: OfficialProvider = {
  provider: 'anthropic',
  providerName: 'Anthropic',
  keyVariable: 'ANTHROPIC_API_KEY',
  baseURLVariable: 'ANTHROPIC_BASE_URL',
  publicBaseURL: 'https://api.anthropic.com',
};

function officialSettings(official: OfficialProvider, modelName: string, options: ModelOptions): ProviderSettings {
  const { provider, providerName, keyVariable } = official;
  const apiKey = options.apiKey ?? readEnv(options.env, keyVariable);
  if (apiKey === undefined) throw new MissingApiKeyError(providerName, keyVariable);
  const baseURL = options.baseURL ?? readEnv(options.env, official.baseURLVariable);
  return {
    provider,
    modelName,
    apiKey,
    baseURL,
    context: { providerName, modelId: modelName, baseURL: baseURL ?? official.publicBaseURL, keyVariable },
    options,
  };
}

function compatibleSettings(spec: string, modelName: string, options: ModelOptions): ProviderSettings {
  const envBaseURL = readEnv(options.env, 'OPENAI_BASE_URL');
  const baseURL = options.baseURL ?? envBaseURL;
  if (baseURL === undefined) {
    throw new InvalidModelSpecError(
      spec,
      'an OpenAI-compatible server needs a base URL: pass { baseURL } (e.g. "http://127.0.0.1:11434/v1" for Ollama) or set OPENAI_BASE_URL.',
    );
  }
  // OPENAI_API_KEY goes only to the server OPENAI_BASE_URL names, never to a base URL given in code, so a real OpenAI key does not leak to a third party.
  const envKey = options.baseURL === undefined ? readEnv(options.env, 'OPENAI_API_KEY') : undefined;
  return {
    provider: 'openai-compatible',
    modelName,
    apiKey: options.apiKey ?? envKey ?? NO_KEY,
    baseURL,
    context: {
      providerName: 'The OpenAI-compatible server',
      modelId: modelName,
      baseURL,
      keyVariable: options.baseURL === undefined ? 'OPENAI_API_KEY' : undefined,
    },
    options,
  };
}
