import { describe, expect, it } from 'vitest';
import { allowValues, argumentRule, limitNumber, matchSchema, pathUnder } from './argument-rule.js';
import { readArgumentValues, stringLeaves } from './argument-values.js';

describe('readArgumentValues', () => {
  it('fans out over arrays on the way and names each concrete path', () => {
    expect(readArgumentValues({ to: ['a', 'b'], cc: [] }, 'to')).toEqual([
      { path: 'to[0]', value: 'a' },
      { path: 'to[1]', value: 'b' },
    ]);
    expect(readArgumentValues({ items: [{ iban: 'X' }, { iban: 'Y' }, {}] }, 'items.iban')).toEqual([
      { path: 'items[0].iban', value: 'X' },
      { path: 'items[1].iban', value: 'Y' },
    ]);
  });

  it('finds nothing at a missing path and never reads the prototype', () => {
    expect(readArgumentValues({}, 'to')).toEqual([]);
    expect(readArgumentValues({}, 'constructor')).toEqual([]);
    expect(readArgumentValues('text', 'to')).toEqual([]);
  });

  it('lists string leaves with their paths', () => {
    expect(stringLeaves({ a: 'x', b: [{ c: 'y' }, 3], d: null })).toEqual([
      { path: 'a', value: 'x' },
      { path: 'b[0].c', value: 'y' },
    ]);
  });

  it('finds a string leaf at any depth without overflowing the stack', () => {
    let deep: unknown = 'https://evil.example/x';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const leaves = stringLeaves({ body: deep });
    expect(leaves).toHaveLength(1);
    expect(leaves[0]!.value).toBe('https://evil.example/x');
  });
});

describe('allowValues', () => {
  const rule = allowValues({ tool: 'send_email', argument: 'to', values: ['alice@corp.com', 'bob@corp.com'], label: "the task's contacts" });

  it('passes values from the list, ignoring case and spaces', () => {
    expect(rule.check({ to: ['Alice@Corp.com ', 'bob@corp.com'] })).toBeUndefined();
  });

  it('names the first value outside the list, where it is, and the allowed values', () => {
    expect(rule.check({ to: ['alice@corp.com', 'eve@evil.com'] })).toBe(
      'to[1] "eve@evil.com" is not one of the task\'s contacts ("alice@corp.com", "bob@corp.com").',
    );
    expect(rule.id).toBe('allowed-values:send_email.to');
    expect(rule.action).toBe('block');
  });

  it('can hide the allowed values and compare exactly', () => {
    const strict = allowValues({ id: 'ibans', tool: 'send_money', argument: 'iban', values: ['DE01'], caseSensitive: true, revealValues: false });
    expect(strict.check({ iban: 'de01' })).toBe('iban "de01" is not one of the allowed values.');
    expect(strict.check({ iban: 'DE01' })).toBeUndefined();
  });
});

describe('limitNumber', () => {
  const rule = limitNumber({ tool: 'send_money', argument: 'amount', max: 100, min: 1, unit: 'EUR' });
  it('passes the bounds themselves and blocks beyond them', () => {
    expect(rule.check({ amount: 100 })).toBeUndefined();
    expect(rule.check({ amount: 1 })).toBeUndefined();
    expect(rule.check({ amount: 100.5 })).toBe('amount 100.5 EUR is above the limit of 100 EUR.');
    expect(rule.check({ amount: 0 })).toBe('amount 0 EUR is below the minimum of 1 EUR.');
    expect(rule.description).toBe('send_money: amount must be at least 1 EUR and at most 100 EUR.');
  });
  it('leaves non-numbers to the schema', () => {
    expect(rule.check({ amount: 'lots' })).toBeUndefined();
  });
  it('refuses a limit with no bound', () => {
    expect(() => limitNumber({ tool: 't', argument: 'a' })).toThrow('needs a max, a min, or both');
  });
});

describe('pathUnder', () => {
  const rule = pathUnder({ tool: ['write_file', 'delete_file'], argument: 'path', folder: '/reports' });
  it('allows the folder and anything inside it', () => {
    expect(rule.check({ path: '/reports' })).toBeUndefined();
    expect(rule.check({ path: '/reports/q3/summary.md' })).toBeUndefined();
    expect(rule.check({ path: 'reports/q3.md' })).toBeUndefined();
  });
  it('blocks escapes with .. and look-alike prefixes', () => {
    expect(rule.check({ path: '/reports/../secrets/keys.txt' })).toBe('path "/reports/../secrets/keys.txt" is outside /reports.');
    expect(rule.check({ path: '/reports-old/x' })).toBe('path "/reports-old/x" is outside /reports.');
  });
});

describe('matchSchema', () => {
  const rule = matchSchema({
    id: 'internal-only',
    tool: 'send_email',
    description: 'Mail may go only to corp.com addresses.',
    schema: { type: 'object', properties: { to: { type: 'array', items: { type: 'string', pattern: '@corp\\.com$' } } } },
  });
  it('checks the whole arguments against a JSON Schema, as Progent does', () => {
    expect(rule.check({ to: ['a@corp.com'] })).toBeUndefined();
    expect(rule.check({ to: ['a@corp.com', 'x@evil.com'] })).toMatch(/^Mail may go only to corp\.com addresses \(\$\.to\[1\] /);
  });
});

describe('argumentRule', () => {
  it('runs a function and keeps its action', () => {
    const rule = argumentRule({
      id: 'no-weekend',
      tool: 'create_event',
      description: 'No events on weekends.',
      action: 'confirm',
      check: (args) => ((args as { day: string }).day === 'sat' ? 'Saturday is a weekend.' : undefined),
    });
    expect(rule.check({ day: 'sat' })).toBe('Saturday is a weekend.');
    expect(rule.action).toBe('confirm');
    expect(rule.tools).toEqual(['create_event']);
  });
});
