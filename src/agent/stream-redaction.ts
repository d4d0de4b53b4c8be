/**
 * A streamed run as its record would show it, for anything that leaves the
 * process (a browser over SSE, a terminal). The record's events are redacted
 * whole, as the recorder does. Deltas need more care, since a secret can be cut
 * across them: text goes out only up to a word boundary at least
 * `holdBackChars` behind what has arrived, redacted over its whole line so far,
 * and the rest when the text ends; a call's arguments go out as parsed values in
 * which every string is complete, redacted by the tool's schema like the
 * record's, never as raw text.
 *
 * Text is redacted line by line once a line is `holdBackChars` behind, so that a
 * long answer costs time in proportion to its length, not its square: no
 * built-in pattern spans a line break except a PEM block, and a line is never
 * closed while a block is open. A text that starts as JSON is held back whole,
 * since the record redacts such a text by its field names once it parses.
 * @module
 */
import { parsePartialJson, ReparseGate } from '../formats/partial-json.js';
import type { Redactor } from './redact.js';
import type { AgentStreamEvent } from './stream-event.js';

export interface RedactStreamOptions {
  /**
   * How far text is held back behind what has arrived, in characters, beyond the end of the last whole word, so that a
   * pattern that spans words (a PEM header, a credential header, a caller's phrase) is seen whole before any of it goes
   * out. Default 64.
   */
  holdBackChars?: number;
}

const DEFAULT_HOLD_BACK = 64;

/**
 * A short open line is redacted again when whitespace arrives (only there can more of it go out) or this many
 * characters did; a line longer than {@link SHORT_LINE_CHARS} only when it grew by a sixteenth, so that one very long
 * line costs time in proportion to its length (it then goes out in larger pieces).
 */
const EVALUATE_EVERY_CHARS = 16;
const SHORT_LINE_CHARS = 512;

/** Text of one kind (answer or reasoning) within one step: its open lines as they arrived, and what of them went out. */
interface TextChannel {
  kind: 'text_delta' | 'reasoning_delta';
  step: number;
  runId: string;
  /** The text from the first line not yet closed. */
  raw: string;
  /** What of `raw`'s redaction went out. */
  sent: string;
  /** `raw`'s length when it was last redacted. */
  evaluatedAt: number;
  /** Whether the text starts as JSON (then it goes out whole at the end); unknown until something other than whitespace arrives. */
  json: boolean | undefined;
}

/** Redacts a run's events for display outside the process; see the module comment for what is held back and why. */
export async function* redactAgentStream(
  events: AsyncIterable<AgentStreamEvent>,
  redactor: Redactor,
  options: RedactStreamOptions = {},
): AsyncGenerator<AgentStreamEvent> {
  const holdBack = Math.max(0, options.holdBackChars ?? DEFAULT_HOLD_BACK);
  const channels = new Map<string, TextChannel>();
  const callTexts = new Map<string, { text: string; shown: string; gate: ReparseGate }>();
  const redactWhole = (text: string): string => {
    const out = redactor(text);
    return typeof out === 'string' ? out : '';
  };
  const flush = function* (step?: number): Generator<AgentStreamEvent> {
    for (const [key, channel] of channels) {
      if (step !== undefined && channel.step !== step) continue;
      channels.delete(key);
      const text = unsent(channel, channel.json ? redactWhole(channel.raw) : redactor.text(channel.raw));
      if (text !== '') yield { type: channel.kind, step: channel.step, text, runId: channel.runId };
    }
  };
  /** What of a channel can go out now: its closed lines whole, then its open line up to the hold-back. */
  const advance = (channel: TextChannel, delta: string): string => {
    if (channel.json === undefined && channel.raw.trim() !== '') channel.json = /^[{[]/.test(channel.raw.trimStart());
    if (channel.json !== false) return '';
    let out = '';
    for (let end = closableLine(channel.raw, holdBack); end > 0; end = closableLine(channel.raw, holdBack)) {
      out += unsent(channel, redactor.text(channel.raw.slice(0, end)));
      channel.raw = channel.raw.slice(end);
      channel.sent = '';
      channel.evaluatedAt = 0;
    }
    const grown = channel.raw.length - channel.evaluatedAt;
    const due = channel.raw.length <= SHORT_LINE_CHARS ? grown >= EVALUATE_EVERY_CHARS || /\s/.test(delta) : grown * 16 >= channel.raw.length;
    if (!due) return out;
    channel.evaluatedAt = channel.raw.length;
    const redacted = redactor.text(channel.raw);
    const boundary = lastWhitespace(redacted, redacted.length - holdBack);
    return boundary <= channel.sent.length ? out : out + unsent(channel, redacted.slice(0, boundary));
  };

  for await (const event of events) {
    switch (event.type) {
      case 'text_delta':
      case 'reasoning_delta': {
        const key = `${event.type}:${event.step}`;
        let channel = channels.get(key);
        if (!channel) {
          channel = { kind: event.type, step: event.step, runId: event.runId, raw: '', sent: '', evaluatedAt: 0, json: undefined };
          channels.set(key, channel);
        }
        channel.raw += event.text;
        const text = advance(channel, event.text);
        if (text !== '') yield { type: event.type, step: event.step, text, runId: event.runId };
        break;
      }
      case 'tool_call_start':
        yield* flush(event.step);
        yield event;
        break;
      case 'tool_call_delta': {
        const key = `${event.step}.${event.index}`;
        const call = callTexts.get(key) ?? { text: '', shown: '', gate: new ReparseGate() };
        callTexts.set(key, call);
        call.text += event.argumentsDelta ?? '';
        // cutting, parsing, redacting and printing are each linear in the text: on every delta they would be quadratic
        if (!call.gate.due(call.text.length)) break;
        const partial = redactor.toolArguments(event.toolName, parsePartialJson(withoutOpenString(call.text)).value);
        const shown = JSON.stringify(partial) ?? '';
        if (shown === call.shown) break;
        call.shown = shown;
        const { argumentsDelta: _raw, ...rest } = event;
        yield { ...rest, partialArguments: partial };
        break;
      }
      case 'tool_call_end':
        callTexts.delete(`${event.step}.${event.index}`);
        yield redactor(event) as AgentStreamEvent;
        break;
      case 'step_finished':
      case 'stop':
        yield* flush();
        yield redactor(event) as AgentStreamEvent;
        break;
      default:
        yield redactor(event) as AgentStreamEvent;
    }
  }
  yield* flush();
}

/** What of `redacted` has not gone out yet. Had redaction reached back into text already sent, what follows it still goes, never the original. */
function unsent(channel: TextChannel, redacted: string): string {
  const text = redacted.length > channel.sent.length ? redacted.slice(channel.sent.length) : '';
  channel.sent += text;
  return text;
}

/**
 * The end of the first line of `text` (after its line break) that can be redacted on its own and sent whole: at least
 * `holdBack` characters came after it, and no PEM block is open across it. 0 when there is none.
 */
function closableLine(text: string, holdBack: number): number {
  for (let index = text.indexOf('\n'); index !== -1 && text.length - (index + 1) >= holdBack; index = text.indexOf('\n', index + 1)) {
    const line = text.slice(0, index + 1);
    if (line.lastIndexOf('-----BEGIN ') <= line.lastIndexOf('-----END ')) return index + 1;
  }
  return 0;
}

/** The end of the last whitespace run at or before `limit` (0 when none): text up to there is whole words. */
function lastWhitespace(text: string, limit: number): number {
  for (let index = Math.min(limit, text.length) - 1; index >= 0; index--) {
    if (/\s/.test(text[index]!)) return index + 1;
  }
  return 0;
}

/**
 * The JSON prefix up to an unterminated string, if it ends in one: the partial parse then shows only whole strings, so
 * a secret is never shown cut short of the shape that would have it redacted.
 */
export function withoutOpenString(text: string): string {
  let open = -1;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (open === -1) {
      if (char === '"') open = index;
      continue;
    }
    if (escaped) escaped = false;
    else if (char === '\\') escaped = true;
    else if (char === '"') open = -1;
  }
  return open === -1 ? text : text.slice(0, open);
}
