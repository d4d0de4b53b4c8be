/**
 * The call decoder driven by scripted token streams over a hand-built vocabulary,
 * with no inference engine: which phase each token leaves it in, which masks it
 * applies, what it forces, which events it emits, and the response it makes.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../decoding/compile-json-schema.js';
import { Vocabulary } from '../../decoding/vocabulary.js';
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import {
  CallDecoder,
  groupTextTokensByFirstByte,
  toModelResponse,
  type CallDecoderSetup,
  type CallDecoding,
  type CompiledToolGrammar,
} from './call-decoder.js';
import { ClosingPreference } from './closing-preference.js';
import type { LocalModelStats } from './local-model-options.js';

const encoder = new TextEncoder();
const WORDS = ['get_weather', 'set_alarm', 'weather', 'get', '{"', '":"', '"}', 'city', 'Paris', ' world', '\n'];
const texts = [...Array.from({ length: 95 }, (_, index) => String.fromCharCode(0x20 + index)), ...WORDS];
const SPECIAL = ['<tool_call>', '</tool_call>', '<|im_end|>'];
const [TOOL_CALL, END_TOOL_CALL, IM_END] = [texts.length, texts.length + 1, texts.length + 2] as const;
/** Two tokens that together spell "é", to check that a split character is held back. */
const [E_ACUTE_FIRST, E_ACUTE_SECOND] = [texts.length + 3, texts.length + 4] as const;
const vocabulary = Vocabulary.fromEntries(
  [
    ...texts.map((text) => ({ text, bytes: encoder.encode(text) })),
    ...SPECIAL.map((text) => ({ text, bytes: undefined })),
    { text: 'Ã', bytes: Uint8Array.of(0xc3) },
    { text: '©', bytes: Uint8Array.of(0xa9) },
  ],
  'byte-level',
  { eosTokenIds: [IM_END] },
);

/** Greedy longest match over the text tokens: a stand-in for the model's tokenizer. */
function tokenize(text: string): number[] {
  const bytes = encoder.encode(text);
  const tokens: number[] = [];
  for (let at = 0; at < bytes.length;) {
    let best = -1;
    let bestLength = 0;
    for (let id = 0; id < vocabulary.tokenCount; id++) {
      const token = vocabulary.tokenBytes(id);
      if (!vocabulary.isTextToken(id) || token.length <= bestLength || at + token.length > bytes.length) continue;
      if (token.every((byte, index) => bytes[at + index] === byte)) [best, bestLength] = [id, token.length];
    }
    if (best < 0) throw new Error(`no token for byte ${bytes[at]}`);
    tokens.push(best);
    at += bestLength;
  }
  return tokens;
}
const token = (text: string): number => {
  const [only, ...rest] = tokenize(text);
  if (only === undefined || rest.length > 0) throw new Error(`"${text}" is not one token`);
  return only;
};
const detokenize = (tokens: readonly number[]): string => new TextDecoder().decode(Uint8Array.from(tokens.flatMap((id) => [...vocabulary.tokenBytes(id)])));

const setup: CallDecoderSetup = {
  vocabulary,
  callFormat: {
    startToken: TOOL_CALL,
    prefixTokens: [TOOL_CALL, ...tokenize('\n{"name":"')],
    paramsPrefixText: '","arguments":',
    suffixTokens: [...tokenize('}\n'), END_TOOL_CALL],
    suffixText: '}\n</tool_call>',
  },
  tokensByFirstByte: groupTextTokensByFirstByte(vocabulary),
  closing: new ClosingPreference(vocabulary),
  tokenize,
  detokenize,
  isEndOfGeneration: (id) => id === IM_END,
};

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: () => 'sunny',
});
const setAlarm = defineTool({
  name: 'set_alarm',
  description: 'Sets an alarm.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { at: { type: 'string' } }, required: ['at'], additionalProperties: false },
  execute: () => 'set',
});
const ping = defineTool({
  name: 'ping',
  description: 'Pings.',
  effect: 'read',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => 'pong',
});

const grammars = new Map<AnyTool, CompiledToolGrammar>();
function grammarFor(tool: AnyTool): CompiledToolGrammar {
  let compiled = grammars.get(tool);
  if (!compiled) grammars.set(tool, (compiled = { grammar: compileJsonSchema(tool.inputSchema, vocabulary), warnings: [] }));
  return compiled;
}

/** A decoder whose masks are recorded as the text of the tokens they allow (`null`: unconstrained). */
function decoderFor(decoding: Partial<CallDecoding> & { tools: readonly AnyTool[] }) {
  const masks: (string[] | null)[] = [];
  const stats: LocalModelStats = { sampledTokens: 0, forcedTokens: 0, jumpForwardTokens: 0, maskedSteps: 0, maskMs: 0 };
  const decoder = new CallDecoder(setup, {
    mustCall: false,
    constrained: true,
    jumpForward: true,
    maxOutputTokens: 512,
    callTokenBudget: 256,
    maxCallTokens: 2048,
    grammarFor,
    applyMask: (mask) => masks.push(mask ? allowed(mask) : null),
    stats,
    ...decoding,
  });
  return { decoder, masks, stats };
}

function allowed(mask: Uint32Array): string[] {
  const ids: string[] = [];
  for (let id = 0; id < vocabulary.size; id++) if ((mask[id >>> 5]! >>> (id & 31)) & 1) ids.push(vocabulary.tokenText(id));
  return ids;
}

const text = (tokens: readonly number[]): string => detokenize(tokens);

const response = (decoder: CallDecoder) => toModelResponse(decoder, { inputTokens: 3, modelId: 'local:test', warnings: [] });
const callEvents = (name: string, argumentsText: string, value: unknown) => [
  { type: 'tool-call-start', index: 0, id: 'call_local_1', name },
  { type: 'tool-call-delta', index: 0, argumentsDelta: argumentsText, partialArguments: value },
  {
    type: 'tool-call-end',
    index: 0,
    // The same part the response holds; text that did not parse keeps its parse failure for the registry's message.
    call:
      value === undefined
        ? {
            type: 'tool-call',
            id: 'call_local_1',
            name,
            argumentsText,
            arguments: undefined,
            argumentsError: expect.objectContaining({ message: expect.any(String) }),
          }
        : { type: 'tool-call', id: 'call_local_1', name, argumentsText, arguments: value },
  },
];

describe('CallDecoder on scripted tokens', () => {
  it('opens a required call to the only tool by forcing the framing, the name and the text the grammar fixes', () => {
    const { decoder, masks, stats } = decoderFor({ tools: [getWeather], mustCall: true });
    const opening = decoder.begin();
    expect(decoder.phase).toBe('arguments');
    expect(opening.forced[0]).toBe(TOOL_CALL);
    expect(text(opening.forced)).toBe('\n{"name":"get_weather","arguments":{"city":"');
    expect([opening.events, opening.stop]).toEqual([[], false]);
    // Inside the string: text, the closing quote; never the end of generation, the call framing or a raw newline.
    expect(masks).toHaveLength(1);
    expect(masks[0]).toEqual(expect.arrayContaining(['Paris', '"', ' world']));
    expect(masks[0]).not.toEqual(expect.arrayContaining(['<|im_end|>']));
    expect(masks[0]!.some((allowedText) => ['<tool_call>', '\n'].includes(allowedText))).toBe(false);

    expect(decoder.accept(token('Paris'))).toEqual({ events: [], forced: [], stop: false });
    const last = decoder.accept(token('"'));
    // The closing brace is forced and completes the value: the call ends without sampling it.
    expect(last).toEqual({ events: callEvents('get_weather', '{"city":"Paris"}', { city: 'Paris' }), forced: [], stop: true });
    expect(decoder.phase).toBe('done');
    expect(response(decoder)).toEqual({
      content: [{ type: 'tool-call', id: 'call_local_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' }],
      stopReason: 'tool_calls',
      usage: { inputTokens: 3, outputTokens: 3 },
      modelId: 'local:test',
    });
    expect(decoder.end()).toEqual([]);
    expect({ ...stats, maskMs: 0 }).toEqual({ sampledTokens: 2, forcedTokens: opening.forced.length + 1, jumpForwardTokens: 4, maskedSteps: 3, maskMs: 0 });
    expect(decoder.accept(token('x'))).toEqual({ events: [], forced: [], stop: true });
  });

  it('restricts the name, byte by byte, to the offered tools, then forces the rest of the framing', () => {
    const { decoder, masks } = decoderFor({ tools: [getWeather, setAlarm], mustCall: true });
    const opening = decoder.begin();
    expect([decoder.phase, text(opening.forced)]).toEqual(['name', '\n{"name":"']);
    expect(masks.at(-1)).toEqual(['g', 's', 'get_weather', 'set_alarm', 'get']);
    decoder.accept(token('get'));
    expect([decoder.phase, masks.at(-1)]).toEqual(['name', ['_']]);
    decoder.accept(token('_'));
    expect(masks.at(-1)).toEqual(['w', 'weather']);
    decoder.accept(token('weather'));
    // The whole name, but a name may be a prefix of another: the closing quote decides.
    expect([decoder.phase, masks.at(-1)]).toEqual(['name', ['"']]);
    const named = decoder.accept(token('"'));
    expect([decoder.phase, text(named.forced), named.stop]).toEqual(['arguments', ',"arguments":{"city":"', false]);
    decoder.accept(token('Paris'));
    expect(decoder.accept(token('"')).events).toEqual(callEvents('get_weather', '{"city":"Paris"}', { city: 'Paris' }));
  });

  it('streams free text, holds back a split character, and opens a call when the model writes the start token', () => {
    const { decoder, masks } = decoderFor({ tools: [getWeather] });
    expect(decoder.begin()).toEqual({ events: [], forced: [], stop: false });
    expect(decoder.accept(token('H')).events).toEqual([{ type: 'text-delta', text: 'H' }]);
    expect(decoder.accept(E_ACUTE_FIRST).events).toEqual([]);
    expect(decoder.accept(E_ACUTE_SECOND).events).toEqual([{ type: 'text-delta', text: 'é' }]);
    expect(masks).toEqual([]);
    const opened = decoder.accept(TOOL_CALL);
    expect([decoder.phase, text(opened.forced), opened.events]).toEqual(['arguments', '\n{"name":"get_weather","arguments":{"city":"', []]);
    decoder.accept(token('Paris'));
    decoder.accept(token('"'));
    const result = response(decoder);
    expect(result.content).toEqual([{ type: 'text', text: 'Hé' }, expect.objectContaining({ type: 'tool-call', name: 'get_weather' })]);
    expect([result.stopReason, result.usage.outputTokens]).toEqual(['tool_calls', 6 + opened.forced.length + 1]);
  });

  it('ends the turn at the end of generation, flushing what was held back; without tools the start token is plain text', () => {
    const { decoder } = decoderFor({ tools: [] });
    decoder.accept(token(' world'));
    expect(decoder.accept(TOOL_CALL)).toEqual({ events: [], forced: [], stop: false });
    decoder.accept(E_ACUTE_FIRST);
    expect(decoder.accept(IM_END)).toEqual({ events: [], forced: [], stop: true });
    expect(decoder.end()).toEqual([{ type: 'text-delta', text: '\uFFFD' }]);
    expect(response(decoder)).toMatchObject({ content: [{ type: 'text', text: ' world\uFFFD' }], stopReason: 'end_turn', usage: { outputTokens: 4 } });
  });

  it('stops at maxOutputTokens, cutting a call under way', () => {
    const inText = decoderFor({ tools: [getWeather], maxOutputTokens: 2 }).decoder;
    expect(inText.accept(token('a')).stop).toBe(false);
    expect(inText.accept(token('b'))).toEqual({ events: [{ type: 'text-delta', text: 'b' }], forced: [], stop: true });
    expect(inText.end()).toEqual([]);
    expect(response(inText)).toMatchObject({ content: [{ type: 'text', text: 'ab' }], stopReason: 'max_tokens' });

    const inCall = decoderFor({ tools: [getWeather], mustCall: true, maxOutputTokens: 2 }).decoder;
    inCall.begin();
    inCall.accept(token('Paris'));
    expect(inCall.accept(token(' world')).events).toEqual(callEvents('get_weather', '{"city":"Paris world', undefined));
    // The forced framing is not counted against the cap; the sampled tokens are.
    expect(response(inCall)).toMatchObject({
      stopReason: 'max_tokens',
      usage: { outputTokens: 2 },
      content: [{ type: 'tool-call', name: 'get_weather', argumentsText: '{"city":"Paris world' }],
    });
  });

  it('cuts a call at maxCallTokens, and steers it toward its end after callTokenBudget', () => {
    const cut = decoderFor({ tools: [getWeather], mustCall: true, maxCallTokens: 2 }).decoder;
    cut.begin();
    expect(cut.accept(token('Paris')).stop).toBe(false);
    expect(cut.accept(token('Paris')).events).toEqual(callEvents('get_weather', '{"city":"ParisParis', undefined));
    expect(cut.stopReason).toBe('max_tokens');

    const steered = decoderFor({ tools: [getWeather], mustCall: true, callTokenBudget: 1 });
    steered.decoder.begin();
    expect(steered.masks.at(-1)!.length).toBeGreaterThan(90);
    steered.decoder.accept(token('Paris'));
    // In a string, past the budget: only the closing quote is left.
    expect(steered.masks.at(-1)).toEqual(['"']);
  });

  it('completes a call whose arguments the grammar fixes entirely without sampling a token', () => {
    const { decoder, stats } = decoderFor({ tools: [ping], mustCall: true });
    const opening = decoder.begin();
    expect(text(opening.forced)).toBe('\n{"name":"ping","arguments":{}');
    expect(opening.stop).toBe(true);
    expect(opening.events).toEqual(callEvents('ping', '{}', {}));
    expect(response(decoder).usage.outputTokens).toBe(opening.forced.length);
    expect(stats.sampledTokens).toBe(0);
  });

  it('unconstrained, lifts the mask, ends the arguments at the format suffix, and reports an unknown name as written', () => {
    const { decoder, masks, stats } = decoderFor({ tools: [getWeather, setAlarm], mustCall: true, constrained: false });
    decoder.begin();
    decoder.accept(token('get_weather'));
    const named = decoder.accept(token('"'));
    expect([text(named.forced), masks]).toEqual([',"arguments":', [null, null]]);
    for (const piece of ['{"', 'city', '":"', 'Paris', '"}']) expect(decoder.accept(token(piece)).stop).toBe(false);
    expect(decoder.accept(token('\n')).stop).toBe(false);
    expect(decoder.accept(END_TOOL_CALL).events).toEqual(callEvents('get_weather', '{"city":"Paris"}\n', { city: 'Paris' }));
    expect([stats.maskedSteps, stats.jumpForwardTokens]).toEqual([0, 0]);

    const unknown = decoderFor({ tools: [getWeather, setAlarm], mustCall: true, constrained: false }).decoder;
    unknown.begin();
    expect(unknown.accept(token('weather')).events).toEqual(callEvents('weather', '', undefined));
  });

  it('refuses a token that its own mask excluded', () => {
    const { decoder } = decoderFor({ tools: [getWeather], mustCall: true });
    decoder.begin();
    expect(() => decoder.accept(IM_END)).toThrow(/the token mask let through token/);
  });

  it("passes the request's warnings into the response only when there are some", () => {
    const { decoder } = decoderFor({ tools: [] });
    decoder.accept(IM_END);
    const warning = { type: 'unsupported', provider: 'local', feature: 'image-input', path: '', details: 'x' } as never;
    expect(toModelResponse(decoder, { inputTokens: 1, modelId: 'm', warnings: [warning] }).warnings).toEqual([warning]);
    expect('warnings' in response(decoder)).toBe(false);
  });

  it('looks ahead in the arguments grammar from where the call is, so the next masks are copies, and has nothing to do outside a call', () => {
    const lazy = compileJsonSchema(getWeather.inputSchema, vocabulary, { precomputeWork: 0 });
    const { decoder } = decoderFor({ tools: [getWeather], mustCall: true, grammarFor: () => ({ grammar: lazy, warnings: [] }) });
    expect(decoder.lookAhead(Infinity)).toBe(false);
    decoder.begin();
    const walksAtOpening = lazy.statistics().maskWalks;
    expect(decoder.lookAhead(Infinity)).toBe(false);
    expect(lazy.statistics().maskWalks).toBeGreaterThan(walksAtOpening);
    const walksAhead = lazy.statistics().maskWalks;
    decoder.accept(token('Paris'));
    expect(decoder.accept(token('"')).stop).toBe(true);
    expect(lazy.statistics().maskWalks).toBe(walksAhead);
    expect(decoder.lookAhead(Infinity)).toBe(false);
  });
});
