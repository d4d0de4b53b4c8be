import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunRecord } from '../agent/run-recorder.js';
import { createStrictMcpServer } from './create-mcp-server.js';
import { defineTool, silentLogger } from '../tools/index.js';
import { serveHttp } from './serve-http.js';
import { serveStdio } from './serve-stdio.js';
import { StdioLineTransport } from './stdio-line-transport.js';

const PASSWORD = 'hunter2-correct-horse';
const API_KEY = 'sk-proj-abcdefghijklmnop1234';

const login = defineTool<{ user: string; password: string; note: string }>({
  name: 'login',
  description: 'Logs a user in.',
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true }, note: { type: 'string' } },
    required: ['user', 'password', 'note'],
  },
  // The result repeats the free text, so the key reaches the record through the result too.
  execute: ({ user, note }) => `Logged in ${user}. Noted: ${note}`,
});

const folder = mkdtempSync(join(tmpdir(), 'tw-mcp-record-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let folders = 0;

interface Session {
  client: Client;
  close: () => Promise<void>;
}

/** Opens `count` sessions on servers recording into `recordDir`: one stdio server each, or one HTTP server for all. */
async function openSessions(transport: 'stdio' | 'http', recordDir: string, count: number): Promise<{ sessions: Session[]; closeServer: () => Promise<void> }> {
  const options = { logger: silentLogger, recordDir };
  const sessions: Session[] = [];
  if (transport === 'stdio') {
    for (let index = 0; index < count; index++) {
      const toServer = new PassThrough();
      const fromServer = new PassThrough();
      const handle = await serveStdio([login], { ...options, input: toServer, output: fromServer });
      const client = new Client({ name: 'record-test', version: '1.0.0' });
      await client.connect(new StdioLineTransport(fromServer, toServer));
      sessions.push({ client, close: () => handle.close() });
    }
    return { sessions, closeServer: async () => {} };
  }
  const handle = await serveHttp([login], { ...options, port: 0 });
  for (let index = 0; index < count; index++) {
    const client = new Client({ name: 'record-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    sessions.push({ client, close: async () => {} });
  }
  return { sessions, closeServer: () => handle.close() };
}

describe.each(['stdio', 'http'] as const)('the MCP server record (recordDir) over %s', (transport) => {
  it('writes one redacted 0600 record per session, holding the call events of that session', async () => {
    const recordDir = join(folder, String(++folders));
    const { sessions, closeServer } = await openSessions(transport, recordDir, 2);
    try {
      const [first, second] = sessions as [Session, Session];
      await first.client.callTool({ name: 'login', arguments: { user: 'ann', password: PASSWORD, note: `my key is ${API_KEY}` } });
      await first.client.callTool({ name: 'login', arguments: { user: 'ann' } });
      await second.client.callTool({ name: 'login', arguments: { user: 'bob', password: PASSWORD, note: 'second session' } });
    } finally {
      for (const session of sessions) {
        await session.client.close();
        await session.close();
      }
      await closeServer();
    }

    const records = readdirSync(recordDir).filter((name) => name.endsWith('.jsonl'));
    expect(records).toHaveLength(2);
    const lines = records.map((name) => readRunRecord(join(recordDir, name)));
    const users = lines.map((record) => (record[1]!.type === 'tool_call' ? (record[1]!.arguments as { user: string }).user : ''));
    const [annRecord, bobRecord] = users[0] === 'ann' ? [lines[0]!, lines[1]!] : [lines[1]!, lines[0]!];
    expect(annRecord.map((line) => (line.type === 'tool_result' || line.type === 'stop' ? `${line.type} ${line.status}` : line.type))).toEqual([
      'run_started',
      'tool_call',
      'tool_result succeeded',
      'tool_call',
      'tool_result failed',
      'stop completed',
    ]);
    expect(bobRecord.map((line) => line.type)).toEqual(['run_started', 'tool_call', 'tool_result', 'stop']);
    // The first line says what is true of a session: its client (no model is known here), its tools and its own limits.
    expect(annRecord[0]).toMatchObject({
      type: 'run_started',
      modelId: 'mcp-client:record-test',
      tools: ['login'],
      limits: { maxRepeatedFailures: false, maxIdenticalCalls: false },
      resumed: false,
    });
    // The last: tool calls run (the invalid one is not counted), no model call, no tokens, no cost.
    expect(annRecord.at(-1)).toMatchObject({
      type: 'stop',
      status: 'completed',
      usage: { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 1 },
      costUsd: 0,
    });
    // Each session is its own run: one run id per file, named in every line.
    const runIds = [annRecord, bobRecord].map((record) => new Set(record.map((line) => line.runId)));
    expect(runIds.map((ids) => ids.size)).toEqual([1, 1]);
    expect([...runIds[0]!][0]).not.toBe([...runIds[1]!][0]);

    for (const name of records) {
      const text = readFileSync(join(recordDir, name), 'utf8');
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(API_KEY);
      expect(statSync(join(recordDir, name)).mode & 0o777).toBe(0o600);
    }
    expect(JSON.stringify(annRecord)).toContain('Logged in ann');
  });
});

describe('the end of a session', () => {
  it("runs the listeners that close its record when the transport closes, after the transport's own handler", async () => {
    const server = createStrictMcpServer([login], { logger: silentLogger });
    const order: string[] = [];
    server.onclose = () => order.push('onclose');
    server.onSessionClosed(() => order.push('listener'));
    await server.connect(new StdioLineTransport(new PassThrough(), new PassThrough()));
    expect(order).toEqual([]);
    await server.close();
    expect(order).toEqual(['onclose', 'listener']);
  });
});
