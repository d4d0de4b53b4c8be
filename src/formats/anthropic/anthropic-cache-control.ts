/**
 * Prompt caching on Anthropic Messages: `cache_control: { type: 'ephemeral' }` breakpoints on the last tool, the system
 * prompt and the last block of the conversation. Anthropic caches the prefix up to each breakpoint (tools, then system,
 * then messages) and reads it back on a later request with the same prefix, so the next step of a run reads everything the
 * step before sent. Three breakpoints, under the provider's limit of four per request.
 * @module
 */
import type { ContentBlockParam, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';

/** Anthropic's default cache entry: five minutes, refreshed on each read. */
const EPHEMERAL = { type: 'ephemeral' } as const;

/** Block types that take no `cache_control` (a thinking block is cached with the turn around it, never marked). */
const UNMARKABLE = new Set<string>(['thinking', 'redacted_thinking']);

/**
 * Puts the breakpoints on `body`: the last tool, the system prompt (as one text block), the conversation's last markable
 * block. Marked entries are replaced by marked copies, so nothing the conversion may share with the caller is changed.
 */
export function addAnthropicCacheBreakpoints(body: MessageCreateParamsBase): void {
  const tools = body.tools;
  if (tools !== undefined && tools.length > 0) tools[tools.length - 1] = { ...tools[tools.length - 1]!, cache_control: EPHEMERAL };
  if (typeof body.system === 'string') body.system = [{ type: 'text', text: body.system, cache_control: EPHEMERAL }];
  else if (Array.isArray(body.system) && body.system.length > 0)
    body.system = [...body.system.slice(0, -1), { ...body.system.at(-1)!, cache_control: EPHEMERAL }];
  const last = body.messages.length - 1;
  const message = body.messages[last];
  if (message === undefined) return;
  if (typeof message.content === 'string') {
    body.messages[last] = { ...message, content: [{ type: 'text', text: message.content, cache_control: EPHEMERAL }] };
    return;
  }
  const content = [...message.content];
  const index = content.findLastIndex((block: ContentBlockParam) => !UNMARKABLE.has(block.type));
  if (index < 0) return;
  content[index] = { ...content[index]!, cache_control: EPHEMERAL } as ContentBlockParam;
  body.messages[last] = { ...message, content } as typeof message;
}
