/**
 * A local model has no code runner: a tool that allows programmatic calls is offered as a plain tool under the mask,
 * and the response's warnings say so.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineTool } from '../../tools/define-tool.js';
import { toolCallsOf } from '../../protocol/model-exchange.js';
import { openTinyLocalModel } from './__fixtures__/tiny-local-model.js';
import type { LocalModel } from './local-model.js';

let model: LocalModel;
beforeAll(async () => void (model = await openTinyLocalModel()), 120_000);
afterAll(() => model?.close());

it('warns per tool that allows programmatic calls, and the call it makes is a direct one', async () => {
  const querySales = defineTool<{ region: string }>({
    name: 'query_sales',
    description: 'Revenue of one region.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { region: { type: 'string', maxLength: 8 } }, required: ['region'], additionalProperties: false },
    allowedCallers: ['direct', 'programmatic'],
    execute: ({ region }) => `${region}: 100`,
  });
  const response = await model.generate({ messages: [{ role: 'user', content: 'Totals?' }], tools: [querySales], toolChoice: 'required', seed: 1 });
  expect(response.warnings?.filter((warning) => warning.feature === 'programmatic-tool-calling')).toEqual([
    {
      type: 'unsupported',
      provider: 'local',
      feature: 'programmatic-tool-calling',
      path: '/allowedCallers',
      tool: 'query_sales',
      details: 'A local model cannot run code that calls tools; "query_sales" is declared as a tool the model calls directly',
    },
  ]);
  expect(toolCallsOf(response)[0]!.caller).toBeUndefined();
}, 120_000);
