/**
 * Anthropic extended thinking across tool calls. A response's `thinking` blocks (with their `signature`) and
 * `redacted_thinking` blocks (with their encrypted `data`) become reasoning parts in their position, and go back in the
 * assistant turn exactly as received: with tools, Anthropic requires the turn's thinking blocks again beside its
 * `tool_use` blocks, unmodified (a changed block is a 400 `invalid_request_error`).
 * @module
 */
import type { ContentBlockParam, RawContentBlockDelta, RedactedThinkingBlock, ThinkingBlock } from '@anthropic-ai/sdk/resources/messages';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ReasoningPart } from '../../protocol/messages.js';
import { reasoningNotReplayed } from '../reasoning-parts.js';

const THINKING_TYPES: ReadonlySet<string> = new Set(['thinking', 'redacted_thinking']);

/** A response block as a reasoning part, or `undefined` for a block that is not reasoning. */
export function anthropicReasoningPart(block: { type: string }): ReasoningPart | undefined {
  if (!THINKING_TYPES.has(block.type)) return undefined;
  return { type: 'reasoning', format: 'anthropic', item: { ...(block as ThinkingBlock | RedactedThinkingBlock) } };
}

/** The block to replay for a reasoning part, or `undefined` (with a warning) when another format produced it. */
export function anthropicReasoningBlock(part: ReasoningPart, path: string, warnings: FormatWarning[]): ContentBlockParam | undefined {
  if (part.format === 'anthropic' && typeof part.item.type === 'string' && THINKING_TYPES.has(part.item.type))
    return { ...part.item } as unknown as ContentBlockParam;
  warnings.push(reasoningNotReplayed(part, 'anthropic', path, 'Anthropic takes back only its own thinking blocks'));
  return undefined;
}

/**
 * A streamed thinking block as it grows: `content_block_start` gives the block (a redacted one whole), `thinking_delta`s
 * its text and a `signature_delta` its signature. Returns whether the delta belonged to a thinking block.
 */
export function applyAnthropicThinkingDelta(block: Record<string, unknown>, delta: RawContentBlockDelta): boolean {
  if (delta.type === 'thinking_delta') block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${delta.thinking}`;
  else if (delta.type === 'signature_delta') block.signature = delta.signature;
  else return false;
  return true;
}
