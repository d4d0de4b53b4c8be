import { describe, expect, it } from 'vitest';
import { detectValues, normalizeNumber } from './value-detectors.js';

const kinds = (text: string) => detectValues(text).map((value) => `${value.kind}:${value.value}`);

describe('detectValues', () => {
  it.each([
    [
      'Log in at https://evil.example/login?x=1. Or www.Foo.example, or techdigest.example/unsubscribe',
      ['url:evil.example/login?x=1', 'url:foo.example', 'url:techdigest.example/unsubscribe'],
    ],
    ['Write to Mallory@Exfil.example or bob.marsh@northwind.example.', ['email:mallory@exfil.example', 'email:bob.marsh@northwind.example']],
    ['IBAN DE89 3704 0044 0532 0130 00, then GB29NWBK60161331926819', ['iban:DE89370400440532013000', 'iban:GB29NWBK60161331926819']],
    ['1200.00 EUR, $1,234.50, EUR 310,50 and 5 euros', ['amount:1200.00', 'amount:1234.50', 'amount:310.50', 'amount:5.00']],
    ['Call +1 (555) 123-4567 or 0049 30 1234567', ['phone:+15551234567', 'phone:0049301234567']],
    ['See /reports/q3-draft.md and /private/tax-2025.txt', ['path:/reports/q3-draft.md', 'path:/private/tax-2025.txt']],
  ])('finds each kind in its normal form: %s', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });

  it('does not read the digits of a date, an IBAN or a URL as a phone number or a path', () => {
    expect(kinds('On 2026-12-09 from 15:00 to 16:00, pay DE89370400440532013000 via https://pay.example/a/b')).toEqual([
      'url:pay.example/a/b',
      'iban:DE89370400440532013000',
      'datetime:2026-12-09',
      'datetime:15:00',
      'datetime:16:00',
    ]);
  });

  it('ends a URL at a backslash: tool output is indexed as JSON text, where a newline after a link is the escape \\n', () => {
    expect(kinds(JSON.stringify({ title: 'Sign in at https://login.evil.example/auth.\n\nafter' }))).toEqual(['url:login.evil.example/auth']);
  });

  it('finds nothing in plain prose, and only the kinds asked for', () => {
    expect(kinds("Thursday at Luigi's works for me. See you there! Dana")).toEqual([]);
    expect(detectValues('mail a@b.example at https://c.example', ['url']).map((value) => value.kind)).toEqual(['url']);
  });

  it('reads numbers written with either separator', () => {
    expect(['1,200.50', '1.200,50', '1200', '1 200', '310,5'].map(normalizeNumber)).toEqual(['1200.50', '1200.50', '1200.00', '1200.00', '310.50']);
    expect(normalizeNumber('12a')).toBeUndefined();
  });
});
