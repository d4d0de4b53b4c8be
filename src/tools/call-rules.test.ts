import { describe, expect, it } from 'vitest';
import { createRedactor } from '../shared/redaction/index.js';
import { SUMMARY_MAX_CHARS, needsConfirmation, schedulingEffect, summarizeCall } from './call-rules.js';
import { defineTool } from './define-tool.js';

// The table every caller shares is test/rules/call-rules-table.ts; these are the edges only a unit test reaches.
const tool = (extra: object = {}) =>
  defineTool({ name: 'note', description: 'Writes a note.', effect: 'write', inputSchema: { type: 'object' }, execute: () => 'ok', ...extra });
const redactor = createRedactor();

describe('call rules', () => {
  it('asks for a hand-built tool whose confirm is neither a boolean nor a function', () => {
    expect(needsConfirmation({ ...tool(), confirm: undefined } as never, {})).toBe(true);
  });

  it('never splits a surrogate pair when it cuts a summary', () => {
    const emoji = '😀'.repeat(200);
    const line = summarizeCall(tool({ summarize: () => `a${emoji}` }), {}, { redactor });
    expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(line.endsWith('…')).toBe(true);
    expect(line.slice(0, -1)).toBe(`a${'😀'.repeat((line.length - 2) / 2)}`);
  });

  it('appends the reason after the cut, redacted', () => {
    const line = summarizeCall(tool({ summarize: () => 'y'.repeat(400) }), {}, { redactor, reason: 'copied password=hunter2hunter2' });
    expect(line).toBe(`${'y'.repeat(SUMMARY_MAX_CHARS - 1)}… (copied password=[REDACTED])`);
  });

  it('shows arguments JSON cannot carry without throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(summarizeCall(tool(), cyclic, { redactor })).toBe('note({"self":"[REDACTED: circular]"})');
    expect(summarizeCall(tool(), { big: 1n }, { redactor })).toMatch(/^note\(/);
  });

  it('schedules reads together and everything else alone', () => {
    expect(schedulingEffect(tool({ effect: 'read' }))).toBe('read');
    expect(schedulingEffect(tool())).toBe('write');
    expect(schedulingEffect(defineTool({ name: 'seed', description: 'A seed-shaped tool.', input_schema: { type: 'object' }, fn: () => 'ok' }))).toBe('write');
  });
});
