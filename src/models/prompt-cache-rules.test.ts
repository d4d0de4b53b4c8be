import { describe, expect, it } from 'vitest';
import { createModel } from './create-model.js';
import { anthropicPromptCache, OPENAI_PROMPT_CACHE } from './prompt-cache-rules.js';

describe('the providers’ prompt-cache rules', () => {
  it('gives each Anthropic family its minimum, 1,024 otherwise', () => {
    expect(anthropicPromptCache('claude-opus-4-5-20251101').minimumTokens).toBe(4096);
    expect(anthropicPromptCache('claude-haiku-4-5').minimumTokens).toBe(4096);
    expect(anthropicPromptCache('claude-sonnet-4-6').minimumTokens).toBe(2048);
    expect(anthropicPromptCache('claude-3-5-haiku-latest').minimumTokens).toBe(2048);
    expect(anthropicPromptCache('claude-sonnet-4-5-20250929')).toEqual({ minimumTokens: 1024, billsWrites: true });
  });

  it('is stated by the official-SDK models, and only for OpenAI itself among OpenAI-wire providers', () => {
    expect(createModel('anthropic:claude-haiku-4-5', { apiKey: 'k' }).promptCache?.minimumTokens).toBe(4096);
    expect(createModel('openai:gpt-4.1', { apiKey: 'k' }).promptCache).toBe(OPENAI_PROMPT_CACHE);
    expect(createModel('openai-responses:gpt-4.1', { apiKey: 'k' }).promptCache).toBe(OPENAI_PROMPT_CACHE);
    // Another server speaking OpenAI's wire has its own cache, if any: the breaker keeps its general rule there.
    expect(createModel('openai-compatible:llama', { baseURL: 'http://127.0.0.1:1/v1' }).promptCache).toBeUndefined();
  });
});
