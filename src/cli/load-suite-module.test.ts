import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuites } from './load-suite-module.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-suite-module-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const suiteSource = resolve('src/eval/team-chat/team-chat-suite.ts');

describe('--suite', () => {
  it('takes built-in names and a module whose default export is a suite', async () => {
    writeFileSync(
      join(folder, 'my-suite.ts'),
      `import { TEAM_CHAT_SUITE } from ${JSON.stringify(suiteSource)};\nexport default { ...TEAM_CHAT_SUITE, name: 'my-chat' };\n`,
    );
    const suites = await loadSuites(`workspace, team-chat, ${join(folder, 'my-suite.ts')}`);
    expect(suites.map((suite) => suite.name)).toEqual(['workspace', 'team-chat', 'my-chat']);
  });

  it('refuses a module that exports no suite, naming the contract', async () => {
    writeFileSync(join(folder, 'not-a-suite.ts'), 'export default { name: "x" };\n');
    await expect(loadSuites(join(folder, 'not-a-suite.ts'))).rejects.toThrow(
      /is not an eval suite: `version` is not a string\. Export the suite as the default export/,
    );
    await expect(loadSuites(' , ')).rejects.toThrow('--suite names no suite');
  });
});
