import { describe, expect, it } from 'vitest';
import { copiedArgumentReason } from '../policy-messages.js';
import { describeDetected, detectValues, isOpaqueSecret, normalizeNumber, redactSecret, redactSecrets } from './value-detectors.js';

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

// Fake credentials in the formats the detector knows; none of them was ever valid.
const FAKE = {
  openai: 'sk-proj-T3stOnlyAbCdEfGh1234567890xyZ',
  github: 'ghp_T3stOnly0123456789abcdefGHIJKLmnopqr',
  slack: 'xoxb-1234567890-T3stOnlyAbCd',
  aws: 'AKIAT3STONLY01234567',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.T3stOnlySignature_abc123',
  pem: '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----',
  opaque: 'dpl_5mQ8rT2vXk9LwZ4hN7cB3yF6',
};

const secrets = (text: string) => detectValues(text, ['secret']).map((value) => value.text);

describe('the secret detector', () => {
  it.each(Object.entries(FAKE))('finds a %s secret in prose, whole', (_, secret) => {
    expect(secrets(`Here it is: ${secret}. Keep it safe.`)).toEqual([secret]);
  });

  it('finds a known-format token inside a URL query, where the URL would otherwise swallow it', () => {
    const found = detectValues(`https://api.example/v1?token=${FAKE.github}&x=1`);
    expect(found.map((value) => `${value.kind}:${value.kind === 'secret' ? value.text : value.value}`)).toEqual([
      'url:api.example/v1?token=',
      `secret:${FAKE.github}`,
    ]);
    expect(found.find((value) => value.kind === 'secret')?.text).toBe(FAKE.github);
  });

  it.each([
    ['prose', "Thursday at Luigi's works for me; the quarterly-planning-offsite-2026 doc is in the shared drive."],
    ['a UUID', 'ticket 550e8400-e29b-41d4-a716-446655440000 was closed'],
    [
      'a commit id and a SHA-256 digest',
      'fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8, sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ],
    ['identifiers', 'release_notes_2026_12_04_v2, ThisIsAVeryLongCamelCaseIdentifier2, INV2026000123REF4567, msg_4_partners_kickoff_2026'],
    [
      'an IBAN, a URL and a path',
      'GB29NWBK60161331926819 at https://docs.example/guides/2026/getting-started-with-billing and /home/dana/projects/2025/budget-q3-final',
    ],
    ['a short token-like id', 'the old token tok-7731-ALPHA'],
  ])('finds no secret in %s', (_, text) => {
    expect(secrets(text)).toEqual([]);
  });

  it('finds nearly every random key of 20 to 64 characters (seeded): measured recall, not a guess', () => {
    const alphabets = ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'];
    let state = 42;
    const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    let found = 0;
    let total = 0;
    for (const alphabet of alphabets)
      for (const length of [20, 24, 32, 40, 64])
        for (let index = 0; index < 200; index++) {
          const key = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
          total++;
          if (isOpaqueSecret(key)) found++;
        }
    // Measured 99.7% at this seed (docs/policy.md); the misses are keys with no digit or no letter, or low entropy by chance.
    expect(found / total).toBeGreaterThanOrEqual(0.99);
  });

  it('keys a secret on a digest, not on the secret, and reads a PEM block the same with real or JSON-escaped line breaks', () => {
    const [value] = detectValues(FAKE.opaque, ['secret']);
    expect(value?.value).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(value?.value)).not.toContain(FAKE.opaque.slice(4, 12));
    const escaped = detectValues(JSON.stringify({ key: FAKE.pem.replace(/\\n/g, '\n') }), ['secret'])[0]?.value;
    expect(escaped).toBe(detectValues(FAKE.pem.replace(/\\n/g, '\n'), ['secret'])[0]?.value);
  });

  it('shows a secret only as its first four characters and its length, in reasons and reports', () => {
    expect(redactSecret(FAKE.github)).toBe('ghp_… (40 chars)');
    expect(describeDetected({ kind: 'secret', text: FAKE.aws })).toBe('AKIA… (20 chars)');
    expect(describeDetected({ kind: 'url', text: 'https://a.example' })).toBe('https://a.example');
    const text = `use ${FAKE.openai} and ${FAKE.opaque} at https://a.example`;
    expect(redactSecrets(text)).toBe(`use sk-p… (${FAKE.openai.length} chars) and dpl_… (28 chars) at https://a.example`);
    const reason = copiedArgumentReason('text', `token ${FAKE.opaque}`, 'read_channel');
    expect(reason).toContain('dpl_… (28 chars)');
    expect(reason).not.toContain(FAKE.opaque.slice(4));
  });
});
