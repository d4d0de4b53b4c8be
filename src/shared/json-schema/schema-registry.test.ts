import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE, SchemaRegistry } from './schema-registry.js';

describe('SchemaRegistry', () => {
  it('resolves local pointers, through arrays, with ~0/~1 and percent-encoding', () => {
    const target = { type: 'integer' };
    const root = { $defs: { 'a/b': { type: 'string' }, 'c~d': { anyOf: [true, target] }, 'e f': { type: 'null' } } };
    const registry = new SchemaRegistry(root);
    expect(registry.resolve('#')?.schema).toBe(root);
    expect(registry.resolve('#/$defs/a~1b')?.schema).toEqual({ type: 'string' });
    expect(registry.resolve('#/$defs/c~0d/anyOf/1')?.schema).toBe(target);
    expect(registry.resolve('#/$defs/c~0d/anyOf/1')?.place.pointer).toBe('#/$defs/c~0d/anyOf/1');
    expect(registry.resolve('#/$defs/e%20f')?.schema).toEqual({ type: 'null' });
    expect(registry.resolve('#/$defs/missing')).toBeUndefined();
    // a malformed escape is "no such schema", never an exception
    expect(registry.resolve('#/$defs/%zz')).toBeUndefined();
  });

  it('reads a pointer fragment as the registry\'s Ajv does: split at "/" first, then percent-decoded, a "~" before another character kept', () => {
    const slashed = { type: 'integer' };
    const nested = { type: 'string' };
    const root = { $defs: { 'a/b': slashed, a: { $defs: { b: nested } }, 'a~2b': { type: 'null' } } };
    const registry = new SchemaRegistry(root);
    expect(registry.resolve('#/$defs/a%2Fb')?.schema).toBe(slashed);
    expect(registry.resolve('#/$defs/a/$defs/b')?.schema).toBe(nested);
    expect(registry.resolve('#/$defs/a%7E1b')?.schema).toBe(slashed);
    expect(registry.resolve('#/$defs/a~2b')?.schema).toEqual({ type: 'null' });
  });

  it('keys an $id with no $id above it by its raw text, as Ajv does: one not in normal form names nothing', () => {
    const written = { $id: 'http://example.com/x', type: 'integer' };
    const shouting = { $id: 'HTTP://Example.COM/y', type: 'integer' };
    const dotted = { $id: './z.json', type: 'integer' };
    const registry = new SchemaRegistry({ $defs: { written, shouting, dotted } });
    expect(registry.resolve('http://example.com/x')?.schema).toBe(written);
    expect(registry.resolve('http://example.com/y')).toBeUndefined();
    expect(registry.resolve('z.json')).toBeUndefined();
    // below a root $id, Ajv resolves it against that base first, which normalizes it
    const based = new SchemaRegistry({ $id: 'https://example.com/root', $defs: { shouting } });
    expect(based.resolve('http://example.com/y')?.schema).toBe(shouting);
  });

  it('reads a $ref as written, as Ajv does: a fragment keeps its tabs, a trailing "#" goes, a trimmed reference names nothing', () => {
    const tabbed = { type: 'integer' };
    const plain = { type: 'string' };
    const registry = new SchemaRegistry({ $defs: { '\ta': tabbed, a: plain } });
    expect(registry.resolve('#/$defs/\ta')?.schema).toBe(tabbed);
    expect(registry.resolve('#/$defs/a#')?.schema).toBe(plain);
    expect(registry.resolve(' #/$defs/a')).toBeUndefined();
    expect(registry.resolve('#/$defs/a ')).toBeUndefined();
  });

  it('keeps a root without $id apart from a nested $id or relative reference that its placeholder URI could spell', () => {
    const inner = { $id: 'schema.json', $defs: { b: { type: 'string' } } };
    const root = { $defs: { b: { type: 'integer' }, inner } };
    const registry = new SchemaRegistry(root);
    expect(registry.resolve('#/$defs/b')?.schema).toEqual({ type: 'integer' });
    expect(registry.resolve('schema.json')?.schema).toBe(inner);
    expect(new SchemaRegistry({ $defs: { b: {} } }).resolve('schema.json#/$defs/b')).toBeUndefined();
  });

  it("names the $id and anchors under unknown keywords, and none under prefixItems, as Ajv's identifier scan does", () => {
    const library = { $id: 'https://example.com/lib', $defs: { n: { type: 'integer' } } };
    const anchored = { $anchor: 'word', type: 'string' };
    const first = { $id: 'https://example.com/first', $anchor: 'first', type: 'null' };
    const listed = { $anchor: 'listed', type: 'boolean' };
    const root = { 'x-library': { lib: library, more: anchored }, 'x-list': [listed], prefixItems: [first] };
    const registry = new SchemaRegistry(root);
    expect(registry.resolve('https://example.com/lib')?.schema).toBe(library);
    expect(registry.resolve('https://example.com/lib#/$defs/n')?.schema).toEqual({ type: 'integer' });
    expect(registry.resolve('#word')?.schema).toBe(anchored);
    expect(registry.placeOf(library)).toEqual({ base: 'https://example.com/lib', pointer: '#/x-library/lib' });
    // Ajv never enters prefixItems, nor an array under an unknown keyword, when it collects identifiers
    expect(registry.resolve('https://example.com/first')).toBeUndefined();
    expect(registry.resolve('#first')).toBeUndefined();
    expect(registry.resolve('#listed')).toBeUndefined();
    // a pointer still reaches them, and the $id still moves the base of what is below it
    expect(registry.resolve('#/prefixItems/0')?.schema).toBe(first);
    expect(registry.placeOf(first)?.base).toBe('https://example.com/first');
  });

  it('accepts draft-7 definitions and resolves $anchor and $id within the document, never fetching', () => {
    const item = { $id: 'item.json', type: 'object', $defs: { name: { $anchor: 'name', type: 'string' } } };
    const root = { $id: 'https://example.com/root.json', definitions: { item } };
    const registry = new SchemaRegistry(root);
    expect(registry.resolve('https://example.com/item.json')?.schema).toBe(item);
    expect(registry.resolve('item.json#name', 'https://example.com/root.json')?.schema).toEqual({ $anchor: 'name', type: 'string' });
    // inside item.json, '#/$defs/name' is relative to item.json, not to the root document
    expect(registry.resolve('#/$defs/name', registry.placeOf(item)!.base)?.schema).toEqual({ $anchor: 'name', type: 'string' });
    expect(registry.placeOf(item)).toEqual({ base: 'https://example.com/item.json', pointer: '#/definitions/item' });
    expect(registry.resolve('https://example.com/elsewhere.json')).toBeUndefined();
  });

  it('resolves a recursive schema to the same objects', () => {
    const root: Record<string, unknown> = { type: 'object', properties: { next: { $ref: '#' } } };
    const registry = new SchemaRegistry(root);
    expect(registry.resolve('#', DEFAULT_BASE)?.schema).toBe(root);
    expect(registry.resolve('#/properties/next')?.schema).toEqual({ $ref: '#' });
  });

  it('scans remote schemas supplied by the caller', () => {
    const remote = { $defs: { id: { type: 'string', format: 'uuid' } } };
    const registry = new SchemaRegistry({ $ref: 'https://schemas.example/common.json#/$defs/id' }, { 'https://schemas.example/common.json': remote });
    expect(registry.resolve('https://schemas.example/common.json#/$defs/id')?.schema).toEqual({ type: 'string', format: 'uuid' });
    expect(registry.placeOf(remote.$defs.id)?.pointer).toBe('https://schemas.example/common.json#/$defs/id');
  });
});
