import { describe, expect, it } from 'vitest';
import { ToolwrightError } from '../shared/errors.js';
import { AnthropicModel } from './anthropic/anthropic-model.js';
import { createModel } from './create-model.js';
import { OpenAIChatModel } from './openai/openai-chat-model.js';
import { OpenAIResponsesModel } from './openai/openai-responses-model.js';
import { InvalidModelSpecError, MissingApiKeyError } from './provider-errors.js';

const noEnv = { env: {} };

describe('createModel', () => {
  it('builds each provider from its spec', () => {
    const openai = createModel('openai:gpt-4o-mini', { apiKey: 'k' });
    expect(openai).toBeInstanceOf(OpenAIChatModel);
    expect([openai.id, openai.provider]).toEqual(['openai:gpt-4o-mini', 'openai']);
    expect(createModel('openai-responses:gpt-4o-mini', { apiKey: 'k' })).toBeInstanceOf(OpenAIResponsesModel);
    expect(createModel('openai:gpt-4o-mini', { apiKey: 'k', api: 'responses' })).toBeInstanceOf(OpenAIResponsesModel);
    const anthropic = createModel('anthropic:claude-sonnet-4-5', { apiKey: 'k' });
    expect(anthropic).toBeInstanceOf(AnthropicModel);
    expect(anthropic.id).toBe('anthropic:claude-sonnet-4-5');
    const local = createModel('openai-compatible:qwen2.5:7b', { baseURL: 'http://127.0.0.1:11434/v1', ...noEnv });
    expect([local.id, local.provider]).toEqual(['openai-compatible:qwen2.5:7b', 'openai-compatible']);
  });

  it('names the variable to set when the key is missing', () => {
    const error = (() => {
      try {
        createModel('openai:gpt-4o-mini', noEnv);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(MissingApiKeyError);
    expect(ToolwrightError.isInstance(error) && error.code).toBe('TW_MISSING_API_KEY');
    expect((error as Error).message).toBe('OpenAI needs an API key: set the OPENAI_API_KEY environment variable, or pass { apiKey } to createModel.');
    expect(() => createModel('anthropic:claude-sonnet-4-5', noEnv)).toThrow(
      'Anthropic needs an API key: set the ANTHROPIC_API_KEY environment variable, or pass { apiKey } to createModel.',
    );
    expect(() => createModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: '  ' } })).toThrow(MissingApiKeyError);
  });

  it('takes keys from the environment', () => {
    expect(() => createModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'sk-1' } })).not.toThrow();
    expect(() => createModel('anthropic:claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: 'sk-ant' } })).not.toThrow();
  });

  it('rejects malformed specs and unknown providers with the fix', () => {
    expect(() => createModel('gpt-4o-mini', noEnv)).toThrow(InvalidModelSpecError);
    expect(() => createModel('gpt-4o-mini', noEnv)).toThrow(
      'Model spec "gpt-4o-mini": write it as provider:model, e.g. "openai:gpt-4o-mini" or "anthropic:claude-sonnet-4-5" (providers: openai, openai-responses, anthropic, openai-compatible, local).',
    );
    expect(() => createModel('openai:', noEnv)).toThrow(InvalidModelSpecError);
    expect(() => createModel('gemini:pro', noEnv)).toThrow('unknown provider "gemini"');
  });

  it('points an ai-sdk: spec at fromAISDKModel, since only the provider package can build that model', () => {
    expect(() => createModel('ai-sdk:google:gemini-2.5-flash', noEnv)).toThrow(
      `Model spec "ai-sdk:google:gemini-2.5-flash": AI SDK models come from their provider package, not a string: wrap one with fromAISDKModel from toolwright/ai-sdk, e.g. fromAISDKModel(google('gemini-2.5-flash')).`,
    );
    expect(() => createModel('ai-sdk:mistral.chat:mistral-large', noEnv)).toThrow("fromAISDKModel(mistral('mistral-large'))");
  });

  it('requires a base URL for OpenAI-compatible servers', () => {
    expect(() => createModel('openai-compatible:llama3', noEnv)).toThrow(
      'Model spec "openai-compatible:llama3": an OpenAI-compatible server needs a base URL: pass { baseURL } (e.g. "http://127.0.0.1:11434/v1" for Ollama) or set OPENAI_BASE_URL.',
    );
    expect(() => createModel('openai-compatible:llama3', { env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' } })).not.toThrow();
  });

  it('estimates input tokens without a request', () => {
    const model = createModel('openai:gpt-4o-mini', { apiKey: 'k' });
    expect(model.estimateInputTokens({ messages: [{ role: 'user', content: 'hello' }] })).toBe(9);
  });
});
