import { describe, expect, it } from 'vitest';
import { StatusLine, describeRetryReason, useColor, type StatusLineOptions } from './status-line.js';

/** A status line on a fake stream, with a clock and a ticker the test moves by hand. */
function fake(options: Partial<StatusLineOptions> = {}) {
  const written: string[] = [];
  let clock = 1_000_000;
  let ticks: (() => void) | undefined;
  let stopped = 0;
  const line = new StatusLine({
    stream: { write: (text) => written.push(text) },
    isTTY: true,
    color: false,
    maxRetries: 4,
    now: () => clock,
    startTicker: (redraw) => {
      ticks = redraw;
      return () => {
        stopped++;
        ticks = undefined;
      };
    },
    ...options,
  });
  return {
    line,
    written,
    advance: (ms: number) => {
      clock += ms;
      ticks?.();
    },
    ticking: () => ticks !== undefined,
    stopped: () => stopped,
  };
}

describe('StatusLine', () => {
  it('on a terminal, redraws one line in place with the elapsed seconds and the retry, then erases it', () => {
    const status = fake();
    status.line.modelCallStarted('openai:gpt-4o-mini');
    expect(status.ticking()).toBe(true);
    status.advance(2_400);
    status.line.retrying({ attempt: 2, delayMs: 3_000, reason: '429' });
    status.advance(1_000);
    status.advance(2_000);
    status.line.modelCallEnded();
    expect(status.written).toEqual([
      '\r\u001b[2K… waiting for openai:gpt-4o-mini · 0 s',
      '\r\u001b[2K… waiting for openai:gpt-4o-mini · 2 s',
      '\r\u001b[2K… waiting for openai:gpt-4o-mini · 2 s · retry 2/4 in 3.0 s (429 rate limited)',
      '\r\u001b[2K… waiting for openai:gpt-4o-mini · 3 s · retry 2/4 in 3.0 s (429 rate limited)',
      // The wait is over: the line names the attempt in flight.
      '\r\u001b[2K… waiting for openai:gpt-4o-mini · 5 s · attempt 3/5 (after 429 rate limited)',
      '\r\u001b[2K',
    ]);
    expect(status.stopped()).toBe(1);
    // Nothing drawn: nothing to erase, and a stray tick draws nothing.
    status.line.clear();
    status.line.tick();
    expect(status.written).toHaveLength(6);
  });

  it('a new model call forgets the last one’s retry and restarts the clock', () => {
    const status = fake();
    status.line.modelCallStarted('m');
    status.line.retrying({ attempt: 1, delayMs: 500, reason: 'connection' });
    status.line.modelCallEnded();
    status.advance(9_000);
    status.line.modelCallStarted('m');
    expect(status.written.at(-1)).toBe('\r\u001b[2K… waiting for m · 0 s');
  });

  it('off a terminal, prints a plain line per retry and nothing else: no carriage returns, no colour, no ticker', () => {
    const status = fake({ isTTY: false, color: true });
    status.line.modelCallStarted('m');
    expect(status.ticking()).toBe(false);
    status.line.retrying({ attempt: 1, delayMs: 1_234, reason: '503' });
    status.line.tick();
    status.line.modelCallEnded();
    expect(status.written).toEqual(['retry 1/4 in 1.2 s (503 unavailable)\n']);
  });

  it('colours only when asked', () => {
    const status = fake({ color: true });
    status.line.modelCallStarted('m');
    status.line.retrying({ attempt: 1, delayMs: 1_000, reason: 'timeout' });
    expect(status.written.at(-1)).toBe('\r\u001b[2K\u001b[2m… waiting for m · 0 s\u001b[0m\u001b[33m · retry 1/4 in 1.0 s (timed out)\u001b[0m');
  });

  it('colours a terminal unless NO_COLOR is set, and never a pipe', () => {
    expect(useColor(true, {})).toBe(true);
    expect(useColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(useColor(true, { NO_COLOR: '' })).toBe(true);
    expect(useColor(false, {})).toBe(false);
    expect(useColor(undefined, {})).toBe(false);
  });

  it('names retry reasons in words', () => {
    expect(['429', '408', '409', '500', '529', 'connection', 'timeout', '418', 'other'].map(describeRetryReason)).toEqual([
      '429 rate limited',
      '408 request timeout',
      '409 conflict',
      '500 server error',
      '529 overloaded',
      'connection failed',
      'timed out',
      '418',
      'other',
    ]);
  });
});
