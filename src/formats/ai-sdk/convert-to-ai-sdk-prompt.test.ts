import { describe, expect, it } from 'vitest';
import { convertToAISDKPrompt } from './convert-to-ai-sdk-prompt.js';
import { mapAISDKWarnings } from './map-ai-sdk-response.js';
import { toAISDKFunctionTools, toAISDKToolChoice } from './to-ai-sdk-function-tools.js';
import { defineTool } from '../../tools/define-tool.js';

describe('convertToAISDKPrompt', () => {
  it('moves late system messages first, with a warning, and drops empty turns', () => {
    const { prompt, warnings } = convertToAISDKPrompt([
      { role: 'system', content: 'One.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
      { role: 'system', content: 'Two.' },
      { role: 'user', content: '' },
    ]);
    expect(prompt).toEqual([
      { role: 'system', content: 'One.' },
      { role: 'system', content: 'Two.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'late-system-message', path: '/messages/3' })]);
  });

  it('writes tool results as text, error text, or content parts with files (V4) and says what became text', () => {
    const image = { type: 'image' as const, data: 'aGVsbG8=', mimeType: 'image/png' };
    const { prompt, warnings } = convertToAISDKPrompt([
      {
        role: 'tool',
        results: [
          {
            callId: 'a',
            toolName: 't',
            result: {
              content: [
                { type: 'text', text: 'one' },
                { type: 'text', text: 'two' },
              ],
              isError: false,
            },
          },
          { callId: 'b', toolName: 't', result: { content: [], structuredContent: { n: 1 }, isError: false } },
          { callId: 'c', toolName: 't', result: { content: [{ type: 'text', text: 'Use a city name.' }], isError: true } },
          {
            callId: 'd',
            toolName: 't',
            result: { content: [{ type: 'text', text: 'chart:' }, image, { type: 'resource_link', uri: 'file:///r.txt', name: 'r' }], isError: false },
          },
        ],
      },
    ]);
    const outputs = prompt[0]!.role === 'tool' ? prompt[0]!.content.map((part) => (part.type === 'tool-result' ? part.output : undefined)) : [];
    expect(outputs).toEqual([
      { type: 'text', value: 'one\ntwo' },
      { type: 'text', value: '{"n":1}' },
      { type: 'error-text', value: 'Use a city name.' },
      {
        type: 'content',
        value: [
          { type: 'text', text: 'chart:' },
          { type: 'file', data: { type: 'data', data: 'aGVsbG8=' }, mediaType: 'image/png' },
          { type: 'text', text: 'Resource: r <file:///r.txt>' },
        ],
      },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ provider: 'ai-sdk', feature: 'resource-link', path: '/messages/0/results/3/content/2', tool: 'd' })]);
  });

  it('writes V3 files as plain base64 parts', () => {
    const { prompt } = convertToAISDKPrompt(
      [
        {
          role: 'tool',
          results: [{ callId: 'a', toolName: 't', result: { content: [{ type: 'image', data: 'AA==', mimeType: 'image/jpeg' }], isError: false } }],
        },
      ],
      { version: 'v3' },
    );
    expect(prompt[0]!.role === 'tool' && prompt[0]!.content[0]).toMatchObject({
      output: { type: 'content', value: [{ type: 'image-data', data: 'AA==', mediaType: 'image/jpeg' }] },
    });
  });
});

describe('toAISDKFunctionTools', () => {
  it('declares each tool with its schema, adding a root object type where missing', () => {
    const untyped = defineTool({ name: 'ping', description: 'Ping.', effect: 'read', inputSchema: { properties: {} }, execute: () => 'pong' });
    const { tools, warnings } = toAISDKFunctionTools([untyped]);
    expect(tools).toEqual([{ type: 'function', name: 'ping', description: 'Ping.', inputSchema: { type: 'object', properties: {} } }]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'type', tool: 'ping' })]);
  });

  it('maps every tool choice', () => {
    expect(['auto', 'required', 'none', { tool: 'ping' }].map((choice) => toAISDKToolChoice(choice as never))).toEqual([
      { type: 'auto' },
      { type: 'required' },
      { type: 'none' },
      { type: 'tool', toolName: 'ping' },
    ]);
  });
});

describe('mapAISDKWarnings', () => {
  it('maps each kind of AI SDK warning to a FormatWarning and skips junk', () => {
    expect(
      mapAISDKWarnings([
        { type: 'unsupported', feature: 'seed' },
        { type: 'compatibility', feature: 'tool-choice', details: 'emulated' },
        { type: 'deprecated', setting: 'maxTokens', message: 'use maxOutputTokens' },
        { type: 'other', message: 'something' },
        null as never,
      ]),
    ).toEqual([
      { type: 'unsupported', provider: 'ai-sdk', feature: 'seed', path: '', details: 'the provider does not support it' },
      { type: 'rewritten', provider: 'ai-sdk', feature: 'tool-choice', path: '', details: 'emulated' },
      { type: 'rewritten', provider: 'ai-sdk', feature: 'maxTokens', path: '', details: 'deprecated: use maxOutputTokens' },
      { type: 'rewritten', provider: 'ai-sdk', feature: 'other', path: '', details: 'something' },
    ]);
    expect(mapAISDKWarnings(undefined)).toEqual([]);
  });
});
