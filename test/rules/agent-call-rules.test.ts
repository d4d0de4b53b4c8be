/**
 * The call-rules table through the agent loop: a scripted model makes the
 * call; a paused run is approved or denied through `resumeAgent`.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore, resumeAgent, runAgent } from '../../src/agent/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { silentLogger } from '../../src/tools/index.js';
import { CALL_RULE_CASES, expected, type CallRuleCase, type Observed, type PersonDecision } from './call-rules-table.js';

async function throughAgent(rule: CallRuleCase, decision: PersonDecision): Promise<Observed> {
  const ran: unknown[] = [];
  const tools = [rule.tool(ran)];
  const store = createMemoryRunStore();
  const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'pay', arguments: rule.arguments }]), textTurn('Done.')]);
  const options = { model, tools, store, recordDir: false as const, logger: silentLogger, context: rule.context };
  const first = await runAgent({ ...options, prompt: 'Pay it.' });
  if (first.status === 'completed') return { asked: undefined, runs: ran.length };
  if (first.status !== 'awaiting_confirmation') throw new Error(`unexpected status ${first.status}`);
  expect(first.pending).toHaveLength(1);
  const pending = first.pending[0]!;
  const resumed = await resumeAgent(first.runId, [{ token: pending.token, decision, ...(decision === 'deny' ? { reason: 'not now' } : {}) }], options);
  expect(resumed.status).toBe('completed');
  return { asked: pending.summary, runs: ran.length };
}

describe('call rules through the agent loop', () => {
  for (const rule of CALL_RULE_CASES) {
    for (const decision of ['approve', 'deny'] as const) {
      it(`${rule.name} (person would ${decision})`, async () => {
        expect(await throughAgent(rule, decision)).toEqual(expected(rule, decision));
      });
    }
  }
});
