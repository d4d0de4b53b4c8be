/**
 * `npm run bench:bundle`: what toolwright costs a Worker, against its peers, in one run. esbuild bundles five apps as the
 * runtime matrix does (test/runtimes/web-bundle.ts: ES modules split at each `import()`, platform browser, es2022, Node's
 * built-ins left as imports of the lazy chunks) and this prints each one's size plain, minified and minified + gzip -9:
 *
 *   core      a Worker that imports `defineTool` and `runAgent` from `toolwright` and the scripted model from
 *             `toolwright/test`, and answers each request with one agent step (one tool offered, the model answers text)
 *   ai-sdk    the same with the AI SDK core: `generateText`, one `tool()` (`jsonSchema`), `MockLanguageModelV4` (`ai/test`)
 *   decoding  the `toolwright/decoding` entry (as `npm run bench:bundle-decoding`: no Worker, size only)
 *   mcp       a Worker serving one tool with `createMcpHandler` from `toolwright/mcp`
 *   mcp-sdk   the bare equivalent: the MCP SDK's `McpServer` (the tool's input as a zod shape) and
 *             `WebStandardStreamableHTTPServerTransport`, one session per `initialize`
 *
 * A size is what the Worker loads when it starts: the entry chunk and the chunks it imports statically; the lazy chunks
 * (Node-only parts behind `import()`, never loaded on a Worker) are printed apart.
 *
 * Then cold start in workerd (node_modules/.bin/workerd, `workerd serve` with a generated config, compatibility date
 * 2025-09-01 and no flags, so code generation is forbidden as on Cloudflare): for each Worker, and for an empty Worker
 * (`fetch` answers "ok") as the floor, one fresh workerd process per measure. `start → answer` is the wall time from
 * spawning workerd to the first successful answer (the port polled every 5 ms until it accepts, then the request):
 * workerd's own process start, reading the config, compiling and running the modules, the socket, and the request.
 * `first request` is that request alone, from sending it once the socket accepts to the end of its answer body (for the
 * core and AI SDK Workers one agent step, for the MCP ones an `initialize` POST). Rounds are interleaved, each running
 * every Worker once in an order that rotates; the figures are medians over rounds, `− floor` the median of each round's
 * difference with the empty Worker, and ratios compare toolwright with its peer.
 *
 *   npm run bench:bundle
 *   npm run bench:bundle -- --rounds 21
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { freePort, nodeOnlyExternal, toolwrightFromSource, workerdConfig } from '../../test/runtimes/web-bundle.js';
import { WEB_BUNDLE, compressed, kib } from './esbuild-sizes.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '11' } } });
const ROUNDS = Number(values.rounds);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WORKERD = resolve(root, 'node_modules/.bin/workerd');
const POLL_MS = 5;

const WEATHER_SCHEMA = `{ type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false }`;
const ANSWER = 'It is sunny in Paris.';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});

interface App {
  name: string;
  what: string;
  /** The Worker module (`export default { fetch }`), or the entry itself when `worker` is false. */
  source: string;
  worker: boolean;
  /** The request the Worker answers; checked by `answered`. */
  request?: 'step' | 'initialize';
}

const APPS: App[] = [
  {
    name: 'core',
    what: 'toolwright: defineTool + runAgent + scripted model, one step',
    worker: true,
    request: 'step',
    source: `import { defineTool, runAgent } from 'toolwright';
import { createScriptedModel, textTurn } from 'toolwright/test';
const getWeather = defineTool({
  name: 'get_weather', description: 'The weather in a city today.', effect: 'read',
  inputSchema: ${WEATHER_SCHEMA},
  execute: ({ city }) => 'Sunny in ' + city + '.',
});
export default {
  async fetch() {
    const result = await runAgent({ model: createScriptedModel([textTurn(${JSON.stringify(ANSWER)})]), tools: [getWeather], prompt: 'Weather in Paris?' });
    return new Response(result.status === 'completed' ? result.text : result.status, { status: result.status === 'completed' ? 200 : 500 });
  },
};
`,
  },
  {
    name: 'ai-sdk',
    what: 'AI SDK core: generateText + tool() + MockLanguageModelV4, one step',
    worker: true,
    request: 'step',
    source: `import { generateText, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
const getWeather = tool({
  description: 'The weather in a city today.',
  inputSchema: jsonSchema(${WEATHER_SCHEMA}),
  execute: async ({ city }) => 'Sunny in ' + city + '.',
});
const usage = { inputTokens: { total: 10, noCache: 10 }, outputTokens: { total: 5, text: 5 } };
export default {
  async fetch() {
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({ content: [{ type: 'text', text: ${JSON.stringify(ANSWER)} }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
    });
    const result = await generateText({ model, tools: { get_weather: getWeather }, prompt: 'Weather in Paris?' });
    return new Response(result.text);
  },
};
`,
  },
  { name: 'decoding', what: 'toolwright/decoding (the entry, size only)', worker: false, source: `export * from 'toolwright/decoding';\n` },
  {
    name: 'mcp',
    what: 'toolwright/mcp: createMcpHandler serving one tool',
    worker: true,
    request: 'initialize',
    source: `import { defineTool } from 'toolwright';
import { createMcpHandler } from 'toolwright/mcp';
const getWeather = defineTool({
  name: 'get_weather', description: 'The weather in a city today.', effect: 'read',
  inputSchema: ${WEATHER_SCHEMA},
  execute: ({ city }) => 'Sunny in ' + city + '.',
});
export default { fetch: createMcpHandler([getWeather]) };
`,
  },
  {
    name: 'mcp-sdk',
    what: 'MCP SDK: McpServer + WebStandardStreamableHTTPServerTransport, one tool',
    worker: true,
    request: 'initialize',
    source: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
const sessions = new Map();
function newServer() {
  const server = new McpServer({ name: 'bench', version: '1' });
  server.registerTool('get_weather', { description: 'The weather in a city today.', inputSchema: { city: z.string().min(1) } }, async ({ city }) => ({
    content: [{ type: 'text', text: 'Sunny in ' + city + '.' }],
  }));
  return server;
}
export default {
  async fetch(request) {
    const open = sessions.get(request.headers.get('mcp-session-id'));
    if (open) return open.handleRequest(request);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    await newServer().connect(transport);
    return transport.handleRequest(request);
  },
};
`,
  },
];

const FLOOR: App = {
  name: 'floor',
  what: 'an empty Worker (fetch answers "ok")',
  worker: true,
  source: `export default { fetch: () => new Response('ok') };\n`,
};

const PEERS: Record<string, string> = { core: 'ai-sdk', mcp: 'mcp-sdk' };

interface Sizes {
  plain: number;
  minified: number;
  gzip: number;
  lazy: number;
  modules: number;
}

/** The bytes the entry chunk loads at start: itself and the chunks it imports statically, transitively. */
function loadedAtStart(metafile: Metafile, files: Map<string, Uint8Array>): { loaded: Uint8Array[]; lazy: number; modules: number } {
  const outputs = metafile.outputs;
  // Each \`import()\` target is an entry point of its own too: the app's is main.mjs.
  const entry = Object.keys(outputs).find((path) => path.endsWith('/main.mjs'))!;
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    for (const imported of outputs[queue.pop()!]!.imports) {
      if (imported.kind === 'import-statement' && !imported.external && !seen.has(imported.path)) {
        seen.add(imported.path);
        queue.push(imported.path);
      }
    }
  }
  const bytesOf = (path: string) => files.get(resolve(root, path)) ?? new Uint8Array();
  const loaded = [...seen].map(bytesOf);
  const lazy = Object.keys(outputs)
    .filter((path) => !seen.has(path) && path.endsWith('.mjs'))
    .reduce((total, path) => total + bytesOf(path).length, 0);
  const modules = new Set([...seen].flatMap((path) => Object.keys(outputs[path]!.inputs)).filter((input) => !input.endsWith('entry.ts'))).size;
  return { loaded, lazy, modules };
}

async function bundleApp(app: App, folder: string, minify: boolean, write: boolean): Promise<ReturnType<typeof loadedAtStart>> {
  mkdirSync(folder, { recursive: true });
  const entry = join(folder, 'entry.ts');
  writeFileSync(entry, app.source);
  const result = await build({
    ...WEB_BUNDLE,
    entryPoints: { main: entry },
    absWorkingDir: root,
    // The apps live in a temporary folder: their packages come from this repository's node_modules.
    nodePaths: [resolve(root, 'node_modules')],
    splitting: true,
    minify,
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [nodeOnlyExternal, toolwrightFromSource],
  });
  const files = new Map(result.outputFiles.map((file) => [file.path, file.contents] as const));
  if (write) for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  return loadedAtStart(result.metafile, files);
}

const joined = (parts: Uint8Array[]) => Buffer.concat(parts);

async function measureSizes(app: App, folder: string): Promise<Sizes> {
  const plain = await bundleApp(app, join(folder, 'plain'), false, false);
  const minified = await bundleApp(app, folder, true, app.worker);
  const minifiedBytes = joined(minified.loaded);
  return {
    plain: joined(plain.loaded).length,
    minified: minifiedBytes.length,
    gzip: compressed(minifiedBytes).gzip,
    lazy: minified.lazy,
    modules: minified.modules,
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

function requestFor(app: App, port: number): Request {
  const url = `http://127.0.0.1:${port}/`;
  if (app.request !== 'initialize') return new Request(url);
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: INITIALIZE,
  });
}

function answered(app: App, status: number, body: string): boolean {
  if (status !== 200) return false;
  if (app.request === 'step') return body === ANSWER;
  if (app.request === 'initialize') return body.includes('"serverInfo"');
  return body === 'ok';
}

interface ColdStart {
  /** Spawning workerd to the end of the first answer's body, ms. */
  total: number;
  /** The first request alone, once the socket accepts, ms. */
  firstRequest: number;
}

async function coldStart(app: App, folder: string): Promise<ColdStart> {
  const port = await freePort();
  const config = join(folder, `config-${port}.capnp`);
  writeFileSync(config, workerdConfig(folder, port, 'compatibilityDate = "2025-09-01",'));
  const started = performance.now();
  const server = spawn(WORKERD, ['serve', config], { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  try {
    while (!(await accepts(port))) {
      if (server.exitCode !== null) throw new Error(`workerd exited (${server.exitCode}) for ${app.name}: ${log.slice(0, 2000)}`);
      if (performance.now() - started > 30_000) throw new Error(`workerd did not listen within 30 s for ${app.name}: ${log.slice(0, 2000)}`);
      await sleep(POLL_MS);
    }
    const sent = performance.now();
    const response = await fetch(requestFor(app, port));
    const body = await response.text();
    const done = performance.now();
    if (!answered(app, response.status, body)) throw new Error(`${app.name} answered ${response.status}: ${body.slice(0, 500)} ${log.slice(0, 1000)}`);
    return { total: done - started, firstRequest: done - sent };
  } finally {
    server.kill();
    if (server.exitCode === null) await new Promise((done) => server.once('exit', done));
  }
}

/** Node's first `fetch` loads its HTTP client (undici): done once here, so that no Worker's first request pays for it. */
async function warmFetch(): Promise<void> {
  const server = createServer((_, response) => response.end('ok'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await (await fetch(requestFor(FLOOR, port))).text();
  await (
    await fetch(
      requestFor(
        APPS.find((app) => app.request === 'initialize')!,
        port,
      ),
    )
  ).text();
  await new Promise((done) => server.close(done));
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
const ratio = (value: number, peer: number) => `${(value / peer).toFixed(2)}×`;

const workDir = mkdtempSync(join(tmpdir(), 'tw-bench-bundle-'));
try {
  const esbuildVersion = (JSON.parse(readFileSync(resolve(root, 'node_modules/esbuild/package.json'), 'utf8')) as { version: string }).version;
  const workerdVersion = (JSON.parse(readFileSync(resolve(root, 'node_modules/workerd/package.json'), 'utf8')) as { version: string }).version;
  console.log(`bundle sizes (esbuild ${esbuildVersion}: esm, platform browser, es2022, split at import(); what a Worker loads at start)\n`);
  console.log(
    `${'app'.padEnd(10)}${'plain'.padStart(11)}${'minified'.padStart(11)}${'min+gzip'.padStart(11)}  ${'vs peer (min+gzip)'.padEnd(20)}${'lazy chunks'.padStart(11)}  modules  what`,
  );
  const sizes = new Map<string, Sizes>();
  for (const app of APPS) sizes.set(app.name, await measureSizes(app, join(workDir, app.name)));
  for (const app of APPS) {
    const size = sizes.get(app.name)!;
    const peer = PEERS[app.name];
    const versus = peer ? `${ratio(size.gzip, sizes.get(peer)!.gzip)} ${peer}` : '';
    console.log(
      `${app.name.padEnd(10)}${kib(size.plain)}${kib(size.minified)}${kib(size.gzip)}  ${versus.padEnd(20)}${kib(size.lazy)}  ${String(size.modules).padStart(7)}  ${app.what}`,
    );
  }

  const workers = [FLOOR, ...APPS.filter((app) => app.worker)];
  await measureSizes(FLOOR, join(workDir, FLOOR.name));
  await warmFetch();
  const runs = new Map<string, ColdStart[]>(workers.map((app) => [app.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < workers.length; index++) {
      const app = workers[(index + round) % workers.length]!;
      runs.get(app.name)!.push(await coldStart(app, join(workDir, app.name)));
    }
  }
  console.log(`\nlazy chunks: behind import(), loaded only when used (provider SDKs, local models, SQLite, Node's HTTP server, OAuth's jose…);`);
  console.log(`a Worker's upload holds them too. modules: the source files in what loads at start.`);
  console.log(`\ncold start in workerd ${workerdVersion} (workerd serve, compatibility date 2025-09-01, no flags, code generation forbidden;`);
  console.log(`a fresh process per measure, port polled every ${POLL_MS} ms; ${ROUNDS} interleaved rounds, medians)\n`);
  console.log(
    `${'worker'.padEnd(10)}${'start → answer'.padStart(16)}${'− floor'.padStart(10)}${'first request'.padStart(15)}  vs peer (− floor, first request)`,
  );
  const floorRuns = runs.get(FLOOR.name)!;
  const minusFloor = (name: string) => median(runs.get(name)!.map((run, round) => run.total - floorRuns[round]!.total));
  for (const app of workers) {
    const own = runs.get(app.name)!;
    const peer = PEERS[app.name];
    const versus = peer
      ? `${ratio(minusFloor(app.name), minusFloor(peer))}, ${ratio(median(own.map((run) => run.firstRequest)), median(runs.get(peer)!.map((run) => run.firstRequest)))} ${peer}`
      : '';
    const total = median(own.map((run) => run.total));
    const overFloor = app === FLOOR ? '' : ms(minusFloor(app.name));
    console.log(
      `${app.name.padEnd(10)}${ms(total).padStart(16)}${overFloor.padStart(10)}${ms(median(own.map((run) => run.firstRequest))).padStart(15)}  ${versus}`,
    );
  }
  console.log(`\nstart → answer: spawning workerd to the end of the first answer (process start, config, module compile and top-level run, socket, request);`);
  console.log(
    `− floor: less the empty Worker's, round by round (workerd's own start, the same for all); first request: the request alone, once the socket accepts.`,
  );
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
