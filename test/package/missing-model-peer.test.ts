/**
 * A provider SDK that is not installed, in a fresh app that really lacks it (issue #30, friction 6): the packed
 * tarball alone, no `openai`, no `@anthropic-ai/sdk`, no `node-llama-cpp`. `createModel` returns the model; `runAgent` rejects with
 * `MissingPeerError` naming the package and its install command, where it used to resolve `stopped`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installApp, packedTarball, type InstalledApp } from './fresh-app.js';

let work = '';
let installed: InstalledApp | { skipped: string } = { skipped: 'not installed' };

describe('a model whose SDK is not installed, from the packed package', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'toolwright-missing-peer-'));
    installed = installApp(join(work, 'app'), await packedTarball(), []);
  }, 240_000);

  afterAll(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it('runAgent rejects with MissingPeerError for openai:, anthropic: and local: models', (context) => {
    if ('skipped' in installed) return context.skip(installed.skipped);
    const { dir } = installed;
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { writeFileSync } from 'node:fs';
import { createModel, defineTool, runAgent } from 'toolwright';
const echo = defineTool({ name: 'echo', description: 'Echo text.', effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => text });
const outcomes = [];
// A local model's file exists (any bytes: node-llama-cpp is needed before the file is read).
writeFileSync('model.gguf', 'not a model');
for (const spec of ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5', 'local:./model.gguf']) {
  const model = createModel(spec, { apiKey: 'sk-test-key', baseURL: 'http://127.0.0.1:9/v1' });
  const outcome = await runAgent({ model, tools: [echo], prompt: 'Say hi.' }).then(
    (result) => ({ resolved: result.status }),
    (error) => ({ name: error.name, code: error.code, packageName: error.packageName, message: error.message }),
  );
  outcomes.push(outcome);
}
console.log(JSON.stringify(outcomes));
`,
    );
    const printed = JSON.parse(execFileSync(process.execPath, ['--no-warnings', 'main.mjs'], { cwd: dir, encoding: 'utf8' })) as Array<Record<string, string>>;
    expect(printed.map(({ code, packageName }) => [code, packageName])).toEqual([
      ['TW_MISSING_PEER', 'openai'],
      ['TW_MISSING_PEER', '@anthropic-ai/sdk'],
      ['TW_MISSING_PEER', 'node-llama-cpp'],
    ]);
    expect(printed[0]!.message).toContain('npm i openai');
    expect(printed[1]!.message).toContain('npm i @anthropic-ai/sdk');
    expect(printed[2]!.message).toContain('npm i node-llama-cpp');
  });
});
