import { describe, expect, it } from 'vitest';
import { LINT_RULES, POISONING_RULE_IDS, lintTools } from '../../src/formats/lint/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { tools } from './index.js';

describe('examples/bad-tools', () => {
  it('breaks every lint rule but the poisoning checks (src/formats/lint/__fixtures__/poisoned-tools.json breaks those)', () => {
    const fired = new Set(lintTools(tools).map((finding) => finding.rule));
    const poisoning: readonly string[] = POISONING_RULE_IDS;
    expect([...fired].sort()).toEqual(
      LINT_RULES.map((rule) => rule.id)
        .filter((id) => !poisoning.includes(id))
        .sort(),
    );
  });

  it('breaks the rules each tool is there for', () => {
    const byTool = new Map<string, Set<string>>();
    for (const finding of lintTools(tools)) {
      const key = finding.tool ?? '(tool set)';
      byTool.set(key, (byTool.get(key) ?? new Set()).add(finding.rule));
    }
    const rules = (name: string) => [...(byTool.get(name) ?? [])].sort();
    expect(rules('manage_subscription')).toEqual([
      'tw/missing-reason',
      'tw/missing-required',
      'tw/missing-when',
      'tw/open-object',
      'tw/prefer-enum',
      'tw/vague-description',
    ]);
    expect(rules('do_stuff')).toEqual(['tw/missing-description']);
    expect(rules('set_preferences')).toEqual(['tw/prefer-enum']);
    expect(rules('lookup_customer')).toEqual(['tw/missing-format', 'tw/missing-required']);
    expect(rules('cancel_order')).toEqual(['tw/missing-reason', 'tw/missing-required']);
    expect(rules('save_address')).toEqual(['tw/open-object']);
    expect(rules('book_room')).toEqual(['tw/provider-compatibility']);
    expect(rules('export_usage')).toEqual(['tw/undeclared-effect']);
    expect(rules('search_by_label')).toEqual(['tw/backtracking-pattern']);
    expect(rules('send_reminder')).toEqual(['tw/unconfirmed-action']);
    expect(rules('forward_invoice')).toEqual(['tw/unmarked-critical']);
    expect(rules('legacy_report_01')).toEqual([]);
    expect(rules('(tool set)')).toEqual(['tw/too-many-tools']);
  });

  it('still runs in a registry, which is the problem: open and optional schemas let bad calls through', async () => {
    const registry = new ToolRegistry(tools);
    expect(registry.size).toBe(26);
    // A misspelled property passes validation, because the object is open.
    const typo = await registry.call({ id: 'call_1', name: 'manage_subscription', arguments: { actoin: 'cancel' } });
    expect(typo.result).toEqual({ content: [{ type: 'text', text: 'done' }], isError: false });
    // No order id at all passes too, because nothing is required.
    const empty = await registry.call({ id: 'call_2', name: 'cancel_order', arguments: {} });
    expect(empty.result.isError).toBe(false);
    // Where the schema is closed, the same mistake is caught and explained.
    const closed = await registry.call({ id: 'call_3', name: 'set_preferences', arguments: { units: 'metric', theme: 'dark', sort: 'asc', colour: 'red' } });
    expect(closed.result.content).toEqual([
      {
        type: 'text',
        text: `Invalid arguments for tool "set_preferences" (1 problem):\n1. $: has the unknown property "colour"; remove it (allowed properties: "units", "theme", "sort").\nFix it and call "set_preferences" again. Its input schema is: ${JSON.stringify(registry.require('set_preferences').inputSchema)}`,
      },
    ]);
  });
});
