/**
 * `toolwright init`: writes a starter tool pack into a folder — `tools.ts` (one
 * read tool, one write tool behind a confirmation), `tools.test.ts` (the pack
 * driven by the scripted model through the agent loop) and `TOOLWRIGHT.md`.
 * Existing files are never overwritten unless asked (`force`).
 * @module
 */
import { existsSync, lstatSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError } from '../../shared/errors.js';
import { packManifest } from './pack-packages.js';
import { readmeSnippet } from './readme-snippet.js';
import { TOOLS_JSON_SCHEMA, TOOLS_TEST, TOOLS_ZOD, type ScaffoldSchemaKind } from './templates.js';

export type { ScaffoldSchemaKind } from './templates.js';

export const SCAFFOLD_SCHEMA_KINDS: readonly ScaffoldSchemaKind[] = ['zod', 'json'];

export interface ScaffoldOptions {
  /** Default `zod`. */
  schema?: ScaffoldSchemaKind;
  /** Overwrite files of the same names. Default `false`: refuse, naming them. */
  force?: boolean;
  /** A relative `dir` is resolved from here. Default: `process.cwd()`. */
  cwd?: string;
}

export interface ScaffoldResult {
  /** The folder, absolute. */
  dir: string;
  schema: ScaffoldSchemaKind;
  /** Whether the folder had to be created. */
  createdDir: boolean;
  /** The files written, by name, in the order written. */
  files: string[];
  /** The files among them that existed before (only with `force`). */
  overwritten: string[];
  /** `written`: the folder had no package.json and got one listing the pack's packages; `existing`: its own was kept as it is. */
  packageJson?: 'written' | 'existing';
}

/** The file names and contents of the scaffold for one schema kind. */
export function scaffoldFiles(schema: ScaffoldSchemaKind): { name: string; content: string }[] {
  return [
    { name: 'tools.ts', content: schema === 'zod' ? TOOLS_ZOD : TOOLS_JSON_SCHEMA },
    { name: 'tools.test.ts', content: TOOLS_TEST },
    { name: 'TOOLWRIGHT.md', content: readmeSnippet(schema) },
  ];
}

/**
 * Writes the scaffold into `dir` (created when missing). Throws {@link InvalidArgumentError}
 * when `dir` is a file, or when any file of the scaffold exists and `force` is not set; in
 * both cases nothing is written.
 */
export function scaffoldToolPack(dir: string, options: ScaffoldOptions = {}): ScaffoldResult {
  const schema = options.schema ?? 'zod';
  if (!SCAFFOLD_SCHEMA_KINDS.includes(schema)) {
    throw new InvalidArgumentError(`init: unknown schema kind "${String(schema)}". Use ${SCAFFOLD_SCHEMA_KINDS.join(' or ')}.`);
  }
  const target = resolve(options.cwd ?? process.cwd(), dir);
  const createdDir = !existsSync(target);
  if (!createdDir && !statSync(target).isDirectory()) {
    throw new InvalidArgumentError(`init: ${target} is a file, not a folder. Pass a folder (it is created when missing), such as toolwright init my-tools.`);
  }
  const files = scaffoldFiles(schema);
  // lstat, so that a dangling symlink counts as taken too.
  const existing = files.map((file) => file.name).filter((name) => lstatOrUndefined(join(target, name)) !== undefined);
  const folders = existing.filter((name) => statOrUndefined(join(target, name))?.isDirectory() === true);
  if (folders.length > 0) {
    throw new InvalidArgumentError(
      `init: ${target} has folders named ${folders.join(', ')}, where the scaffold writes files. Move them, or choose another folder.`,
    );
  }
  if (existing.length > 0 && options.force !== true) {
    throw new InvalidArgumentError(
      `init: ${target} already has ${existing.join(', ')}; nothing was written. Pass --force to overwrite ${existing.length === 1 ? 'it' : 'them'}, or choose another folder.`,
    );
  }
  if (createdDir) mkdirSync(target, { recursive: true });
  for (const file of files) {
    // 'wx' unless forced: a file that appeared since the check above is still not overwritten.
    writeFileSync(join(target, file.name), file.content, { flag: options.force === true ? 'w' : 'wx' });
  }
  const written = files.map((file) => file.name);
  // Without a package.json here, `npm i` would install into whatever project npm finds above: the pack gets its own.
  // An existing one is never touched, --force or not.
  const hasManifest = lstatOrUndefined(join(target, 'package.json')) !== undefined;
  if (!hasManifest) {
    writeFileSync(join(target, 'package.json'), packManifest(schema, target), { flag: 'wx' });
    written.push('package.json');
  }
  return { dir: target, schema, createdDir, files: written, overwritten: existing, packageJson: hasManifest ? 'existing' : 'written' };
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
