import { describe, expect, it } from 'vitest';
import { CIRCULAR, TOO_DEEP, UNREADABLE, createRedactor, restoreRedacted } from './redactor.js';
import { isSensitiveName } from './sensitive-names.js';
import { REDACTED } from './text-patterns.js';

const schemaTool = {
  name: 'connect',
  inputSchema: {
    type: 'object',
    properties: {
      host: { type: 'string' },
      options: { $ref: '#/$defs/options' },
      replicas: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, blob: { type: 'string', 'x-sensitive': true } } } },
      extra: { type: 'object', additionalProperties: { type: 'string', writeOnly: true } },
      either: { anyOf: [{ type: 'string' }, { type: 'object', properties: { material: { type: 'string', writeOnly: true } } }] },
    },
    $defs: { options: { type: 'object', properties: { signing: { type: 'string', writeOnly: true }, depth: { type: 'integer' } } } },
  },
};

describe('isSensitiveName', () => {
  it('matches credential names in snake, camel and kebab case', () => {
    for (const name of [
      'password',
      'db_password',
      'dbPassword',
      'DB-PASSWORD',
      'passwd',
      'secret',
      'client_secret',
      'clientSecret',
      'token',
      'access_token',
      'refreshToken',
      'id_token',
      'api_key',
      'apiKey',
      'APIKey',
      'x-api-key',
      'apikey',
      'Authorization',
      'proxy-authorization',
      'cookie',
      'Set-Cookie',
      'credentials',
      'private_key',
      'privateKey',
      'session_id',
      'sessionId',
      'signing_key',
      'aws_secret_access_key',
      'bearer',
      'pin',
      'connection_string',
    ]) {
      expect(isSensitiveName(name), name).toBe(true);
    }
  });

  it('leaves usage accounting and metadata about secrets readable', () => {
    for (const name of [
      'max_tokens',
      'maxTokens',
      'max_output_tokens',
      'input_tokens',
      'inputTokens',
      'output_tokens',
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
      'cached_tokens',
      'tokens',
      'token_count',
      'tokenCount',
      'token_type',
      'next_token',
      'page_token',
      'tokenizer',
      'estimatedInputTokens',
      'password_policy',
      'secret_name',
      'key',
      'primary_key',
      'keyboard',
      'author',
      'secretary',
      'description',
      'reason',
      'amount_cents',
    ]) {
      expect(isSensitiveName(name), name).toBe(false);
    }
  });
});

describe('createRedactor', () => {
  it('redacts by name at any depth, keeping empty values and flags so a reader sees what was set', () => {
    const redact = createRedactor();
    expect(
      redact({
        db: { dbPassword: 'hunter2', has_password: true, api_key: '', host: 'h' },
        headers: [{ 'x-api-key': 'abc' }],
        usage: { input_tokens: 3, output_tokens: 4 },
      }),
    ).toEqual({
      db: { dbPassword: REDACTED, has_password: true, api_key: '', host: 'h' },
      headers: [{ 'x-api-key': REDACTED }],
      usage: { input_tokens: 3, output_tokens: 4 },
    });
  });

  it('redacts by schema: writeOnly and x-sensitive through $ref, nested objects, array items, additionalProperties and anyOf', () => {
    const redact = createRedactor({ tools: [schemaTool] });
    const args = {
      host: 'db',
      options: { signing: 's1', depth: 2 },
      replicas: [{ label: 'a', blob: 'b1' }],
      extra: { anything: 'e1' },
      either: { material: 'm1' },
    };
    const redacted = {
      host: 'db',
      options: { signing: REDACTED, depth: 2 },
      replicas: [{ label: 'a', blob: REDACTED }],
      extra: { anything: REDACTED },
      either: { material: REDACTED },
    };
    expect(redact.toolArguments('connect', args)).toEqual(redacted);
    // Wherever an object names the tool: agent events, neutral tool-call parts, wire bodies.
    expect(redact({ toolName: 'connect', arguments: args })).toEqual({ toolName: 'connect', arguments: redacted });
    expect(redact({ type: 'tool_use', id: 't1', name: 'connect', input: args })).toEqual({ type: 'tool_use', id: 't1', name: 'connect', input: redacted });
    // Argument text is parsed, redacted and written back.
    const wire = redact({ function: { name: 'connect', arguments: JSON.stringify(args) } }) as { function: { arguments: string } };
    expect(JSON.parse(wire.function.arguments)).toEqual(redacted);
    // Another tool's field of the same name is not secret.
    expect(redact({ toolName: 'other', arguments: { options: { signing: 's1' } } })).toEqual({ toolName: 'other', arguments: { options: { signing: 's1' } } });
  });

  it('redacts schema-marked values in argument text that does not parse', () => {
    const redact = createRedactor({ tools: [schemaTool] });
    const cut = redact({ toolName: 'connect', argumentsText: '{"host": "db", "options": {"signing": "s1-secret-value' }) as { argumentsText: string };
    expect(cut.argumentsText).toBe(`{"host": "db", "options": {"signing": "${REDACTED}`);
  });

  it('redacts key and token shapes in text and leaves ordinary text alone', () => {
    const redact = createRedactor();
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';
    const cases: [string, string][] = [
      ['key sk-ant-api03-abcdefgh12345678 here', `key ${REDACTED} here`],
      ['key sk-proj-abcdefghijklmnop1234 here', `key ${REDACTED} here`],
      ['sk-short stays', 'sk-short stays'],
      ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl ok', `jwt ${REDACTED} ok`],
      ['aws AKIAIOSFODNN7EXAMPLE ok', `aws ${REDACTED} ok`],
      ['gh ghp_abcdefghijklmnopqrstuvwxyz0123456789 and github_pat_11ABCDEFG0123456789_abcdefghij', `gh ${REDACTED} and ${REDACTED}`],
      [
        'slack xoxb-1234567890-abcdefghij google AIzaSyA1234567890abcdefghijklmnopqrstuv stripe sk_live_abcdefghijklmnop1234',
        `slack ${REDACTED} google ${REDACTED} stripe ${REDACTED}`,
      ],
      [`before\n${pem}\nafter`, `before\n${REDACTED}\nafter`],
      ['cut -----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN', `cut ${REDACTED}`],
      ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'],
      ['header was "Bearer abcdefghijk"', `header was "Bearer ${REDACTED}"`],
      ['Authorization: Basic dXNlcjpwYXNz\nnext', `Authorization: ${REDACTED}\nnext`],
      ['postgres://app:s3cr3t-pw@db:5432/x', `postgres://app:${REDACTED}@db:5432/x`],
      ['login with password=hunter2&user=ana', `login with password=${REDACTED}&user=ana`],
      ['{"db_password": "hunter 2", "max_tokens": 5', `{"db_password": "${REDACTED}", "max_tokens": 5`],
      ['max_tokens=100 and token_count: 7', 'max_tokens=100 and token_count: 7'],
      ['A note: nothing secret here.', 'A note: nothing secret here.'],
    ];
    for (const [input, expected] of cases) expect(redact(input), input).toBe(expected);
  });

  it('adds user patterns: regular expressions, and strings matched literally', () => {
    const redact = createRedactor([/acct-\d+/, 'p@ss.word']);
    expect(redact('acct-123 and acct-456 with p@ss.word, not p@ssXword')).toBe(`${REDACTED} and ${REDACTED} with ${REDACTED}, not p@ssXword`);
  });

  it('keeps usage fields of provider bodies readable while redacting their secrets', () => {
    const redact = createRedactor();
    const body = {
      usage: { prompt_tokens: 40, completion_tokens: 30, total_tokens: 70, prompt_tokens_details: { cached_tokens: 0 } },
      x_debug: { api_key: 'raw-secret' },
    };
    expect(redact(body)).toEqual({ usage: body.usage, x_debug: { api_key: REDACTED } });
    expect(redact(JSON.stringify(body))).toBe(JSON.stringify({ usage: body.usage, x_debug: { api_key: REDACTED } }));
  });

  it('never throws on hostile values: deep nesting, cycles, throwing getters and proxies', () => {
    const redact = createRedactor();
    let deep: unknown = { password: 'deep-secret' };
    for (let level = 0; level < 10_000; level++) deep = { next: deep };
    const out = JSON.stringify(redact(deep));
    expect(out).toContain(TOO_DEEP);
    expect(out).not.toContain('deep-secret');

    const cyclic: Record<string, unknown> = { token: 'abc123456', name: 'x' };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ token: REDACTED, name: 'x', self: CIRCULAR });

    const getter = Object.defineProperty({ ok: 1 }, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    expect(redact(getter)).toEqual({ ok: 1, boom: UNREADABLE });
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    expect(redact({ proxy })).toEqual({ proxy: UNREADABLE });
    const badJson = {
      toJSON: () => {
        throw new Error('no');
      },
    };
    expect(redact([badJson])).toEqual([UNREADABLE]);
    expect(redact({ ['__proto__']: 'sk-abcdefghijklmnopqrstuv' } as unknown)).toEqual(JSON.parse(`{"__proto__":"${REDACTED}"}`));
  });

  it('handles huge and adversarial strings (every rule is linear-time)', () => {
    const redact = createRedactor();
    const adversarial = [
      'eyJ'.repeat(400_000),
      'sk-'.repeat(400_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(50_000),
      '-----BEGIN '.repeat(100_000),
      `Bearer${' '.repeat(1_000_000)}`,
      `${'a'.repeat(1_000_000)}=`,
      `://${'a:'.repeat(500_000)}`,
      `${'password'.repeat(150_000)}: x`,
      `{${'"a":{'.repeat(200_000)}`,
    ];
    for (const text of adversarial) expect(typeof redact(text)).toBe('string');
    expect(redact(`${'x '.repeat(500_000)}sk-abcdefghijklmnopqrstuv`)).toMatch(/\[REDACTED\]$/);
  });

  it('reports what it replaced, so a store can seal the originals and put them back', () => {
    const redact = createRedactor({ tools: [schemaTool] });
    const value = {
      messages: [{ role: 'user', content: 'use sk-abcdefghijklmnopqrstuv' }],
      call: { toolName: 'connect', arguments: { options: { signing: 's1' } } },
      auth: { password: 'p' },
      deep: {} as unknown,
    };
    let deep: unknown = 'bottom';
    for (let level = 0; level < 150; level++) deep = { next: deep };
    value.deep = deep;
    const { value: redacted, originals } = redact.withOriginals(value);
    expect(JSON.stringify(redacted)).not.toMatch(/sk-abc|"s1"|"p"|bottom/);
    expect(restoreRedacted(structuredClone(redacted), originals)).toEqual(value);
  });
});
