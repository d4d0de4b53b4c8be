/**
 * Provider blocks: what a provider puts in a turn that toolwright does not interpret but must send back unchanged
 * (a server-side tool search and its results). Each adapter keeps its own format's blocks with the position they came
 * at, and replays only blocks of its own format.
 * @module
 */
import type { AssistantMessage, ProviderBlock } from '../protocol/messages.js';

/**
 * Puts a message's own-format provider blocks back among its converted blocks: each one before the converted call that
 * came after it in the turn (calls convert one to one and in order, so the k-th call part is the k-th converted call),
 * or at the end. Text between a search and the next call may move before the search; the provider reads only the order
 * of the search and the calls.
 */
export function withProviderBlocks<Out>(
  message: AssistantMessage,
  format: ProviderBlock['format'],
  converted: readonly Out[],
  isCall: (block: Out) => boolean,
): Out[] {
  const blocks = (message.providerBlocks ?? []).filter((entry) => entry.format === format);
  if (blocks.length === 0) return [...converted];
  const callsBefore = (position: number) => message.content.slice(0, position).filter((part) => part.type === 'tool-call').length;
  const out: Out[] = [];
  let callIndex = 0;
  const flush = (upToCall: number) => {
    for (const entry of blocks) if (callsBefore(entry.before) === upToCall) out.push(structuredClone(entry.block) as Out);
  };
  for (const block of converted) {
    if (isCall(block)) flush(callIndex++);
    out.push(block);
  }
  // Blocks after the last call, or in a turn whose calls were not converted as calls.
  for (const entry of blocks) if (callsBefore(entry.before) >= callIndex) out.push(structuredClone(entry.block) as Out);
  return out;
}
