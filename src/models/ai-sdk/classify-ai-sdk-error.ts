/**
 * Reads the errors AI SDK provider packages raise into a
 * {@link ClassifiedFailure}, without loading the AI SDK: its errors carry a
 * marker under `Symbol.for('vercel.ai.error.<name>')` (what its own
 * `isInstance` checks, across package copies). `APICallError` has the HTTP
 * status, headers and the provider's message, or no status when the server
 * could not be reached; an abort keeps its `AbortError` name.
 * @module
 */
import { isPlainObject } from '../../shared/own.js';
import type { ClassifiedFailure } from '../retry/call-with-retries.js';

const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');

/** AI SDK errors that mean the provider's answer could not be read. */
const RESPONSE_ERRORS = new Set([
  'AI_InvalidResponseDataError',
  'AI_TypeValidationError',
  'AI_JSONParseError',
  'AI_EmptyResponseBodyError',
  'AI_NoContentGeneratedError',
]);

/** An `error` part inside a stream that had started; raised by the model so that the transport classifies it. */
export class AISDKStreamPartError extends Error {
  constructor(readonly error: unknown) {
    super(messageOf(error));
    this.name = 'AISDKStreamPartError';
  }
}

export function classifyAISDKError(error: unknown): ClassifiedFailure {
  if (error instanceof AISDKStreamPartError) return { kind: 'stream-error', message: error.message };
  if (hasMarker(error, API_CALL_ERROR)) {
    const { statusCode, responseHeaders, message } = error as { statusCode?: unknown; responseHeaders?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : 'no message';
    if (typeof statusCode !== 'number') return { kind: 'connection', message: text };
    const headers = headerReader(responseHeaders);
    const requestId = headers.get('x-request-id') ?? headers.get('request-id') ?? undefined;
    return { kind: 'status', status: statusCode, message: text, headers, requestId };
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || error.name === 'ResponseAborted')) return { kind: 'abort' };
  return { kind: 'other' };
}

/** Whether the AI SDK raised this because the provider's answer was unreadable (a response-shape or JSON error). */
export function isAISDKResponseError(error: unknown): boolean {
  return error instanceof Error && RESPONSE_ERRORS.has(error.name) && hasMarker(error, Symbol.for(`vercel.ai.error.${error.name}`));
}

function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

/** Case-insensitive reads over the plain record of headers the AI SDK keeps. */
function headerReader(headers: unknown): Pick<Headers, 'get'> {
  const byName = new Map<string, string>();
  if (isPlainObject(headers)) for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') byName.set(name.toLowerCase(), value);
  return { get: (name: string) => byName.get(name.toLowerCase()) ?? null };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isPlainObject(error) && typeof error.message === 'string') return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
