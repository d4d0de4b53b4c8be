/**
 * `path.posix.resolve('/', text)` without `node:path`: the core runs where Node's modules are missing.
 * Checked against `node:path` in src/shared/posix-path.test.ts.
 * @module
 */

/** `text` as an absolute POSIX path: `.` and empty segments dropped, `..` removing the segment before it (never above `/`). */
export function resolveFromRoot(text: string): string {
  const segments: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
