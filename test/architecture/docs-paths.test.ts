/**
 * The docs point at files that exist: every `src/…` path written in docs/*.md or
 * README.md, and every backticked `test/…`, `scripts/…`, `bench/…`, `examples/…`
 * or `docs/…` path, names a file or folder of the repository. A refactor that
 * moves a file then fails here until the docs follow it (the architecture
 * refactor of issue #11 left several such pointers behind).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** `src/…` anywhere, unless it is the tail of a longer path or URL (`dist/src/…`, `…/blob/main/src/…`). */
const SOURCE_PATH = /(?<![\w./@-])src\/[\w./-]*/g;
/** Other repository paths, only where the docs quote them as code, with a file extension. */
const QUOTED_PATH = /`((?:test|scripts|bench|examples|docs)\/[\w./-]*\.\w+)`/g;

/** The path as written, less sentence punctuation after it. */
function cleaned(path: string): string {
  return path.replace(/[.,:;]+$/, '');
}

function pathsIn(text: string): string[] {
  const paths = [...text.matchAll(SOURCE_PATH)].map((match) => cleaned(match[0]));
  paths.push(...[...text.matchAll(QUOTED_PATH)].map((match) => cleaned(match[1]!)));
  return [...new Set(paths)];
}

describe('paths in the docs', () => {
  it('reads paths as the docs write them', () => {
    expect(pathsIn('see `src/tools/tool-registry.ts`, and src/protocol/. Not dist/src/x.ts nor https://github.com/o/r/blob/main/src/lib/t.ts')).toEqual([
      'src/tools/tool-registry.ts',
      'src/protocol/',
    ]);
    expect(pathsIn('run `test/architecture/layering.test.ts` (not test/ prose)')).toEqual(['test/architecture/layering.test.ts']);
  });

  it('finds paths to check (the extraction did not silently stop matching)', () => {
    const all = documents.flatMap((document) => pathsIn(readFileSync(join(root, document), 'utf8')));
    expect(all).toContain('src/agent/agent-loop.ts');
  });

  it.each(documents)('%s names only files that exist', (document) => {
    const missing = pathsIn(readFileSync(join(root, document), 'utf8')).filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });
});
