/**
 * The input-token estimate of a request as its provider receives it: the same four-characters-a-token rule as
 * `estimateInputTokens`, over the prompt parts of the wire body an adapter built (tools, system, messages) instead of the
 * neutral request. The wire form carries what the neutral one leaves out — each format's wrappers around a tool, a
 * message's role and block framing, a strict schema's rewrite, the examples folded into a description — which made the
 * neutral estimate 10–15 % short of what a provider bills for the same prompt.
 *
 * Not counted, as a provider does not bill them as prompt text: `cache_control` marks, and the bytes of an inline image
 * or audio part (a flat {@link IMAGE_TOKEN_ESTIMATE} each, as in the neutral estimate). It is still not a tokenizer.
 * @module
 */
import { CHARACTERS_PER_TOKEN, IMAGE_TOKEN_ESTIMATE } from './estimate-tokens.js';

/** `,"cache_control":{…}` (or the first key's form): a mark for the provider's cache, not prompt text. */
const CACHE_CONTROL = /,?"cache_control":\{[^{}]*\}/g;

/**
 * Estimates the tokens of a wire body's prompt parts, each serialized as JSON; a part that is a list (the tools, the
 * messages) counts element by element, as a provider renders each tool and each message on its own rather than as one
 * JSON array. `undefined` parts are skipped.
 */
export function wirePromptTokens(parts: readonly unknown[]): number {
  let characters = 0;
  let media = 0;
  for (const part of parts.flatMap((part) => (Array.isArray(part) ? part : [part]))) {
    if (part === undefined) continue;
    let text = JSON.stringify(part);
    if (text.includes('base64')) {
      const counted = withoutInlineMedia(part);
      text = counted.text;
      media += counted.media;
    }
    if (text.includes('"cache_control"')) text = text.replace(CACHE_CONTROL, '');
    characters += text.length;
  }
  return Math.ceil(characters / CHARACTERS_PER_TOKEN) + media * IMAGE_TOKEN_ESTIMATE;
}

/** The part serialized with each inline base64 payload (an Anthropic `source.data`, a `data:` URL) emptied, and how many there were. */
function withoutInlineMedia(part: unknown): { text: string; media: number } {
  let media = 0;
  const text = JSON.stringify(part, function (this: unknown, key: string, value: unknown) {
    if (typeof value !== 'string' || value.length < 64) return value;
    const holder = this as { type?: unknown } | null;
    if ((key === 'data' && holder?.type === 'base64') || value.startsWith('data:')) {
      media++;
      return '';
    }
    return value;
  });
  return { text, media };
}
