/**
 * Anthropic fine-grained tool streaming: `eager_input_streaming: true` on a tool makes the API stream its input as it is
 * generated, without buffering or validating the JSON first. The pieces may therefore form invalid or truncated JSON;
 * the stream accumulator previews them without throwing, and the final text is parsed once and validated by the
 * registry as any other call's.
 * @module
 */
import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';

/** The declarations with eager input streaming turned on for each. */
export function withEagerInputStreaming(tools: readonly AnthropicTool[]): AnthropicTool[] {
  return tools.map((tool) => ({ ...tool, eager_input_streaming: true }));
}
