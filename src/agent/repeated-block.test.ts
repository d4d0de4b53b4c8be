/**
 * A blocked call repeated up to the loop breaker's limit ends the turn, with a notice in its result, not the run: a model that
 * then does the task's other call completes; one that makes the blocked call once more after the notice is stopped. The same
 * rule holds for the guards of another loop (and so for an MCP session with guards).
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import type { ToolMessage } from '../protocol/messages.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import type { ToolResult } from '../tools/types.js';
import { createPolicy } from '../policy/index.js';
import { runAgent } from './run-agent.js';
import { createToolGuards } from './tool-guards.js';

const ran: string[] = [];
const sendMoney = defineTool<{ iban: string; amount: number }>({
  name: 'send_money',
  description: 'Pays.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { iban: { type: 'string' }, amount: { type: 'number' } }, required: ['iban', 'amount'] },
  execute: ({ iban }) => {
    ran.push(`send_money ${iban}`);
    return 'paid';
  },
});
const sendEmail = defineTool<{ to: string }>({
  name: 'send_email',
  description: 'Mails.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
  execute: ({ to }) => {
    ran.push(`send_email ${to}`);
    return 'sent';
  },
});
// The task may mail but not pay: every payment is blocked, whatever the model does.
const policy = createPolicy({ allowTools: ['send_email'] });
const pay = { name: 'send_money', arguments: { iban: 'GB29NWBK60161331926819', amount: 900 } };
const textOf = (result: ToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('a blocked call repeated up to the loop breaker limit', () => {
  it('ends the turn with a notice, and the run completes with the task’s other call made', async () => {
    ran.length = 0;
    const model = createScriptedModel([
      toolCallTurn([pay]),
      toolCallTurn([pay]),
      toolCallTurn([pay]),
      toolCallTurn([{ name: 'send_email', arguments: { to: 'bob@corp.example' } }]),
      textTurn('Mailed Bob; the payment is not allowed.'),
    ]);
    const result = await runAgent({ model, tools: [sendMoney, sendEmail], policy, prompt: 'Pay and mail Bob.', recordDir: false, logger: silentLogger });
    expect(result).toMatchObject({ status: 'completed', text: 'Mailed Bob; the payment is not allowed.' });
    expect(ran).toEqual(['send_email bob@corp.example']);
    const results = result.messages.filter((message): message is ToolMessage => message.role === 'tool').map((message) => textOf(message.results[0]!.result));
    expect(results.slice(0, 2).every((text) => text.includes('tool-not-allowed') && !text.includes('will stay blocked'))).toBe(true);
    expect(results[2]).toContain('has now been blocked 3 times with the same arguments, and it will stay blocked');
    expect(results[2]).toContain("Go on with the rest of the user's task");
  });

  it('stops the run when the model makes the call once more after the notice', async () => {
    const model = createScriptedModel([...Array.from({ length: 4 }, () => toolCallTurn([pay])), textTurn('never')]);
    const result = await runAgent({ model, tools: [sendMoney, sendEmail], policy, prompt: 'Pay.', recordDir: false, logger: silentLogger });
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'loop_detected', pattern: 'repeated_failure', count: 4, limit: 3 } });
    expect(result.status === 'stopped' && result.stopReason.kind === 'loop_detected' && result.stopReason.message).toContain('told it would stay blocked');
  });

  it('still stops a call that ran and failed at the limit', async () => {
    const failing = defineTool({
      name: 'lookup',
      description: 'x',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => Promise.reject(new Error('down')),
    });
    const model = createScriptedModel(Array.from({ length: 5 }, () => toolCallTurn([{ name: 'lookup', arguments: {} }])));
    const result = await runAgent({ model, tools: [failing], prompt: 'Look.', recordDir: false, logger: silentLogger });
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'loop_detected', pattern: 'repeated_failure', count: 3 } });
  });

  it('holds the same rule for the guards of another loop', async () => {
    ran.length = 0;
    const guards = createToolGuards({ tools: [sendMoney, sendEmail], policy });
    const results = [];
    for (const id of ['c1', 'c2', 'c3']) results.push(await guards.run({ id, ...pay }));
    expect(results.map((call) => call.status)).toEqual(['blocked', 'blocked', 'blocked']);
    expect(textOf(results[2]!.result)).toContain('will stay blocked');
    expect(guards.stopped).toBeUndefined();
    expect((await guards.run({ id: 'c4', name: 'send_email', arguments: { to: 'bob@corp.example' } })).status).toBe('succeeded');
    expect(ran).toEqual(['send_email bob@corp.example']);
    expect((await guards.run({ id: 'c5', ...pay })).stop).toMatchObject({ kind: 'loop_detected', pattern: 'repeated_failure', count: 4 });
  });
});
