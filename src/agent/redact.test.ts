import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';

describe('createRedactor', () => {
  it('redacts API keys, bearer tokens and credential fields, and leaves the rest', () => {
    const redact = createRedactor();
    expect(
      redact({
        text: 'keys sk-ant-api03-abcdefgh12345 and sk-proj-abcdefghijklmnop1234 here; sk-short stays',
        headers: { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.x.y', 'x-api-key': 'anything' },
        note: 'header was "Bearer abcdefghijk"',
        list: ['sk-abcdefghijklmnopqrstu', 42, null],
        apiKey: '',
        when: new Date(0),
      }),
    ).toEqual({
      text: 'keys [REDACTED] and [REDACTED] here; sk-short stays',
      headers: { Authorization: '[REDACTED]', 'x-api-key': '[REDACTED]' },
      note: 'header was "Bearer [REDACTED]"',
      list: ['[REDACTED]', 42, null],
      apiKey: '',
      when: '1970-01-01T00:00:00.000Z',
    });
  });

  it('adds user patterns: regular expressions, and strings matched literally', () => {
    const redact = createRedactor([/acct-\d+/, 'p@ss.word']);
    expect(redact('acct-123 and acct-456 with p@ss.word, not p@ssXword')).toBe('[REDACTED] and [REDACTED] with [REDACTED], not p@ssXword');
  });

  it("keeps an error's name, and redacts its message and stack", () => {
    const redact = createRedactor();
    const error = new TypeError('bad key sk-abcdefghijklmnopqrstuv');
    expect(redact({ error })).toMatchObject({ error: { name: 'TypeError', message: 'bad key [REDACTED]' } });
  });
});
