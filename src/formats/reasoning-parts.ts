/**
 * Reasoning parts across the wire adapters: each adapter replays the parts its own format produced, exactly as
 * received, and reports the others with one warning each instead of dropping them silently (a conversation moved
 * from one provider to another, or a wire format that has no reasoning input, such as Chat Completions).
 * @module
 */
import type { FormatWarning } from '../protocol/format-warning.js';
import type { ReasoningPart } from '../protocol/messages.js';

/** The warning for a reasoning part that the target wire format cannot take back. */
export function reasoningNotReplayed(part: ReasoningPart, provider: FormatWarning['provider'], path: string, why: string): FormatWarning {
  return {
    type: 'unsupported',
    provider,
    feature: 'reasoning-replay',
    path,
    details: `reasoning produced by ${part.format} was not sent back: ${why}; the model continues without it`,
  };
}

/**
 * Fields whose value a provider marks encrypted: Anthropic `redacted_thinking.data`, OpenAI `reasoning.encrypted_content`,
 * and where AI SDK provider packages carry them in provider metadata (`anthropic.redactedData`,
 * `openai.reasoningEncryptedContent`), whatever object holds them.
 */
const ENCRYPTED_FIELDS: readonly { type?: string; field: string }[] = [
  { type: 'redacted_thinking', field: 'data' },
  { type: 'reasoning', field: 'encrypted_content' },
  { field: 'redactedData' },
  { field: 'reasoningEncryptedContent' },
];

/** What stands in a run record for a payload the provider encrypted: its length only, never the text. */
export function encryptedMarker(text: string): string {
  return `[ENCRYPTED: ${text.length} characters, kept in the run state only]`;
}

/**
 * A copy of `value` with every encrypted reasoning payload replaced by {@link encryptedMarker}: for what is written to a
 * run record or shown to a person. Objects without such a payload are returned as they are (the same object), so a
 * record line without reasoning costs one walk and no copy.
 */
export function withoutEncryptedReasoning<T>(value: T): T {
  return strip(value, 0) as T;
}

/** Nesting deeper than this is not walked: run events are a few levels deep, and a record must never overflow the stack. */
const MAX_DEPTH = 64;

function strip(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((entry, index) => {
      const stripped = strip(entry, depth + 1);
      if (stripped !== entry) (copy ??= [...value])[index] = stripped;
    });
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, entry] of Object.entries(record)) {
    const encrypted = ENCRYPTED_FIELDS.some(({ type, field }) => (type === undefined || record.type === type) && key === field) && typeof entry === 'string';
    const stripped = encrypted ? encryptedMarker(entry) : strip(entry, depth + 1);
    if (stripped !== entry) (copy ??= { ...record })[key] = stripped;
  }
  return copy ?? value;
}
