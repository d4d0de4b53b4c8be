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
 * closed while a block is open. Line ends and PEM markers are found by looking
 * at each delta once ({@link LineEnds}), never by searching the open text again.
 * A text that starts as JSON is held back whole, since the record redacts such a
 * text by its field names once it parses. Call ids, tool names and run ids go
 * through the run's redactor as the record's do.
 * @module
 */
import { parsePartialJson, ReparseGate } from '../../formats/partial-json.js';
import { PEM_BEGIN, PEM_END } from '../../shared/redaction/index.js';
import type { Redactor } from '../redact.js';
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
  /** Where the lines of `raw` end that can go out on their own. */
  lines: LineEnds;
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
    // Only the delta is looked at: the text before it held nothing but whitespace (or the decision was made).
    if (channel.json === undefined && delta.trim() !== '') channel.json = /^[{[]/.test(delta.trimStart());
    if (channel.json === true) return '';
    channel.lines.add(delta);
    if (channel.json === undefined) return '';
    let out = '';
    for (let end = channel.lines.takeLine(holdBack); end > 0; end = channel.lines.takeLine(holdBack)) {
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
          const runId = redactWhole(event.runId);
          channel = { kind: event.type, step: event.step, runId, raw: '', sent: '', evaluatedAt: 0, json: undefined, lines: new LineEnds() };
          channels.set(key, channel);
        }
        channel.raw += event.text;
        const text = advance(channel, event.text);
        if (text !== '') yield { type: event.type, step: event.step, text, runId: channel.runId };
        break;
      }
      case 'tool_call_start':
        yield* flush(event.step);
        // The call id and tool name are the model's to choose: the record redacts them, and so does the stream.
        yield redactor(event) as AgentStreamEvent;
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
        const { argumentsDelta: _raw, partialArguments: _unredacted, ...rest } = event;
        yield { ...(redactor(rest) as typeof rest), partialArguments: partial };
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
 * The ends of a channel's lines that can be redacted on their own: no PEM block is open across them (the last marker
 * before the line break is not a `-----BEGIN `). Each delta is looked at once, so finding them costs time in proportion
 * to the text, however long its open line; a marker cut across deltas is found through the open line's last characters.
 * Whether a block is open at a line break does not depend on where the text was cut before it, since it is cut only at
 * line breaks where none is open.
 */
class LineEnds {
  /** Offsets, in the channel's text, just after each line break at which no PEM block is open; those before `#head` were taken. */
  #ends: number[] = [];
  #head = 0;
  /** Characters of the channel's text seen so far, and how many of them were taken as whole lines. */
  #seen = 0;
  #taken = 0;
  #pemOpen = false;
  /** The open line's last characters, fewer than a marker's, so that a marker cut across deltas is seen whole. */
  #lineTail = '';

  add(delta: string): void {
    let from = 0;
    for (let lineBreak = delta.indexOf('\n'); lineBreak !== -1; lineBreak = delta.indexOf('\n', from)) {
      this.#scanMarkers(delta.slice(from, lineBreak));
      this.#lineTail = '';
      if (!this.#pemOpen) this.#ends.push(this.#seen + lineBreak + 1);
      from = lineBreak + 1;
    }
    this.#scanMarkers(from === 0 ? delta : delta.slice(from));
    this.#seen += delta.length;
  }

  /**
   * The length of the first untaken line, counted from the end of the last one taken, when it can go out now (at least
   * `holdBack` characters came after it), and marks it taken; 0 when there is none.
   */
  takeLine(holdBack: number): number {
    const end = this.#ends[this.#head];
    if (end === undefined || this.#seen - end < holdBack) return 0;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#ends.length) {
      this.#ends = this.#ends.slice(this.#head);
      this.#head = 0;
    }
    const length = end - this.#taken;
    this.#taken = end;
    return length;
  }

  /** Markers cannot span a line break, so a piece of one line and the line's tail hold every marker that ends in the piece. */
  #scanMarkers(piece: string): void {
    if (piece === '') return;
    const text = this.#lineTail + piece;
    const begin = text.lastIndexOf(PEM_BEGIN);
    const end = text.lastIndexOf(PEM_END);
    // Neither marker overlaps the other, so they differ unless both are absent; the later one decides.
    if (begin !== end) this.#pemOpen = begin > end;
    this.#lineTail = text.slice(-(PEM_BEGIN.length - 1));
  }
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
