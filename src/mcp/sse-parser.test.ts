import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from './sse-parser.js';

function parse(chunks: readonly string[], maxEventChars = 1000): { events: SseEvent[]; retries: number[]; problem: string | undefined } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser(maxEventChars, (event) => events.push(event));
  parser.onRetry = (ms) => retries.push(ms);
  let problem: string | undefined;
  for (const chunk of chunks) problem ??= parser.feed(chunk);
  return { events, retries, problem };
}

/** Every way of cutting `text` in two, so that no line end, field or BOM depends on arriving in one chunk. */
function everySplit(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]);
}

describe('SseParser', () => {
  it('reads an MCP answer: event, id and JSON data', () => {
    expect(parse(['event: message\nid: 7\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n']).events).toEqual([
      { event: 'message', id: '7', data: '{"jsonrpc":"2.0","id":1,"result":{}}' },
    ]);
  });

  it('gives the same events however the stream is cut, with CRLF, CR or LF line ends and a leading BOM', () => {
    const stream = '\uFEFFevent: a\r\ndata: one\r\ndata:two\r\r: a comment\nid: x\ndata:  three\n\n';
    const expected = [
      { event: 'a', id: undefined, data: 'one\ntwo' },
      { event: undefined, id: 'x', data: ' three' },
    ];
    for (const chunks of everySplit(stream)) expect(parse(chunks).events, JSON.stringify(chunks)).toEqual(expected);
  });

  it('does not end a second line at the LF of a CRLF split across chunks', () => {
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n']).events).toEqual([{ event: undefined, id: undefined, data: 'a\nb' }]);
  });

  it('dispatches an event with only an id (a priming event), ignores an id with NUL, takes retry only as digits', () => {
    const { events, retries } = parse(['id: p1\ndata:\n\nid: bad\0id\ndata: x\n\nretry: 250\nretry: 1s\n\n']);
    expect(events).toEqual([
      { event: undefined, id: 'p1', data: '' },
      { event: undefined, id: undefined, data: 'x' },
    ]);
    expect(retries).toEqual([250]);
  });

  it('holds an unterminated event back until its blank line', () => {
    expect(parse(['data: {"a":', '1}\n']).events).toEqual([]);
    expect(parse(['data: {"a":', '1}\n', '\n']).events).toEqual([{ event: undefined, id: undefined, data: '{"a":1}' }]);
  });

  it('refuses an event longer than its limit, whether in data lines or in one line that never ends', () => {
    expect(parse(['data: ' + 'x'.repeat(60) + '\n', 'data: ' + 'y'.repeat(60) + '\n'], 100).problem).toBe('an SSE event longer than 100 characters');
    expect(parse(['data: ' + 'x'.repeat(80), 'x'.repeat(80)], 100).problem).toBe('an SSE event longer than 100 characters');
    expect(parse(['data: ' + 'x'.repeat(80) + '\n\n', 'data: ' + 'y'.repeat(80) + '\n\n'], 100)).toMatchObject({ problem: undefined });
  });
});
