/**
 * README's "Deploy" examples, served for real: the Cloudflare Worker under `workerd serve` (no compatibility flags, code
 * generation forbidden), the `Bun.serve` one under Bun and the `Deno.serve` one under Deno, each taken from README.md
 * as written (the port 3000 replaced by a free one), bundled with esbuild as the runtime matrix does, and called over
 * HTTP on 127.0.0.1 by the official MCP client: list the tools, a good call, a bad call's recovery text, the session
 * ended. The Next.js route is not served (Next.js is not installed); its handler is the same function. Processes and
 * the temporary folder are removed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, nodeOnlyExternal, toolwrightFromSource, workerdConfig } from './web-bundle.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => resolve(root, 'node_modules/.bin', name);

/** The `tools` the examples import from './tools.js'. */
const TOOLS_MODULE = `import { defineTool } from 'toolwright';
export const tools = [
  defineTool({
    name: 'get_weather',
    description: 'The weather in a city today.',
    inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
    effect: 'read',
    execute: ({ city }) => 'Sunny in ' + city + '.',
  }),
];
`;

/** README's Deploy code block whose first line is `firstLine`. */
function readmeExample(firstLine: string): string {
  const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
  const deploy = readme.slice(readme.indexOf('## Deploy'), readme.indexOf('\n## ', readme.indexOf('## Deploy') + 1));
  const block = [...deploy.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.startsWith(firstLine));
  if (block === undefined) throw new Error(`README's Deploy section has no example starting with ${JSON.stringify(firstLine)}`);
  return block;
}

let workDir: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'tw-deploy-examples-'));
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(workDir, { recursive: true, force: true });
});

async function bundleExample(name: string, example: string): Promise<string> {
  const folder = join(workDir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'tools.ts'), TOOLS_MODULE);
  writeFileSync(join(folder, 'entry.ts'), example);
  await build({
    entryPoints: { main: join(folder, 'entry.ts') },
    absWorkingDir: root,
    nodePaths: [resolve(root, 'node_modules')],
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
    plugins: [nodeOnlyExternal, toolwrightFromSource],
  });
  return folder;
}

/** Starts the server and resolves once its port accepts an HTTP request (any answer), or fails with its log. */
async function start(command: string, args: string[], folder: string, port: number): Promise<void> {
  const child = spawn(command, args, { cwd: folder, env: { PATH: process.env.PATH, HOME: folder, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}): ${log.slice(0, 2000)}`);
    try {
      await (await fetch(`http://127.0.0.1:${port}/`, { method: 'DELETE' })).text();
      return;
    } catch {
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
  throw new Error(`${command} did not listen on ${port}: ${log.slice(0, 2000)}`);
}

const textOf = (content: unknown): string => (content as { text?: string }[]).map((part) => part.text ?? '').join('');

async function callAsAClient(port: number): Promise<Record<string, unknown>> {
  const client = new Client({ name: 'deploy-examples', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  await client.connect(transport);
  try {
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    const good = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
    const bad = await client.callTool({ name: 'get_weather', arguments: { city: 42 } });
    await transport.terminateSession();
    return { listed, good: { isError: good.isError ?? false, text: textOf(good.content) }, bad: { isError: bad.isError, text: textOf(bad.content) } };
  } finally {
    await client.close();
  }
}

function expectServed(facts: Record<string, unknown>): void {
  expect(facts.listed).toEqual(['get_weather']);
  expect(facts.good).toEqual({ isError: false, text: 'Sunny in Paris.' });
  expect(facts.bad).toMatchObject({ isError: true, text: expect.stringContaining('$.city: must be a string; got the number 42.') });
}

const withPort = (example: string, port: number) => {
  if (!example.includes('port: 3000')) throw new Error('the example no longer listens on port 3000: update this test');
  return example.replace('port: 3000', `port: ${port}`);
};

describe("README's Deploy examples", () => {
  const needs = (binary: string) => (existsSync(bin(binary)) ? it : it.skip);

  needs('workerd')(
    'the Cloudflare Worker answers the MCP client under workerd serve (no compatibility flags)',
    async () => {
      const folder = await bundleExample('worker', readmeExample('// A Cloudflare Worker'));
      const port = await freePort();
      writeFileSync(join(folder, 'config.capnp'), workerdConfig(folder, port, 'compatibilityDate = "2025-09-01",'));
      await start(bin('workerd'), ['serve', join(folder, 'config.capnp')], folder, port);
      expectServed(await callAsAClient(port));
    },
    60_000,
  );

  needs('bun')(
    'the Bun.serve example answers the MCP client under Bun',
    async () => {
      const port = await freePort();
      const folder = await bundleExample('bun', withPort(readmeExample('// Bun'), port));
      await start(bin('bun'), ['run', join(folder, 'main.mjs')], folder, port);
      expectServed(await callAsAClient(port));
    },
    60_000,
  );

  needs('deno')(
    'the Deno.serve example answers the MCP client under Deno (network to its own port only)',
    async () => {
      const port = await freePort();
      const folder = await bundleExample('deno', withPort(readmeExample('// Deno'), port));
      await start(
        bin('deno'),
        ['run', '--no-config', '--no-lock', `--allow-net=127.0.0.1:${port}`, `--allow-read=${folder}`, join(folder, 'main.mjs')],
        folder,
        port,
      );
      expectServed(await callAsAClient(port));
    },
    60_000,
  );
});
