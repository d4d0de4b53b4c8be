import { describe, expect, it } from 'vitest';
import { schemaSensitivity } from './schema-sensitivity.js';

describe('schemaSensitivity', () => {
  it('follows $anchor and $id references as the validator resolves them', () => {
    // the old resolver followed only "#/…" pointers, so these secrets were found by name rules at best
    const node = schemaSensitivity({
      type: 'object',
      properties: { login: { $ref: '#credentials' }, vault: { $ref: 'vault.json' } },
      $defs: {
        credentials: { $anchor: 'credentials', type: 'object', properties: { pin: { type: 'string', writeOnly: true } } },
        vault: { $id: 'vault.json', type: 'object', properties: { key: { $ref: '#/$defs/key' } }, $defs: { key: { type: 'string', 'x-sensitive': true } } },
      },
    });
    expect(node?.properties.get('login')?.properties.get('pin')?.sensitive).toBe(true);
    expect(node?.properties.get('vault')?.properties.get('key')?.sensitive).toBe(true);
    expect([...(node?.names ?? [])].sort()).toEqual(['key', 'pin']);
  });

  it('still follows a local pointer, and a recursive schema costs a bounded amount', () => {
    const node = schemaSensitivity({
      type: 'object',
      properties: { token: { $ref: '#/$defs/secret' }, next: { $ref: '#' } },
      $defs: { secret: { writeOnly: true } },
    });
    expect(node?.properties.get('token')?.sensitive).toBe(true);
    expect(node?.properties.get('next')?.properties.get('token')?.sensitive).toBe(true);
  });
});
