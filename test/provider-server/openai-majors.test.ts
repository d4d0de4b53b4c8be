/**
 * The provider suites run once per `openai` major (the `default` and `openai-7`
 * projects of vitest.config.ts); this checks that each project really sends
 * through the major it names, read from the version header the SDK puts on every request.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createModel } from '../../src/models/create-model.js';
import { startProviderServer, type ProviderServer } from './index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `openai` major the OpenAI models of this test project load. */
    openaiMajor: number;
  }
}

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});

describe(`openai ${inject('openaiMajor')}`, () => {
  it.each(['openai:gpt-test', 'openai-responses:gpt-test'])('%s sends through that major of the SDK', async (spec) => {
    server.enqueue({ text: 'ok' });
    await createModel(spec, { apiKey: 'test-key', baseURL: server.openaiBaseURL }).generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(server.requests.at(-1)!.headers['x-stainless-package-version']).toMatch(new RegExp(`^${inject('openaiMajor')}\\.`));
  });
});
