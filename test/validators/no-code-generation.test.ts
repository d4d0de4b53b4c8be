/**
 * The registry in a V8 context that forbids code generation from strings, as Cloudflare Workers and Vercel's edge
 * runtime do (`node:vm` with `codeGeneration: { strings: false }`): the tools area bundled by esbuild for the
 * browser and run there, picks the interpreter by itself, and validates good and bad calls; Ajv cannot compile there.
 */
import { build, type Plugin } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * define-tool.ts reaches `node:module` only to load Zod for a Zod schema, which these tools do not use; a runtime
 * without it (making the core runtime-neutral is issue 28's part A) gets a stub that says so if it is ever called.
 */
const nodeModuleStub: Plugin = {
  name: 'node-module-stub',
  setup(stubs) {
    stubs.onResolve({ filter: /^node:module$/ }, () => ({ path: 'node:module', namespace: 'stub' }));
    stubs.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: `export function createRequire() { throw new Error('node:module is not available in this runtime'); }`,
      loader: 'js',
    }));
  },
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let folder: string;
let bundle: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'toolwright-no-eval-'));
  const entry = join(folder, 'entry.ts');
  writeFileSync(
    entry,
    `export { ToolRegistry, defineTool, schemaValidatorKind, useSchemaValidator } from ${JSON.stringify(join(root, 'src/tools/index.ts'))};\n`,
  );
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: 'toolwright',
    platform: 'browser',
    write: false,
    logLevel: 'error',
    plugins: [nodeModuleStub],
  });
  bundle = result.outputFiles[0]!.text;
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A fresh context without code generation, holding the web globals a Worker has that the bundle uses, and the bundle. */
function contextWithoutEval(): vm.Context {
  const context = vm.createContext({ console, URL, TextEncoder, TextDecoder }, { codeGeneration: { strings: false, wasm: false } });
  // A Worker's structuredClone makes objects of its own realm; Node's, passed in, would make this test's realm's objects
  // (which isPlainObject rightly refuses). JSON's clone is enough for schemas.
  vm.runInContext('globalThis.structuredClone = (value) => JSON.parse(JSON.stringify(value));', context);
  vm.runInContext(bundle, context);
  return context;
}

const script = (body: string) => `(() => {
  const { ToolRegistry, defineTool } = toolwright;
  const tool = defineTool({
    name: 'get_weather',
    description: 'Weather in a city.',
    effect: 'read',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 2, pattern: '^[A-Z]' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
      required: ['city'],
      additionalProperties: false,
    },
    execute: ({ city }) => city,
  });
  ${body}
})()`;

describe('the registry where code generation is forbidden', () => {
  it('cannot generate code there (the probe Ajv depends on throws)', () => {
    expect(() => vm.runInContext(`new Function('return 1')`, contextWithoutEval())).toThrow(/Code generation from strings disallowed/);
  });

  it('picks the interpreter by itself and validates good and bad calls with the usual recovery texts', () => {
    const context = contextWithoutEval();
    const outcome = vm.runInContext(
      script(`
        const registry = new ToolRegistry([tool]);
        const good = registry.prepare({ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo', days: 3 } });
        const bad = registry.prepare({ id: 'c2', name: 'get_weather', arguments: { city: 'o', days: 9, unit: 'C' } });
        return JSON.stringify({ kind: toolwright.schemaValidatorKind(), good: good.success, bad: bad.success ? 'accepted' : bad.failure.message });
      `),
      context,
    ) as string;
    const { kind, good, bad } = JSON.parse(outcome) as { kind: string; good: boolean; bad: string };
    expect(kind).toBe('interpreter');
    expect(good).toBe(true);
    expect(bad).toContain('has the unknown property "unit"');
    expect(bad).toContain('must have at least 2 characters');
    expect(bad).toContain('must match the pattern ^[A-Z]');
    expect(bad).toContain('must be at most 7');
  });

  it('with Ajv insisted on, the same tool cannot be defined there', () => {
    const context = contextWithoutEval();
    expect(() => vm.runInContext(script(`toolwright.useSchemaValidator('ajv'); new ToolRegistry([tool]);`), context)).toThrow(
      /Code generation from strings disallowed/,
    );
  });
});
