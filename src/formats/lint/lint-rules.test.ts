import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LINT_RULES, isLintRuleId } from './lint-rules.js';

describe('LINT_RULES', () => {
  it('documents every rule in docs/lint-rules.md, with a section and a table row each', () => {
    const docs = readFileSync(new URL('../../../docs/lint-rules.md', import.meta.url), 'utf8');
    const sections = [...docs.matchAll(/^## (tw\/[a-z-]+)$/gm)].map((match) => match[1]);
    expect(sections).toEqual(LINT_RULES.map((rule) => rule.id));
    for (const rule of LINT_RULES) expect(docs).toContain(`| [\`${rule.id}\`]`);
  });

  it('recognizes its own ids only', () => {
    expect(isLintRuleId('tw/open-object')).toBe(true);
    expect(isLintRuleId('tw/open_object')).toBe(false);
    expect(isLintRuleId('constructor')).toBe(false);
  });
});
