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
    // anthropic-strict joined the accepted providers (checked only when named).
    expect(() => lintTools([badWrite], { providers: ['gemini' as never] })).toThrow(
      'lintTools: unknown provider "gemini"; use any of openai, openai-strict, anthropic, mcp, anthropic-strict.',
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

  it('lints an imported tool for what its importer can act on: no reason demanded, no schema-design advice, a missing description only a warning', () => {
    const imported = defineTool({
      name: 'update_record',
      description: '',
      effect: 'write',
      confirm: true,
      origin: { kind: 'mcp', server: 'crm', effectAnnotated: true },
      inputSchema: { type: 'object', properties: { record_id: { type: 'string' }, status: { type: 'string' } }, required: ['record_id', 'nope'] },
      execute: () => 'ok',
    });
    const summary = (options: { imported?: boolean } = {}) =>
      lintTools([imported], options).map((finding) => `${finding.rule} ${finding.severity} ${finding.path}`);
    expect(summary()).toEqual([
      'tw/missing-description warning /description',
      // every call fails validation: true whoever wrote the schema
      'tw/missing-required error /inputSchema/required',
    ]);
    expect(summary({ imported: false })).toContain('tw/missing-reason error /inputSchema/properties');
    expect(() => lintTools([imported], { imported: 'yes' as never })).toThrow('lintTools: `imported` must be true or false (got "yes").');
  });

  it('reports a finding in a definition several tools share once, naming the other tools', () => {
    const withDefs = (name: string) =>
      defineTool({
        name,
        description: `Look up ${name} records, when the user asks for them.`,
        effect: 'read',
        inputSchema: {
          type: 'object',
          properties: { filter: { $ref: '#/$defs/Filter' } },
          required: ['filter'],
          additionalProperties: false,
          $defs: { Filter: { type: 'object', properties: { text: { type: 'string', description: 'Words to match.' } }, required: ['text'] } },
        },
        execute: () => 'ok',
      });
    const findings = lintTools([withDefs('first'), withDefs('second'), withDefs('third')]);
    expect(findings.map((finding) => [finding.rule, finding.tool, finding.path])).toEqual([['tw/open-object', 'first', '/inputSchema/$defs/Filter']]);
    expect(findings[0]!.message).toMatch(/ The same definition is in "second", "third"; reported once\.$/);
  });
});
