import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject } from '../../tools/types.js';
import { nullRestorePlan, restoreOptionalNulls, schemaAcceptsNull } from './restore.js';
import { toOpenAIStrictSchema } from './rewrite.js';

/** A deep proxy of `value` that counts every property read. */
function counted<T>(value: T, reads: { count: number }): T {
  const proxies = new WeakMap<object, object>();
  const wrap = (target: unknown): unknown => {
    if (typeof target !== 'object' || target === null) return target;
    let proxy = proxies.get(target);
    if (proxy === undefined) {
      proxy = new Proxy(target, {
        get(object, key, receiver) {
          reads.count++;
          return wrap(Reflect.get(object, key, receiver));
        },
      });
      proxies.set(target, proxy);
    }
    return proxy;
  };
  return wrap(value) as T;
}

const recursive: JsonSchemaObject = {
  type: 'object',
  properties: {
    label: { type: 'string' },
    children: { type: 'array', items: { $ref: '#' } },
  },
  required: ['label'],
};

describe('NullRestorePlan', () => {
  it('is built once per schema object and returned by the rewrite', () => {
    const plan = nullRestorePlan(recursive);
    expect(nullRestorePlan(recursive)).toBe(plan);
    expect(toOpenAIStrictSchema(recursive).restorePlan).toBe(plan);
    expect(nullRestorePlan({ ...recursive })).not.toBe(plan);
  });

  it('restores through a recursive schema at any depth', () => {
    const args = {
      label: 'a',
      children: [
        { label: 'b', children: null },
        { label: 'c', children: [{ label: 'd', children: null }] },
      ],
    };
    expect(nullRestorePlan(recursive).restore(args)).toEqual({ label: 'a', children: [{ label: 'b' }, { label: 'c', children: [{ label: 'd' }] }] });
  });

  it('reads nothing from the schema once a call has been restored', () => {
    const reads = { count: 0 };
    const schema = counted<JsonSchemaObject>(
      {
        type: 'object',
        properties: {
          mode: { $ref: '#/$defs/mode' },
          tags: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'number' } } }] } },
        },
        $defs: { mode: { enum: ['fast', 'slow'] } },
      },
      reads,
    );
    const plan = nullRestorePlan(schema);
    const args = { mode: null, tags: [{ x: null }, 'a'] };
    expect(plan.restore(args)).toEqual({ tags: [{}, 'a'] });
    reads.count = 0;
    expect(plan.restore(args)).toEqual({ tags: [{}, 'a'] });
    expect(reads.count).toBe(0);
  });

  it('resolves references the way the validator does: pointers through arrays, $anchor and $id', () => {
    const schema: JsonSchemaObject = {
      $id: 'https://example.com/tool.json',
      type: 'object',
      properties: {
        viaArray: { $ref: '#/$defs/choice/anyOf/0' },
        viaAnchor: { $ref: '#count' },
        viaId: { $ref: 'unit.json' },
      },
      $defs: {
        choice: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        count: { $anchor: 'count', type: 'integer' },
        unit: { $id: 'unit.json', $ref: '#/$defs/name', $defs: { name: { enum: ['c', 'f'] } } },
      },
    };
    // before the shared resolver, these three references did not resolve, so their nulls were kept
    expect(restoreOptionalNulls(schema, { viaArray: null, viaAnchor: null, viaId: null })).toEqual({});
    expect(schemaAcceptsNull({ $ref: 'unit.json' }, schema)).toBe(false);
  });

  it('keeps nulls that an unresolvable reference might accept', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { remote: { $ref: 'https://elsewhere.example/x.json' } } };
    expect(restoreOptionalNulls(schema, { remote: null })).toEqual({ remote: null });
  });
});
