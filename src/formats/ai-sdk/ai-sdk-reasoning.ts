/**
 * Reasoning through the AI SDK. A generated `reasoning` part keeps its text and its `providerMetadata` (where provider
 * packages put what they need back: Anthropic's signature or redacted data, OpenAI's item id and encrypted content), and
 * goes back as a prompt `reasoning` part whose `providerOptions` are that metadata, which is how the AI SDK itself replays it.
 * @module
 */
import type { LanguageModelV4ReasoningPart, SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ReasoningPart } from '../../protocol/messages.js';
import { isPlainObject } from '../../shared/own.js';
import { reasoningNotReplayed } from '../reasoning-parts.js';

/** A generated reasoning part (`{ type: 'reasoning', text, providerMetadata? }`) as a neutral part; `undefined` for anything else. */
export function aiSDKReasoningPart(part: unknown): ReasoningPart | undefined {
  if (!isPlainObject(part) || part.type !== 'reasoning' || typeof part.text !== 'string') return undefined;
  const item: Record<string, unknown> = { type: 'reasoning', text: part.text };
  if (isPlainObject(part.providerMetadata)) item.providerMetadata = part.providerMetadata;
  return { type: 'reasoning', format: 'ai-sdk', item };
}

/** The prompt part to replay for a reasoning part, or `undefined` (with a warning) when another wire format produced it. */
export function aiSDKReasoningPromptPart(part: ReasoningPart, path: string, warnings: FormatWarning[]): LanguageModelV4ReasoningPart | undefined {
  const { text, providerMetadata } = part.item;
  if (part.format !== 'ai-sdk' || typeof text !== 'string') {
    warnings.push(reasoningNotReplayed(part, 'ai-sdk', path, 'an AI SDK model takes back only the reasoning parts it generated'));
    return undefined;
  }
  return { type: 'reasoning', text, ...(isPlainObject(providerMetadata) ? { providerOptions: providerMetadata as SharedV4ProviderOptions } : {}) };
}
