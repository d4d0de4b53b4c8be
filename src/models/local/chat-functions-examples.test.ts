/** A local model's chat template lists each offered tool with its examples appended to the description (no field for them). */
import { describe, expect, it } from 'vitest';
import { forecastWithExamples as forecast } from '../../tools/__fixtures__/forecast.js';
import { renderPrompt } from './chat-history.js';

describe('renderPrompt and tool examples', () => {
  it('hands the chat wrapper the description with the examples folded in', () => {
    let functions: Record<string, { description: string }> | undefined;
    const chatWrapper = {
      generateContextState(options: { availableFunctions?: Record<string, { description: string }> }) {
        functions = options.availableFunctions;
        return { contextText: { tokenize: () => [] } };
      },
    };
    renderPrompt(chatWrapper as never, { tokenizer: {} } as never, [{ role: 'user', content: 'Forecast?' }], [forecast], []);
    expect(functions?.get_forecast?.description).toBe('Weather forecast for a city.\n\nInput Examples:\n{"city":"Paris"}');
  });
});
