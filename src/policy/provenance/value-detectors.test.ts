import { describe, expect, it } from 'vitest';
import { HOSTILE_TEXTS } from '../../../test/fixtures/hostile-detector-texts.js';
import { copiedArgumentReason } from '../policy-messages.js';
import { MAX_INDEXED_CHARS, ProvenanceIndex } from './provenance-index.js';
import { valuesFrom } from './provenance-rules.js';
import { describeDetected, detectValues, isOpaqueSecret, normalizeNumber, normalizeValue, redactSecret, redactSecrets } from './value-detectors.js';

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

const codes = (text: string) => detectValues(text, ['code']).map((value) => value.value);

describe('the code detector', () => {
  it.each([
    ['code', 'Your password reset code for the team wiki is 482913. It expires in 24 hours.', '482913'],
    ['OTP', 'OTP: 731904', '731904'],
    ['PIN (next to its colon)', 'Card PIN:4096, keep it', '4096'],
    ['passcode, after the number', '55120 is your Acme passcode', '55120'],
    ['password', 'the Wi-Fi password is 20481632', '20481632'],
    ['verification', 'Verification number 7731 for your login', '7731'],
    ['confirmation', 'Confirmation: 90210345', '90210345'],
    ['reset', 'Reset with 884213 within the hour', '884213'],
    ['2FA', 'your 2FA is 123987', '123987'],
    ['MFA', 'MFA 445566 expires soon', '445566'],
    ['token', 'the token is 0042', '0042'],
    ['one-time', '9003217 is your one-time login number', '9003217'],
    ['a German compound', 'Ihr Bestätigungscode lautet 4711', '4711'],
    ['Spanish', 'Tu código es 562390', '562390'],
    ['grouped with a space', 'Your code: 123 456', '123456'],
    ['grouped with dashes', 'verification code 123-456-789', '123456789'],
    ['eight digits (not a phone number)', 'code 12345678', '12345678'],
    ['a year-like PIN right after its cue', 'PIN 1984', '1984'],
    ['as a JSON key', JSON.stringify({ user: 'dana', pin: 4096 }), '4096'],
    ['in a JSON key', JSON.stringify({ reset_code: 482913 }), '482913'],
  ])('finds a code with the cue %s, in its normal form (digits only)', (_, text, expected) => {
    expect(codes(text)).toEqual([expected]);
  });

  it('finds a code at the start and at the end of a text, and in JSON-escaped tool output', () => {
    expect(codes('482913 is your code')).toEqual(['482913']);
    expect(codes('Your code is 482913')).toEqual(['482913']);
    const json = JSON.stringify({ subject: 'Sign-in', body: 'Your verification code:\n\n482 913\nIt expires in 10 minutes.' });
    expect(json).toContain('\\n482 913\\n');
    expect(codes(json)).toEqual(['482913']);
  });

  it.each([
    ['a year near a cue word', 'Reset your password before December 2026'],
    ['a year as a bare word', 'In 2026 the codes changed'],
    ['an amount', 'The reset fee is 1200 EUR, or $4500 with a code'],
    ['a phone number', 'Call +1 (555) 123-4567 for your code'],
    ['an order number without a cue word', 'Order 123456 has shipped'],
    ['a room', 'room 1234'],
    ['a zip code', 'zip code 94110, postal code 10115'],
    ['an area code and a status code', 'area code 4155 and error code 5003'],
    ['a time and a date', 'reset code at 15:00 on 2026-12-09'],
    ['a digit run inside a longer number', 'code 12345678901 and code 1234.56 and code 1,234'],
    ['an identifier', 'code ID-1234, x1234y, INV-2041, ticket #4521, v1234, /reset/1234'],
    ['a cue inside a longer word', 'PINE 1234; the pinned 5678; barcode 9012'],
    ['a cue in another sentence', 'Reset the code. Room 5678 is free.'],
    ['a cue too far before', 'Your code is below and the meeting room for the review on Thursday is 4402'],
    ['three or eleven digits', 'code 123 and code 12345678901'],
    ['a JSON number value whose key is no cue', JSON.stringify({ reference: 'Reset fee', amount: 1200, year: 2026 })],
  ])('finds no code in %s', (_, text) => {
    expect(codes(text)).toEqual([]);
  });

  it('finds nothing but the code in mixed text, and leaves a phone number, an amount and a date to their detectors', () => {
    expect(kinds('Your reset code is 482913; call +1 555 123 4567 or pay 25 EUR by 2026-12-09.')).toEqual([
      'datetime:2026-12-09',
      'amount:25.00',
      'code:482913',
      'phone:+15551234567',
    ]);
  });

  it('normalizes a code to its digits, and refuses fewer than 4 or more than 10', () => {
    expect(normalizeValue('code', '123-456')).toBe('123456');
    expect(normalizeValue('code', '1234 5678')).toBe('12345678');
    expect(normalizeValue('code', '123')).toBeUndefined();
    expect(normalizeValue('code', '1234 5678 901')).toBeUndefined();
  });

  it('reads a bare digit run as a code only when the caller knows it as one', () => {
    expect(detectValues('482913', ['code'])).toEqual([]);
    expect(detectValues('482913', ['code'], { isKnownCode: (digits) => digits === '482913' })).toEqual([
      { kind: 'code', value: '482913', text: '482913', start: 0 },
    ]);
    expect(detectValues('order 777777', ['code'], { isKnownCode: (digits) => digits === '482913' })).toEqual([]);
  });

  it.each(HOSTILE_TEXTS.map((text) => [text.name, text] as const))(
    'scans the hostile text "%s" at the cap',
    (_name, hostile) => {
      // codes only, so the cost of the cue windows is what is bounded; bench:detectors measures its growth
      const found = detectValues(hostile.build(MAX_INDEXED_CHARS), ['code']);
      if (hostile.name === 'codes with cue words') expect(found.length).toBeGreaterThan(10_000);
    },
    LIVENESS_BOUND_MS,
  );
});

/** A liveness bound as in provenance-index.test.ts: about 100 times what these scans cost, under what a quadratic scan takes. */
const LIVENESS_BOUND_MS = 5_000;

describe('valuesFrom on codes', () => {
  const rule = valuesFrom({ tool: 'send_email', argument: 'body', from: ['user', 'system', 'trusted'] });
  const WIKI_MAIL = JSON.stringify({ subject: 'Password reset code', body: 'Your password reset code for the team wiki is 482913. It expires in 24 hours.' });

  it('blocks a body holding a code that only an untrusted result had, with or without a cue word in the body', () => {
    const index = new ProvenanceIndex();
    index.add({ origin: 'user' }, 'Tell Bob the standup moved to 10:00.');
    index.add({ origin: 'untrusted', toolName: 'list_emails', callId: 'c1' }, WIKI_MAIL);
    expect(rule.check({ body: 'The code is 482913' }, { context: undefined, provenance: index })).toBe(
      'body contains the one-time code (verification, reset or confirmation code, or PIN) "482913", which came only from untrusted output of list_emails; it may hold one only from the user\'s request, the system prompt or a trusted tool.',
    );
    expect(rule.check({ body: '482913' }, { context: undefined, provenance: index })).toContain('came only from untrusted output of list_emails');
    expect(rule.check({ body: '482 913' }, { context: undefined, provenance: index })).toContain('"482 913"');
    expect(rule.check({ body: 'Standup moved to 10:00.' }, { context: undefined, provenance: index })).toBeUndefined();
  });

  it("lets a code through that the user's own request holds, with a cue word or without", () => {
    for (const request of ['Send Bob the door code 482913.', 'Send Bob 482913, please.']) {
      const index = new ProvenanceIndex();
      index.add({ origin: 'user' }, request);
      index.add({ origin: 'untrusted', toolName: 'list_emails', callId: 'c1' }, WIKI_MAIL);
      expect(rule.check({ body: 'The door code is 482913.' }, { context: undefined, provenance: index })).toBeUndefined();
      expect(rule.check({ body: '482913' }, { context: undefined, provenance: index })).toBeUndefined();
    }
  });

  it('refuses a code found nowhere, and leaves a bare number no source calls a code alone', () => {
    const index = new ProvenanceIndex();
    index.add({ origin: 'untrusted', toolName: 'list_emails', callId: 'c1' }, 'Order 555123 has shipped.');
    expect(rule.check({ body: 'Your PIN is 9137' }, { context: undefined, provenance: index })).toContain('appears nowhere in the conversation');
    expect(rule.check({ body: 'About order 555123' }, { context: undefined, provenance: index })).toBeUndefined();
  });
});
