import { describe, expect, it } from 'vitest';
import { readMcpExtras } from './read-mcp-extras.js';

describe('readMcpExtras', () => {
  it('reads resources, templates and prompts from named or default exports', () => {
    const read = () => 'x';
    const named = readMcpExtras({ resources: [{ uri: 'a://b', name: 'b', read }], prompts: [{ name: 'p', description: 'P.', get: read }] }, 'pack.ts');
    expect(named.resources).toHaveLength(1);
    expect(named.prompts).toHaveLength(1);
    expect(named.resourceTemplates).toEqual([]);
    const fallback = readMcpExtras({ default: { tools: [], resourceTemplates: [{ uriTemplate: 'a://{id}', name: 't', read }] } }, 'pack.ts');
    expect(fallback.resourceTemplates).toHaveLength(1);
  });

  it('names the export and the fix when a shape is wrong', () => {
    expect(() => readMcpExtras({ resources: {} }, 'pack.ts')).toThrow('Cannot load tools from "pack.ts": the export `resources` must be an array.');
    expect(() => readMcpExtras({ resources: [{ uri: 'a://b', name: 'b' }] }, 'pack.ts')).toThrow('resources[0].read must be a function (uri) => contents.');
    expect(() => readMcpExtras({ resourceTemplates: [{ uriTemplate: 'a://fixed', name: 't', read: () => '' }] }, 'pack.ts')).toThrow(
      'resourceTemplates[0].uriTemplate must be a URI template with at least one {variable}.',
    );
    expect(() => readMcpExtras({ prompts: [{ name: 'p', get: () => '' }] }, 'pack.ts')).toThrow('prompts[0].description must be a string (clients show it).');
  });
});
