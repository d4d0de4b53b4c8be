/**
 * An MCP session's record (`recordDir`) as the console reads it: begun with a `run_started` line and ended with a `stop`
 * line when the session closes, so the console's run list shows the session finished (completed, or stopped by its
 * budget), with its client in the model column, not "running" forever.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRunStore, readRunRecord, RunRecorder, type RunStore } from '../../src/agent/index.js';
import { listRuns, summarize } from '../../src/cli/console/console-runs.js';
import type { McpServerOptions } from '../../src/mcp/create-mcp-server.js';
import { serveHttp } from '../../src/mcp/serve-http.js';
import { serveStdio } from '../../src/mcp/serve-stdio.js';
import { StdioLineTransport } from '../../src/mcp/stdio-line-transport.js';
import { defineTool, silentLogger } from '../../src/tools/index.js';

const lookup = defineTool<{ id: string }>({
  name: 'lookup',
  description: 'Looks a record up.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
  execute: ({ id }) => `record ${id}`,
});

const folder = mkdtempSync(join(tmpdir(), 'tw-mcp-console-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let folders = 0;

/** A store that cannot list runs: the console's list then comes from the records alone. */
function recordsOnly(): RunStore {
  const { listRuns: _listRuns, ...store } = createMemoryRunStore();
  return store;
}

/** One session over `transport` that makes `calls` calls, runs `whileOpen`, and closes. */
async function session(transport: 'stdio' | 'http', options: McpServerOptions, calls: number, whileOpen?: () => Promise<void>): Promise<void> {
  const client = new Client({ name: 'console-test', version: '1.0.0' });
  const base = { ...options, logger: silentLogger };
  let close: () => Promise<void>;
  if (transport === 'stdio') {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const handle = await serveStdio([lookup], { ...base, input: toServer, output: fromServer });
    await client.connect(new StdioLineTransport(fromServer, toServer));
    close = () => handle.close();
  } else {
    const handle = await serveHttp([lookup], { ...base, port: 0 });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    close = () => handle.close();
  }
  try {
    for (let index = 0; index < calls; index++) await client.callTool({ name: 'lookup', arguments: { id: `r${index}` } });
    await whileOpen?.();
  } finally {
    await client.close();
    await close();
  }
}

describe.each(['stdio', 'http'] as const)("the console's run list reads a closed MCP session's record (%s)", (transport) => {
  it('as running while the session is open, then completed, with the client as its model and the tools it served', async () => {
    const recordDir = join(folder, String(++folders));
    const sources = { store: recordsOnly(), runsDir: recordDir };
    let open: unknown;
    await session(transport, { recordDir }, 2, async () => void ([open] = await listRuns(sources)));
    expect(open).toMatchObject({ status: 'running', model: 'mcp-client:console-test' });
    const [listed, ...others] = await listRuns({ store: recordsOnly(), runsDir: recordDir });
    expect(others).toEqual([]);
    expect(listed).toMatchObject({ status: 'completed', model: 'mcp-client:console-test', tools: ['lookup'], costUsd: 0 });
    expect(listed!.runId).toMatch(/^mcp_/);
    // The record read whole says the same as its summary.
    expect(summarize(listed!.runId, readRunRecord(RunRecorder.pathFor(recordDir, listed!.runId)))).toMatchObject({ status: 'completed' });
  });

  it('finds no record of a session that made no call', async () => {
    const recordDir = join(folder, String(++folders));
    await session(transport, { recordDir }, 0);
    expect(await listRuns({ store: recordsOnly(), runsDir: recordDir })).toEqual([]);
  });

  it("as stopped when the session's budget ended its tool use", async () => {
    const recordDir = join(folder, String(++folders));
    await session(transport, { recordDir, limits: { maxToolCalls: 1 } }, 2);
    const [listed] = await listRuns({ store: recordsOnly(), runsDir: recordDir });
    expect(listed).toMatchObject({ status: 'stopped' });
    const lines = readRunRecord(RunRecorder.pathFor(recordDir, listed!.runId));
    expect(lines.at(-1)).toMatchObject({ type: 'stop', status: 'stopped', stopReason: { kind: 'budget', limit: 'toolCalls', max: 1 } });
  });
});
