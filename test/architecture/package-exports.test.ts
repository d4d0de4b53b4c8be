import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
  bin: Record<string, string>;
};

/** dist/x.js is built from src/x.ts by tsconfig.build.json. */
function sourceOf(distPath: string): string {
  return resolve(
    root,
    distPath
      .replace(/^\.\/dist\//, 'src/')
      .replace(/^dist\//, 'src/')
      .replace(/\.d\.ts$/, '.ts')
      .replace(/\.js$/, '.ts'),
  );
}

describe('package exports', () => {
  const entries = Object.entries(pkg.exports).filter(([key]) => key !== './package.json');

  it.each(entries)('%s points at a built source file with types', async (_subpath, target) => {
    expect(typeof target).toBe('object');
    const { types, import: entry } = target as { types: string; import: string };
    expect(sourceOf(types)).toBe(sourceOf(entry));
    expect(existsSync(sourceOf(entry))).toBe(true);
    const module = (await import(sourceOf(entry))) as Record<string, unknown>;
    expect(Object.keys(module).length).toBeGreaterThan(0);
  });

  it('exposes the main API from the root, the wire adapters from toolwright/formats and the scripted model from toolwright/test', async () => {
    const rootModule = (await import(sourceOf((pkg.exports['.'] as { import: string }).import))) as Record<string, unknown>;
    for (const name of ['defineTool', 'ToolRegistry', 'runAgent', 'resumeAgent', 'streamAgent', 'createModel', 'ToolwrightError'])
      expect(rootModule[name], name).toBeDefined();
    const formatsModule = (await import(sourceOf((pkg.exports['./formats'] as { import: string }).import))) as Record<string, unknown>;
    for (const name of ['toOpenAIChatTools', 'toAnthropicTools', 'toMcpTools', 'lintTools']) expect(formatsModule[name], name).toBeDefined();
    const testModule = (await import(sourceOf((pkg.exports['./test'] as { import: string }).import))) as Record<string, unknown>;
    expect(testModule.createScriptedModel).toBeTypeOf('function');
  });

  it('serves the run stores and the queue from toolwright/stores, not from the root', async () => {
    const stores = (await import(sourceOf((pkg.exports['./stores'] as { import: string }).import))) as Record<string, unknown>;
    for (const name of ['createMemoryRunStore', 'processRunStore', 'openSqliteRunStore', 'createPostgresRunStore', 'createRunQueue', 'RunStoreError'])
      expect(stores[name], name).toBeTypeOf('function');
    const rootModule = (await import(sourceOf((pkg.exports['.'] as { import: string }).import))) as Record<string, unknown>;
    for (const name of ['createMemoryRunStore', 'processRunStore', 'openSqliteRunStore', 'createPostgresRunStore', 'createRunQueue'])
      expect(rootModule[name], name).toBeUndefined();
  });

  it('has a bin built from the CLI entry', () => {
    expect(existsSync(sourceOf(pkg.bin.toolwright!))).toBe(true);
    expect(readFileSync(sourceOf(pkg.bin.toolwright!), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });
});
