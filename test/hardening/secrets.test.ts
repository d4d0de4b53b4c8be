/**
 * Hardening: secrets never reach disk or a terminal in clear. Secrets are
 * seeded in every position a run carries them (prompt, system prompt, tool
 * arguments by name, by schema and by value, tool results, tool errors, the
 * model's text, the provider's raw body, a pending confirmation's arguments and
 * summary, a provider error), the run goes through the real CLI functions
 * against the local provider server with a temporary TOOLWRIGHT_HOME, and
 * every byte under that home and every line the CLI printed is searched.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Attributes, Span, SpanStatus, Tracer } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/index.js';
import { decideApproval, listApprovals, showApproval } from '../../src/cli/commands/approvals.js';
import { printLogs } from '../../src/cli/commands/logs.js';
import { runResumeCommand } from '../../src/cli/commands/resume.js';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import { createModel } from '../../src/models/create-model.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';
import { SECRETS, fingerprint, tools } from './fixtures/secret-tools.js';

const here = dirname(fileURLToPath(import.meta.url));
const toolsModule = resolve(here, 'fixtures/secret-tools.ts');
const home = mkdtempSync(join(tmpdir(), 'tw-secrets-'));
const saved = { home: process.env.TOOLWRIGHT_HOME, key: process.env.OPENAI_API_KEY };
let server: ProviderServer;

beforeAll(async () => {
  process.env.TOOLWRIGHT_HOME = home;
  process.env.OPENAI_API_KEY = SECRETS.envApiKey;
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  if (saved.home === undefined) delete process.env.TOOLWRIGHT_HOME;
  else process.env.TOOLWRIGHT_HOME = saved.home;
  if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved.key;
  rmSync(home, { recursive: true, force: true });
});

/** Everything the CLI printed, stdout and stderr together. */
function capture(): { io: AgentCliIo; text: () => string } {
  const chunks: string[] = [];
  return { io: { out: (text) => chunks.push(text), err: (text) => chunks.push(text) }, text: () => chunks.join('') };
}

/** Every file under `folder` (the JSONL records, state.db and its -wal/-shm), as bytes read as Latin-1 so nothing is lost. */
function filesUnder(folder: string): { path: string; bytes: string }[] {
  const out: { path: string; bytes: string }[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ path, bytes: readFileSync(path).toString('latin1') });
  }
  return out;
}

/** Which secrets appear where: an empty list means none leaked. */
function leaks(places: { path: string; bytes: string }[]): string[] {
  const found: string[] = [];
  for (const [name, secret] of Object.entries(SECRETS)) {
    for (const place of places) if (place.bytes.includes(secret)) found.push(`${name} in ${place.path}`);
  }
  return found;
}

const connectArguments = JSON.stringify({
  host: 'db.internal',
  db_password: SECRETS.argByName,
  options: { signing_material: SECRETS.argWriteOnly },
  replicas: [{ label: 'r1', auth_blob: SECRETS.argXSensitive }],
  note: `deploy token ${SECRETS.argByValue}`,
});

/** `toolwright run` streams: the first answer comes as Chat Completions SSE chunks, its text and the secret-laden arguments cut across them. */
const firstTurnChunks: unknown[] = [
  ...[`Connecting with the key ${SECRETS.modelText.slice(0, 9)}`, `${SECRETS.modelText.slice(9)} now.`].map((content, index) => ({
    choices: [{ index: 0, delta: { ...(index === 0 ? { role: 'assistant' } : {}), content }, finish_reason: null }],
  })),
  ...[
    { index: 0, id: 'call_db', type: 'function', function: { name: 'connect_db', arguments: connectArguments.slice(0, 40) } },
    { index: 0, function: { arguments: connectArguments.slice(40) } },
    { index: 1, id: 'call_fail', type: 'function', function: { name: 'fail_tool', arguments: '{"region":"eu"}' } },
    { index: 2, id: 'call_crash', type: 'function', function: { name: 'fail_tool', arguments: '{"region":"internal"}' } },
  ].map((call) => ({ choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] })),
  { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  // The usage chunk, with a field no adapter reads (a streamed call's record keeps no raw chunks for it to reach).
  { choices: [], usage: { prompt_tokens: 40, completion_tokens: 30, total_tokens: 70 }, x_debug: { api_key: SECRETS.rawField } },
];
const firstTurnStream = `${firstTurnChunks
  .map(
    (chunk) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-secrets-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', ...(chunk as object) })}\n\n`,
  )
  .join('')}data: [DONE]\n\n`;

describe('secrets never reach disk or a terminal in clear', { timeout: 120_000 }, () => {
  it('redacts every seeded secret from the records, the run store and every CLI output, while the tools get the real values', async () => {
    const printed: string[] = [];
    server.reset();
    server.enqueue(
      { kind: 'raw', contentType: 'text/event-stream', body: firstTurnStream },
      {
        text: 'Now rotating.',
        toolCalls: [
          { id: 'call_rotate', name: 'rotate_key', arguments: { account: 'acct-1', new_value: SECRETS.confirmWriteOnly, apiKey: SECRETS.confirmByName } },
        ],
      },
    );
    const run = capture();
    const paused = await runRunCommand(
      `Connect with ${SECRETS.promptKey} and password=${SECRETS.promptPassword}, then rotate.`,
      {
        model: 'openai:gpt-4o-mini',
        baseUrl: server.openaiBaseURL,
        tools: toolsModule,
        interactive: false,
        system: `Send Authorization: Bearer ${SECRETS.systemBearer} on every call.`,
      },
      run.io,
    );
    printed.push(run.text());
    expect(paused.status).toBe('awaiting_confirmation');
    if (paused.status !== 'awaiting_confirmation') return;
    // The person still sees which secret field was set.
    expect(paused.pending[0]!.summary).toBe('Rotate acct-1 to [REDACTED] using [REDACTED]');
    expect(run.text()).toContain('Rotate acct-1 to [REDACTED] using [REDACTED]');

    // The tools got the real values (fingerprints only, sent back to the model in the tool results).
    const resultsSent = JSON.stringify(server.requests[1]!.body.messages);
    expect(resultsSent).toContain(fingerprint(SECRETS.argByName));
    expect(resultsSent).toContain(fingerprint(SECRETS.argWriteOnly));
    expect(resultsSent).toContain(fingerprint(SECRETS.argXSensitive));

    const list = capture();
    await listApprovals({}, list.io);
    await listApprovals({ json: true }, list.io);
    await showApproval(paused.pending[0]!.approvalId, {}, list.io);
    await showApproval(paused.pending[0]!.approvalId, { json: true }, list.io);
    printed.push(list.text());
    expect(list.text()).toContain('[REDACTED]');
    expect(leaks(filesUnder(home))).toEqual([]);

    const approve = capture();
    await decideApproval(paused.pending[0]!.approvalId, 'approve', {}, approve.io);
    printed.push(approve.text());
    expect(approve.text()).toContain('Approved: Rotate acct-1 to [REDACTED] using [REDACTED]');

    server.enqueue({ text: 'Rotated.' });
    const resume = capture();
    const finished = await runResumeCommand(
      paused.runId,
      { interactive: false, model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, tools: toolsModule },
      resume.io,
    );
    printed.push(resume.text());
    expect(finished.status).toBe('completed');
    // The approved call ran with the values the model sent, restored from the sealed store.
    const rotated = JSON.stringify(server.requests.at(-1)!.body.messages.at(-1));
    expect(rotated).toContain(fingerprint(SECRETS.confirmWriteOnly));
    expect(rotated).toContain(fingerprint(SECRETS.confirmByName));

    const logs = capture();
    await printLogs(paused.runId, {}, logs.io);
    await printLogs(paused.runId, { json: true }, logs.io);
    printed.push(logs.text());
    expect(logs.text()).toContain('connect_db');
    // Usage accounting stays readable. (A streamed call keeps no raw body: its chunks cut argument text where no schema could redact it.)
    expect(logs.text()).toContain('"inputTokens":40');

    server.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${SECRETS.envApiKey}.` });
    const failed = capture();
    const stopped = await runRunCommand(
      'Try again.',
      { model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, tools: toolsModule, interactive: false },
      failed.io,
    );
    expect(stopped.status).toBe('stopped');
    const failedJson = capture();
    server.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${SECRETS.envApiKey}.` });
    await runRunCommand(
      'Try again.',
      { model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, tools: toolsModule, interactive: false, json: true },
      failedJson.io,
    );
    printed.push(failed.text(), failedJson.text());
    expect(failed.text()).toContain('Incorrect API key provided: [REDACTED]');

    const places = [...filesUnder(home), ...printed.map((bytes, index) => ({ path: `CLI output #${index}`, bytes }))];
    expect(places.some((place) => place.path.endsWith('state.db'))).toBe(true);
    expect(places.some((place) => place.path.endsWith('.jsonl'))).toBe(true);
    expect(leaks(places)).toEqual([]);
  });

  it('keeps secrets out of span attributes and status messages, and out of the tool logger', async () => {
    const statuses: (SpanStatus | undefined)[] = [];
    const attributes: Attributes[] = [];
    const tracer: Tracer = {
      startSpan() {
        const own: Attributes = {};
        attributes.push(own);
        const index = statuses.push(undefined) - 1;
        const span = {
          spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
          setAttribute: (key: string, value: unknown) => ((own[key] = value as never), span),
          setAttributes: (values: Attributes) => (Object.assign(own, values), span),
          addEvent: () => span,
          addLink: () => span,
          addLinks: () => span,
          setStatus: (status: SpanStatus) => ((statuses[index] = status), span),
          updateName: () => span,
          end: () => {},
          isRecording: () => true,
          recordException: () => {},
        } as unknown as Span;
        return span;
      },
      startActiveSpan: (() => {
        throw new Error('not used');
      }) as Tracer['startActiveSpan'],
    };
    const logged: string[] = [];
    server.reset();
    server.enqueue(
      { toolCalls: [{ id: 'call_crash', name: 'fail_tool', arguments: { region: 'internal' } }] },
      { kind: 'error', status: 401, message: `Incorrect API key provided: ${SECRETS.envApiKey}.` },
    );
    const result = await runAgent({
      model: createModel('openai:gpt-4o-mini', { baseURL: server.openaiBaseURL }),
      tools,
      prompt: 'Go.',
      tracer,
      recordDir: join(home, 'otel-runs'),
      logger: { error: (message, details) => logged.push(`${message} ${JSON.stringify(details)} ${String((details.error as Error | undefined)?.stack)}`) },
    });
    expect(result.status).toBe('stopped');
    expect(logged.join('\n')).toContain('fail_tool');
    expect(statuses.some((status) => status?.message?.includes('[REDACTED]'))).toBe(true);
    const places = [
      { path: 'span statuses', bytes: JSON.stringify(statuses) },
      { path: 'span attributes', bytes: JSON.stringify(attributes) },
      { path: 'tool logger', bytes: logged.join('\n') },
      { path: 'stop reason', bytes: JSON.stringify(result.status === 'stopped' ? result.stopReason : undefined) },
      ...filesUnder(join(home, 'otel-runs')),
    ];
    expect(leaks(places)).toEqual([]);
  });
});
