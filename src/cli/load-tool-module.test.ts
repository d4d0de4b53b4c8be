import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModuleLoadError } from '../shared/errors.js';
import { loadToolModule } from './load-tool-module.js';

const repo = resolve(import.meta.dirname, '../..');
let dir: string;

const tool = (name: string) =>
  `{ name: ${JSON.stringify(name)}, description: 'Tool ${name} for tests.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'ok' }`;

function write(name: string, source: string): string {
  writeFileSync(join(dir, name), source);
  return join(dir, name);
}

async function loadError(path: string, cwd = dir): Promise<ModuleLoadError> {
  const error = await loadToolModule(path, { cwd }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModuleLoadError);
  return error as ModuleLoadError;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolwright-load-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('loadToolModule', () => {
  it('loads `export const tools` from a TypeScript file, relative to cwd', async () => {
    const loaded = await loadToolModule('examples/conjugate/index.ts', { cwd: repo });
    expect(loaded.source).toBe(join(repo, 'examples/conjugate/index.ts'));
    expect(loaded.foundIn).toBe('tools');
    expect(loaded.tools.map((entry) => entry.name)).toEqual(['conjugate', 'list_verbs']);
    expect(loaded.categories).toBeUndefined();
    expect(typeof loaded.exports.conjugateVerb).toBe('function');
  });

  it("loads a folder's index file, with the categories exported beside the tools", async () => {
    const loaded = await loadToolModule('examples/subscriptions', { cwd: repo });
    expect(loaded.source).toBe(join(repo, 'examples/subscriptions/index.ts'));
    expect(loaded.tools).toHaveLength(14);
    expect({ ...loaded.categories }).toMatchObject({ billing: ['get_invoices', 'create_refund', 'update_payment_method'] });
  });

  it('accepts a default array, a default { tools, categories }, a registry, and loose named exports', async () => {
    const defaultArray = await loadToolModule(write('default-array.mjs', `export default [${tool('a')}, ${tool('b')}];`));
    expect([defaultArray.foundIn, defaultArray.tools.map((entry) => entry.name)]).toEqual(['default', ['a', 'b']]);

    const defaultObject = await loadToolModule(write('default-object.mjs', `export default { tools: [${tool('a')}], categories: { misc: ['a'] } };`));
    expect([defaultObject.foundIn, defaultObject.tools.length, { ...defaultObject.categories }]).toEqual(['default.tools', 1, { misc: ['a'] }]);

    const registry = await loadToolModule(write('registry.mjs', `const list = [${tool('a')}]; export const tools = { list: () => list };`));
    expect(registry.tools.map((entry) => entry.name)).toEqual(['a']);

    const loose = await loadToolModule(
      write('loose.mjs', `export const first = ${tool('first')}; export const second = ${tool('second')}; export const helper = 42;`),
    );
    expect([loose.foundIn, loose.tools.map((entry) => entry.name)]).toEqual(['named exports', ['first', 'second']]);
  });

  it('says what is wrong with a path that does not exist, or a folder without an index', async () => {
    expect((await loadError('missing.ts')).message).toBe(
      `Cannot load tools from "${join(dir, 'missing.ts')}": no such file. Check the path (it is resolved from ${dir}).`,
    );
    mkdirSync(join(dir, 'empty-folder'));
    expect((await loadError('empty-folder')).message).toBe(
      `Cannot load tools from "${join(dir, 'empty-folder')}": it is a folder without index.ts, index.mts, index.js, index.mjs. Pass the module file itself, or add an index file that exports the tools.`,
    );
    expect((await loadError('no-such-package-toolwright-test')).message).toBe(
      'Cannot load tools from "no-such-package-toolwright-test": no file or installed package is called "no-such-package-toolwright-test". Pass a path (such as ./tools.ts) or install the package.',
    );
  });

  it('reports a module that fails to import with its error and location, not a stack trace', async () => {
    const path = write('throws.mjs', `export const tools = [];\nthrow new Error('database URL is not set');\n`);
    const error = await loadError(path);
    expect(error.message).toBe(
      `Cannot load tools from "${path}": importing it failed: Error: database URL is not set (at ${path}:2:7). Fix the module so that it imports cleanly (try running it with node or tsx).`,
    );
    expect(error.code).toBe('TW_MODULE_LOAD');
    const broken = write('broken.mjs', 'export const tools = [;\n');
    // The parser's wording depends on who imports (Node, tsx, Vite); the shape does not.
    const syntax = (await loadError(broken)).message;
    expect(syntax).toMatch(
      /^Cannot load tools from ".*broken\.mjs": importing it failed: .*[^.]\. Fix the module so that it imports cleanly \(try running it with node or tsx\)\.$/s,
    );
    expect(syntax).not.toMatch(/\n\s+at /);
  });

  it('says what to export when there are no tools, or an export is not a tool', async () => {
    const none = write('none.mjs', 'export const answer = 42; export function helper() {}');
    expect((await loadError(none)).message).toBe(
      `Cannot load tools from "${none}": it exports no tools (its exports: answer, helper). Export them as \`export const tools = [defineTool({ ... }), ...]\` (a ToolRegistry works too), as the default export, or as named exports of defineTool(...) results.`,
    );
    const empty = write('empty.mjs', 'export const tools = [];');
    expect((await loadError(empty)).message).toContain('it exports no tools (its exports: tools).');
    const notTool = write('not-tool.mjs', `export const tools = [${tool('a')}, { name: 'b' }];`);
    expect((await loadError(notTool)).message).toBe(
      `Cannot load tools from "${notTool}": tools[1] is an object, not a tool. Create each tool with defineTool({ name, description, inputSchema, effect, execute }).`,
    );
    const wrongShape = write('wrong-shape.mjs', `export const tools = ${tool('a')};`);
    expect((await loadError(wrongShape)).message).toContain('the export `tools` is an object, not a list of tools or a ToolRegistry.');
  });

  it('refuses duplicate names and categories that name unknown tools', async () => {
    const duplicate = write('duplicate.mjs', `export const tools = [${tool('a')}, ${tool('a')}];`);
    expect((await loadError(duplicate)).message).toBe(
      `Cannot load tools from "${duplicate}": two tools are named "a". Tool names must be unique: rename one of them.`,
    );
    const categories = write('categories.mjs', `export const tools = [${tool('a')}]; export const categories = { billing: ['a', 'get_invoice'] };`);
    expect((await loadError(categories)).message).toBe(
      `Cannot load tools from "${categories}": categories.billing names "get_invoice", which is not among the exported tools. Fix the name or export the tool.`,
    );
    const badCategories = write('bad-categories.mjs', `export const tools = [${tool('a')}]; export const categories = ['a'];`);
    expect((await loadError(badCategories)).message).toBe(
      `Cannot load tools from "${badCategories}": the export \`categories\` is an array; it must map category names to lists of tool names, such as { billing: ["get_invoices", "create_refund"] }.`,
    );
  });
});
