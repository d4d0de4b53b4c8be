import { describe, expect, expectTypeOf, it } from 'vitest';
import { ToolDefinitionError } from '../shared/errors.js';
import { defineTool } from './define-tool.js';
import { ToolRegistry, silentLogger } from './tool-registry.js';

const DATE = '\\d{4}-\\d{2}-\\d{2}';

function dateTool(received: string[] = []) {
  return defineTool({
    name: 'set_due_date',
    description: 'Sets the due date, written YYYY-MM-DD.',
    effect: 'write',
    input: { grammar: { syntax: 'regex', definition: DATE } },
    confirm: (text) => text.startsWith('1'),
    summarize: (text) => `set the due date to ${text}`,
    execute: (text) => {
      received.push(text);
      return `due ${text}`;
    },
  });
}

describe('grammar tools (defineTool({ input: { grammar } }))', () => {
  it('is an object tool over one string property whose pattern is the regex anchored at both ends', () => {
    const tool = dateTool();
    expect(tool.grammar).toEqual({ syntax: 'regex', definition: DATE });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        input: { type: 'string', description: `The input text; the whole text must match the regular expression /${DATE}/.`, pattern: `^(?:${DATE})$` },
      },
      required: ['input'],
      additionalProperties: false,
    });
  });

  it('hands execute, confirm and summarize the text itself', async () => {
    const received: string[] = [];
    const tool = dateTool(received);
    const registry = new ToolRegistry([tool], { logger: silentLogger });
    const execution = await registry.call({ id: 'call_1', name: 'set_due_date', arguments: { input: '2026-12-06' } });
    expect(execution.result).toEqual({ content: [{ type: 'text', text: 'due 2026-12-06' }], isError: false });
    expect(received).toEqual(['2026-12-06']);
    expect(typeof tool.confirm === 'function' && tool.confirm({ input: '1999-01-01' }, { context: undefined })).toBe(true);
    expect(typeof tool.confirm === 'function' && tool.confirm({ input: '2026-01-01' }, { context: undefined })).toBe(false);
    expect(tool.summarize?.({ input: '2026-12-06' }, { context: undefined })).toBe('set the due date to 2026-12-06');
  });

  it.each([
    ['text around a match', 'due 2026-12-06 please'],
    ['a prefix of the grammar', '2026-12'],
    ['a match followed by a newline', '2026-12-06\n'],
  ])('rejects %s with a recovery text naming the grammar, and never runs the tool', async (_case, text) => {
    const received: string[] = [];
    const registry = new ToolRegistry([dateTool(received)], { logger: silentLogger });
    const execution = await registry.call({ id: 'call_1', name: 'set_due_date', arguments: { input: text } });
    expect(execution.result.isError).toBe(true);
    expect(execution.failure?.code).toBe('invalid_arguments');
    expect(execution.failure?.issues?.[0]).toMatchObject({ code: 'pattern_mismatch', path: ['input'], expected: `^(?:${DATE})$`, received: text });
    expect(execution.failure?.message).toBe(
      `The input for tool "set_due_date" is outside its grammar: the whole text must match the regular expression /${DATE}/ (got the string ${JSON.stringify(text)}). Call "set_due_date" again with text that matches it.`,
    );
    expect(received).toEqual([]);
  });

  it('declares a lark grammar without enforcing it: any string up to the argument limits is accepted', async () => {
    const grammar = 'start: expr\nexpr: NUMBER ("+" NUMBER)*\n%import common.NUMBER';
    const tool = defineTool({
      name: 'add',
      description: 'Adds numbers.',
      effect: 'read',
      input: { grammar: { syntax: 'lark', definition: grammar } },
      argumentLimits: { maxChars: 40 },
      execute: (text) => text.length,
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: `The input text, in this Lark grammar:\n${grammar}` } },
      required: ['input'],
      additionalProperties: false,
    });
    const registry = new ToolRegistry([tool], { logger: silentLogger });
    const outsideTheGrammar = await registry.call({ id: 'call_1', name: 'add', arguments: { input: 'not a sum' } });
    expect(outsideTheGrammar.result).toEqual({ content: [{ type: 'text', text: '9' }], isError: false });
    const tooLong = await registry.call({ id: 'call_2', name: 'add', arguments: { input: '1+'.repeat(30) } });
    expect(tooLong.failure?.code).toBe('arguments_too_large');
  });

  it.each([
    ['a backreference', { syntax: 'regex', definition: '(a)\\1' }, 'backreferences'],
    ['a lookahead', { syntax: 'regex', definition: '(?=a)a' }, 'lookahead'],
    ['an unbalanced group, which anchoring would change', { syntax: 'regex', definition: 'a)|(b' }, 'the regex grammar'],
    ['an unknown syntax', { syntax: 'ebnf', definition: 'a' }, '`input.grammar.syntax` must be "regex" or "lark" (got "ebnf")'],
    ['an empty definition', { syntax: 'regex', definition: '' }, '`input.grammar.definition` must be a non-empty string'],
  ])('refuses %s at definition', (_case, grammar, message) => {
    const define = () =>
      defineTool({ name: 'g', description: 'd', effect: 'read', input: { grammar: grammar as { syntax: 'regex'; definition: string } }, execute: () => 'ok' });
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(message);
  });

  it('refuses a definition with both a grammar and an input schema', () => {
    expect(() =>
      defineTool({
        name: 'g',
        description: 'd',
        effect: 'read',
        input: { grammar: { syntax: 'regex', definition: 'a' } },
        inputSchema: { type: 'object' },
        execute: () => 'ok',
      } as never),
    ).toThrow('has both `input` (a grammar tool) and an input schema');
  });

  it('types the text as a string in execute, confirm and summarize, also with defineTool.withContext', () => {
    const defineAppTool = defineTool.withContext<{ user: string }>();
    const tool = defineAppTool({
      name: 'say',
      description: 'Says a line.',
      effect: 'read',
      input: { grammar: { syntax: 'regex', definition: '[a-z ]+' } },
      summarize: (text) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        return text;
      },
      execute: (text, { context }) => {
        expectTypeOf(text).toEqualTypeOf<string>();
        expectTypeOf(context).toEqualTypeOf<{ user: string }>();
        return `${context.user}: ${text}`;
      },
    });
    expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<{ input: string }>();
    expect(tool.grammar?.syntax).toBe('regex');
  });
});
