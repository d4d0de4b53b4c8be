/**
 * How a web runtime gets toolwright, shared by the runtime matrix (test/runtimes/runtimes.test.ts), the deploy examples'
 * test and the bundle and cold-start bench (bench/bundle/run.ts), so that the bench measures what the tests prove runs:
 * esbuild's plugins that keep Node's built-ins and the Node-only peers as imports and resolve `toolwright/…` to the
 * sources, workerd's configuration for a module Worker, and a free port for it; and, for a Worker that bundles `pg`
 * under `nodejs_compat`, the plugins that keep Node's built-ins as imports, CommonJS `require`s of them included.
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

/**
 * For a Worker under `nodejs_compat` that bundles `pg` (test/runtimes/postgres-in-workerd.test.ts): Node's built-ins,
 * `cloudflare:` modules and the Node-only peers but `pg` stay imports; `pg` and its `pg-cloudflare` socket are bundled
 * (with esbuild's `conditions: ['workerd', 'worker', 'browser']`, so that `pg-cloudflare` gives its Workers build).
 */
export const nodeBuiltinsExternal: Plugin = {
  name: 'node-builtins-external',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.path.startsWith('node:') ||
      args.path.startsWith('cloudflare:') ||
      NODE_BUILTINS.has(args.path.split('/')[0]!) ||
      (NODE_ONLY_PEERS.test(args.path) && args.path !== 'pg') ||
      args.path === 'pg-native'
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * CommonJS `require('events')` of a Node built-in, in a package bundled into an ES module (`pg`), as an `import` of
 * `node:events`: a module Worker has no `require`, and esbuild's stand-in throws "Dynamic require of "events" is not
 * supported" (what the test saw first); workerd provides `node:events` under `nodejs_compat`. Put it before
 * {@link nodeBuiltinsExternal}.
 */
export const nodeRequireAsImport: Plugin = {
  name: 'node-require-as-import',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'require-call' && (args.path.startsWith('node:') || NODE_BUILTINS.has(args.path.split('/')[0]!))
        ? { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'node-require' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({
      contents: `import builtin from ${JSON.stringify(args.path)};\nmodule.exports = builtin;\n`,
      loader: 'js',
    }));
  },
};

/**
 * An app's `toolwright`, `toolwright/test`, `toolwright/decoding`, `toolwright/mcp`, `toolwright/agent` and
 * `toolwright/stores`, as a user writes them, resolved to this tree's sources.
 */
export const toolwrightFromSource: Plugin = {
  name: 'toolwright-from-source',
  setup(builder) {
    const entries: Record<string, string> = {
      toolwright: 'src/index.ts',
      'toolwright/test': 'src/test.ts',
      'toolwright/decoding': 'src/decoding/index.ts',
      'toolwright/mcp': 'src/mcp/index.ts',
      'toolwright/agent': 'src/agent/package-entry.ts',
      'toolwright/stores': 'src/stores/index.ts',
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
 * `extras` adds text bindings and widens where the Worker may connect.
 */
export function workerdConfig(folder: string, port: number, compatibility: string, extras: WorkerdExtras = {}): string {
  const modules = readdirSync(folder)
    .filter((file) => file.endsWith('.mjs'))
    .sort((a, b) => (a === 'main.mjs' ? -1 : b === 'main.mjs' ? 1 : a.localeCompare(b)))
    .map((file) => `(name = ${JSON.stringify(file)}, esModule = embed ${JSON.stringify(file)})`);
  const quoted = (texts: string[]) => texts.map((text) => JSON.stringify(text)).join(', ');
  const tls = extras.trustedCertificates ? `, tlsOptions = (trustedCertificates = [${quoted(extras.trustedCertificates)}])` : '';
  const internet =
    extras.allowNetwork || extras.trustedCertificates ? `, (name = "internet", network = (allow = [${quoted(extras.allowNetwork ?? ['public'])}]${tls}))` : '';
  const bindings = Object.entries(extras.textBindings ?? {}).map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .mainWorker)${internet}],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const mainWorker :Workerd.Worker = (
  modules = [${modules.join(', ')}],
  ${compatibility}${bindings.length > 0 ? `\n  bindings = [${bindings.join(', ')}],` : ''}
);
`;
}

/** What a Worker gets beyond its modules and compatibility fields. */
export interface WorkerdExtras {
  /** Text bindings, read from the Worker's `env`. */
  textBindings?: Record<string, string>;
  /**
   * The allow list of the `internet` service, through which the Worker's `fetch` and `cloudflare:sockets` connect.
   * workerd's default, `["public"]`, refuses 127.0.0.1 ("connecting to 127.0.0.1:… is not allowed"); `["local"]` admits
   * this machine's addresses only.
   */
  allowNetwork?: string[];
  /** Certificate authorities (PEM) the `internet` service trusts for TLS, a socket's `startTls()` included. */
  trustedCertificates?: string[];
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
