/**
 * Where the runtime has no file system (workerd, Vercel's edge runtime, a browser: no `node:fs` through
 * `process.getBuiltinModule`), a run records nothing unless asked, and asking for a record directory is refused with
 * what to do instead. test/runtimes/runtimes.test.ts proves the same on those runtimes themselves.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScriptedModel, textTurn } from '../models/scripted/scripted-model.js';
import { runAgent } from './run-agent.js';

const nodeOnly = new Set(['node:fs', 'node:path', 'fs', 'path']);

function withoutFileSystem(): void {
  const original = process.getBuiltinModule.bind(process) as (id: string) => unknown;
  vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) => (nodeOnly.has(id) ? undefined : original(id))) as typeof process.getBuiltinModule);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a run on a runtime without a file system', () => {
  it('completes without a record directory', async () => {
    withoutFileSystem();
    const result = await runAgent({ model: createScriptedModel([textTurn('done')]), tools: [], prompt: 'hi' });
    expect(result.status).toBe('completed');
  });

  it('refuses a record directory with TW_INVALID_ARGUMENT, saying what to do instead', async () => {
    withoutFileSystem();
    await expect(runAgent({ model: createScriptedModel([textTurn('done')]), tools: [], prompt: 'hi', recordDir: '/tmp/records' })).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringMatching(/recordDir.*needs a file system.*Leave `recordDir` unset/s),
    });
  });
});
