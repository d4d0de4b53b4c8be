import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

function reasonFindings(effect: 'read' | 'write', properties: Record<string, unknown>, required: string[]) {
  const tool = defineTool({
    name: 'cancel_order',
    description: 'Cancel one of the user’s open orders. Only call after the user confirmed which order.',
    effect,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    execute: () => 'ok',
  });
  return lintTools([tool]).filter((finding) => finding.rule === 'tw/missing-reason');
}

const orderId = { type: 'string', pattern: '^ord_[0-9]{8}$', description: 'The order to cancel.' };
const reason = { type: 'string', description: "Why the order is being cancelled (quote the user's request)." };

describe('tw/missing-reason', () => {
  it('reports a write tool without a reason property as an error', () => {
    expect(reasonFindings('write', { order_id: orderId }, ['order_id'])).toEqual([
      {
        rule: 'tw/missing-reason',
        severity: 'error',
        tool: 'cancel_order',
        path: '/inputSchema/properties',
        message: 'Write tool "cancel_order" has no "reason" property, so the model changes things without first saying why.',
        fix: 'Add "reason": { "type": "string", "description": "Why this call is being made (quote the user\'s request)" } as the first property, and list "reason" in "required".',
      },
    ]);
  });

  it('reports an optional reason, and a reason that is not a string', () => {
    expect(reasonFindings('write', { reason, order_id: orderId }, ['order_id']).map((finding) => [finding.severity, finding.path, finding.message])).toEqual([
      ['error', '/inputSchema/required', 'Write tool "cancel_order" has a "reason" property, but it is optional, so the model can skip it.'],
    ]);
    expect(
      reasonFindings('write', { reason: { type: 'integer', description: 'Reason code.' }, order_id: orderId }, ['reason', 'order_id']).map((finding) => [
        finding.severity,
        finding.message,
      ]),
    ).toEqual([['warning', 'The "reason" of write tool "cancel_order" is not a string (type "integer").']]);
  });

  it('stays silent on a write tool with a required string reason, and on read tools', () => {
    expect(reasonFindings('write', { reason, order_id: orderId }, ['reason', 'order_id'])).toEqual([]);
    expect(reasonFindings('read', { order_id: orderId }, ['order_id'])).toEqual([]);
  });
});
