import type { FormatWarning } from '../protocol/format-warning.js';
import type { ModelResponse } from '../protocol/model-exchange.js';

/** Attaches conversion warnings to a response, leaving the field out when there are none. */
export function withWarnings(response: ModelResponse, warnings: readonly FormatWarning[]): ModelResponse {
  return warnings.length > 0 ? { ...response, warnings: [...warnings] } : response;
}
