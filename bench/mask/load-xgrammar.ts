/**
 * Loads XGrammar's WebAssembly build (`@mlc-ai/web-xgrammar`) into this process. Its
 * bundle is CommonJS (UMD) although its package.json says `"type": "module"`, so Node's
 * ESM loader would misread it: evaluate it as CommonJS by hand.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as XGrammar from '@mlc-ai/web-xgrammar';

export type XGrammarModule = typeof XGrammar;

export function loadXGrammar(): XGrammarModule {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@mlc-ai/web-xgrammar');
  const module = { exports: {} as Record<string, unknown> };
  const evaluate = new Function('exports', 'module', 'require', '__filename', '__dirname', readFileSync(file, 'utf8')) as (...args: unknown[]) => void;
  evaluate(module.exports, module, createRequire(file), file, dirname(file));
  return module.exports as unknown as XGrammarModule;
}

/**
 * XGrammar's matcher computes the bitmask synchronously in WebAssembly; the public
 * `getNextTokenBitmask()` wraps that in an `async` function and copies it out. The bench
 * times the synchronous kernel (its best case) through the handle.
 */
export function xgrammarMaskKernel(matcher: XGrammar.GrammarMatcher): () => void {
  const inner = matcher as unknown as { handle: { GetNextTokenBitmask(size: number): { delete(): void } }; vocab_size: number };
  const handle = inner.handle;
  const size = inner.vocab_size;
  return () => handle.GetNextTokenBitmask(size).delete();
}
