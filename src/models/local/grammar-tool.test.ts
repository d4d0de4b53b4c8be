/**
 * A grammar tool under the token mask: the local model decodes the tool's object form, whose `pattern` is the
 * regex anchored at both ends, so every call's text is in the grammar, even from the tiny model, which has no skill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCallsOf } from '../../protocol/model-exchange.js';
import { ToolRegistry, defineTool, silentLogger } from '../../tools/index.js';
import { openTinyLocalModel } from './__fixtures__/tiny-local-model.js';
import type { LocalModel } from './local-model.js';

const COMMAND = '(add|remove) [a-z]{3,8} (to|from) (cart|list)';
const editList = defineTool({
  name: 'edit_list',
  description: 'Adds an item to, or removes one from, the cart or the list.',
  effect: 'read',
  input: { grammar: { syntax: 'regex', definition: COMMAND } },
  execute: (command) => command,
});
const CALLS = 20;

let constrained: LocalModel;
beforeAll(async () => void (constrained = await openTinyLocalModel()), 120_000);
afterAll(() => constrained?.close());

describe('a grammar tool on the local model (tiny structural test model)', () => {
  it(`makes ${CALLS} of ${CALLS} calls whose text matches the regex at temperature 1`, async () => {
    const registry = new ToolRegistry([editList], { logger: silentLogger });
    const whole = new RegExp(`^(?:${COMMAND})$`, 'u');
    const texts: string[] = [];
    for (let seed = 1; seed <= CALLS; seed++) {
      const response = await constrained.generate({
        messages: [{ role: 'user', content: 'Put milk on the list.' }],
        tools: [editList],
        toolChoice: 'required',
        temperature: 1,
        seed,
      });
      const calls = toolCallsOf(response);
      expect(calls).toHaveLength(1);
      const prepared = registry.prepare(calls[0]!);
      if (!prepared.success) throw new Error(`seed ${seed}: ${calls[0]!.argumentsText}\n${prepared.failure.message}`);
      const text = (calls[0]!.arguments as { input: string }).input;
      expect(text).toMatch(whole);
      texts.push(text);
    }
    expect(texts).toHaveLength(CALLS);
    // The model has no skill: the texts differ, so the mask, not a fixed answer, is what keeps them in the grammar.
    expect(new Set(texts).size).toBeGreaterThan(1);
  }, 300_000);

  it('decodes a lark grammar tool as any string, and says so in a warning', async () => {
    const addNumbers = defineTool({
      name: 'add_numbers',
      description: 'Adds numbers.',
      effect: 'read',
      input: { grammar: { syntax: 'lark', definition: 'start: NUMBER ("+" NUMBER)*\n%import common.NUMBER' } },
      execute: (sum) => sum,
    });
    const response = await constrained.generate({
      messages: [{ role: 'user', content: 'Add 1 and 2.' }],
      tools: [addNumbers],
      toolChoice: 'required',
      temperature: 1,
      seed: 1,
    });
    expect(response.warnings).toContainEqual(
      expect.objectContaining({
        type: 'unsupported',
        feature: 'grammar-tool',
        tool: 'add_numbers',
        details: expect.stringContaining('the token mask does not read Lark: '),
      }),
    );
  }, 120_000);
});
