import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { lintTools } from '../../src/formats/lint/index.js';
import { ToolError, ToolRegistry } from '../../src/tools/index.js';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { SUPPORTED_VERBS, conjugate, conjugateVerb, tools } from './index.js';

const registry = new ToolRegistry(tools);
const call = (name: string, args: unknown) => registry.call({ id: 'call_1', name, arguments: args });

describe('examples/conjugate', () => {
  it('conjugates through the registry, as structured content and JSON text', async () => {
    const execution = await call('conjugate', { verb: 'eat', tense: 'present_perfect', person: '3sg' });
    expect(execution.failure).toBeUndefined();
    expect(execution.result).toEqual({
      content: [
        { type: 'text', text: '{"verb":"eat","tense":"present_perfect","person":"3sg","pronoun":"he/she/it","form":"has eaten","text":"he/she/it has eaten"}' },
      ],
      structuredContent: { verb: 'eat', tense: 'present_perfect', person: '3sg', pronoun: 'he/she/it', form: 'has eaten', text: 'he/she/it has eaten' },
      isError: false,
    });
  });

  it('knows the irregular forms', () => {
    const form = (verb: string, tense: Parameters<typeof conjugateVerb>[1], person: Parameters<typeof conjugateVerb>[2]) =>
      conjugateVerb(verb, tense, person).form;
    expect(form('be', 'present_simple', '1sg')).toBe('am');
    expect(form('be', 'present_simple', '3sg')).toBe('is');
    expect(form('be', 'past_simple', '2pl')).toBe('were');
    expect(form('be', 'past_simple', '3sg')).toBe('was');
    expect(form('have', 'present_simple', '3sg')).toBe('has');
    expect(form('go', 'present_simple', '3sg')).toBe('goes');
    expect(form('go', 'past_simple', '1pl')).toBe('went');
    expect(form('write', 'present_perfect', '1sg')).toBe('have written');
    expect(form('see', 'present_perfect', '3pl')).toBe('have seen');
    expect(form('eat', 'past_simple', '3sg')).toBe('ate');
    expect(form('do', 'present_simple', '3sg')).toBe('does');
    expect(form('see', 'future_simple', '2sg')).toBe('will see');
    expect(conjugateVerb('be', 'present_perfect', '3sg').text).toBe('he/she/it has been');
  });

  it('answers a schema-valid call for a form English lacks with a tool error that says how to recover', async () => {
    const execution = await call('conjugate', { verb: 'must', tense: 'past_simple', person: '1sg' });
    expect(execution.result).toEqual({
      content: [
        {
          type: 'text',
          text:
            "Tool \"conjugate\" failed: verb 'must' is out of scope for past_simple: English 'must' has no past simple form. " +
            "Tell the user that 'must' has no past simple and that English uses 'have to' instead (call conjugate with verb 'have' for its forms); do not invent a form. " +
            'Retrying the same call with the same arguments will fail the same way.',
        },
      ],
      isError: true,
    });
    expect(execution.failure).toMatchObject({ code: 'tool_error', kind: 'out_of_scope', retryable: false });
    expect(() => conjugateVerb('can', 'future_simple', '3pl')).toThrow("verb 'can' is out of scope for future_simple: English 'can' has no future simple form");
    expect(conjugateVerb('can', 'past_simple', '3pl').text).toBe('they could');
  });

  it('still explains an unknown verb to a direct caller, although the registry refuses it first', async () => {
    expect(() => conjugateVerb('run', 'past_simple', '1sg')).toThrow(ToolError);
    expect(() => conjugateVerb('run', 'past_simple', '1sg')).toThrow(
      "verb 'run' is out of scope: this table covers only be, can, do, eat, go, have, make, must, see, write",
    );
    const execution = await call('conjugate', { verb: 'run', tense: 'past_simple', person: '1sg' });
    expect(execution.failure?.code).toBe('invalid_arguments');
  });

  it('rejects values outside the enums before running, as the seed shows ("ate", "past")', async () => {
    const schema = JSON.stringify(conjugate.inputSchema);
    const tense = await call('conjugate', { verb: 'eat', tense: 'past_perfect', person: '1sg' });
    expect(tense.failure?.code).toBe('invalid_arguments');
    expect(tense.result.content).toEqual([
      {
        type: 'text',
        text: `Invalid arguments for tool "conjugate" (1 problem):\n1. $.tense: must be one of "present_simple", "past_simple", "present_perfect", "future_simple"; got the string "past_perfect".\nFix it and call "conjugate" again. Its input schema is: ${schema}`,
      },
    ]);
    const verb = await call('conjugate', { verb: 'ate', tense: 'past_simple', person: 'first' });
    expect(verb.result.content).toEqual([
      {
        type: 'text',
        text:
          'Invalid arguments for tool "conjugate" (2 problems):\n' +
          '1. $.verb: must be one of "be", "can", "do", "eat", "go", "have", "make", "must", "see", "write"; got the string "ate".\n' +
          '2. $.person: must be one of "1sg", "2sg", "3sg", "1pl", "2pl", "3pl"; got the string "first".\n' +
          `Fix them and call "conjugate" again. Its input schema is: ${schema}`,
      },
    ]);
  });

  it('under the token mask, a conjugated form or an invented verb cannot be written; a form English lacks still can', () => {
    const grammar = compileJsonSchema(conjugate.inputSchema, byteVocabulary());
    const written = (text: string): boolean => {
      const matcher = grammar.matcher();
      return matcher.acceptString(text) && matcher.canTerminate();
    };
    expect(['{"verb":"ate"', '{"verb":"run"', '{"verb":"eats"', '{"verb":"to eat"'].map((prefix) => grammar.matcher().acceptString(prefix))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(grammar.matcher().acceptString('{"verb":"ea')).toBe(true);
    expect(written('{"verb":"eat","tense":"past_simple","person":"3sg"}')).toBe(true);
    expect(written('{"verb":"eat","tense":"past","person":"3sg"}')).toBe(false);
    expect(written('{"verb":"must","tense":"past_simple","person":"3sg"}')).toBe(true);
  });

  it('lists what it supports', async () => {
    const execution = await call('list_verbs', {});
    expect(execution.result.structuredContent).toEqual({
      verbs: ['be', 'can', 'do', 'eat', 'go', 'have', 'make', 'must', 'see', 'write'],
      tenses: ['present_simple', 'past_simple', 'present_perfect', 'future_simple'],
      persons: ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl'],
    });
    expect(SUPPORTED_VERBS).toEqual(['be', 'can', 'do', 'eat', 'go', 'have', 'make', 'must', 'see', 'write']);
    expect(conjugate.inputSchema).toMatchObject({ properties: { verb: { enum: SUPPORTED_VERBS } } });
  });

  it('lints clean', () => {
    expect(lintTools(tools)).toEqual([]);
  });
});
