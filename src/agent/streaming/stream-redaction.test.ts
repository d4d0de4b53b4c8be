import { describe, expect, it } from 'vitest';
import { createScriptedModel, toolCallTurn } from '../../models/scripted/scripted-model.js';
import { defineTool } from '../../tools/define-tool.js';
import { silentLogger } from '../../tools/tool-registry.js';
import { createRedactor } from '../redact.js';
import { streamAgent, type AgentStreamEvent } from './stream-agent.js';
import { redactAgentStream, withoutOpenString } from './stream-redaction.js';

const KEY = 'sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0kLmN';

async function* from(events: AgentStreamEvent[]): AsyncGenerator<AgentStreamEvent> {
  for (const event of events) yield event;
}

async function collect(events: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const out: AgentStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** `text` cut into deltas of `size` characters, each on its own, for step 0. */
function textDeltas(text: string, size: number): AgentStreamEvent[] {
  const events: AgentStreamEvent[] = [];
  for (let start = 0; start < text.length; start += size) events.push({ type: 'text_delta', step: 0, text: text.slice(start, start + size), runId: 'r' });
  return events;
}

const joined = (events: AgentStreamEvent[]) => events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');

describe('redactAgentStream', () => {
  const redactor = createRedactor({ patterns: ['correct horse battery staple'] });

  it.each([1, 3, 7, 40])('never sends a key cut across deltas of %i characters, and sends the text whole, redacted as the record would', async (size) => {
    const text = `Here is the key: ${KEY} and the pass phrase is correct horse battery staple. Authorization: Basic dXNlcjpwYXNz\nDone, nothing else here.`;
    const events = await collect(
      redactAgentStream(from([...textDeltas(text, size), { type: 'stop', status: 'completed', usage: usage(), costUsd: 0, runId: 'r' }]), redactor),
    );
    const sent = joined(events);
    expect(sent).toBe(redactor(text));
    // At no point has a reader seen any of a secret: what went out so far never holds a piece of one.
    let seen = '';
    for (const event of events) {
      if (event.type !== 'text_delta') continue;
      seen += event.text;
      for (const piece of ['sk-proj', 'a1B2', 'battery', 'dXNl']) expect(seen).not.toContain(piece);
    }
    expect(events.at(-1)?.type).toBe('stop');
  });

  it.each([2, 9])('redacts a PEM key across many lines, and long texts line by line as the record does whole (deltas of %i)', async (size) => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n'.repeat(6)}-----END RSA PRIVATE KEY-----`;
    const paragraph = 'A line of ordinary prose, long enough to pass the hold-back window on its own.\n';
    const text = `${paragraph.repeat(5)}Here is the key:\n${pem}\n${paragraph.repeat(5)}password: hunter2-hunter2\n${paragraph}`;
    const events = await collect(redactAgentStream(from(textDeltas(text, size)), redactor));
    expect(joined(events)).toBe(redactor(text));
    let seen = '';
    for (const event of events) {
      seen += event.type === 'text_delta' ? event.text : '';
      for (const piece of ['MIIE', 'hunter2']) expect(seen).not.toContain(piece);
    }
    // The prose before the key went out before the key had arrived.
    const firstPiece = events[0]?.type === 'text_delta' ? events[0].text : '';
    expect(firstPiece.length).toBeLessThan(text.length / 2);
  });

  it('holds a text that starts as JSON until it ends, and redacts it by field name as the record does', async () => {
    const text = JSON.stringify({ user: 'ada', credentials: { login: 'ada', secret_answer: 'blue' }, notes: 'x'.repeat(200) }, null, 2);
    const events = await collect(redactAgentStream(from(textDeltas(text, 5)), redactor));
    expect(events).toHaveLength(1);
    expect(joined(events)).toBe(redactor(text));
    expect(joined(events)).not.toContain('blue');
  });

  it('sends text before the hold-back window as it arrives, not only at the end', async () => {
    const text = 'word '.repeat(40);
    const events = await collect(redactAgentStream(from(textDeltas(text, 5)), redactor, { holdBackChars: 16 }));
    expect(events.length).toBeGreaterThan(10);
    expect(joined(events)).toBe(text);
  });

  it("shows a call's arguments only as whole strings, redacted by the tool's schema; never its raw text", async () => {
    const login = defineTool<{ user: string; password: string }>({
      name: 'login',
      description: 'Logs in.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } }, required: ['user', 'password'] },
      execute: () => 'ok',
    });
    const schemaRedactor = createRedactor({ tools: [login] });
    const text = JSON.stringify({ user: 'ada', password: 'hunter2-very-secret', note: `key ${KEY}` });
    const deltas: AgentStreamEvent[] = [{ type: 'tool_call_start', step: 0, index: 0, callId: 'c1', toolName: 'login', runId: 'r' }];
    for (let start = 0; start < text.length; start += 4) {
      deltas.push({
        type: 'tool_call_delta',
        step: 0,
        index: 0,
        callId: 'c1',
        toolName: 'login',
        argumentsDelta: text.slice(start, start + 4),
        partialArguments: {},
        runId: 'r',
      });
    }
    const events = await collect(redactAgentStream(from(deltas), schemaRedactor));
    const shown = events.filter((event) => event.type === 'tool_call_delta');
    expect(shown.length).toBeGreaterThan(1);
    for (const event of shown) {
      expect(event).not.toHaveProperty('argumentsDelta');
      const json = JSON.stringify(event);
      expect(json).not.toContain('hunter');
      expect(json).not.toContain('a1B2');
      expect(json).not.toContain('"ad"');
    }
    expect(shown.at(-1)?.type === 'tool_call_delta' && shown.at(-1)?.partialArguments).toEqual({ user: 'ada', password: '[REDACTED]', note: 'key [REDACTED]' });
  });

  it('redacts a secret-looking call id, tool name and run id in every event as the record does', async () => {
    const callId = KEY;
    const toolName = `lookup ${KEY}`;
    const runId = `run ${KEY}`;
    const events = await collect(
      redactAgentStream(
        from([
          { type: 'text_delta', step: 0, text: 'Looking it up now, with enough words to pass the hold-back window.\nThen more.', runId },
          { type: 'tool_call_start', step: 0, index: 0, callId, toolName, runId },
          { type: 'tool_call_delta', step: 0, index: 0, callId, toolName, argumentsDelta: '{"q": "ada"}', partialArguments: { q: 'ada' }, runId },
          {
            type: 'tool_call_end',
            step: 0,
            index: 0,
            call: { type: 'tool-call', id: callId, name: toolName, arguments: { q: 'ada' }, argumentsText: '{"q": "ada"}' },
            runId,
          },
          { type: 'stop', status: 'completed', usage: usage(), costUsd: 0, runId },
        ]),
        redactor,
      ),
    );
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'text_delta', 'tool_call_start', 'tool_call_delta', 'tool_call_end', 'stop']);
    expect(JSON.stringify(events)).not.toContain('a1B2');
    // What the record holds for the same strings.
    for (const event of events) expect(event.runId).toBe(redactor(runId));
    expect(events[2]).toMatchObject({ callId: redactor(callId), toolName: redactor(toolName) });
    expect(events[3]).toMatchObject({ callId: redactor(callId), toolName: redactor(toolName), partialArguments: { q: 'ada' } });
  });

  it('cuts a JSON prefix before a string still open', () => {
    expect(withoutOpenString('{"a": "b", "c": "d')).toBe('{"a": "b", "c": ');
    expect(withoutOpenString('{"a": "b\\"')).toBe('{"a": ');
    expect(withoutOpenString('{"a": "b\\\\"')).toBe('{"a": "b\\\\"');
    expect(withoutOpenString('{"a": 1')).toBe('{"a": 1');
  });

  it("redacts a run's own events with the run's redactor (its tools' schemas and extra patterns)", async () => {
    const vault = defineTool<{ secret: string }>({
      name: 'vault',
      description: 'Stores a secret.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } }, required: ['secret'] },
      execute: ({ secret }) => `stored ${secret}`,
    });
    const model = createScriptedModel([
      toolCallTurn([{ name: 'vault', arguments: { secret: 'open-sesame-42' } }], { text: `Using ${KEY}.` }),
      { text: 'Stored it.' },
    ]);
    const run = streamAgent({ model, tools: [vault], prompt: 'Store it.', recordDir: false, logger: silentLogger, redact: ['open-sesame-42'] });
    const events = await collect(run.redacted());
    expect((await run.result).status).toBe('completed');
    const json = JSON.stringify(events);
    expect(json).not.toContain('open-sesame');
    expect(json).not.toContain('a1B2');
    expect(events.map((event) => event.type)).toContain('tool_result');
  });
});

function usage() {
  return { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, wallTimeMs: 0 };
}
