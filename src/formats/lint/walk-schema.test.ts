import { describe, expect, it } from 'vitest';
import { listProperties, listSchemas } from './walk-schema.js';

describe('lint schema walk', () => {
  it('reaches the subschemas of draft-7 tuple items, additionalItems, dependencies and contentSchema', () => {
    // the linter's own keyword list used to skip these, so their properties were never linted
    const schema = {
      type: 'object',
      properties: {
        pair: {
          type: 'array',
          items: [{ type: 'object', properties: { first: { type: 'string' } } }],
          additionalItems: { type: 'object', properties: { rest: {} } },
        },
        payload: { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object', properties: { inner: {} } } },
      },
      dependencies: { pair: { properties: { extra: {} } }, payload: ['pair'] },
    };
    expect(listProperties(schema, '/inputSchema').map((property) => property.pointer)).toEqual([
      '/inputSchema/properties/pair',
      '/inputSchema/properties/payload',
      '/inputSchema/properties/pair/items/0/properties/first',
      '/inputSchema/properties/pair/additionalItems/properties/rest',
      '/inputSchema/properties/payload/contentSchema/properties/inner',
      '/inputSchema/dependencies/pair/properties/extra',
    ]);
    expect(listSchemas(schema, '/inputSchema').find((visit) => visit.pointer.endsWith('/items/0'))?.via).toBe('items');
  });

  it('visits only the definitions a $ref reaches from the root, once each, where they are defined', () => {
    const schema = {
      type: 'object',
      properties: { owner: { $ref: '#/$defs/User' }, team: { $ref: '#/definitions/Team' } },
      $defs: {
        User: { type: 'object', properties: { login: { type: 'string' }, manager: { $ref: '#/$defs/User' } } },
        Unused: { type: 'object', properties: { never: { type: 'string' } } },
      },
      definitions: { Team: { type: 'object', properties: { lead: { $ref: '#/$defs/User' }, slug: { type: 'string' } } } },
    };
    expect(listSchemas(schema, '/inputSchema').map((visit) => visit.pointer)).toEqual([
      '/inputSchema',
      '/inputSchema/properties/owner',
      '/inputSchema/properties/team',
      '/inputSchema/$defs/User',
      '/inputSchema/$defs/User/properties/login',
      '/inputSchema/$defs/User/properties/manager',
      '/inputSchema/definitions/Team',
      '/inputSchema/definitions/Team/properties/lead',
      '/inputSchema/definitions/Team/properties/slug',
    ]);
  });

  it('follows an $anchor and an $id-relative reference, and ignores one it cannot resolve', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#thing' }, b: { $ref: 'https://example.invalid/other.json' } },
      $defs: { Thing: { $anchor: 'thing', type: 'object', properties: { x: { type: 'string' } } }, Dead: { type: 'string' } },
    };
    expect(listProperties(schema, '/inputSchema').map((property) => property.pointer)).toEqual([
      '/inputSchema/properties/a',
      '/inputSchema/properties/b',
      '/inputSchema/$defs/Thing/properties/x',
    ]);
  });
});
