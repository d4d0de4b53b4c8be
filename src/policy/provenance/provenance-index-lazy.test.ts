/**
 * The provenance index runs its detectors only when asked: texts added are indexed, in the order they came, on the first
 * query after them, so a session whose calls no rule checks against the index costs no detection per result.
 */
import { describe, expect, it, vi } from 'vitest';
import * as detectors from './value-detectors.js';
import { ProvenanceIndex } from './provenance-index.js';
import type * as ValueDetectors from './value-detectors.js';

vi.mock('./value-detectors.js', async (importOriginal) => {
  const original = await importOriginal<typeof ValueDetectors>();
  return { ...original, detectValues: vi.fn(original.detectValues) };
});

const origins = (sources: readonly { origin: string; toolName?: string; field?: string }[]) =>
  sources.map((source) => `${source.toolName ?? source.origin}${source.field ? `.${source.field}` : ''}`);

describe('ProvenanceIndex, indexed on first query', () => {
  it('detects nothing while texts are only added', () => {
    const detect = vi.mocked(detectors.detectValues);
    detect.mockClear();
    const built = new ProvenanceIndex();
    built.add({ origin: 'user' }, 'Refund Carol 25 EUR; reply to Bob.');
    built.addToolOutput({ origin: 'untrusted', toolName: 'read_email', callId: 'c2' }, 'Pay 1,200.00 EUR to GB29NWBK60161331926819');
    expect(detect).not.toHaveBeenCalled();
    expect(origins(built.sourcesOfNumber(25))).toEqual(['user']);
    expect(detect).toHaveBeenCalledTimes(2);
  });

  it('answers as if every text had been indexed when added: in their order, tool outputs field by field, texts added after a query included', () => {
    const built = new ProvenanceIndex();
    const source = { origin: 'untrusted' as const, toolName: 'list_payments', callId: 'c1' };
    built.addToolOutput(source, '{"to":"GB29NWBK60161331926819","memo":"see https://evil.example/x"}');
    built.add({ origin: 'user' }, 'Pay GB29 NWBK 6016 1331 9268 19 please.');
    // The caller's object may change after it was added; the index keeps the source as it was.
    source.callId = 'changed';
    expect(origins(built.sourcesOfValue('iban', 'GB29NWBK60161331926819'))).toEqual(['list_payments.to', 'user']);
    expect(built.sourcesOfValue('iban', 'GB29NWBK60161331926819')[0]!.callId).toBe('c1');
    built.addToolOutput({ origin: 'trusted', toolName: 'search_contacts', callId: 'c3' }, 'Carol: GB29NWBK60161331926819');
    expect(origins(built.sourcesOfValue('iban', 'GB29NWBK60161331926819'))).toEqual(['list_payments.to', 'user', 'search_contacts']);
    expect(origins(built.sourcesOfText('evil.example/x'))).toEqual(['list_payments.memo']);
    expect(built.valuesInOutput({ origin: 'trusted', toolName: 'search_contacts', callId: 'c3' }, 'iban').map((found) => found.line)).toEqual([
      'Carol: GB29NWBK60161331926819',
    ]);
  });
});
