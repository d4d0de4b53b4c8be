/**
 * A local fake LLM provider for tests and end-to-end runs: point the OpenAI or
 * Anthropic SDK (or `createModel(..., { baseURL })`) at it, queue replies, and
 * assert on the requests it recorded. It binds 127.0.0.1 only; nothing leaves
 * the machine. See {@link startProviderServer} for an example.
 * @module
 */
export { startProviderServer } from './provider-server.js';
export type { ProviderServer, ProviderServerOptions } from './provider-server.js';
export type { FakeError, FakeRaw, FakeReply, FakeStopReason, FakeToolCall, FakeTurn, RecordedRequest } from './types.js';
