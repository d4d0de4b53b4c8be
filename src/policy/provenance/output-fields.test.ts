/**
 * A tool's object output read as its values, not as JSON text: a line break inside a string is a line break, so a name right
 * after one is found as a verbatim copy and an IBAN right after one is found by the detectors; each value keeps its field.
 */
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/define-tool.js';
import { normalizeToolOutput } from '../../tools/tool-output.js';
import { createPolicy } from '../create-policy.js';
import { argumentFrom, valuesFrom } from './provenance-rules.js';
import { MAX_INDEXED_CHARS, ProvenanceIndex } from './provenance-index.js';
import { MAX_OUTPUT_FIELDS, outputFields } from './output-fields.js';

const invoice = { invoice: { id: 'INV-7', text: 'Pay to:\nACME GmbH\nIBAN DE89370400440532013000', amount: 1200.5 } };
const bareIban = { note: 'Pay to:\nACME GmbH\nDE89370400440532013000' };
/** The text a tool returning the object gives the run (`normalizeToolOutput`: the object's JSON text). */
const jsonText = (value: unknown) => {
  const normalized = normalizeToolOutput(value);
  if (!normalized.success || normalized.result.content[0]?.type !== 'text') throw new Error('expected a text result');
  return normalized.result.content[0].text;
};

const readInvoice = defineTool({
  name: 'read_invoice',
  description: 'Reads the invoice',
  effect: 'read',
  inputSchema: { type: 'object' },
  execute: () => invoice,
});
const sendMoney = defineTool({ name: 'send_money', description: 'Pays', effect: 'write', inputSchema: { type: 'object' }, execute: () => 'paid' });

describe('a tool output that is a JSON object', () => {
  it('is indexed field by field with escapes decoded: the name after a line break is a verbatim copy, with its field', () => {
    expect(jsonText(invoice)).toContain('\\nACME GmbH\\n');
    const index = new ProvenanceIndex();
    index.addToolOutput({ origin: 'untrusted', toolName: 'read_invoice', callId: 'c1' }, jsonText(invoice));
    expect(index.sourcesOfText('ACME GmbH')).toEqual([{ origin: 'untrusted', toolName: 'read_invoice', callId: 'c1', field: 'invoice.text' }]);
    expect(index.sourcesOfValue('iban', 'DE89370400440532013000').map((source) => source.field)).toEqual(['invoice.text']);
    expect(index.sourcesOfNumber(1200.5).map((source) => source.field)).toEqual(['invoice.amount']);
  });

  it('lets the detectors see an IBAN right after a line break', () => {
    const index = new ProvenanceIndex();
    index.addToolOutput({ origin: 'untrusted', toolName: 'read_note', callId: 'c1' }, jsonText(bareIban));
    expect(index.sourcesOfValue('iban', 'DE89370400440532013000')).toEqual([{ origin: 'untrusted', toolName: 'read_note', callId: 'c1', field: 'note' }]);
  });

  it('keeps a key beside its value, so a code cued only by its key is still a code', () => {
    const index = new ProvenanceIndex();
    index.addToolOutput({ origin: 'untrusted', toolName: 'read_account', callId: 'c1' }, jsonText({ account: { pin: 4096, items: ['a\nb'] } }));
    expect(index.sourcesOfValue('code', '4096').map((source) => source.field)).toEqual(['account.pin']);
    expect(outputFields(jsonText({ account: { items: ['a\nb'] } }), MAX_INDEXED_CHARS)).toEqual([{ text: '"items":"a\nb"', field: 'account.items[0]' }]);
  });

  it('reads an output of more fields than the cap as one text of its values, with no field', () => {
    const rows = [...Array.from({ length: MAX_OUTPUT_FIELDS }, (_, index) => `row ${index}`), 'Pay to:\nDE89370400440532013000'];
    const fields = outputFields(JSON.stringify({ rows }), MAX_INDEXED_CHARS);
    expect(fields).toHaveLength(1);
    expect(fields[0]!.field).toBeUndefined();
    const index = new ProvenanceIndex();
    index.addToolOutput({ origin: 'untrusted', toolName: 'export', callId: 'c1' }, JSON.stringify({ rows }));
    expect(index.sourcesOfValue('iban', 'DE89370400440532013000')).toEqual([{ origin: 'untrusted', toolName: 'export', callId: 'c1' }]);
  });

  it('indexes any other output as its text, with no field', () => {
    for (const text of ['Pay to: ACME GmbH', '[1, 2', '"a string"', '{"__proto__": {"x": 1}}'])
      expect(outputFields(text, MAX_INDEXED_CHARS)).toEqual([{ text }]);
  });

  it('lets the flow rule vouch for the name and valuesFrom see the IBAN, through a policy session', () => {
    const session = createPolicy({
      rules: [
        argumentFrom({ tool: 'send_money', argument: 'recipient', from: ['tool:read_invoice'] }),
        valuesFrom({ tool: 'send_money', argument: 'iban', from: ['user'] }),
      ],
      flow: { untrustedWrites: 'block' },
    }).startRun({ trustedTexts: ['Pay the invoice in my inbox.'] });
    session.afterToolResult({
      call: { id: 'r1', name: 'read_invoice' },
      tool: readInvoice,
      result: { content: [{ type: 'text', text: jsonText(bareIban) }], isError: false },
    });
    // The name is vouched for by its source; the IBAN, right after a `\n` in the JSON text, is seen as the outsider's.
    expect(
      session.beforeToolCall({
        call: { id: 'c1', name: 'send_money' },
        tool: sendMoney,
        arguments: { recipient: 'ACME GmbH', iban: 'DE89 3704 0044 0532 0130 00' },
      }),
    ).toMatchObject({
      action: 'block',
      ruleId: 'values-from:send_money.iban',
      reason: expect.stringContaining('untrusted output of read_invoice'),
    });
    expect(session.beforeToolCall({ call: { id: 'c2', name: 'send_money' }, tool: sendMoney, arguments: { recipient: 'ACME GmbH' } })).toMatchObject({
      action: 'allow',
    });
  });
});

describe('the copied-argument check over a JSON object output', () => {
  it('finds a value copied with its line break from a field', () => {
    const session = createPolicy({ flow: { copiedArguments: 'block', untrustedWrites: 'allow' } }).startRun({ trustedTexts: ['Pay the invoice.'] });
    session.afterToolResult({
      call: { id: 'r1', name: 'read_invoice' },
      tool: readInvoice,
      result: { content: [{ type: 'text', text: jsonText(invoice) }], isError: false },
    });
    expect(session.beforeToolCall({ call: { id: 'c1', name: 'send_money' }, tool: sendMoney, arguments: { memo: 'Pay to:\nACME GmbH' } })).toMatchObject({
      action: 'block',
      ruleId: 'copied-argument',
    });
    // Restored from its snapshot, the session reads the output the same way.
    const restored = createPolicy({ flow: { copiedArguments: 'block', untrustedWrites: 'allow' } }).startRun({ restore: session.snapshot() });
    expect(restored.beforeToolCall({ call: { id: 'c2', name: 'send_money' }, tool: sendMoney, arguments: { memo: 'Pay to:\nACME GmbH' } })).toMatchObject({
      action: 'block',
    });
  });
});
