/**
 * The package entry `toolwright/errors`: every developer error class with its stable code
 * (docs/errors.md), so that `ProviderRateLimitError.isInstance(error)` can be written without
 * importing the area that throws it. Their base, `ToolwrightError`, with `ERROR_CODES`, is in the
 * root entry. It sits outside the areas, as the root entry does, because it gathers the errors of several.
 * Any new export added here becomes public API and changes the count pinned in
 * test/architecture/entry-counts.test.ts. Use named exports, not wildcards.
 * @module
 */
export {
  DuplicateToolError,
  InvalidArgumentError,
  InvalidStateError,
  MissingPeerError,
  ModuleLoadError,
  SchemaCompileError,
  SchemaEvaluationError,
  SchemaReferenceCycleError,
  ToolDefinitionError,
  ToolExampleError,
  ToolNotFoundError,
  UnsafePatternError,
} from './shared/errors.js';
export type { ToolwrightErrorOptions } from './shared/errors.js';
export {
  InvalidModelSpecError,
  MissingApiKeyError,
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderError,
  ProviderModelNotFoundError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from './models/index.js';
export type { ProviderErrorContext, ProviderErrorDetails } from './models/index.js';
export {
  ConfirmationRefusedError,
  InvalidRunIdError,
  RunLeasedError,
  RunNotFoundError,
  RunNotResumableError,
  RunStoreError,
  RunStoreUnavailableError,
} from './agent/index.js';
export type { ConfirmationRefusal } from './agent/index.js';
export { ApprovalNotPendingError } from './mcp/gateway/approval-queue.js';
export { DefinitionPinsError } from './mcp/gateway/definition-pins.js';
