import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function enumFindings(properties: Record<string, unknown>) {
  const tool = defineTool({
    name: 'set_preferences',
    description: 'Save the display preferences the user asked for in this conversation.',
    effect: 'read',
    inputSchema: { type: 'object', properties, required: [], additionalProperties: false },
    execute: () => 'ok',
  });
  return lintTools([tool]).filter((finding) => finding.rule === 'tw/prefer-enum');
}

describe('tw/prefer-enum', () => {
  it('reads the allowed values off "one of", "either … or", pipes and quoted lists', () => {
    const findings = enumFindings({
      theme: { type: 'string', description: 'Color theme, one of light, dark, system.' },
      units: { type: 'string', description: 'Either metric or imperial' },
      sort: { type: 'string', description: 'Sort order: asc|desc' },
      density: { type: 'string', description: 'Row density: "compact", "normal" or "roomy".' },
      tags: { type: 'array', items: { type: 'string' }, description: 'Labels to show; allowed values: new, sale, popular' },
    });
    expect(findings.map((finding) => [finding.path, finding.fix])).toEqual([
      ['/inputSchema/properties/theme', 'Add "enum": ["light","dark","system"] to the schema, and keep the description for what each value means.'],
      ['/inputSchema/properties/units', 'Add "enum": ["metric","imperial"] to the schema, and keep the description for what each value means.'],
      ['/inputSchema/properties/sort', 'Add "enum": ["asc","desc"] to the schema, and keep the description for what each value means.'],
      ['/inputSchema/properties/density', 'Add "enum": ["compact","normal","roomy"] to the schema, and keep the description for what each value means.'],
      ['/inputSchema/properties/tags/items', 'Add "enum": ["new","sale","popular"] to the schema, and keep the description for what each value means.'],
    ]);
    expect(findings[1]!).toEqual({
      rule: 'tw/prefer-enum',
      severity: 'warning',
      tool: 'set_preferences',
      path: '/inputSchema/properties/units',
      message: 'Property "units" is free text, but its description lists the allowed values (either … or): "Either metric or imperial".',
      fix: 'Add "enum": ["metric","imperial"] to the schema, and keep the description for what each value means.',
    });
  });

  it('reports free-text fields whose name stands for a fixed set', () => {
    expect(enumFindings({ status: { type: 'string', description: 'Which orders to show.' } }).map((finding) => finding.message)).toEqual([
      'Property "status" is free text, but its name suggests a fixed set of values.',
    ]);
  });

  it('stays silent on enums, patterns, examples and ordinary prose', () => {
    expect(
      enumFindings({
        theme: { type: 'string', enum: ['light', 'dark'], description: 'Color theme, one of light or dark.' },
        status: { type: 'string', enum: ['open', 'closed'], description: 'Which orders to show.' },
        code: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Either USD or EUR style code.' },
        nickname: { type: 'string', description: 'A short name, for example "Sam", "Al" or "Jo".' },
        note: { type: 'string', description: 'Any remark the user wants saved with one of their settings.' },
        count: { type: 'integer', description: 'Either 10 or 20 rows per page.' },
      }),
    ).toEqual([]);
  });
});
