/**
 * How a web runtime gets toolwright, shared by the runtime matrix (test/runtimes/runtimes.test.ts), the deploy examples'
 * test and the bundle and cold-start bench (bench/bundle/run.ts), so that the bench measures what the tests prove runs:
 * esbuild's plugins that keep Node's built-ins and the Node-only peers as imports and resolve `toolwright/…` to the
 * sources, workerd's configuration for a module Worker, and a free port for it.
 */
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_BUILTINS = new Set(builtinModules);
const NODE_ONLY_PEERS = /^(better-sqlite3|node-llama-cpp|pg|pg-boss)$/;

// Node's built-ins and the Node-only peers stay imports: only the chunks of Node-only features (never loaded here) name them.
export const nodeOnlyExternal: Plugin = {
  name: 'node-only-external',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.path.startsWith('node:') || NODE_BUILTINS.has(args.path.split('/')[0]!) || NODE_ONLY_PEERS.test(args.path)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/** An app's `toolwright`, `toolwright/test`, `toolwright/decoding` and `toolwright/mcp`, as a user writes them, resolved to this tree's sources. */
export const toolwrightFromSource: Plugin = {
  name: 'toolwright-from-source',
  setup(builder) {
    const entries: Record<string, string> = {
      toolwright: 'src/index.ts',
      'toolwright/test': 'src/test.ts',
      'toolwright/decoding': 'src/decoding/index.ts',
      'toolwright/mcp': 'src/mcp/index.ts',
    };
    builder.onResolve({ filter: /^toolwright(\/.*)?$/ }, (args) => {
      const source = entries[args.path];
      return source === undefined
        ? { errors: [{ text: `${args.path} is not an entry this plugin maps: add it to toolwrightFromSource` }] }
        : { path: resolve(root, source) };
    });
  },
};

/**
 * `workerd serve`'s configuration for the ES modules of `folder` (`main.mjs` first: workerd runs the first module) as
 * one module Worker answering on 127.0.0.1:`port`. `compatibility` is the Worker's compatibility fields
 * (`compatibilityDate = "…",` and any flags); nothing else is set, so code generation stays forbidden, as in production.
 */
export function workerdConfig(folder: string, port: number, compatibility: string): string {
  const modules = readdirSync(folder)
    .filter((file) => file.endsWith('.mjs'))
    .sort((a, b) => (a === 'main.mjs' ? -1 : b === 'main.mjs' ? 1 : a.localeCompare(b)))
    .map((file) => `(name = ${JSON.stringify(file)}, esModule = embed ${JSON.stringify(file)})`);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .mainWorker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const mainWorker :Workerd.Worker = (
  modules = [${modules.join(', ')}],
  ${compatibility}
);
`;
}

/** A port on 127.0.0.1 that nothing listens on now, for a server the test or the bench then starts. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
