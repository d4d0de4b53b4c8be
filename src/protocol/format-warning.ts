/**
 * The one shape every lossy conversion in `formats/` reports: what a provider
 * cannot carry, where, and what was done about it. Conversions never throw for
 * these and never drop anything without saying so.
 * @module
 */

/** The targets a tool can be converted for; `openai-strict` is OpenAI Structured Outputs (`strict: true`), `anthropic-strict` Anthropic strict tool use. */
export type SchemaProvider = 'openai' | 'openai-strict' | 'anthropic' | 'mcp' | 'anthropic-strict';

export interface FormatWarning {
  /**
   * `unsupported`: the provider cannot carry the feature; it was removed or will be rejected. `rewritten`: expressed differently, with the consequence
   * given in `details`.
   */
  type: 'unsupported' | 'rewritten';
  /** The provider whose limits caused the warning; `ai-sdk` for a model reached through the Vercel AI SDK (`fromAISDKModel`). */
  provider: SchemaProvider | 'ai-sdk';
  /** The keyword or feature concerned (`minLength`, `optional-property`, `image-content`…), stable for filtering. */
  feature: string;
  /** JSON Pointer to the place in the input (schema or result) the warning is about; `""` is the root. */
  path: string;
  /** What was lost or changed, and why, in a sentence. */
  details: string;
  /** The tool (or, for results, the call id) the warning concerns, when a conversion covers several. */
  tool?: string;
}
