import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicError, renderAnthropic, streamAnthropic } from './render-anthropic.js';
import { geminiError, renderGemini, streamGemini } from './render-gemini.js';
import { openAIChatError, renderOpenAIChat, streamOpenAIChat } from './render-openai-chat.js';
import { renderOpenAIResponses, streamOpenAIResponses } from './render-openai-responses.js';
import { PromptCacheSimulator } from './prompt-cache-simulation.js';
import { DEFAULT_USAGE, formatSse, type SseEvent } from './sse.js';
import type { FakeReply, FakeTurn, RecordedRequest } from './types.js';

/** A running fake provider; see {@link startProviderServer}. */
export interface ProviderServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Base URL for the OpenAI SDK and OpenAI-compatible clients: `<url>/v1`. */
  readonly openaiBaseURL: string;
  /** Base URL for the Anthropic SDK (it appends `/v1/messages` itself): `<url>`. */
  readonly anthropicBaseURL: string;
  /** Base URL for `@ai-sdk/google` (it appends `/models/<model>:generateContent`): `<url>/v1beta`. */
  readonly geminiBaseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Queues replies; each request takes the next one, whatever its endpoint. */
  enqueue(...replies: FakeReply[]): void;
  /** Replies not yet taken. */
  readonly pending: number;
  /** Forgets queued replies, recorded requests and, with `promptCache`, every cache entry (between tests). */
  reset(): void;
  /** Stops the server, cutting open connections (stalled streams included). */
  close(): Promise<void>;
}

/** How {@link startProviderServer} behaves beyond its defaults. */
export interface ProviderServerOptions {
  /**
   * Simulates the providers' prompt caches on Anthropic Messages and Chat Completions (`prompt-cache-simulation.ts` says
   * exactly what): each turn's input usage (input tokens, cache reads, cache writes) is computed from the request body,
   * replacing the turn's own; its output and reasoning tokens are kept. `minimumTokens` is the minimum cacheable prompt
   * (default 1,024). Off by default.
   */
  promptCache?: boolean | { minimumTokens?: number };
}

interface Endpoint {
  render: (turn: FakeTurn, request: any, sequence: number) => unknown;
  stream: (turn: FakeTurn, request: any, sequence: number) => SseEvent[];
  error: (status: number, message: string, type: string | undefined) => unknown;
  /** Whether the endpoint always streams (Gemini's `:streamGenerateContent`), whatever the body says. */
  streams?: boolean;
}

const ENDPOINTS: Record<string, Endpoint> = {
  '/v1/chat/completions': { render: renderOpenAIChat, stream: streamOpenAIChat, error: openAIChatError },
  '/v1/responses': { render: renderOpenAIResponses, stream: streamOpenAIResponses, error: openAIChatError },
  '/v1/messages': { render: renderAnthropic, stream: streamAnthropic, error: anthropicError },
};

/** Gemini names the model and the method in the path: `/v1beta/models/<model>:generateContent` or `:streamGenerateContent`. */
const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function endpointFor(path: string): Endpoint | undefined {
  const gemini = GEMINI_PATH.exec(path);
  if (gemini === null) return ENDPOINTS[path];
  const model = decodeURIComponent(gemini[1]!);
  return { render: renderGemini(model), stream: streamGemini(model), error: geminiError, streams: gemini[2] === 'streamGenerateContent' };
}

/**
 * Starts a fake LLM provider on 127.0.0.1 (an ephemeral port) that speaks
 * OpenAI Chat Completions (`/v1/chat/completions`), the OpenAI Responses API
 * (`/v1/responses`), Anthropic Messages (`/v1/messages`) and the Gemini API
 * (`/v1beta/models/<model>:generateContent`), as plain JSON or as SSE when the
 * request body says `stream: true` (Gemini: `:streamGenerateContent`). Tests queue replies with
 * `enqueue` and read what the SDKs sent in `requests`:
 *
 * ```ts
 * const server = await startProviderServer();
 * server.enqueue(
 *   { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
 *   { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
 *   { text: 'Sunny.' },
 * );
 * const model = createModel('openai:gpt-4o-mini', { baseURL: server.openaiBaseURL, apiKey: 'test' });
 * // … run, then assert on server.requests[i].body …
 * await server.close();
 * ```
 *
 * A request with no reply queued gets a 400 whose message says so, which the
 * providers surface as a bad-request error naming the request.
 */
export async function startProviderServer(options: ProviderServerOptions = {}): Promise<ProviderServer> {
  const queue: FakeReply[] = [];
  const promptCache =
    options.promptCache === undefined || options.promptCache === false
      ? undefined
      : new PromptCacheSimulator(options.promptCache === true ? undefined : options.promptCache.minimumTokens);
  const requests: RecordedRequest[] = [];
  let sequence = 0;

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`provider-server failed: ${String(error)}`);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const text = await readBody(request);
    let body: any;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const path = (request.url ?? '/').split('?')[0]!;
    requests.push({ method: request.method ?? 'GET', path, headers: { ...request.headers }, body, receivedAt });
    const endpoint = endpointFor(path);
    if (endpoint === undefined || request.method !== 'POST') {
      sendJson(response, 404, { error: { message: `provider-server: no endpoint ${request.method} ${path}`, type: 'invalid_request_error' } });
      return;
    }
    const number = ++sequence;
    const reply = queue.shift();
    if (reply === undefined) {
      sendJson(response, 400, endpoint.error(400, `provider-server: no reply queued for request ${number} (${path}); enqueue one`, undefined));
      return;
    }
    if ((reply.kind === 'turn' || reply.kind === undefined || reply.kind === 'error') && reply.delayMs !== undefined) {
      const waited = await wait(reply.delayMs, response);
      if (!waited) return;
    }
    if (reply.kind === 'raw') {
      response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers });
      response.end(reply.body);
      return;
    }
    if (reply.kind === 'error') {
      sendJson(response, reply.status, endpoint.error(reply.status, reply.message ?? `fake error ${reply.status}`, reply.type), reply.headers);
      return;
    }
    let turn: FakeTurn = reply;
    if (reply.output !== undefined) {
      const placed = placeOutput(path, body, reply);
      if (typeof placed === 'string') {
        sendJson(response, 400, endpoint.error(400, `provider-server: ${placed}`, undefined));
        return;
      }
      turn = placed;
    }
    const cached = promptCache?.usage(path, body);
    if (cached !== undefined) {
      const reasoningTokens = turn.usage?.reasoningTokens;
      const outputTokens = (turn.usage ?? DEFAULT_USAGE).outputTokens;
      turn = { ...turn, usage: { ...cached, outputTokens, ...(reasoningTokens !== undefined ? { reasoningTokens } : {}) } };
    }
    if (!(endpoint.streams ?? body?.stream === true)) {
      sendJson(response, 200, endpoint.render(turn, body, number), reply.headers);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...reply.headers });
    const events = endpoint.stream(turn, body, number);
    const limit = reply.stallAfterEvents ?? events.length;
    for (const event of events.slice(0, limit)) response.write(formatSse(event));
    // A stalled stream stays open until the client gives up or the server closes.
    if (limit >= events.length) response.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: url,
    geminiBaseURL: `${url}/v1beta`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    get pending() {
      return queue.length;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      promptCache?.reset();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A turn's `output` where the request's response format puts it, or why the request cannot take one. */
function placeOutput(path: string, body: any, turn: FakeTurn): FakeTurn | string {
  const text = typeof turn.output === 'string' ? turn.output : JSON.stringify(turn.output);
  if (path === '/v1/chat/completions') {
    if (body?.response_format?.type !== 'json_schema') return 'the turn answers with `output`, but the request has no response_format of type json_schema';
    return { ...turn, text };
  }
  if (path === '/v1/responses') {
    if (body?.text?.format?.type !== 'json_schema') return 'the turn answers with `output`, but the request has no text.format of type json_schema';
    return { ...turn, text };
  }
  const tools: { name: string }[] = Array.isArray(body?.tools) ? body.tools : [];
  const name: unknown = body?.tool_choice?.type === 'tool' ? body.tool_choice.name : tools.at(-1)?.name;
  if (typeof name !== 'string' || !tools.some((tool) => tool.name === name)) return 'the turn answers with `output`, but the request declares no final tool';
  return { ...turn, toolCalls: [...(turn.toolCalls ?? []), { name, arguments: turn.output }] };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
}

/** Waits, unless the client goes away first (then answers `false`). */
function wait(ms: number, response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    response.once('close', onClose);
  });
}
