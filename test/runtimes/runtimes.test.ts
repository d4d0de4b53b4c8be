/**
 * The runtime matrix: test/runtimes/runtime-smoke.ts, bundled with esbuild, runs on Node, Bun, Deno (both from npm),
 * Vercel's edge runtime (the `edge-runtime` package's `EdgeRuntime`, which forbids code generation) and workerd (`workerd
 * serve` with a generated config, code generation forbidden as in production: once without compatibility flags, once
 * with `nodejs_compat`), and each verdict is checked here. Bundles are ES modules split at each `import()` (a Node-only
 * part stays in a chunk of its own, loaded only if called), but for the edge runtime, which evaluates one script (IIFE),
 * and workerd with `nodejs_compat` (one file). Processes bind 127.0.0.1; the temporary folder and every process are
 * removed at the end. docs/deploy.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmokeVerdict, StepVerdict } from './runtime-smoke.js';
import { freePort, nodeOnlyExternal, workerdConfig } from './web-bundle.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const smokeModule = resolve(root, 'test/runtimes/runtime-smoke.ts');
const bin = (name: string) => resolve(root, 'node_modules/.bin', name);

let workDir: string;
const children: ChildProcess[] = [];

async function bundle(name: string, source: string, format: 'esm' | 'iife', split = format === 'esm'): Promise<string> {
  const folder = join(workDir, name);
  mkdirSync(folder, { recursive: true });
  const entry = join(folder, 'entry.ts');
  writeFileSync(entry, source);
  await build({
    entryPoints: { main: entry },
    bundle: true,
    format,
    splitting: split,
    platform: 'browser',
    outdir: folder,
    outExtension: { '.js': format === 'esm' ? '.mjs' : '.js' },
    logLevel: 'silent',
    plugins: [nodeOnlyExternal],
  });
  return folder;
}

function run(command: string, args: string[], options: { cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd ?? workDir, env: { PATH: process.env.PATH, HOME: workDir, NO_COLOR: '1' }, stdio: 'pipe' });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function verdictFrom(output: { code: number | null; stdout: string; stderr: string }): SmokeVerdict {
  const line = output.stdout.split('\n').find((text) => text.startsWith('SMOKE '));
  if (!line) throw new Error(`no verdict (exit ${output.code}): ${output.stderr.slice(0, 2000)}${output.stdout.slice(0, 2000)}`);
  return JSON.parse(line.slice('SMOKE '.length)) as SmokeVerdict;
}

const cliSource = (validate: boolean) =>
  `import { runSmoke } from ${JSON.stringify(smokeModule)};\nconsole.log('SMOKE ' + JSON.stringify(await runSmoke({ validate: ${validate} })));\n`;

const runners: Record<string, (validate: boolean) => Promise<SmokeVerdict>> = {
  async node(validate) {
    const folder = await bundle(`node-${validate}`, cliSource(validate), 'esm');
    return verdictFrom(await run(process.execPath, [join(folder, 'main.mjs')]));
  },
  async bun(validate) {
    const folder = await bundle(`bun-${validate}`, cliSource(validate), 'esm');
    return verdictFrom(await run(bin('bun'), ['run', join(folder, 'main.mjs')]));
  },
  async deno(validate) {
    const folder = await bundle(`deno-${validate}`, cliSource(validate), 'esm');
    // No network, no environment, no system information: only reading the bundle's own folder.
    return verdictFrom(await run(bin('deno'), ['run', '--no-config', '--no-lock', `--allow-read=${folder}`, join(folder, 'main.mjs')]));
  },
  async 'edge-runtime'(validate) {
    const source = `import { runSmoke } from ${JSON.stringify(smokeModule)};\nglobalThis.runSmokeAsJson = async () => JSON.stringify(await runSmoke({ validate: ${validate} }));\n`;
    const folder = await bundle(`edge-${validate}`, source, 'iife');
    const { readFileSync } = await import('node:fs');
    const { EdgeRuntime } = await import('edge-runtime');
    const runtime = new EdgeRuntime({ initialCode: readFileSync(join(folder, 'main.js'), 'utf8') });
    const json = await (runtime.context as unknown as { runSmokeAsJson(): Promise<string> }).runSmokeAsJson();
    return JSON.parse(json) as SmokeVerdict;
  },
  workerd: (validate) => runWorkerd(validate, { nodejsCompat: false }),
  'workerd-nodejs-compat': (validate) => runWorkerd(validate, { nodejsCompat: true }),
};

/**
 * The smoke as a module Worker under `workerd serve`. Without compatibility flags the bundle is split at each `import()`
 * (a Node-only part stays in a chunk never loaded); with `nodejs_compat` it is one file, whose hoisted `node:` imports
 * workerd then provides.
 */
async function runWorkerd(validate: boolean, options: { nodejsCompat: boolean }): Promise<SmokeVerdict> {
  const source = `import { runSmoke } from ${JSON.stringify(smokeModule)};\nexport default { async fetch() { return new Response(JSON.stringify(await runSmoke({ validate: ${validate} })), { headers: { 'content-type': 'application/json' } }); } };\n`;
  const folder = await bundle(`workerd-${options.nodejsCompat}-${validate}`, source, 'esm', !options.nodejsCompat);
  const port = await freePort();
  // Node's modules under nodejs_compat need a recent date (node:fs was refused at 2025-09-01).
  const compatibility = options.nodejsCompat
    ? 'compatibilityDate = "2026-06-01", compatibilityFlags = ["nodejs_compat"],'
    : 'compatibilityDate = "2025-09-01",';
  writeFileSync(join(folder, 'config.capnp'), workerdConfig(folder, port, compatibility));
  const server = spawn(bin('workerd'), ['serve', join(folder, 'config.capnp')], { cwd: folder, stdio: 'pipe' });
  children.push(server);
  let log = '';
  server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  try {
    for (let attempt = 0; attempt < 150; attempt++) {
      if (server.exitCode !== null) throw new Error(`workerd exited (${server.exitCode}): ${log.slice(0, 2000)}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        if (response.ok) return (await response.json()) as SmokeVerdict;
        throw new Error(`workerd answered ${response.status}: ${(await response.text()).slice(0, 1000)} ${log.slice(0, 2000)}`);
      } catch (error) {
        if ((error as Error).message.startsWith('workerd answered')) throw error;
        await new Promise((wait) => setTimeout(wait, 200));
      }
    }
    throw new Error(`workerd did not answer: ${log.slice(0, 2000)}`);
  } finally {
    server.kill();
  }
}

interface RuntimeCase {
  name: keyof typeof runners;
  /** The binary the runtime needs, when it is one. */
  binary?: string;
  /** Whether the runtime forbids code generation (`new Function`), as workerd and the edge runtime do in production. */
  forbidsCodeGeneration: boolean;
  fileSystem: boolean;
}

const RUNTIMES: RuntimeCase[] = [
  { name: 'node', forbidsCodeGeneration: false, fileSystem: true },
  { name: 'bun', binary: 'bun', forbidsCodeGeneration: false, fileSystem: true },
  { name: 'deno', binary: 'deno', forbidsCodeGeneration: false, fileSystem: true },
  { name: 'edge-runtime', forbidsCodeGeneration: true, fileSystem: false },
  { name: 'workerd', binary: 'workerd', forbidsCodeGeneration: true, fileSystem: false },
  { name: 'workerd-nodejs-compat', binary: 'workerd', forbidsCodeGeneration: true, fileSystem: true },
];

const verdicts = new Map<string, Promise<SmokeVerdict>>();

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'tw-runtimes-'));
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(workDir, { recursive: true, force: true });
});

function verdictOf(runtime: RuntimeCase): Promise<SmokeVerdict> {
  // Where `new Function` is forbidden the registry validates with its interpreter (src/tools/schema-interpreter.ts).
  const validate = true;
  let verdict = verdicts.get(runtime.name);
  if (!verdict) {
    verdict = runners[runtime.name]!(validate);
    verdicts.set(runtime.name, verdict);
  }
  return verdict;
}

function facts(verdict: StepVerdict | undefined): Record<string, unknown> {
  expect(verdict, 'step missing').toBeDefined();
  if (verdict && 'error' in verdict) throw new Error(`the step threw: ${verdict.error}`);
  if (verdict && 'skipped' in verdict) throw new Error(`the step was skipped: ${verdict.skipped}`);
  return (verdict as { facts: Record<string, unknown> }).facts;
}

describe.each(RUNTIMES)('$name', (runtime) => {
  const missing = runtime.binary !== undefined && !existsSync(bin(runtime.binary));
  const test = missing ? it.skip : it;

  test(`${missing ? `(${runtime.binary} is not installed in node_modules/.bin) ` : ''}loads toolwright, toolwright/decoding and toolwright/mcp, defines tools, runs an agent with the scripted model and streams it`, async () => {
    const verdict = await verdictOf(runtime);
    expect(verdict.codeGeneration).toBe(!runtime.forbidsCodeGeneration);
    expect(verdict.fileSystem).toBe(runtime.fileSystem);
    expect(facts(verdict.steps.entries)).toEqual({ decoding: 'function', mcp: 'function' });
    expect(facts(verdict.steps.define)).toEqual({ tools: ['get_weather', 'transfer'] });
    const toolResults = 1;
    expect(facts(verdict.steps.agent)).toMatchObject({ status: 'completed', text: 'It is sunny in Paris.', toolResults });
    const stream = facts(verdict.steps.stream);
    expect(stream).toMatchObject({ status: 'completed', text: 'It is sunny in Paris.' });
    expect(stream.eventTypes).toEqual(expect.arrayContaining(['text_delta', 'stop', 'tool_result']));
    // createMcpHandler answers the official MCP client (tools only where they can be validated), and ends its session.
    expect(facts(verdict.steps.mcpHandler)).toMatchObject({ listed: ['get_weather'], sessionsAfter: 0 });
  }, 60_000);

  (missing ? it.skip : it)(
    `validates a good and a bad call, answers a crashing tool without its error, pauses a write for confirmation and resumes it`,
    async () => {
      const verdict = await verdictOf(runtime);
      expect(facts(verdict.steps.goodCall)).toEqual({ isError: false, text: 'Sunny in Paris.' });
      const bad = facts(verdict.steps.badCall);
      expect(bad.isError).toBe(true);
      // The recovery text as on Node: which argument, what was wrong, and to call again.
      expect(bad.text).toContain('$.city: must be a string; got the number 42.');
      expect(bad.text).toContain('Fix it and call "get_weather" again.');
      expect(facts(verdict.steps.crashingTool)).toEqual({ isError: true, leaksMessage: false });
      // The same call and its recovery text through createMcpHandler and the MCP client.
      const mcp = facts(verdict.steps.mcpHandler) as { good: { isError: boolean; text: string }; bad: { isError: boolean; text: string } };
      expect(mcp.good).toEqual({ isError: false, text: 'Sunny in Paris.' });
      expect(mcp.bad.isError).toBe(true);
      expect(mcp.bad.text).toContain('$.city: must be a string; got the number 42.');
      expect(facts(verdict.steps.confirmAndResume)).toEqual({
        paused: 'awaiting_confirmation',
        tokenPrefix: 'twc1',
        resumed: 'completed',
        toolText: ['Moved 5.'],
      });
    },
    60_000,
  );

  if (!runtime.fileSystem) {
    test('refuses a record directory, saying that the runtime has no file system', async () => {
      const refusal = facts((await verdictOf(runtime)).steps.recordDir);
      expect(refusal).toMatchObject({ refused: true, code: 'TW_INVALID_ARGUMENT', message: expect.stringContaining('needs a file system') });
    }, 60_000);
  }
});
