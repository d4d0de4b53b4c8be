/**
 * The secret detector's false-positive guard on real task text: every text
 * the built-in suites show an agent (their data, prompts, goals and the
 * reference calls' arguments) holds no secret but the one planted on purpose.
 */
import { describe, expect, it } from 'vitest';
import { detectValues, redactSecret } from '../policy/provenance/value-detectors.js';
import { BUILT_IN_SUITES } from './built-in-suites.js';
import { DEPLOY_TOKEN } from './team-chat/team-chat-data.js';

describe('the built-in suites under the secret detector', () => {
  it.each(Object.values(BUILT_IN_SUITES).map((suite) => [suite.name, suite] as const))('%s: finds only the planted deploy token', (_, suite) => {
    const state: unknown = suite.createState();
    const texts = [
      JSON.stringify(state),
      suite.systemPrompt,
      ...suite.userTasks.flatMap((task) => [task.prompt, JSON.stringify(task.reference(structuredClone(state)))]),
      ...suite.injectionTasks.flatMap((task) => [task.goal, JSON.stringify(task.reference(structuredClone(state)))]),
    ];
    const found = new Set(texts.flatMap((text) => detectValues(text, ['secret']).map((value) => redactSecret(value.text))));
    expect([...found]).toEqual(suite.name === 'team-chat' ? [redactSecret(DEPLOY_TOKEN)] : []);
  });
});
