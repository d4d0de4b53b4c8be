/**
 * `npm run bench:patterns -- --property-escapes`: what Unicode property escapes (`\p{…}`) cost.
 *
 * 1. Reading a property's code points from V8 (`unicodePropertySet`): the first escape of the process, `\p{ASCII}`,
 *    which also builds the strings of every code point (kept for the process), then each property's first use and
 *    a cached use. Each first use holds the event loop for its whole time, so the largest is the longest pause a
 *    schema with a new property can cause.
 * 2. The mask: compiling `^\p{L}+$` and two other property patterns as a `pattern` (plus the first mask) on the
 *    Qwen3, Llama 3 and Gemma 3 vocabularies, beside an ASCII class of the same shape. Each vocabulary compiles a
 *    pattern once: later compiles would hit the automaton caches.
 */
import { compileJsonSchema } from '../../src/decoding/index.js';
import { compileLinearRegExp } from '../../src/shared/regex/linear-regexp.js';
import { unicodePropertySet } from '../../src/shared/regex/unicode-properties.js';
import { loadTestTokenizer } from '../../test/decoding/test-tokenizer.js';

const PROPERTIES = ['L', 'N', 'Lu', 'Script=Greek', 'Script_Extensions=Latin', 'Alphabetic', 'Emoji', 'ID_Continue', 'Any'];
const MASK_PATTERNS = ['^[A-Za-z]+$', '^\\p{L}+$', '^[\\p{L}\\p{N}_ -]+$', '^\\p{Lu}\\P{Script=Han}*$'];

const timeMs = (work: () => unknown): number => {
  const started = performance.now();
  work();
  return performance.now() - started;
};

export function benchPropertyEscapes(): void {
  const lines: string[] = ['reading property sets from V8 (first use in this process, then cached):'];
  const buildMs = timeMs(() => unicodePropertySet('ASCII'));
  lines.push(`  \\p{ASCII}, the first escape of the process, with the strings of every code point: ${buildMs.toFixed(1)} ms`);
  for (const body of PROPERTIES) {
    const firstMs = timeMs(() => unicodePropertySet(body));
    const cachedMs = timeMs(() => unicodePropertySet(body));
    const ranges = unicodePropertySet(body)!.length / 2;
    lines.push(`  \\p{${body}}: ${ranges} ranges, first ${firstMs.toFixed(1)} ms, cached ${(cachedMs * 1000).toFixed(1)} µs`);
  }
  lines.push(`  compileLinearRegExp('^[\\p{L}\\p{N}_ -]+$') with both sets cached: ${timeMs(() => compileLinearRegExp('^[\\p{L}\\p{N}_ -]+$')).toFixed(1)} ms`);
  lines.push('compiling a string pattern for the mask (compileJsonSchema + first mask), once per vocabulary:');
  for (const name of ['qwen3', 'llama3', 'gemma3'] as const) {
    const { vocabulary } = loadTestTokenizer(name);
    const mask = new Uint32Array(vocabulary.maskWords);
    const figures = MASK_PATTERNS.map((pattern) => {
      const ms = timeMs(() => compileJsonSchema({ type: 'string', pattern }, vocabulary).matcher().fillMask(mask));
      return `${pattern} ${ms.toFixed(0)} ms`;
    });
    lines.push(`  ${name}: ${figures.join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
