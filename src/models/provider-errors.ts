/**
 * Typed errors for talking to a provider. Each names the provider, keeps the
 * HTTP status and request id where there was one, and says what to do next;
 * the messages are written for the developer running the agent, not the model.
 * @module
 */
import { ToolwrightError, type ErrorCode, type ToolwrightErrorOptions } from '../shared/errors.js';

/** What an error message needs to know about the provider it is about. */
export interface ProviderErrorContext {
  /** A display name: `OpenAI`, `Anthropic`, `the OpenAI-compatible server`. */
  providerName: string;
  /** The model id as sent. */
  modelId: string;
  /** The base URL requests went to. */
  baseURL: string;
  /** The environment variable the key was (or would have been) read from, if any. */
  keyVariable: string | undefined;
}

/** Details every provider error carries. */
export interface ProviderErrorDetails extends ToolwrightErrorOptions {
  /** The HTTP status, when the provider answered. */
  status?: number;
  /** The provider's request id (`x-request-id`, `request-id`), for support tickets. */
  requestId?: string;
  /** How many requests were sent in all (1 + retries). */
  attempts?: number;
}

/** The base of every error raised while calling a provider. */
export class ProviderError extends ToolwrightError {
  /** The provider's display name. */
  readonly provider: string;
  /** The HTTP status, when the provider answered. */
  readonly status: number | undefined;
  /** The provider's request id, when it sent one. */
  readonly requestId: string | undefined;
  /** Requests sent in all, retries included. */
  readonly attempts: number;

  constructor(code: ErrorCode, context: ProviderErrorContext, message: string, details: ProviderErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    this.provider = context.providerName;
    this.status = details.status;
    this.requestId = details.requestId;
    this.attempts = details.attempts ?? 1;
  }
}

/** The spec given to `createModel` is not `provider:model`, or names an unknown provider. */
export class InvalidModelSpecError extends ToolwrightError {
  /** The spec as given. */
  readonly spec: string;
  constructor(spec: string, reason: string) {
    super('TW_INVALID_MODEL_SPEC', `Model spec "${spec}": ${reason}`);
    this.spec = spec;
  }
}

/** No API key in the options nor in the provider's environment variable. */
export class MissingApiKeyError extends ToolwrightError {
  /** The variable to set. */
  readonly variable: string;
  constructor(providerName: string, variable: string) {
    super('TW_MISSING_API_KEY', `${providerName} needs an API key: set the ${variable} environment variable, or pass { apiKey } to createModel.`);
    this.variable = variable;
  }
}

export class ProviderAuthError extends ProviderError {
  constructor(context: ProviderErrorContext, providerMessage: string, details: ProviderErrorDetails) {
    const where = context.keyVariable === undefined ? 'the apiKey option' : `${context.keyVariable} (or the apiKey option)`;
    super(
      'TW_PROVIDER_AUTH',
      context,
      `${context.providerName} rejected the API key (${details.status ?? 401}: ${providerMessage}). Check the key in ${where}, and that it may use "${context.modelId}".`,
      details,
    );
  }
}

export class ProviderModelNotFoundError extends ProviderError {
  constructor(context: ProviderErrorContext, providerMessage: string, details: ProviderErrorDetails) {
    super(
      'TW_PROVIDER_MODEL_NOT_FOUND',
      context,
      `${context.providerName} answered 404 for model "${context.modelId}" (${providerMessage}). Check the model id, and that the base URL ${context.baseURL} is the API root (OpenAI-compatible servers usually end in /v1).`,
      details,
    );
  }
}

export class ProviderBadRequestError extends ProviderError {
  /** The provider's own message, unchanged. */
  readonly providerMessage: string;
  constructor(context: ProviderErrorContext, providerMessage: string, details: ProviderErrorDetails) {
    super(
      'TW_PROVIDER_BAD_REQUEST',
      context,
      `${context.providerName} rejected the request (${details.status ?? 400}): ${providerMessage}. Fix what this names (a tool schema, a parameter, the context length) and retry.`,
      details,
    );
    this.providerMessage = providerMessage;
  }
}

export class ProviderRateLimitError extends ProviderError {
  /** How long the provider last asked to wait, in milliseconds, when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(context: ProviderErrorContext, providerMessage: string, retryAfterMs: number | undefined, details: ProviderErrorDetails & { reason?: string }) {
    const wait = retryAfterMs === undefined ? '' : ` It asked to wait ${formatMs(retryAfterMs)} (retry-after).`;
    super(
      'TW_PROVIDER_RATE_LIMITED',
      context,
      `${context.providerName} is rate limiting requests (429: ${providerMessage}) ${details.reason ?? `and still was after ${retries(details.attempts)}`}.${wait} Wait, lower the request rate, or raise maxRetries.`,
      details,
    );
    this.retryAfterMs = retryAfterMs;
  }
}

export class ProviderUnavailableError extends ProviderError {
  constructor(context: ProviderErrorContext, problem: string, details: ProviderErrorDetails) {
    super(
      'TW_PROVIDER_UNAVAILABLE',
      context,
      `${context.providerName} at ${context.baseURL} ${problem}, after ${retries(details.attempts)}. Check the base URL and that the server is running, or retry later.`,
      details,
    );
  }
}

export class ProviderTimeoutError extends ProviderError {
  /** The timeout that expired, in milliseconds. */
  readonly timeoutMs: number;
  constructor(context: ProviderErrorContext, timeoutMs: number, details: ProviderErrorDetails) {
    super(
      'TW_PROVIDER_TIMEOUT',
      context,
      `${context.providerName} did not answer within ${formatMs(timeoutMs)} (${retries(details.attempts)}). Raise timeoutMs, lower maxOutputTokens, or check the server's load.`,
      details,
    );
    this.timeoutMs = timeoutMs;
  }
}

export class ProviderResponseError extends ProviderError {
  constructor(context: ProviderErrorContext, problem: string, details: ProviderErrorDetails = {}) {
    super(
      'TW_PROVIDER_RESPONSE',
      context,
      `${context.providerName} sent a response toolwright cannot read: ${problem}. Check that the server at ${context.baseURL} implements the API it is used as.`,
      details,
    );
  }
}

function retries(attempts: number | undefined): string {
  const count = Math.max(0, (attempts ?? 1) - 1);
  return count === 1 ? '1 retry' : `${count} retries`;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
}
