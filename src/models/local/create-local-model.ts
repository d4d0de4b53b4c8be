/**
 * `local:<path.gguf>` without loading anything yet: the engine (node-llama-cpp,
 * the token-mask compiler) is imported on the first request, so `createModel`
 * and the package root stay light.
 * @module
 */
import { estimateInputTokens } from '../estimate-tokens.js';
import type { Model } from '../types.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../protocol/model-exchange.js';
import type { LocalModel as Engine } from './local-model.js';
import type { LocalModelOptions, LocalModelStats } from './local-model-options.js';

export class LazyLocalModel implements Model {
  readonly id: string;
  readonly provider = 'local';
  readonly path: string;
  readonly #options: LocalModelOptions;
  #engine: Promise<Engine> | undefined;

  constructor(path: string, options: LocalModelOptions = {}) {
    this.path = path;
    this.id = `local:${path}`;
    this.#options = options;
  }

  #load(): Promise<Engine> {
    this.#engine ??= import('./local-model.js').then(({ LocalModel }) => new LocalModel(this.path, this.#options));
    return this.#engine;
  }

  estimateInputTokens(request: ModelRequest): number {
    return estimateInputTokens(request);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    return (await this.#load()).generate(request);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    yield* (await this.#load()).stream(request);
  }

  /** Counters (sampled, forced and jump-forward tokens, mask time); zero until the first request. */
  async stats(): Promise<LocalModelStats> {
    return (await this.#load()).stats;
  }

  async close(): Promise<void> {
    if (this.#engine) await (await this.#engine).close();
    this.#engine = undefined;
  }
}
