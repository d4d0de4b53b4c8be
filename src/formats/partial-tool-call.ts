/**
 * A tool call while it streams in, the same for every provider.
 * @module
 */

export interface PartialToolCall {
  /** The call's position in the response (the provider's `index` or `output_index`). */
  index: number;
  /** The provider's call id; empty until it arrives. */
  id: string;
  /** The tool name; empty until it arrives. */
  name: string;
  /** The argument text received so far. */
  argumentsText: string;
  /** `argumentsText` parsed as far as it goes (see `parsePartialJson`); for display and early routing only. */
  partialArguments: unknown;
  /** `true` once the provider has said the call is finished. */
  done: boolean;
}
