/**
 * OpenAI reasoning items across function calls. A reasoning model's `reasoning` output items are kept as reasoning parts
 * in their position and sent back as input items before the calls that followed them, as the Responses API asks.
 * toolwright sends `store: false`, so the API keeps nothing between requests: an item can only be sent back with its
 * `encrypted_content` (requested with `include: ['reasoning.encrypted_content']`, the `includeEncryptedReasoning`
 * option); one without it would be looked up by id and rejected, so it is left out with a warning instead.
 * @module
 */
import type { ResponseInputItem, ResponseOutputItem, ResponseReasoningItem } from 'openai/resources/responses/responses';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { ReasoningPart } from '../../protocol/messages.js';
import { reasoningNotReplayed } from '../reasoning-parts.js';

/** An output item as a reasoning part, or `undefined` for an item that is not reasoning. */
export function openAIResponsesReasoningPart(item: ResponseOutputItem): ReasoningPart | undefined {
  if (item.type !== 'reasoning') return undefined;
  return { type: 'reasoning', format: 'openai-responses', item: { ...item } };
}

/** The input item to replay for a reasoning part, or `undefined` (with a warning) when it cannot be sent back. */
export function openAIResponsesReasoningItem(part: ReasoningPart, path: string, warnings: FormatWarning[]): ResponseInputItem | undefined {
  if (part.format !== 'openai-responses' || part.item.type !== 'reasoning') {
    warnings.push(reasoningNotReplayed(part, 'openai', path, 'the Responses API takes back only its own reasoning items'));
    return undefined;
  }
  if (typeof part.item.encrypted_content !== 'string') {
    warnings.push(
      reasoningNotReplayed(
        part,
        'openai',
        path,
        'the item has no encrypted_content, and with store: false the API cannot find it by id; set the model option includeEncryptedReasoning: true for a reasoning model',
      ),
    );
    return undefined;
  }
  return { ...part.item } as unknown as ResponseReasoningItem;
}
