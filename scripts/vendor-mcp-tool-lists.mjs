/* global process, console, setTimeout, clearTimeout */
/**
 * For maintainers only, to refresh test/fixtures/third-party/real-servers.json: the real `tools/list` results of public
 * MCP servers. It downloads them from npm: the first step below installs the servers' packages from the npm registry
 * into a scratch folder outside this repository, which the script then runs. Never run by a test or at install:
 *
 *   mkdir /tmp/vendor-mcp && cd /tmp/vendor-mcp && npm init -y
 *   npm i --ignore-scripts @modelcontextprotocol/sdk <every package in SERVERS below>
 *   node scripts/vendor-mcp-tool-lists.mjs /tmp/vendor-mcp [out.json]
 *
 * Each server runs over stdio with the MCP SDK client found in the scratch folder, with dummy credentials, HOME set to
 * an empty folder, and (where `unshare` can make one) no network at all: a listing must not depend on a remote account.
 * Its pages are followed through `nextCursor`, and each descriptor is kept as the server sent it (read off the wire, not
 * through the SDK's parser, which may drop fields it does not know). A server that does not answer in 20 s is killed and
 * left out. Version and licence come from the installed package.json; check the licence is permissive (MIT, Apache-2.0,
 * BSD, ISC) and update NOTICE.md beside the fixture before committing a new server.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TIMEOUT_MS = 20_000;

/**
 * The servers, in the fixture's order. `args` follow the bin; `env` holds only dummy values, so that servers that
 * check for a credential at start accept it; none is used, as nothing is called. `license` is set only where the
 * package.json does not carry an SPDX id itself (see NOTICE.md for where it was read).
 */
const SERVERS = [
  { server: 'filesystem', package: '@modelcontextprotocol/server-filesystem', args: ['{scratch}'], license: 'MIT' },
  { server: 'memory', package: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: '{scratch}/memory.jsonl' }, license: 'MIT' },
  { server: 'everything', package: '@modelcontextprotocol/server-everything', args: ['stdio'], license: 'MIT' },
  { server: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking', license: 'MIT' },
  { server: 'github', package: '@modelcontextprotocol/server-github', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'x' } },
  { server: 'slack', package: '@modelcontextprotocol/server-slack', env: { SLACK_BOT_TOKEN: 'x', SLACK_TEAM_ID: 'x' } },
  { server: 'puppeteer', package: '@modelcontextprotocol/server-puppeteer' },
  { server: 'postgres', package: '@modelcontextprotocol/server-postgres', args: ['postgresql://127.0.0.1:9/none'] },
  { server: 'brave-search', package: '@modelcontextprotocol/server-brave-search', env: { BRAVE_API_KEY: 'x' } },
  { server: 'google-maps', package: '@modelcontextprotocol/server-google-maps', env: { GOOGLE_MAPS_API_KEY: 'x' } },
  { server: 'playwright', package: '@playwright/mcp' },
  { server: 'notion', package: '@notionhq/notion-mcp-server', env: { NOTION_TOKEN: 'x' } },
  { server: 'context7', package: '@upstash/context7-mcp' },
  { server: 'firecrawl', package: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: 'fc-x' } },
  { server: 'tavily', package: 'tavily-mcp', env: { TAVILY_API_KEY: 'tvly-x' } },
  { server: 'kubernetes', package: 'mcp-server-kubernetes' },
];
// Tried and left out (checked with the versions of 2026-12-06): gitlab (8 of its 9 tool names are github's), redis
// (exits when it cannot connect at start), supabase (fetches from its API before it answers tools/list), heroku (imports
// an SDK path that @modelcontextprotocol/sdk 1.32 no longer has), browserbase (a third browser server), everart (an
// archived image generator with one tool), @sentry/mcp-server (FSL-1.1, not a permissive licence),
// server-aws-kb-retrieval-server (no longer on npm).

const [scratchArg, outArg] = process.argv.slice(2);
if (scratchArg === undefined) {
  console.error('usage: node scripts/vendor-mcp-tool-lists.mjs <scratch folder with the servers installed> [out.json]');
  process.exit(2);
}
const scratch = resolve(scratchArg);
const out = resolve(outArg ?? join(dirname(fileURLToPath(import.meta.url)), '../test/fixtures/third-party/real-servers.json'));
const only = process.env.VENDOR_ONLY?.split(',');
const sdk = (subpath) => import(pathToFileURL(join(scratch, 'node_modules/@modelcontextprotocol/sdk/dist/esm', subpath)).href);
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const home = mkdtempSync(join(tmpdir(), 'vendor-mcp-home-'));
// `unshare -rn` runs the server in a network namespace of its own with no interface but loopback: nothing can leave.
const isolate = spawnSync('unshare', ['-rn', 'true']).status === 0;

function bin(manifest) {
  const entry = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (entry === undefined) throw new Error(`${manifest.name} has no bin`);
  return entry;
}

async function listServer(entry) {
  const folder = join(scratch, 'node_modules', entry.package);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const fill = (value) => value.replaceAll('{scratch}', home);
  const command = [process.execPath, join(folder, bin(manifest)), ...(entry.args ?? []).map(fill)];
  const env = { HOME: home, PATH: process.env.PATH, NODE_NO_WARNINGS: '1' };
  for (const [key, value] of Object.entries(entry.env ?? {})) env[key] = fill(value);
  const transport = new StdioClientTransport({
    command: isolate ? 'unshare' : command[0],
    args: isolate ? ['-rn', ...command] : command.slice(1),
    env,
    cwd: home,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  const client = new Client({ name: 'toolwright-vendor', version: '1.0.0' });
  // The raw `tools/list` results, by request id: the SDK's parser is not trusted to keep every field.
  const raw = new Map();
  const timer = setTimeout(() => void transport.close(), TIMEOUT_MS);
  try {
    await client.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (message.id !== undefined && message.result?.tools !== undefined) raw.set(message.id, message.result);
      deliver?.(message, extra);
    };
    const tools = [];
    let cursor;
    do {
      const before = new Set(raw.keys());
      await client.listTools(cursor === undefined ? {} : { cursor });
      const id = [...raw.keys()].find((key) => !before.has(key));
      const page = raw.get(id);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return {
      server: entry.server,
      package: manifest.name,
      version: manifest.version,
      license: entry.license ?? manifest.license,
      tools,
    };
  } catch (error) {
    console.error(`${entry.server}: left out (${error.message})${stderr ? `\n  stderr: ${stderr.trim().split('\n').slice(-3).join('\n  ')}` : ''}`);
    return undefined;
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

const servers = [];
for (const entry of SERVERS) {
  if (only !== undefined && !only.includes(entry.server)) continue;
  const listed = await listServer(entry);
  if (listed === undefined) continue;
  servers.push(listed);
  console.log(`${listed.server.padEnd(20)} ${listed.package}@${listed.version} (${listed.license}): ${listed.tools.length} tools`);
}
const total = servers.reduce((sum, entry) => sum + entry.tools.length, 0);
console.log(`${servers.length} servers, ${total} tools${isolate ? '' : ' (listed WITH network access: unshare -rn was not available)'}`);
const fixture = {
  _comment:
    "The real tools/list results of public MCP servers from npm, as each server sent them (authors' text: see NOTICE.md). Written by scripts/vendor-mcp-tool-lists.mjs; checked by test/lint/real-servers.test.ts. Do not edit by hand.",
  servers,
};
writeFileSync(out, JSON.stringify(fixture, null, 2) + '\n');
console.log(`wrote ${out}`);
