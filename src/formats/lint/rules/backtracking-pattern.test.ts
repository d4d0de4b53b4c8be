import { describe, expect, it } from 'vitest';
import { defineTool, type JsonSchemaObject } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function findings(inputSchema: JsonSchemaObject, outputSchema?: JsonSchemaObject) {
  const tool = defineTool({
    name: 'find_order',
    description: 'Find one order by the reference printed on the receipt.',
    effect: 'read',
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    execute: () => 'ok',
  });
  return lintTools([tool]).filter((finding) => finding.rule === 'tw/backtracking-pattern');
}

function patternFindings(pattern: string) {
  return findings({
    type: 'object',
    properties: { reference: { type: 'string', pattern, description: 'The order reference.' } },
    required: ['reference'],
    additionalProperties: false,
  });
}

describe('tw/backtracking-pattern', () => {
  it.each([
    ['^(a+)+$', 'a quantifier nested inside another, where one iteration can end with what the next begins with'],
    ['^(\\w+\\s?)*$', 'a quantifier nested inside another, where one iteration can end with what the next begins with'],
    ['(x+x+)+y', 'a quantifier nested inside another, where one iteration can end with what the next begins with'],
    ['^((ab)*)*$', 'a quantifier nested inside another, where one iteration can end with what the next begins with'],
    ['^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*@[a-z]+$', 'a quantifier nested inside another, where one iteration can end with what the next begins with'],
    ['^(a|ab)*$', 'alternatives under a quantifier that can begin with the same character'],
    ['^(\\w|\\d)+$', 'alternatives under a quantifier that can begin with the same character'],
    ['^(a|)+$', 'alternatives under a quantifier that can begin with the same character'],
    ['^(?!-)(a+)+$', 'a quantifier nested inside another, where one iteration can end with what the next begins with'],
    ['^(?=(a|ab)*$)', 'alternatives under a quantifier that can begin with the same character'],
  ])('warns about %s', (pattern, hazard) => {
    const [finding, ...rest] = patternFindings(pattern);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ severity: 'warning', tool: 'find_order', path: '/inputSchema/properties/reference/pattern' });
    expect(finding!.message).toBe(
      `The pattern ${JSON.stringify(pattern)} has ${hazard}: a backtracking regex engine can take exponential time on a short string that almost matches. toolwright checks it in linear time, but other validators of this schema (a provider's, another MCP client's) may not.`,
    );
    expect(finding!.fix).toContain('`(a+)+` → `a+`');
  });

  it.each([
    '^inv_[0-9]{6}$',
    '^[0-9]{4}-(0[1-9]|1[0-2])$',
    '^\\+[1-9][0-9]{6,14}$',
    '^(\\d+-)*\\d+$',
    '^(ab+)*$',
    '^([a-z]{2})+$',
    '^(a|b)*$',
    '(a|b)*a(a|b){20}',
    '^\\w+(\\s\\w+)*$',
    '^(?:[a-z]|\\d{2})*$',
    '^(?!-)[a-z0-9-]+$',
    '^(?=.*[A-Z])(?=.*\\d).{8,}$',
  ])('stays silent on %s, which a backtracking engine reads in polynomial time', (pattern) => {
    expect(patternFindings(pattern)).toEqual([]);
  });

  it('reports a pattern the linear engine refuses as an error, wherever it sits', () => {
    const result = findings(
      {
        type: 'object',
        patternProperties: { '^x(?!_)': { type: 'string' } },
        properties: { tags: { type: 'array', items: { type: 'string', pattern: '(\\w)\\1' } } },
      },
      { type: 'object', properties: { word: { type: 'string', pattern: '^\\p{L}+(?=!)' } } },
    );
    expect(result.map((finding) => [finding.severity, finding.path])).toEqual([
      ['error', '/inputSchema/patternProperties/^x(?!_)'],
      ['error', '/inputSchema/properties/tags/items/pattern'],
      ['error', '/outputSchema/properties/word/pattern'],
    ]);
    expect(result[1]!.message).toBe(
      'The pattern "(\\\\w)\\\\1" uses backreferences (at offset 4 of /(\\w)\\1/), which toolwright\'s linear-time pattern engine cannot run, so the registry refuses this tool (TW_UNSAFE_PATTERN).',
    );
  });

  it('runs Unicode property escapes, which are character classes: no error, and the backtracking shapes found through them', () => {
    expect(patternFindings('^[\\p{L}\\p{N}_ -]+$')).toEqual([]);
    expect(patternFindings('^(\\p{L}+)+$').map((finding) => finding.severity)).toEqual(['warning']);
  });

  it('leaves a pattern that is not a regex at all to the schema compiler', () => {
    expect(patternFindings('a{')).toEqual([]);
  });
});
