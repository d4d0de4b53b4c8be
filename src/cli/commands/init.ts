/**
 * `toolwright init [dir]`: scaffolds a tool pack (see `../init/scaffold.ts`)
 * and says what to run next. Exit code 2, with nothing written, when the folder
 * is a file or already holds one of the files (unless `--force`).
 * @module
 */
import { isAbsolute, join, relative } from 'node:path';
import { Option, type Command } from 'commander';
import { packInstallCommand } from '../init/pack-packages.js';
import type { ScaffoldResult, ScaffoldSchemaKind } from '../init/scaffold.js';

/** The `--schema` choices; `scaffoldToolPack` checks the same list. */
const SCHEMA_KINDS = ['zod', 'json'] as const satisfies readonly ScaffoldSchemaKind[];

export interface InitCommandOptions {
  schema?: ScaffoldSchemaKind;
  force?: boolean;
}

/** Quotes a path for the shell when it holds a space, a quote or another character the shell would read. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/** What `init` prints: the files written and the next commands, run from the current folder. */
export function formatInitResult(result: ScaffoldResult, cwd: string = process.cwd()): string {
  const fromCwd = relative(cwd, result.dir);
  // A folder outside the current one reads better as its absolute path than as ../../…
  const shown = fromCwd === '' ? '.' : fromCwd.startsWith('..') || isAbsolute(fromCwd) ? result.dir : fromCwd;
  const lines = [
    `Wrote a tool pack to ${shown}${result.createdDir ? ' (a new folder)' : ''}:`,
    ...result.files.map((name) => `  ${name}${result.overwritten.includes(name) ? '  (overwritten)' : ''}`),
    '',
    'Next (TOOLWRIGHT.md says more):',
    ...(shown === '.' ? [] : [`  cd ${shellWord(shown)}`]),
    `  ${packInstallCommand(result.schema)}`,
    "  npx tsx --test tools.test.ts  # the pack's own test, with a scripted model",
    '  npx toolwright lint tools.ts  # the schema linter',
  ];
  if (result.packageJson === 'existing')
    lines.push('', `The packages install into the project of ${join(shown, 'package.json')}, which was there already (init left it as it was).`);
  else if (result.packageJson === 'written')
    lines.push('', "package.json is new: the packages install into this folder's own project, not into a project above it.");
  return lines.join('\n') + '\n';
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('Scaffold a tool pack: a read tool, a write tool behind a confirmation, a test driving them with a scripted model, and TOOLWRIGHT.md.')
    .argument('[dir]', 'the folder to write into (created when missing)', '.')
    .addOption(new Option('--schema <kind>', 'write the input schemas in Zod or JSON Schema').choices([...SCHEMA_KINDS]).default('zod'))
    .option('--force', 'overwrite tools.ts, tools.test.ts and TOOLWRIGHT.md when they exist')
    .addHelpText('after', '\nExit codes: 0 written, 2 the folder is a file or already has one of the files (nothing is written; --force overwrites).')
    .action(async (dir: string, options: InitCommandOptions) => {
      // Loaded on demand: the templates are text no other command needs, and they spell out imports (of zod, among
      // others) that a scan of the CLI's static imports (test/architecture/root-entry-clean.test.ts) would take as real.
      const { scaffoldToolPack } = await import('../init/scaffold.js');
      const result = scaffoldToolPack(dir, { schema: options.schema ?? 'zod', force: options.force === true });
      process.stdout.write(formatInitResult(result));
    });
}
