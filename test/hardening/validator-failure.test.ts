/**
 * A schema Ajv compiles but cannot run — here a `$dynamicRef` that resolves back into its own
 * scope, from the JSON-Schema-Test-Suite — made validation throw RangeError out of
 * `registry.call`. A remote MCP server chooses its tools' schemas, so this must be a tool error.
 */
import { describe, expect, it } from 'vitest';
import { defineTool, ToolRegistry } from '../../src/index.js';

const selfReferencingSchema = {
  $id: 'https://example.test/dynamic-ref-avoids-root/base',
  type: 'object',
  properties: { text: { $ref: 'first#/$defs/stuff' } },
  $defs: {
    first: { $id: 'first', $defs: { stuff: { $ref: 'second#/$defs/stuff' }, length: { maxLength: 1 } } },
    second: { $id: 'second', $defs: { stuff: { $ref: 'third#/$defs/stuff' }, length: { $dynamicAnchor: 'length', maxLength: 2 } } },
    third: { $id: 'third', $defs: { stuff: { $dynamicRef: '#length' }, length: { $dynamicAnchor: 'length', maxLength: 3 } } },
  },
};

describe('a validator that throws', () => {
  it('becomes a tool error the model can act on, and the tool never runs', async () => {
    let executions = 0;
    const registry = new ToolRegistry([
      defineTool({
        name: 'store_text',
        description: 'Stores a short text.',
        effect: 'write',
        inputSchema: selfReferencingSchema,
        execute: () => {
          executions++;
          return 'stored';
        },
      }),
    ]);
    const execution = await registry.call({ id: 'call_1', name: 'store_text', argumentsText: '{"text":"hi"}' });
    expect(execution.result.isError).toBe(true);
    expect(execution.failure?.code).toBe('internal_error');
    expect(execution.failure?.error).toBeInstanceOf(RangeError);
    expect(execution.result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('its input schema cannot be evaluated') });
    expect(executions).toBe(0);
  });
});
