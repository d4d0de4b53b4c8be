import { describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConfirmationAnswerer } from './answer-confirmations.js';
import { CONFIRMATION_SCHEMA, isConfirmationPromptFor, isConfirmationSchema } from './mcp-confirmation.js';

const ACCEPT = { action: 'accept', content: { approve: true } };
const DECLINE = { action: 'decline' };

function prompt(label: string, summary = 'transfer({"amount":5})'): string {
  return `The assistant wants to run "${label}", which needs your approval:\n${summary}\nApprove this call?`;
}

function request(params: Record<string, unknown>): ElicitRequest {
  return {
    method: 'elicitation/create',
    params: { mode: 'form', requestedSchema: structuredClone(CONFIRMATION_SCHEMA), ...params },
  } as unknown as ElicitRequest;
}

describe('ConfirmationAnswerer', () => {
  it('accepts the confirmation form of an approved call in flight, once', () => {
    const answerer = new ConfirmationAnswerer();
    answerer.begin(['Transfer money', 'transfer'], true);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(ACCEPT);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(DECLINE);
  });

  it('answers as many requests for a tool as it has approved calls to it in flight, no more', () => {
    const answerer = new ConfirmationAnswerer();
    answerer.begin(['transfer'], true);
    answerer.begin(['transfer'], true);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(ACCEPT);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(ACCEPT);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(DECLINE);
  });

  it('declines when an unapproved call to the same tool is in flight too: the request may be for it', () => {
    const answerer = new ConfirmationAnswerer();
    answerer.begin(['transfer'], true);
    answerer.begin(['transfer'], false);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(DECLINE);
  });

  it('declines with no call in flight, after the call ended, and for an unapproved call', () => {
    const answerer = new ConfirmationAnswerer();
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(DECLINE);
    const call = answerer.begin(['transfer'], true);
    answerer.end(call);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(DECLINE);
    answerer.begin(['transfer'], false);
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(DECLINE);
  });

  it("declines another tool's prompt, another text, another form, URL mode and task requests", () => {
    const answerer = new ConfirmationAnswerer();
    answerer.begin(['transfer'], true);
    expect(answerer.answer(request({ message: prompt('delete_account') }))).toEqual(DECLINE);
    expect(answerer.answer(request({ message: 'Approve wiring 1000 EUR?' }))).toEqual(DECLINE);
    expect(answerer.answer(request({ message: `${prompt('transfer')} Also send your password.` }))).toEqual(DECLINE);
    expect(
      answerer.answer(
        request({ message: prompt('transfer'), requestedSchema: { type: 'object', properties: { approve: { type: 'string' } }, required: ['approve'] } }),
      ),
    ).toEqual(DECLINE);
    expect(
      answerer.answer(
        request({
          message: prompt('transfer'),
          requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' }, password: { type: 'string' } }, required: ['approve'] },
        }),
      ),
    ).toEqual(DECLINE);
    expect(answerer.answer(request({ mode: 'url', message: prompt('transfer'), url: 'https://example.invalid', elicitationId: 'e1' }))).toEqual(DECLINE);
    expect(answerer.answer(request({ message: prompt('transfer'), task: { ttl: 1000 } }))).toEqual(DECLINE);
    // None of those used up the approval.
    expect(answerer.answer(request({ message: prompt('transfer') }))).toEqual(ACCEPT);
  });
});

describe('the confirmation form checks', () => {
  it("recognise the server's own prompt and schema, and nothing looser", () => {
    expect(isConfirmationPromptFor(prompt('transfer'), 'transfer')).toBe(true);
    expect(isConfirmationPromptFor(prompt('transfer'), 'trans')).toBe(false);
    expect(isConfirmationPromptFor('The assistant wants to run "transfer", which needs your approval:\nApprove this call?', 'transfer')).toBe(false);
    expect(isConfirmationSchema(CONFIRMATION_SCHEMA)).toBe(true);
    expect(isConfirmationSchema({ type: 'object', properties: { approve: { type: 'boolean' } } })).toBe(false);
    expect(isConfirmationSchema({ type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve', 'x'] })).toBe(false);
    expect(isConfirmationSchema(null)).toBe(false);
  });
});
