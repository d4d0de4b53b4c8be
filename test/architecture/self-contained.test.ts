/**
 * A user's clone has nothing beside it: no shipped code, test, script or example may read
 * the project's `../shared` inputs. Benchmarks may (they take such a folder as an argument).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function walk(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' || name === 'node_modules' ? [] : walk(path);
    return /\.(ts|mts|js|mjs|json)$/.test(name) ? [path] : [];
  });
}

describe('self-contained checkout', () => {
  it('reads nothing from a folder beside the repository', () => {
    const offenders = ['src', 'test', 'scripts', 'examples']
      .flatMap((folder) => walk(join(root, folder)))
      .filter((file) => file !== fileURLToPath(import.meta.url))
      .filter((file) => /\.\.\/shared\/(data|seeds|notes|hooks)\b|['"`]\.\.\/shared['"`]|['"]\.\.['"]\s*,\s*['"]shared['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
