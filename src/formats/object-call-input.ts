/**
 * Replaying a call to a provider that takes a call's input as an object
 * (Anthropic's `tool_use`, the AI SDK's `tool-call`): the arguments the
 * adapter parsed once (`toolCallPart`), never parsed again. Arguments that
 * were not a JSON object cannot be sent as they were, so the call is replayed
 * as `{}` after a text note quoting what the model sent (it still sees its
 * mistake next to the error result), with a `rewritten` warning.
 * @module
 */
import type { FormatWarning } from '../protocol/format-warning.js';
import type { ToolCallPart } from '../protocol/messages.js';
import { isPlainObject } from '../shared/own.js';

/** Longest quote of broken arguments in the replay note. */
const NOTE_QUOTE_LIMIT = 500;

export interface ObjectCallInput {
  /** What to send as the call's input: the parsed arguments, or `{}`. */
  input: Record<string, unknown>;
  /** Present when the arguments were replaced: the text to put before the call. */
  note?: string;
  /** Present with `note`: the warning to report (without `tool`; a caller that names the call adds it). */
  warning?: FormatWarning;
}

export interface ObjectCallReplay {
  provider: FormatWarning['provider'];
  /** JSON Pointer to the call's place in the converted request. */
  path: string;
  /** Why the provider cannot take the text, as the warning's opening clause (`Anthropic needs tool_use input as an object`). */
  requirement: string;
}

export function objectCallInput(part: ToolCallPart, replay: ObjectCallReplay): ObjectCallInput {
  if (isPlainObject(part.arguments)) return { input: part.arguments };
  const sent = part.argumentsText ?? JSON.stringify(part.arguments) ?? 'nothing';
  const quote = sent.length > NOTE_QUOTE_LIMIT ? `${sent.slice(0, NOTE_QUOTE_LIMIT)}…` : sent;
  return {
    input: {},
    note: `(The arguments of call ${part.id} to ${part.name} were not a JSON object and are replayed as {}. They were: ${quote})`,
    warning: {
      type: 'rewritten',
      provider: replay.provider,
      feature: 'unparsable-tool-arguments',
      path: replay.path,
      details: `${replay.requirement}; call ${part.id} had unparsable arguments, so it is replayed as {} with a text note quoting them`,
    },
  };
}
