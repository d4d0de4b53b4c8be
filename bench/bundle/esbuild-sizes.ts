/**
 * What the bundle benches share: esbuild's settings for a web bundle (ES module, es2022) and how a size is written and
 * compressed, so that `bench:bundle-decoding` and `bench:bundle` measure alike.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** esbuild's options for a bundle a web runtime or a page loads (what `test/browser/mask-in-browser.test.ts` does too). */
export const WEB_BUNDLE = { bundle: true, platform: 'browser', format: 'esm', target: 'es2022' } as const;

/** Gzip at level 9 and brotli at quality 11, as a server or a CDN sends them at best. */
export function compressed(bytes: Uint8Array): { gzip: number; brotli: number } {
  return {
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`.padStart(11);
}
