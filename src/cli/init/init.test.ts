import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lintTools } from '../../formats/lint/index.js';
import { InvalidArgumentError, ToolwrightError } from '../../shared/errors.js';
import { formatInitResult } from '../commands/init.js';
import { loadToolModule } from '../load-tool-module.js';
import { runCli } from '../main.js';
import { scaffoldFiles, scaffoldToolPack, type ScaffoldSchemaKind } from './scaffold.js';

const repo = resolve(import.meta.dirname, '../../..');
const tsx = join(repo, 'node_modules', '.bin', 'tsx');
const roots: string[] = [];

function tempFolder(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'tw-init-')));
  roots.push(folder);
  return folder;
}

/** This repository's package.json `exports`, each entry pointed at the source its dist file is built from. */
function exportsFromSources(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { exports: Record<string, string | { import: string }> };
  return Object.fromEntries(
    Object.entries(manifest.exports)
      .filter(([subpath]) => subpath !== './package.json')
      .map(([subpath, target]) => [subpath, (typeof target === 'string' ? target : target.import).replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts')]),
  );
}

/**
 * Makes `folder` a user's project with toolwright "installed" from this checkout's sources: `node_modules/toolwright`
 * holds a package.json whose `exports` map every entry (`toolwright`, `toolwright/formats`, `toolwright/test`…) to its
 * source under `src/`, and a symlink `src` to this repository's `src`; `node_modules/zod` links to the repository's zod.
 * So the scaffold's imports resolve by their package names, unchanged, to the code under test (the packed tarball is not built here).
 */
function installToolwrightFromSources(folder: string): void {
  const packageFolder = join(folder, 'node_modules', 'toolwright');
  mkdirSync(packageFolder, { recursive: true });
  writeFileSync(join(packageFolder, 'package.json'), JSON.stringify({ name: 'toolwright', type: 'module', exports: exportsFromSources() }));
  symlinkSync(join(repo, 'src'), join(packageFolder, 'src'), 'dir');
  symlinkSync(realpathSync(join(repo, 'node_modules', 'zod')), join(folder, 'node_modules', 'zod'), 'dir');
}

/** Runs the scaffold's own test the way TOOLWRIGHT.md says (`tsx --test tools.test.ts`), and never rejects. */
function runScaffoldTest(folder: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(tsx, ['--test', 'tools.test.ts'], { cwd: folder, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, output: stdout + stderr });
    });
  });
}

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

// Each scaffold test starts Node with tsx (seconds on a busy machine), so the limit is generous.
describe.each<ScaffoldSchemaKind>(['zod', 'json'])('toolwright init --schema %s', { timeout: 90_000 }, (schema) => {
  it('writes a pack that loads, lints clean, and whose own test passes', async () => {
    const project = tempFolder();
    installToolwrightFromSources(project);
    // A pack in a subfolder of the project: its imports resolve through the project's node_modules.
    const dir = join(project, 'tools', 'mine');
    const result = scaffoldToolPack(dir, { schema });
    expect(result).toEqual({
      dir,
      schema,
      createdDir: true,
      files: ['tools.ts', 'tools.test.ts', 'TOOLWRIGHT.md', 'package.json'],
      overwritten: [],
      packageJson: 'written',
    });
    expect(readdirSync(dir).sort()).toEqual(['TOOLWRIGHT.md', 'package.json', 'tools.test.ts', 'tools.ts']);

    const loaded = await loadToolModule(join(dir, 'tools.ts'));
    expect(loaded.foundIn).toBe('tools');
    expect(loaded.tools.map((tool) => [tool.name, tool.effect, tool.confirm])).toEqual([
      ['list_tasks', 'read', false],
      ['delete_task', 'write', true],
    ]);
    expect(lintTools(loaded.tools)).toEqual([]);

    const { code, output } = await runScaffoldTest(dir);
    expect(output).toMatch(/^# pass 4$/m);
    expect(output).toMatch(/^# fail 0$/m);
    expect(code).toBe(0);
  });

  it('imports toolwright by its package names, and says how to install and run the pack', () => {
    const [tools, test, readme] = scaffoldFiles(schema).map((file) => file.content);
    expect(tools).toContain("from 'toolwright';");
    expect(test).toContain("from 'toolwright';");
    expect(test).toContain("from 'toolwright/test';");
    expect(tools!.includes("from 'zod'")).toBe(schema === 'zod');
    // One install command for every command the snippet shows, `toolwright run` with its default store included.
    expect(readme).toContain(
      schema === 'zod'
        ? 'npm i toolwright zod tsx openai better-sqlite3 @modelcontextprotocol/sdk\n'
        : 'npm i toolwright tsx openai better-sqlite3 @modelcontextprotocol/sdk\n',
    );
    expect(readme).toContain('OPENAI_BASE_URL');
    for (const command of ['npx tsx --test tools.test.ts', 'toolwright lint tools.ts', 'toolwright run --model', 'toolwright serve --tools tools.ts']) {
      expect(readme).toContain(command);
    }
  });
});

describe('the two schema kinds', () => {
  it('declare the same input schemas to a model', async () => {
    const project = tempFolder();
    installToolwrightFromSources(project);
    const schemas = [];
    for (const schema of ['zod', 'json'] as const) {
      scaffoldToolPack(join(project, schema), { schema });
      const loaded = await loadToolModule(join(project, schema, 'tools.ts'));
      schemas.push(loaded.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })));
    }
    expect(schemas[0]).toEqual(schemas[1]);
  });
});

describe("the scaffold's own test", { timeout: 90_000 }, () => {
  it('fails when the write tool no longer waits for a person', async () => {
    const project = tempFolder();
    installToolwrightFromSources(project);
    scaffoldToolPack(project, { schema: 'json' });
    const tools = join(project, 'tools.ts');
    const source = readFileSync(tools, 'utf8');
    expect(source).toContain('    confirm: true,\n');
    writeFileSync(tools, source.replace('    confirm: true,\n', ''));
    const { code, output } = await runScaffoldTest(project);
    expect(output).toMatch(/^# fail [1-9]/m);
    expect(code).not.toBe(0);
  });
});

describe('toolwright init', () => {
  let stdout: string;
  let stderr: string;
  beforeEach(() => {
    stdout = '';
    stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const init = (...args: string[]) => runCli(['node', 'toolwright', 'init', ...args]);

  it('writes into a new folder and says what to run next', async () => {
    const dir = join(tempFolder(), 'pack');
    expect(await init(dir)).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(
      [
        `Wrote a tool pack to ${dir} (a new folder):`,
        '  tools.ts',
        '  tools.test.ts',
        '  TOOLWRIGHT.md',
        '  package.json',
        '',
        'Next (TOOLWRIGHT.md says more):',
        `  cd ${dir}`,
        '  npm i toolwright zod tsx openai better-sqlite3 @modelcontextprotocol/sdk',
        "  npx tsx --test tools.test.ts  # the pack's own test, with a scripted model",
        '  npx toolwright lint tools.ts  # the schema linter',
        '',
        "package.json is new: the packages install into this folder's own project, not into a project above it.",
        '',
      ].join('\n'),
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'pack',
      private: true,
      type: 'module',
      scripts: { test: 'tsx --test tools.test.ts', lint: 'toolwright lint tools.ts' },
    });
    expect(Object.keys(manifest.dependencies as object)).toEqual(['toolwright', 'zod', 'tsx', 'openai', 'better-sqlite3', '@modelcontextprotocol/sdk']);
  });

  it('keeps a package.json that is there, --force or not, and says the install goes into its project', async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, 'package.json'), '{"name":"mine"}');
    expect(await init(dir, '--force')).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}');
    expect(stdout).not.toContain('  package.json');
    expect(stdout).toContain(`The packages install into the project of ${join(dir, 'package.json')}, which was there already (init left it as it was).`);
    expect(readFileSync(join(dir, 'tools.ts'), 'utf8')).toBe(scaffoldFiles('zod')[0]!.content);
  });

  it('refuses to overwrite existing files, naming them, with exit code 2 and nothing written', async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, 'tools.ts'), 'mine');
    writeFileSync(join(dir, 'TOOLWRIGHT.md'), 'mine too');
    expect(await init(dir, '--schema', 'json')).toBe(2);
    expect(stderr).toBe(
      `toolwright: init: ${dir} already has tools.ts, TOOLWRIGHT.md; nothing was written. Pass --force to overwrite them, or choose another folder.\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(['TOOLWRIGHT.md', 'tools.ts']);
    expect(readFileSync(join(dir, 'tools.ts'), 'utf8')).toBe('mine');

    const error = (() => {
      try {
        scaffoldToolPack(dir);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(ToolwrightError.isInstance(error) && error.code).toBe('TW_INVALID_ARGUMENT');
  });

  it('overwrites them with --force, and says which', async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, 'tools.ts'), 'mine');
    writeFileSync(join(dir, 'notes.txt'), 'kept');
    expect(await init(dir, '--schema', 'json', '--force')).toBe(0);
    expect(stdout).toContain('  tools.ts  (overwritten)\n  tools.test.ts\n');
    expect(readFileSync(join(dir, 'tools.ts'), 'utf8')).toBe(scaffoldFiles('json')[0]!.content);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('kept');
  });

  it('refuses a path that is a file, a folder where a file goes even with --force, and an unknown schema kind', async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, 'file'), '');
    expect(await init(join(dir, 'file'))).toBe(2);
    expect(stderr).toContain(`toolwright: init: ${join(dir, 'file')} is a file, not a folder.`);

    mkdirSync(join(dir, 'pack', 'tools.test.ts'), { recursive: true });
    expect(await init(join(dir, 'pack'), '--force')).toBe(2);
    expect(stderr).toContain('has folders named tools.test.ts, where the scaffold writes files');
    expect(readdirSync(join(dir, 'pack'))).toEqual(['tools.test.ts']);

    expect(await init(join(dir, 'other'), '--schema', 'yaml')).toBe(2);
    expect(stderr).toContain("argument 'yaml' is invalid. Allowed choices are zod, json.");
  });

  it('writes into the current folder by default, and quotes a folder the shell would split', () => {
    expect(formatInitResult({ dir: '/work/app', schema: 'json', createdDir: false, files: ['tools.ts'], overwritten: [] }, '/work/app')).toContain(
      'Wrote a tool pack to .:\n  tools.ts\n\nNext (TOOLWRIGHT.md says more):\n  npm i toolwright tsx openai better-sqlite3 @modelcontextprotocol/sdk\n',
    );
    expect(formatInitResult({ dir: "/tmp/Bob's tools", schema: 'zod', createdDir: true, files: [], overwritten: [] }, '/work')).toContain(
      "  cd '/tmp/Bob'\\''s tools'\n",
    );
    expect(formatInitResult({ dir: '/work/app/pack', schema: 'zod', createdDir: true, files: [], overwritten: [] }, '/work/app')).toContain('  cd pack\n');
  });
});
