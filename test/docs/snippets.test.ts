/**
 * Every snippet is a test: each TypeScript and JavaScript code block (```ts, typescript, tsx, js, javascript, mjs, cjs)
 * of README.md and docs/*.md is written to a file of a fresh app that has the packed tarball (test/package/fresh-app.ts),
 * then
 * - type-checked in one tsc run per configuration, `strict: true` and `skipLibCheck: false`: `module`/`moduleResolution`
 *   `nodenext`, and `module: preserve` with `moduleResolution: bundler`;
 * - run, unless it is marked not runnable (below): a `.ts` block with the app's tsx (`node --import tsx`), a JavaScript
 *   block with node, in a folder of its own, against the local provider server (test/provider-server): the test sets
 *   OPENAI_BASE_URL and ANTHROPIC_BASE_URL, which createModel reads as docs/providers.md tells users, and test keys. A
 *   block runs to its end with exit code 0 within 60 s, whatever the scripted model answers.
 * The peers the blocks import (and toolwright's optional peers, whose types its declaration files name) are linked from
 * this checkout's node_modules into the app rather than installed: they are not what is tested here, installing them
 * offline would take minutes, and test/package/install.test.ts installs them for real.
 *
 * A block is a complete program: a reader copies it. Where a page builds one program over several blocks, or a block
 * only shows a part, an HTML comment on the line right above the fence says so (directives separated by `;`):
 *   <!-- snippet: continues -->      the block goes on from the previous checked block of the same page (one program);
 *   <!-- snippet: prelude NAME -->    PRELUDES[NAME] of test/docs/snippet-context.ts (declarations of the names the page leaves to the reader,
 *                                     such as `model` and `tools`) goes first; such a block is type-checked, not run;
 *   <!-- snippet: file PATH -->       the block is the app's file PATH (app/mcp/route.ts), so its relative imports resolve;
 *   <!-- snippet: no-run REASON -->   type-checked, not run (it needs a real API key, a database, a server left running…).
 * A relative `./tools.js` (`./agent.js`) is APP_FILES' module there, standing for the reader's own tools module.
 *
 * And in every block of every language: no `npm run toolwright --` and no `examples/…` path, which exist only inside
 * this repository (a user has `npx toolwright` and the package); nor in the CLI's help texts (src/cli).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';
import { installApp, manifest, packedTarball, root, tsc, type InstalledApp } from '../package/fresh-app.js';
import { codeBlocks, pages, programText, snippetPrograms, sourceLine, type SnippetProgram } from './markdown-snippets.js';
import { APP_FILES, PRELUDES } from './snippet-context.js';

const programs = snippetPrograms(root, PRELUDES);

/** What only this repository has: its npm script for the CLI, and its examples folder. */
const REPOSITORY_ONLY = [/npm run (?:--silent )?toolwright\b/, /(?<![\w@/-])(?:\.\.?\/)*examples\/(?:subscriptions|conjugate|bad-tools|mcp-conformance)\b/];

const CONFIGURATIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'preserve', moduleResolution: 'bundler' },
} as const;

interface Outcome {
  code: number;
  output: string;
}

function execute(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout: number }): Promise<Outcome> {
  return new Promise((done) => {
    execFile(command, args, { ...options, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({
        code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
        output: `${stdout}${stderr}${error?.killed ? '\n(killed: timed out)' : ''}`,
      }),
    );
  });
}

/** The package names the programs import (`@scope/name` or `name`), toolwright and Node's built-ins aside. */
function importedPackages(): string[] {
  const names = new Set<string>();
  for (const program of programs)
    for (const match of programText(program).matchAll(/(?:from|import|require\()\s*\(?['"]([^'"./][^'"]*)['"]/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('node:') || specifier.startsWith('toolwright')) continue;
      names.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  return [...names];
}

/** tsc's diagnostics, each told at the page line it comes from (`README.md:75`), the block's file named otherwise. */
function locateDiagnostics(output: string): string[] {
  const byFile = new Map(programs.map((program) => [program.file, program]));
  const messages: string[] = [];
  for (const line of output.split('\n')) {
    const diagnostic = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line);
    if (diagnostic === null) {
      if (line.trim() !== '' && messages.length > 0) messages[messages.length - 1] += `\n${line}`;
      continue;
    }
    const program = byFile.get(diagnostic[1]!);
    const at = program === undefined ? undefined : sourceLine(program, Number(diagnostic[2]));
    const where =
      program === undefined
        ? diagnostic[1]
        : `${at ?? `${program.block.page}:${program.block.fenceLine} (its prelude)`} (block at line ${program.block.fenceLine})`;
    messages.push(`${where}: ${diagnostic[4]}`);
  }
  return messages;
}

describe('README and docs code blocks', () => {
  it('name no command or import that exists only in this repository', () => {
    const found: string[] = [];
    for (const page of pages(root)) {
      const markdown = readFileSync(join(root, page), 'utf8');
      for (const block of codeBlocks(page, markdown))
        block.code.split('\n').forEach((line, index) => {
          if (REPOSITORY_ONLY.some((pattern) => pattern.test(line))) found.push(`${page}:${block.fenceLine + 1 + index}: ${line.trim()}`);
        });
    }
    expect(found, 'use `npx toolwright …`, a tools module of your own (such as the one `toolwright init` writes) or `toolwright/…` imports').toEqual([]);
  });

  it('the CLI’s help and messages name no command or path that exists only in this repository', () => {
    const found: string[] = [];
    const visit = (folder: string) => {
      for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
        const path = `${folder}/${entry.name}`;
        if (entry.isDirectory()) visit(path);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
          readFileSync(join(root, path), 'utf8')
            .split('\n')
            .forEach((line, index) => {
              // Comments may name this repository's files: only code (the strings a user reads) counts.
              if (/^\s*(?:\/\/|\*|\/\*)/.test(line)) return;
              if (REPOSITORY_ONLY.some((pattern) => pattern.test(line))) found.push(`${path}:${index + 1}: ${line.trim()}`);
            });
      }
    };
    visit('src/cli');
    expect(found).toEqual([]);
  });

  it('are found with their directives', () => {
    expect(programs.length).toBeGreaterThan(40);
    expect(new Set(programs.map((program) => program.file)).size).toBe(programs.length);
  });

  describe('in a fresh app with the packed tarball', () => {
    let work = '';
    let snippets = '';
    let installed: InstalledApp | { skipped: string } = { skipped: 'not installed' };
    let server: ProviderServer | undefined;
    const checks = new Map<string, Promise<Outcome>>();

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'toolwright-snippets-'));
      installed = installApp(join(work, 'app'), await packedTarball(), []);
      if ('skipped' in installed) return;
      const modules = join(installed.dir, 'node_modules');
      for (const name of new Set([...Object.keys(manifest.peerDependencies), ...importedPackages(), '@types/node', '@types/better-sqlite3', '@types/pg'])) {
        if (existsSync(join(modules, name)) || !existsSync(join(root, 'node_modules', name))) continue;
        mkdirSync(dirname(join(modules, name)), { recursive: true });
        symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
      }
      snippets = join(installed.dir, 'snippets');
      mkdirSync(snippets);
      for (const [path, text] of Object.entries(APP_FILES)) writeFileSync(join(snippets, path), text);
      writeFileSync(join(snippets, 'package.json'), JSON.stringify({ type: 'module' }));
      for (const program of programs) {
        mkdirSync(dirname(join(snippets, program.file)), { recursive: true });
        writeFileSync(join(snippets, program.file), programText(program));
      }
      for (const [name, options] of Object.entries(CONFIGURATIONS)) {
        const compilerOptions = {
          ...options,
          target: 'es2022',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          types: ['node'],
        };
        writeFileSync(join(snippets, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, include: ['**/*'], exclude: ['runs'] }));
        // Both configurations check at once: each is one tsc over every block.
        checks.set(name, execute(process.execPath, [tsc, '-p', `tsconfig.${name}.json`, '--pretty', 'false'], { cwd: snippets, timeout: 240_000 }));
      }
      server = await startProviderServer();
    }, 300_000);

    afterAll(async () => {
      await server?.close();
      if (work !== '' && process.env.TW_SNIPPETS_KEEP !== '1') rmSync(work, { recursive: true, force: true });
    });

    it.for(Object.keys(CONFIGURATIONS))('type-check under strict, skipLibCheck false, %s', { timeout: 300_000 }, async (name, context) => {
      if ('skipped' in installed) context.skip(installed.skipped);
      const { output } = await checks.get(name)!;
      expect(locateDiagnostics(output).join('\n\n')).toBe('');
    });

    it('run as written, each that is runnable', async (context) => {
      if ('skipped' in installed) context.skip(installed.skipped);
      const runnable = programs.filter((program) => program.notRun === undefined);
      // Whatever the blocks ask, the provider answers in plain text: more replies than they make requests.
      server!.enqueue(...Array.from({ length: 200 }, () => ({ text: 'Done.' })));
      const env = {
        ...process.env,
        NODE_OPTIONS: '',
        OPENAI_API_KEY: 'sk-test-0123456789abcdefghij',
        OPENAI_BASE_URL: server!.openaiBaseURL,
        ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdefghij',
        ANTHROPIC_BASE_URL: server!.anthropicBaseURL,
        TOOLWRIGHT_HOME: join(work, 'home'),
      };
      const failures: string[] = [];
      const queue = [...runnable];
      const runOne = async (program: SnippetProgram) => {
        // Each in a folder of its own, so what one writes (a record, a state file) is not another's.
        const folder = join(snippets, 'runs', program.file.replace(/[^\w.-]+/g, '-'));
        mkdirSync(folder, { recursive: true });
        const args = /\.tsx?$/.test(program.file)
          ? ['--no-warnings', '--import', 'tsx', join(snippets, program.file)]
          : ['--no-warnings', join(snippets, program.file)];
        const { code, output } = await execute(process.execPath, args, { cwd: folder, env, timeout: 60_000 });
        if (code !== 0) failures.push(`${program.block.page}:${program.block.fenceLine}: exit ${code}\n${output.trim()}`);
      };
      await Promise.all(
        [0, 1].map(async () => {
          for (let next = queue.shift(); next !== undefined; next = queue.shift()) await runOne(next);
        }),
      );
      console.log(`snippets: ${programs.length} blocks type-checked, ${runnable.length} run`);
      expect(failures.join('\n\n')).toBe('');
    }, 300_000);
  });
});
