import { describe, expect, it } from 'vitest';
import type { JsonSchemaObject } from '../../tools/types.js';
import { ANTHROPIC_STRICT_LIMITS, anthropicStrictLimitWarnings, toAnthropicStrictSchema } from './anthropic-strict.js';
import { toOpenAIStrictSchema } from './rewrite.js';

describe('toAnthropicStrictSchema', () => {
  it('closes objects and keeps optional properties optional, where OpenAI makes them required and nullable', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] };
    expect(toAnthropicStrictSchema(schema).schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(toOpenAIStrictSchema(schema).schema.required).toEqual(['a', 'b']);
  });

  it("keeps what @anthropic-ai/sdk's transformJSONSchema keeps and removes the rest, each with a warning", () => {
    const converted = toAnthropicStrictSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        when: { type: 'string', format: 'uri', pattern: '^h' },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, maxItems: 3 },
        many: { type: 'array', items: { type: 'integer', multipleOf: 2 }, minItems: 2 },
        kind: { oneOf: [{ const: 'a' }, { const: 'b' }], default: 'a', examples: ['a'] },
      },
      required: ['when', 'tags', 'many', 'kind'],
      additionalProperties: false,
    });
    expect(converted.schema).toEqual({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'uri' },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1 },
        many: { type: 'array', items: { type: 'integer' } },
        kind: { anyOf: [{ const: 'a' }, { const: 'b' }] },
      },
      required: ['when', 'tags', 'many', 'kind'],
      additionalProperties: false,
    });
    expect(converted.warnings.map((warning) => [warning.provider, warning.feature, warning.path])).toEqual([
      ['anthropic-strict', '$schema', '/$schema'],
      ['anthropic-strict', 'pattern', '/properties/when/pattern'],
      ['anthropic-strict', 'maxItems', '/properties/tags/maxItems'],
      ['anthropic-strict', 'minItems', '/properties/many/minItems'],
      ['anthropic-strict', 'multipleOf', '/properties/many/items/multipleOf'],
      ['anthropic-strict', 'examples', '/properties/kind/examples'],
      ['anthropic-strict', 'default', '/properties/kind/default'],
      ['anthropic-strict', 'oneOf', '/properties/kind/oneOf'],
    ]);
  });
});

describe('anthropicStrictLimitWarnings', () => {
  const optional = (count: number): JsonSchemaObject => ({
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: ['string', 'null'] }])),
    additionalProperties: false,
  });

  it('says nothing at the limits and names each one passed, across every strict schema of the request', () => {
    expect(anthropicStrictLimitWarnings([optional(8), optional(8)])).toEqual([]);
    expect(anthropicStrictLimitWarnings([optional(13), optional(12)]).map((warning) => warning.feature)).toEqual(['optional-parameters', 'union-parameters']);
    const tools = Array.from({ length: ANTHROPIC_STRICT_LIMITS.maxStrictTools + 1 }, () => optional(0));
    expect(anthropicStrictLimitWarnings(tools).map((warning) => warning.feature)).toEqual(['strict-tools']);
  });
});
