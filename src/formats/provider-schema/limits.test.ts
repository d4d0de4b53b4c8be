import { describe, expect, it } from 'vitest';
import { schemaCompatibilityWarnings } from './limits.js';

describe('external $ref warnings', () => {
  it('look at every subschema, including properties named like value keywords, and never inside values', () => {
    const schema = {
      type: 'object',
      properties: {
        enum: { $ref: 'https://example.com/a.json' },
        list: { type: 'array', items: [{ $ref: 'b.json' }] },
        local: { $ref: '#/$defs/c' },
      },
      default: { $ref: 'not-a-schema.json' },
      $defs: { c: { type: 'string' } },
    };
    expect(schemaCompatibilityWarnings(schema, 'anthropic').map((warning) => warning.path)).toEqual(['/properties/enum/$ref', '/properties/list/items/0/$ref']);
  });
});
