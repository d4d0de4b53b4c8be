/**
 * Every package the commands of a scaffolded pack need (its test, lint, `toolwright run` with the default store,
 * `toolwright serve`), listed once: `TOOLWRIGHT.md` names them with one install command, and the `package.json` that
 * `init` writes into a folder without one lists them, so that `npm i` there installs into the pack's own project
 * rather than whatever parent project npm would find.
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { safeParseJson } from '../../shared/safe-json.js';
import type { ScaffoldSchemaKind } from './templates.js';

/** A package a pack's command needs, and which command. */
export interface PackPackage {
  name: string;
  neededFor: string;
}

/** The packages, in install order: the library, the schemas' zod, the test runner, then what `run` and `serve` load. */
export function packPackages(schema: ScaffoldSchemaKind): PackPackage[] {
  return [
    { name: 'toolwright', neededFor: 'the tools and the `toolwright` command' },
    ...(schema === 'zod' ? [{ name: 'zod', neededFor: 'the input schemas in tools.ts' }] : []),
    { name: 'tsx', neededFor: "the pack's own TypeScript test" },
    { name: 'openai', neededFor: '`toolwright run` with an OpenAI or OpenAI-compatible model' },
    { name: 'better-sqlite3', neededFor: '`toolwright run` and `toolwright approvals`: the run store, a SQLite file, where a run waits for its confirmation' },
    { name: '@modelcontextprotocol/sdk', neededFor: '`toolwright serve`' },
  ];
}

/** The one command that installs them all. */
export function packInstallCommand(schema: ScaffoldSchemaKind): string {
  return `npm i ${packPackages(schema)
    .map((item) => item.name)
    .join(' ')}`;
}

/** The ranges this toolwright release works with: its own version, its peers' and its tsx's ranges. */
function ownManifest(): { version: string; ranges: Record<string, string> } {
  // ../../../package.json from both src/cli/init/ and dist/cli/init/.
  const parsed = safeParseJson(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  const manifest = (parsed.success && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {}) as {
    version?: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  return { version: manifest.version ?? '0.0.0', ranges: { ...manifest.dependencies, ...manifest.peerDependencies } };
}

/** The `package.json` of a new pack in `dir`: private, ES modules, `npm test` and `npm run lint`, every package listed. */
export function packManifest(schema: ScaffoldSchemaKind, dir: string): string {
  const { version, ranges } = ownManifest();
  const dependencies = Object.fromEntries(packPackages(schema).map(({ name }) => [name, name === 'toolwright' ? `^${version}` : (ranges[name] ?? '*')]));
  const name =
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[._-]+/, '') || 'tool-pack';
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: { test: 'tsx --test tools.test.ts', lint: 'toolwright lint tools.ts' },
    dependencies,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
