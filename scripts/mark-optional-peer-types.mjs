/* global process */
/**
 * Run after `tsc -p tsconfig.build.json` (by `build` and `prepack`): makes the declaration files stand alone without the
 * optional peers. Each line of dist/**\/*.d.ts that names an optional peer's module (an `import … from 'openai/…'`, an
 * inline `import("@anthropic-ai/sdk/…")`), or Node's own modules (`node:stream`, typed by `@types/node`, which an app may
 * not have), gets a `// @ts-ignore` line above it. With the peer installed, its types are
 * exact; without it, a strict app with `skipLibCheck: false` compiles, and those types read as `any` (test/package/install.test.ts
 * checks both). Plain Node, no dependency: it runs where `npm pack` runs.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {})
  .filter(([, meta]) => meta.optional === true)
  .map(([name]) => name);
const escaped = optionalPeers.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
// A module specifier naming a peer or one of its subpaths, or a `node:` module, as a `from` clause or an inline import type writes it.
const peerSpecifier = new RegExp(`(?:from\\s+|import\\()(['"])(?:(?:${escaped.join('|')})(?:/[^'"]*)?|node:[^'"]+)\\1`);
const MARK = '// @ts-ignore -- an optional peer (or @types/node): without it installed, these types read as `any`';

let files = 0;
let marked = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.d.ts')) mark(path);
  }
};
const mark = (path) => {
  const lines = readFileSync(path, 'utf8').split('\n');
  const out = [];
  for (const [index, line] of lines.entries()) {
    if (peerSpecifier.test(line) && lines[index - 1]?.trim() !== MARK) {
      out.push(`${line.match(/^\s*/)[0]}${MARK}`);
      marked++;
    }
    out.push(line);
  }
  if (out.length !== lines.length) {
    writeFileSync(path, out.join('\n'));
    files++;
  }
};
walk(join(root, 'dist'));
process.stdout.write(`mark-optional-peer-types: ${marked} line(s) in ${files} declaration file(s) name an optional peer\n`);
