/**
 * The size of each package entry is a decision, not an accident: the number of names each entry of
 * package.json `exports` gives (counted as `npx tsx scripts/count-exports.ts` counts them) is pinned
 * below, and the root entry stays at most 100 names. Adding or removing a public name means changing
 * its entry's number here in the same commit. No name the root exported before issue 26 shrank it
 * (root-names-before-issue-26.txt) may disappear from the package: each is exported by some entry.
 *
 * And the docs follow the entries: every `import { … } from 'toolwright…'` written in README.md,
 * docs/*.md or the scaffold's templates names only what that entry exports, so a name that moves to
 * a subpath cannot stay advertised at its old place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseEntry, createSurfaceProgram, PACKAGE_ROOT, readEntryPoints, type EntrySurface } from '../../scripts/public-surface.js';

const PINNED_NAME_COUNTS: Record<string, number> = {
  '.': 67,
  './agent': 65,
  './ai-sdk': 14,
  './decoding': 27,
  './errors': 35,
  './eval': 82,
  './formats': 68,
  './mcp': 54,
  './models': 9,
  './openai-agents': 8,
  './policy': 48,
  './stores': 42,
  './test': 12,
  './tools': 53,
};
const ROOT_CEILING = 100;

/** The files whose code users copy: the README, the docs pages and the scaffold `toolwright init` writes. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(PACKAGE_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'src/cli/init/templates.ts',
];
const PACKAGE_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'(toolwright(?:\/[a-z-]+)?)'/g;

/** `{ name, entry }` for every name a document imports from the package, with the line it is on. */
function packageImportsOf(path: string): Array<{ name: string; entry: string; line: number }> {
  const text = readFileSync(join(PACKAGE_ROOT, path), 'utf8');
  return [...text.matchAll(PACKAGE_IMPORT)].flatMap((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    const entry = match[3] === 'toolwright' ? '.' : `./${match[3]!.slice('toolwright/'.length)}`;
    return match[2]!
      .split(',')
      .map(
        (specifier) =>
          specifier
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter((name) => name !== '')
      .map((name) => ({ name, entry, line }));
  });
}

const entries = readEntryPoints();
let surfaces: Map<string, EntrySurface>;

beforeAll(() => {
  const program = createSurfaceProgram(entries.map((entry) => entry.file));
  surfaces = new Map(entries.map((entry) => [entry.subpath, analyseEntry(program, entry)]));
}, 120_000);

describe('entry sizes', () => {
  it('pins a name count for every entry of package.json `exports`, and only for those', () => {
    expect(Object.keys(PINNED_NAME_COUNTS).sort()).toEqual(entries.map((entry) => entry.subpath).sort());
  });

  it.each(Object.entries(PINNED_NAME_COUNTS))('%s exports the pinned number of names', (subpath, pinned) => {
    const names = surfaces.get(subpath)?.names ?? [];
    expect(
      names.length,
      `${subpath} exports ${names.length} names, ${pinned} pinned: if adding or removing a public name is intended, set ${subpath} to ${names.length} in PINNED_NAME_COUNTS (test/architecture/entry-counts.test.ts).`,
    ).toBe(pinned);
  });

  it(`keeps the root entry at most ${ROOT_CEILING} names`, () => {
    expect(surfaces.get('.')!.names.length).toBeLessThanOrEqual(ROOT_CEILING);
  });

  it('still exports every name the root exported before issue 26, each from some entry', () => {
    const before = readFileSync(join(PACKAGE_ROOT, 'test/architecture/root-names-before-issue-26.txt'), 'utf8').split('\n').filter(Boolean);
    expect(before.length).toBe(349);
    const exported = new Set([...surfaces.values()].flatMap((surface) => surface.names));
    expect(before.filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe('imports in the docs', () => {
  it('finds imports from the root and from subpaths', () => {
    const imported = DOCUMENTS.flatMap(packageImportsOf);
    expect(imported.some((item) => item.entry === '.')).toBe(true);
    expect(new Set(imported.map((item) => item.entry)).size).toBeGreaterThan(3);
  });

  it.each(DOCUMENTS)('%s imports each name from the entry that exports it', (path) => {
    const wrong = packageImportsOf(path)
      .filter(({ name, entry }) => !surfaces.get(entry)?.names.includes(name))
      .map(({ name, entry, line }) => {
        const home = [...surfaces].find(([, surface]) => surface.names.includes(name))?.[0];
        return `${path}:${line}: ${name} is not exported by ${entry}${home === undefined ? '' : `; import it from ${home}`}`;
      });
    expect(wrong).toEqual([]);
  });
});
