import { describe, expect, it } from 'vitest';
import { MissingPeerError, ToolwrightError } from '../shared/errors.js';
import { MissingPackagesError, isPackageInstalled, mcpPackages, missingPackages, modelPackages, requirePackages, storePackages } from './required-packages.js';
import { runRunCommand, type AgentCliIo } from './commands/run.js';
import { printLogs } from './commands/logs.js';

const io: AgentCliIo = { out: () => {}, err: () => {} };

describe('the packages a CLI command needs', () => {
  it("names the model's SDK, the store's driver and the MCP SDK", () => {
    expect(modelPackages('openai:gpt-4o-mini').map((item) => item.name)).toEqual(['openai']);
    expect(modelPackages('openai-compatible:qwen3').map((item) => item.name)).toEqual(['openai']);
    expect(modelPackages('anthropic:claude-sonnet-4-5').map((item) => item.name)).toEqual(['@anthropic-ai/sdk']);
    expect(modelPackages('local:/models/m.gguf').map((item) => item.name)).toEqual(['node-llama-cpp']);
    expect(modelPackages('nonsense')).toEqual([]);
    expect(storePackages({ state: '/tmp/s.db' }, {})).toEqual([{ name: 'better-sqlite3', neededFor: 'the run store (the SQLite file /tmp/s.db)' }]);
    expect(storePackages({}, { TOOLWRIGHT_DATABASE_URL: 'postgres://u@h/db' }).map((item) => item.name)).toEqual(['pg']);
    expect(mcpPackages(['npx -y server']).map((item) => item.name)).toEqual(['@modelcontextprotocol/sdk']);
    expect(mcpPackages(undefined)).toEqual([]);
  });

  it('finds an installed package from where toolwright loads it, and not a missing one', () => {
    expect(isPackageInstalled('openai')).toBe(true);
    // better-sqlite3's exports do not hide package.json; @modelcontextprotocol/sdk's do, and it counts as installed.
    expect(isPackageInstalled('@modelcontextprotocol/sdk')).toBe(true);
    expect(isPackageInstalled('toolwright-no-such-package')).toBe(false);
  });

  it('names every missing package at once, each once, with one install command', () => {
    const required = [
      ...modelPackages('openai:gpt-4o-mini'),
      ...storePackages({ state: '/tmp/s.db' }, {}),
      ...mcpPackages(['a', 'b']),
      ...modelPackages('openai:gpt-4o'),
    ];
    const installed = new Set(['@modelcontextprotocol/sdk']);
    expect(missingPackages(required, (name) => installed.has(name)).map((item) => item.name)).toEqual(['openai', 'better-sqlite3']);
    let thrown: unknown;
    try {
      requirePackages('toolwright run', required, { isInstalled: (name) => installed.has(name) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MissingPackagesError);
    // Handled wherever one missing peer is: the same class family and code, exit code 2 in the CLI.
    expect(MissingPeerError.isInstance(thrown)).toBe(true);
    expect(ToolwrightError.isInstance(thrown) && thrown.code).toBe('TW_MISSING_PEER');
    expect((thrown as MissingPackagesError).packageNames).toEqual(['openai', 'better-sqlite3']);
    expect((thrown as Error).message).toBe(
      'toolwright run needs packages that are not installed: openai (the model openai:gpt-4o-mini), better-sqlite3 (the run store (the SQLite file /tmp/s.db)). ' +
        'Nothing was run. Install them in your app: npm i openai better-sqlite3',
    );
    expect(() => requirePackages('toolwright run', required, { isInstalled: () => true })).not.toThrow();
  });
});

describe('numeric options: a whole number within its range, checked before any work', () => {
  it('names the flag, the range and the value given', async () => {
    const options = { model: 'openai:gpt-4o-mini', tools: 'no-such-module.ts' };
    await expect(runRunCommand('Do it.', { ...options, maxIterations: '-1' }, io)).rejects.toThrow(
      '--max-iterations must be a whole number from 1 to 1000, got "-1".',
    );
    await expect(runRunCommand('Do it.', { ...options, maxRetries: '99' }, io)).rejects.toThrow('--max-retries must be a whole number from 0 to 20, got "99".');
    await expect(runRunCommand('Do it.', { ...options, timeout: '1e3x' }, io)).rejects.toThrow(
      '--timeout must be a whole number from 1 to 86400000, got "1e3x".',
    );
  });
});

describe('toolwright logs', () => {
  it('says there is no such run when neither the runs folder nor a store holds it', async () => {
    await expect(printLogs('run_nowhere', { runs: '/tmp/toolwright-no-such-folder', state: '/tmp/toolwright-no-such-folder/state.db' }, io)).rejects.toThrow(
      'No record for run "run_nowhere" in /tmp/toolwright-no-such-folder',
    );
  });
});
