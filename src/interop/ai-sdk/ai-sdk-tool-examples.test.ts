/** A toolwright tool's `examples` and `strict` reach the AI SDK's own loop as its `inputExamples` and `strict`. */
import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { forecastWithExamples as forecast } from '../../tools/__fixtures__/forecast.js';
import { toAISDKTools } from './index.js';

const answer: LanguageModelV4GenerateResult = {
  content: [{ type: 'text', text: 'ok' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
  warnings: [],
};

describe('toAISDKTools and examples', () => {
  it("declares the examples as the AI SDK's inputExamples and the tool's strict flag", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [answer] });
    await generateText({ model, tools: toAISDKTools([forecast]), prompt: 'Forecast?' });
    expect(model.doGenerateCalls[0]!.tools![0]).toMatchObject({
      name: 'get_forecast',
      description: 'Weather forecast for a city.',
      inputExamples: [{ input: { city: 'Paris' } }],
      strict: true,
    });
  });
});
