/**
 * Server-sent events as the HTML standard parses them ("Interpreting an event stream"), fed text as it arrives: lines
 * end with CRLF, LF or CR (a CR at the end of one chunk and the LF at the start of the next are one line end), a leading
 * BOM is skipped, `:` lines are comments, a field's value loses one leading space, `data` lines join with LF, an `id`
 * holding NUL is ignored, `retry` is taken only as digits. Written here rather than taken from `eventsource-parser`,
 * which the MCP SDK depends on but toolwright does not; the SDK's own reader pipes each response through two web
 * streams, which is what the HTTP client transport (`http-client-transport.ts`) exists to avoid.
 * @module
 */

/** One dispatched event: `id` and `event` when its fields set them, `data` its joined data lines. */
export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export class SseParser {
  /** Called with a `retry:` field's milliseconds. */
  onRetry?: (ms: number) => void;
  private pending = '';
  private started = false;
  /** The last chunk ended with CR: an LF starting the next one ends no second line. */
  private afterCarriageReturn = false;
  private data: string[] = [];
  private dataLength = 0;
  private event: string | undefined;
  private id: string | undefined;
  private fieldsSeen = false;

  /** `maxEventChars`: the longest event (its data, and any line still unterminated) it holds before refusing the stream. */
  constructor(
    private readonly maxEventChars: number,
    private readonly onEvent: (event: SseEvent) => void,
  ) {}

  /** Parses `chunk`, dispatching each event it completes; returns what is wrong when the stream must be given up. */
  feed(chunk: string): string | undefined {
    const text = this.pending.length === 0 ? chunk : this.pending + chunk;
    let start = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.afterCarriageReturn && text.charCodeAt(start) === 10) start++;
    this.afterCarriageReturn = false;
    let nextCarriageReturn = text.indexOf('\r', start);
    for (;;) {
      if (nextCarriageReturn !== -1 && nextCarriageReturn < start) nextCarriageReturn = text.indexOf('\r', start);
      const nextLineFeed = text.indexOf('\n', start);
      const end = nextLineFeed === -1 ? nextCarriageReturn : nextCarriageReturn === -1 ? nextLineFeed : Math.min(nextLineFeed, nextCarriageReturn);
      if (end === -1) break;
      const line = text.slice(start, end);
      start = end + 1;
      if (end === nextCarriageReturn) {
        if (start === text.length) this.afterCarriageReturn = true;
        else if (text.charCodeAt(start) === 10) start++;
      }
      const problem = this.line(line);
      if (problem) return problem;
    }
    this.pending = start === text.length ? '' : text.slice(start);
    if (this.pending.length + this.dataLength > this.maxEventChars) return `an SSE event longer than ${this.maxEventChars} characters`;
    return undefined;
  }

  private line(line: string): string | undefined {
    if (line === '') {
      this.dispatch();
      return undefined;
    }
    if (line.charCodeAt(0) === 58 /* ':' */) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* ' ' */) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        this.dataLength += value.length + 1;
        this.fieldsSeen = true;
        if (this.dataLength > this.maxEventChars) return `an SSE event longer than ${this.maxEventChars} characters`;
        return undefined;
      case 'event':
        this.event = value;
        this.fieldsSeen = true;
        return undefined;
      case 'id':
        if (!value.includes('\0')) {
          this.id = value;
          this.fieldsSeen = true;
        }
        return undefined;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry?.(Number(value));
        return undefined;
      default:
        return undefined;
    }
  }

  private dispatch(): void {
    if (!this.fieldsSeen) return;
    const event: SseEvent = { id: this.id, event: this.event, data: this.data.length === 1 ? this.data[0]! : this.data.join('\n') };
    this.data = [];
    this.dataLength = 0;
    this.event = undefined;
    this.id = undefined;
    this.fieldsSeen = false;
    this.onEvent(event);
  }
}
