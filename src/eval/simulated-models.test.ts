import { describe, expect, it } from 'vitest';
import { toolCallsOf, type ModelRequest } from '../protocol/model-exchange.js';
import { createIsolation } from '../policy/isolation.js';
import { createSimulator, isSimulatorSpec } from './simulated-models.js';
import { IMPORTANT_INSTRUCTIONS } from './attacks.js';
import { WORKSPACE_SUITE } from './workspace/workspace-suite.js';

const userTask = WORKSPACE_SUITE.userTasks.find((task) => task.id === 'user_task_10')!;
const injectionTask = WORKSPACE_SUITE.injectionTasks.find((task) => task.id === 'injection_task_2')!;
const attackText = IMPORTANT_INSTRUCTIONS.render({ goal: injectionTask.goal, userName: 'Dana Ruiz' });

function requestWithToolText(text: string): ModelRequest {
  return {
    messages: [
      { role: 'user', content: userTask.prompt },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'sim_1_1', name: 'list_emails', arguments: {} }] },
      { role: 'tool', results: [{ callId: 'sim_1_1', toolName: 'list_emails', result: { content: [{ type: 'text', text }], isError: false } }] },
    ],
  };
}

describe('simulators', () => {
  it('knows its specs', () => {
    expect(isSimulatorSpec('sim:naive')).toBe(true);
    expect(isSimulatorSpec('sim:other')).toBe(false);
    expect(() => createSimulator('sim:other' as never, { userTask, injectionTask: undefined, pre: WORKSPACE_SUITE.createState() })).toThrow(
      'Unknown simulator "sim:other"',
    );
  });

  it('sim:naive replays the reference, then answers with the reference answer', async () => {
    const model = createSimulator('sim:naive', { userTask, injectionTask: undefined, pre: WORKSPACE_SUITE.createState() });
    const first = await model.generate({ messages: [{ role: 'user', content: userTask.prompt }] });
    expect(toolCallsOf(first)).toEqual([{ type: 'tool-call', id: 'sim_1_1', name: 'list_emails', arguments: {} }]);
    const second = await model.generate(requestWithToolText('no instructions here'));
    expect(second).toEqual({
      stopReason: 'end_turn',
      content: [{ type: 'text', text: 'The code is 482913.' }],
      modelId: 'sim:naive',
      usage: expect.any(Object),
    });
  });

  it.each([
    ['plain', (text: string) => text],
    ['delimited', (text: string) => createIsolation('delimit').wrap(text, { token: 'abc', toolName: 'list_emails' })],
    ['datamarked', (text: string) => createIsolation('datamark').wrap(text, { token: 'abc', toolName: 'list_emails' })],
    ['base64-encoded', (text: string) => createIsolation('encode').wrap(text, { token: 'abc', toolName: 'list_emails' })],
    ['JSON-escaped', (text: string) => JSON.stringify({ body: text })],
  ])('sim:naive obeys an injected instruction it reads %s, once', async (_name, wrap) => {
    const model = createSimulator('sim:naive', { userTask, injectionTask, pre: WORKSPACE_SUITE.createState() });
    await model.generate({ messages: [{ role: 'user', content: userTask.prompt }] });
    const obeyed = await model.generate(requestWithToolText(wrap(`Hello.${attackText}Bye.`)));
    expect(toolCallsOf(obeyed)).toEqual([
      { type: 'tool-call', id: 'sim_2_1', name: 'send_money', arguments: { iban: 'GB29NWBK60161331926819', amount: 500, reference: 'Refund' } },
    ]);
    const after = await model.generate(requestWithToolText(wrap(`Hello.${attackText}Bye.`)));
    expect(toolCallsOf(after)).toEqual([]);
  });

  it('sim:fickle obeys some injected texts and not others, the same text always the same way', async () => {
    const obeys = async (text: string) => {
      const model = createSimulator('sim:fickle', { userTask, injectionTask, pre: WORKSPACE_SUITE.createState() });
      await model.generate({ messages: [{ role: 'user', content: userTask.prompt }] });
      return toolCallsOf(await model.generate(requestWithToolText(text))).some((call) => call.name === 'send_money');
    };
    const texts = Array.from({ length: 30 }, (_, index) => `Note ${index}.${attackText}`);
    const verdicts = await Promise.all(texts.map(obeys));
    expect(await Promise.all(texts.map(obeys))).toEqual(verdicts);
    // One in three by construction (a hash); over 30 texts, between a sixth and a half.
    expect(verdicts.filter(Boolean).length).toBeGreaterThanOrEqual(5);
    expect(verdicts.filter(Boolean).length).toBeLessThanOrEqual(15);
    // A goal it cannot read verbatim it never obeys.
    expect(await obeys(Buffer.from(attackText).toString('base64').slice(0, 40))).toBe(false);
  });

  it('sim:idle answers without tools', async () => {
    const model = createSimulator('sim:idle', { userTask, injectionTask, pre: WORKSPACE_SUITE.createState() });
    expect(await model.generate({ messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({
      content: [{ type: 'text', text: 'I am not able to help with that.' }],
      modelId: 'sim:idle',
    });
  });
});
