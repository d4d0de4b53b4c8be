/**
 * `npm run make:tiny-model [-- --out path.gguf]`: writes toolwright's tiny
 * structural test model (random weights, Qwen3 vocabulary; no skill at all).
 */
import { resolve } from 'node:path';
import { DEFAULT_TINY_MODEL_PATH, makeTinyModel } from '../src/models/local/tiny-model.js';

const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 && process.argv[outIndex + 1] ? resolve(process.argv[outIndex + 1]!) : DEFAULT_TINY_MODEL_PATH;
const started = performance.now();
const made = await makeTinyModel(out);
console.log(`Wrote ${made.path}\n  ${(made.bytes / 1e6).toFixed(1)} MB, sha256 ${made.sha256}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log('  A structural test model: llama architecture, random weights, Qwen3 vocabulary. It has no skill.');
