/**
 * A provider SDK that is not installed fails loudly (issue #30, friction 6): `createModel` stays synchronous and never
 * touches the module system, the first request rejects with `MissingPeerError`, and `runAgent` / `streamAgent` reject
 * with it instead of returning a `stopped` result. Here `openai`'s import rejects with the error Node's loader throws
 * for an absent package; test/package/missing-model-peer.test.ts runs `openai` and `@anthropic-ai/sdk` models in a
 * fresh app that really lacks both.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/agent/run-event.js';
import { planThenExecute } from '../../src/agent/plan-then-execute/plan-then-execute.js';
import { runAgent } from '../../src/agent/run-agent.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { setOpenAISdkImportForTests } from '../../src/models/openai/load-openai-client.js';
import { MissingPeerError } from '../../src/shared/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';

// Node's loader error for an absent package, as `import('openai')` rejects with it (vi.mock cannot reject an import with it:
// vitest wraps what a factory throws).
const absent = () =>
  Promise.reject(
    Object.assign(new Error("Cannot find package 'openai' imported from /app/node_modules/toolwright/dist/models/openai/x.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    }),
  );
beforeEach(() => setOpenAISdkImportForTests(absent));
afterEach(() => setOpenAISdkImportForTests(undefined));

const echo = defineTool({
  name: 'echo',
  description: 'Echo the text.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }: { text: string }) => text,
});
// Nothing listens there: a request that got past the SDK's load would fail with a connection error, not MissingPeerError.
const options = { apiKey: 'sk-test-key', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 };

describe('a provider SDK that is not installed', () => {
  it.each([
    ['openai:gpt-4o-mini', 'openai'],
    ['openai-responses:gpt-4o-mini', 'openai'],
  ])('%s: createModel returns the model, its first request rejects with MissingPeerError naming %s', async (spec, packageName) => {
    const model = createModel(spec, options);
    const failure = await model.generate({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }).catch((error: unknown) => error);
    expect(MissingPeerError.isInstance(failure)).toBe(true);
    expect((failure as MissingPeerError).packageName).toBe(packageName);
    expect((failure as MissingPeerError).message).toContain(`npm i ${packageName}`);
  });

  it.each([
    ['openai:gpt-4o-mini', 'openai'],
    ['openai-responses:gpt-4o-mini', 'openai'],
  ])('%s: runAgent rejects with MissingPeerError instead of returning a stopped result', async (spec, packageName) => {
    const events: RunEvent[] = [];
    const failure = await runAgent({ model: createModel(spec, options), tools: [echo], prompt: 'Say hi.', onEvent: (event) => events.push(event) }).catch(
      (error: unknown) => error,
    );
    expect(MissingPeerError.isInstance(failure)).toBe(true);
    expect((failure as MissingPeerError).code).toBe('TW_MISSING_PEER');
    expect((failure as MissingPeerError).packageName).toBe(packageName);
    // The record still says what happened and ends: the failed model call, then the run's stop.
    expect(events.slice(-2).map((event) => event.type)).toEqual(['model_error', 'stop']);
    expect(events.at(-1)).toMatchObject({ type: 'stop', status: 'stopped', stopReason: { kind: 'model_error', errorCode: 'TW_MISSING_PEER' } });
  });

  it('streamAgent: the iteration and result both reject with MissingPeerError', async () => {
    const stream = streamAgent({ model: createModel('openai:gpt-4o-mini', options), tools: [echo], prompt: 'Say hi.' });
    const iterated = (async () => {
      for await (const _event of stream) {
        // read every event until the run fails
      }
    })().catch((error: unknown) => error);
    expect(MissingPeerError.isInstance(await iterated)).toBe(true);
    expect(MissingPeerError.isInstance(await stream.result.catch((error: unknown) => error))).toBe(true);
  });

  it("planThenExecute rejects with MissingPeerError when its planner's SDK is missing, instead of plan_rejected", async () => {
    const failure = await planThenExecute({ planner: createModel('openai:gpt-4o-mini', options), tools: [echo], prompt: 'Say hi.' }).catch(
      (error: unknown) => error,
    );
    expect(MissingPeerError.isInstance(failure)).toBe(true);
    expect((failure as MissingPeerError).packageName).toBe('openai');
  });
});
