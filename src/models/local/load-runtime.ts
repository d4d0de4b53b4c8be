/**
 * Loading a GGUF model into node-llama-cpp, and what decoding needs from it once:
 * the chat wrapper's tool-call framing as tokens, the vocabulary's token bytes,
 * the end-of-generation tokens, and the mask → token-bias builder.
 *
 * node-llama-cpp is imported here, dynamically, so that nothing loads it before
 * the first request of a `local:` model.
 * @module
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import type { ChatWrapper, LlamaContext, LlamaContextSequence, LlamaModel, Token, TokenBias } from 'node-llama-cpp';
import type * as NodeLlama from 'node-llama-cpp';
import { loadVocabulary } from '../../decoding/vocabulary-index-file.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { loadPeer } from '../../shared/load-peer.js';
import { ClosingPreference } from './closing-preference.js';
import type { CallDecoderSetup, CallFormat } from './call-decoder.js';
import { groupTextTokensByFirstByte } from './call-decoder.js';
import type { LocalModelOptions } from './local-model-options.js';
import { MaskBiasBuilder, installTypedBiasFastPath } from './mask-token-bias.js';

/** A loaded model: the engine objects, and the node-llama-cpp-free setup the call decoder runs on. */
export interface Runtime {
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  chatWrapper: ChatWrapper;
  biases: MaskBiasBuilder;
  emptyBias: TokenBias;
  decoderSetup: CallDecoderSetup;
}

const DEFAULT_THREADS = Math.max(1, Math.min(8, availableParallelism() - 1));

export async function loadRuntime(path: string, options: LocalModelOptions): Promise<Runtime> {
  if (!existsSync(path))
    throw new InvalidArgumentError(
      `No GGUF model file at ${path}. Pass the path of a .gguf file (local:/path/to/model.gguf); \`npm run make:tiny-model\` makes the tiny test model.`,
    );
  // A missing node-llama-cpp is the developer's to fix, as a missing provider SDK is: MissingPeerError, which runAgent rethrows.
  const nodeLlama: typeof NodeLlama = await loadPeer('node-llama-cpp', 'Local models (local:<path.gguf>)', () => import('node-llama-cpp'));
  const threads = options.threads ?? DEFAULT_THREADS;
  const llama = await nodeLlama.getLlama({ gpu: false, build: 'never', maxThreads: threads, logLevel: nodeLlama.LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: path });
  const context = await model.createContext({ contextSize: options.contextSize ?? 4096, threads, sequences: 1 });
  const sequence = context.getSequence();
  installTypedBiasFastPath(sequence);
  const chatWrapper = nodeLlama.resolveChatWrapper(model);
  // the index file in the toolwright home spares later processes the vocabulary's parse and index build
  const { vocabulary } = loadVocabulary(path);
  const eog: number[] = [];
  for (let id = 0; id < vocabulary.size; id++) if (model.isEogToken(id as Token)) eog.push(id);
  const call = chatWrapper.settings.functions.call;
  const prefixTokens = nodeLlama.LlamaText(call.prefix).tokenize(model.tokenizer);
  const suffixTokens = nodeLlama.LlamaText(call.suffix).tokenize(model.tokenizer);
  if (prefixTokens.length === 0) throw new InvalidArgumentError(`The chat template of ${path} has no tool-call syntax toolwright can use.`);
  const callFormat: CallFormat = {
    startToken: prefixTokens[0]!,
    prefixTokens,
    paramsPrefixText: nodeLlama.LlamaText(call.paramsPrefix).toString(),
    suffixTokens,
    suffixText: model.detokenize(suffixTokens, true),
  };
  return {
    model,
    context,
    sequence,
    chatWrapper,
    biases: new MaskBiasBuilder(nodeLlama.TokenBias, model, vocabulary.size, eog),
    emptyBias: new nodeLlama.TokenBias(model.tokenizer),
    decoderSetup: {
      vocabulary,
      callFormat,
      tokensByFirstByte: groupTextTokensByFirstByte(vocabulary),
      closing: new ClosingPreference(vocabulary),
      tokenize: (text) => model.tokenize(text, false),
      detokenize: (tokens) => model.detokenize(tokens as Token[], false),
      isEndOfGeneration: (token) => model.isEogToken(token as Token),
    },
  };
}
