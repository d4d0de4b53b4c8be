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
});
