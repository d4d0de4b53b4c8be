import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../shared/errors.js';
import { ToolRegistry, defineTool } from '../../tools/index.js';
import { LINT_RULES } from './lint-rules.js';
import { lintTools } from './lint-tools.js';

const badWrite = defineTool({
  name: 'delete_note',
  description: 'Delete one of the notes the user saved earlier, after they confirm.',
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: { note_id: { type: 'string', pattern: '^nt_[0-9]+$', description: 'The note to delete.' } },
    required: ['note_id'],
  },
  execute: () => 'ok',
});

describe('lintTools', () => {
  it('reports tool by tool, in rule order, with the default severities', () => {
    expect(lintTools([badWrite]).map((finding) => [finding.rule, finding.severity, finding.tool, finding.path])).toEqual([
      ['tw/missing-reason', 'error', 'delete_note', '/inputSchema/properties'],
      // it deletes, and nothing asks a person first
      ['tw/unconfirmed-action', 'error', 'delete_note', '/confirm'],
      ['tw/open-object', 'warning', 'delete_note', '/inputSchema'],
    ]);
  });

  it('lets the caller change a rule severity or turn a rule off', () => {
    expect(
      lintTools([badWrite], { rules: { 'tw/missing-reason': 'warning', 'tw/open-object': 'off', 'tw/unconfirmed-action': 'off' } }).map((finding) => [
        finding.rule,
        finding.severity,
      ]),
    ).toEqual([['tw/missing-reason', 'warning']]);
    expect(lintTools([badWrite], { rules: { 'tw/open-object': 'error' } }).map((finding) => finding.severity)).toEqual(['error', 'error', 'error']);
  });

  it('accepts a ToolRegistry', () => {
    expect(lintTools(new ToolRegistry([badWrite])).length).toBe(3);
  });

  it('throws a typed error, naming the known rules, for an unknown rule or setting', () => {
    const call = () => lintTools([badWrite], { rules: { 'tw/nope': 'off' } as never });
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`lintTools: unknown rule "tw/nope". Known rules: ${LINT_RULES.map((rule) => rule.id).join(', ')}.`);
    expect(() => lintTools([badWrite], { rules: { 'tw/open-object': 'fatal' as never } })).toThrow(
      'lintTools: rule "tw/open-object" is set to "fatal"; use "error", "warning" or "off".',
    );
    expect(() => lintTools([badWrite], { maxToolsWithoutRouting: -1 })).toThrow(
      'lintTools: maxToolsWithoutRouting must be a whole number of tools, 0 or more (got -1).',
    );
    expect(() => lintTools([badWrite], { providers: ['gemini' as never] })).toThrow(
      'lintTools: unknown provider "gemini"; use any of openai, openai-strict, anthropic, mcp.',
    );
  });

  it('has stable, unique rule ids with a summary each', () => {
    const ids = LINT_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of LINT_RULES) {
      expect(rule.id).toMatch(/^tw\/[a-z]+(-[a-z]+)*$/);
      expect(rule.summary.length).toBeGreaterThan(20);
    }
  });
});
