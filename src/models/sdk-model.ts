/**
 * The skeleton every model over an official SDK shares (OpenAI Chat, OpenAI
 * Responses, Anthropic): its id, the transport with its retries and timeouts,
 * the SDK client loaded once on first use, and the order of one exchange —
 * load the SDK, convert the request, send it through the transport, map the
 * reply (or fold the stream), attach the conversion's warnings. A provider's
 * class supplies only what differs: its client, its body, its SDK call and
 * its mapping.
 * @module
 */
import type { FormatWarning } from '../protocol/format-warning.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../protocol/model-exchange.js';
import { estimateInputTokens } from './estimate-tokens.js';
import { wirePromptTokens } from './wire-prompt-estimate.js';
import { createTransport, type ProviderSettings } from './provider-settings.js';
import type { ProviderTransport } from './provider-transport.js';
import type { ClassifiedFailure } from './retry/call-with-retries.js';
import type { Model } from './types.js';
import { withWarnings } from './with-warnings.js';

/** A loaded SDK client and the classifier of that SDK's errors (retryable or not, which status). */
export interface SdkClient<Client> {
  client: Client;
  classify: (error: unknown) => ClassifiedFailure;
}

/** A provider's request body and the warnings its conversion raised. */
export interface SdkRequestBody<Body> {
  body: Body;
  warnings: FormatWarning[];
}

export abstract class SdkModel<Client, Body, Reply, StreamEvent> implements Model {
  readonly id: string;
  readonly provider: string;
  protected readonly settings: ProviderSettings;
  protected readonly transport: ProviderTransport;
  #client: Promise<SdkClient<Client>> | undefined;

  constructor(settings: ProviderSettings) {
    this.settings = settings;
    this.provider = settings.provider;
    this.id = `${settings.provider}:${settings.modelName}`;
    this.transport = createTransport(settings);
  }

  /**
   * The prompt of the body this model would send, counted by {@link wirePromptTokens}: what the provider bills, where the
   * neutral request's estimate leaves out each format's framing. A request the adapter cannot convert is estimated as before.
   */
  estimateInputTokens(request: ModelRequest): number {
    let body: Body;
    try {
      body = this.requestBody(request).body;
    } catch {
      return estimateInputTokens(request);
    }
    return wirePromptTokens(this.promptParts(body));
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const { client, classify } = await this.#sdk();
    const { body, warnings } = this.requestBody(request);
    const reply = await this.transport.request(request.signal, classify, (scope) => this.send(client, body, scope.signal));
    return withWarnings(this.mapReply(reply, request), warnings);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const { client, classify } = await this.#sdk();
    const { body, warnings } = this.requestBody(request);
    const events = this.transport.stream<StreamEvent>(request.signal, classify, (scope) => this.openStream(client, body, scope.signal));
    const response = yield* this.foldStream(events, request);
    yield { type: 'end', response: withWarnings(response, warnings) };
  }

  /** Imports the SDK (an optional peer) and builds its client with the SDK's own retries off. */
  protected abstract loadClient(): Promise<SdkClient<Client>>;
  protected abstract requestBody(request: ModelRequest): SdkRequestBody<Body>;
  /** The parts of a body the provider reads as its prompt (tools shown to the model, instructions, messages, an output schema). */
  protected abstract promptParts(body: Body): unknown[];
  protected abstract send(client: Client, body: Body, signal: AbortSignal): Promise<Reply>;
  protected abstract openStream(client: Client, body: Body, signal: AbortSignal): Promise<AsyncIterable<StreamEvent>>;
  protected abstract mapReply(reply: Reply, request: ModelRequest): ModelResponse;
  /** Yields the stream's deltas and call events, and returns the whole response (without the warnings, which the caller attaches). */
  protected abstract foldStream(events: AsyncIterable<StreamEvent>, request: ModelRequest): AsyncGenerator<ModelStreamEvent, ModelResponse>;

  #sdk(): Promise<SdkClient<Client>> {
    this.#client ??= this.loadClient();
    return this.#client;
  }
}
