/**
 * The one-way layering, re-derived from the sources so that it cannot be weakened
 * silently: shared → tools → protocol → formats/decoding → models → policy → agent → stores → mcp/eval/interop → cli.
 * Within formats/ and models/, each provider's folder is its own: it imports no other provider's folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');

/** Layer rank; a module may import its own area or areas of lower rank. Same-rank siblings may not import each other. */
const RANK: Record<string, number> = {
  shared: 0,
  tools: 1,
  protocol: 2,
  formats: 3,
  decoding: 3,
  models: 4,
  policy: 5,
  agent: 6,
  stores: 7,
  mcp: 8,
  eval: 8,
  interop: 8,
  cli: 9,
};

function walk(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

const IMPORT_PATTERN = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT_PATTERN)].map((match) => match[1] ?? match[2] ?? match[3]!).filter((specifier) => specifier.startsWith('.'));
}

function areaOf(file: string): string | undefined {
  const parts = relative(src, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/**
 * The provider folders: one wire format (formats/) or one provider's SDK glue (models/) each. The shared pieces
 * beside them (formats/provider-schema, formats/lint, models/retry, the files at the area's root) are not providers.
 */
const PROVIDER_FOLDERS: Record<string, readonly string[]> = {
  formats: ['ai-sdk', 'anthropic', 'mcp', 'openai-chat', 'openai-responses'],
  models: ['ai-sdk', 'anthropic', 'local', 'openai', 'scripted'],
};

function providerFolderOf(file: string): { area: string; folder: string } | undefined {
  const [area, folder, ...rest] = relative(src, file).split(sep);
  if (area === undefined || folder === undefined || rest.length === 0) return undefined;
  return PROVIDER_FOLDERS[area]?.includes(folder) ? { area, folder } : undefined;
}

/** Relative imports that load code: `import type` / `export type` are erased, so sharing an options type is allowed. */
function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT_PATTERN)]
    .filter((match) => !/^\s*(?:import|export)\s+type\s/.test(match[0]))
    .map((match) => match[1] ?? match[2] ?? match[3]!)
    .filter((specifier) => specifier.startsWith('.'));
}

function resolveImport(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, '.ts');
}

const files = walk(src);

describe('layering', () => {
  it('knows every area under src/', () => {
    const areas = new Set(files.map(areaOf).filter((area): area is string => area !== undefined));
    expect([...areas].filter((area) => !(area in RANK))).toEqual([]);
  });

  it('imports only flow downward', () => {
    const violations: string[] = [];
    for (const file of files) {
      const fromArea = areaOf(file);
      if (fromArea === undefined) continue; // the root entry re-exports every area
      for (const specifier of importsOf(file)) {
        const target = resolveImport(file, specifier);
        if (!target.startsWith(src + sep)) {
          // Tests may use the repository's fixtures, scripts and example packs; shipped code may not.
          const testSupport = ['test', 'scripts', 'examples'].some((folder) => target.startsWith(join(root, folder) + sep));
          if (!(file.endsWith('.test.ts') && testSupport)) violations.push(`${relative(root, file)} imports ${specifier}, outside src/`);
          continue;
        }
        const toArea = areaOf(target);
        if (toArea === undefined) {
          violations.push(`${relative(root, file)} imports the root entry ${specifier}`);
          continue;
        }
        if (toArea === fromArea) continue;
        if (RANK[toArea]! >= RANK[fromArea]!) violations.push(`${relative(root, file)} (${fromArea}) imports ${relative(root, target)} (${toArea})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps each provider in its own folder: a provider folder of formats/ or models/ imports no other provider folder', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = providerFolderOf(file);
      if (from === undefined) continue;
      for (const specifier of runtimeImportsOf(file)) {
        const to = providerFolderOf(resolveImport(file, specifier));
        if (to !== undefined && to.area === from.area && to.folder !== from.folder) violations.push(`${relative(root, file)} imports ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycles between modules', () => {
    const graph = new Map(files.map((file) => [file, importsOf(file).map((specifier) => resolveImport(file, specifier))]));
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map((path) => relative(root, path)).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('is not bypassed with lint suppressions of the import rules', () => {
    const offenders = files.filter((file) => /eslint-disable[^\n]*(no-restricted-imports|import\/)/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
