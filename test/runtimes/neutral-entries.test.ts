/**
 * The runtime-neutral entries (`toolwright`, `toolwright/decoding`, `toolwright/mcp`) reach no Node built-in at module
 * load: each is bundled with esbuild for the browser, following what it imports statically (its own modules and the
 * packages it bundles, the MCP SDK included), and a `node:` module (or a bare built-in name such as `fs`) reached that
 * way fails the test with the chain of importers that leads to it. `import()` is how a Node-only part (the SQLite store,
 * Node's HTTP server, the stdio client, local models) stays out, so dynamic imports are not followed.
 * docs/architecture.md, "Runtimes"; the entries then run on each runtime in test/runtimes/runtimes.test.ts.
 */
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_BUILTINS = new Set(builtinModules);
// Optional peers that only Node-only features load, on first use: left to the app's bundler, never followed.
const NODE_ONLY_PEERS = /^(better-sqlite3|node-llama-cpp|pg|pg-boss)$/;

function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split('/')[0]!);
}

/** Each Node built-in or Node-only peer reached from `entry` at module load, with the chain of importers to it. */
async function nodeImportsAtLoad(entry: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'node-only-external',
        setup(builder) {
          builder.onResolve({ filter: /.*/ }, (args) =>
            isNodeBuiltin(args.path) || NODE_ONLY_PEERS.test(args.path) ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  });
  return staticNodeImports(result.metafile, entry);
}

function staticNodeImports(metafile: Metafile, entry: string): string[] {
  const importer = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.kind === 'dynamic-import') continue;
      if (imported.external) {
        if (isNodeBuiltin(imported.path) || NODE_ONLY_PEERS.test(imported.path)) found.push(`${imported.path} ← ${chainTo(file, importer)}`);
        continue;
      }
      if (!importer.has(imported.path)) {
        importer.set(imported.path, file);
        queue.push(imported.path);
      }
    }
  }
  return [...new Set(found)];
}

function chainTo(file: string, importer: Map<string, string | undefined>): string {
  const chain: string[] = [];
  for (let at: string | undefined = file; at !== undefined; at = importer.get(at)) chain.unshift(at.replace(/^.*node_modules\//, ''));
  return chain.join(' → ');
}

describe('runtime-neutral entries', () => {
  it.each([
    ['toolwright', 'src/index.ts'],
    ['toolwright/decoding', 'src/decoding/index.ts'],
    ['toolwright/mcp', 'src/mcp/index.ts'],
  ])('%s reaches no Node built-in at module load', async (_name, entry) => {
    expect(await nodeImportsAtLoad(entry)).toEqual([]);
  });

  it('names the importer chain of a Node built-in it finds (the SQLite store, which is Node-only)', async () => {
    const found = await nodeImportsAtLoad('src/agent/sqlite-run-store.ts');
    expect(found).toContain('node:fs ← src/agent/sqlite-run-store.ts');
  });
});
