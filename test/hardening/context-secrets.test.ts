/**
 * Hardening: the run's context (`runAgent({ context })`) is never sent to the model and never written anywhere.
 * A context carrying secrets (under names and in shapes no redaction rule knows, so that only their absence can keep
 * them out) is given to a run that calls a read, pauses on a write, and resumes to the end, once with a memory store
 * and once with a SQLite store; every value handed to the store, every byte of the SQLite file and of the JSONL
 * record, every model request, every `onEvent` event, every span attribute, name and status, every logger line and
 * the results are searched for the secrets, while the tools, the guard and the policy got the real context.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attributes, Span, SpanStatus, Tracer } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRunStore, openSqliteRunStore, resumeAgent, runAgent, type RunStore } from '../../src/agent/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { createPolicy } from '../../src/policy/index.js';
import { defineTool, type ToolContext, type ToolLogger } from '../../src/tools/index.js';

const SECRETS = { handle: 'qx7-context-handle-41b9e2', dsn: 'zeta://ctxhost/db-88c1f0a6', note: 'ctxnote-mauve-walrus-3317' };

interface AppContext {
  tenant: string;
  /** Plain names and values: no name or value rule of the redactor matches them, so only absence keeps them out. */
  handle: string;
  db: { address: string; query: (text: string) => string };
  notes: string[];
}

function appContext(): AppContext {
  return {
    tenant: 'acme',
    handle: SECRETS.handle,
    db: { address: SECRETS.dsn, query: (text) => `rows for ${text}` },
    notes: [SECRETS.note],
  };
}

/** What the tools, the guard and the policy saw; checked so that the test cannot pass by the context not arriving. */
const received: string[] = [];

const lookup = defineTool({
  name: 'lookup',
  description: "Looks up the tenant's orders.",
  effect: 'read',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
  execute: ({ query }: { query: string }, { context }: ToolContext<AppContext>) => {
    received.push(`lookup:${context.handle}`);
    return context.db.query(query);
  },
});

const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order.',
  effect: 'write',
  inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'], additionalProperties: false },
  confirm: (_args: { order: string }, { context }: { context: AppContext }) => {
    received.push(`confirm:${context.handle}`);
    return true;
  },
  summarize: ({ order }: { order: string }, { context }: { context: AppContext }) => {
    received.push(`summarize:${context.handle}`);
    return `Refund ${order} for ${context.tenant}`;
  },
  execute: ({ order }: { order: string }, { context }: ToolContext<AppContext>) => {
    received.push(`refund:${context.db.address}`);
    return `refunded ${order}`;
  },
});

const flaky = defineTool({
  name: 'flaky',
  description: 'Fails with an internal error (its error goes to the logger).',
  effect: 'read',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    throw new Error('backend unavailable');
  },
});

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Every value handed to the store's methods, as JSON text (binary as Latin-1). */
function watchedStore(inner: RunStore): { store: RunStore; seen: string[] } {
  const seen: string[] = [];
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        seen.push(JSON.stringify(args, (_key, item: unknown) => (item instanceof Uint8Array ? Buffer.from(item).toString('latin1') : item)) ?? '');
        return (value as (...given: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, seen };
}

function recordingTracer(): { tracer: Tracer; text: () => string } {
  const spans: { name: string; attributes: Attributes; status?: SpanStatus; events: unknown[] }[] = [];
  const tracer: Tracer = {
    startSpan(name: string, options?: { attributes?: Attributes }) {
      const own = { name, attributes: { ...options?.attributes }, events: [] as unknown[] } as (typeof spans)[number];
      spans.push(own);
      const span = {
        spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
        setAttribute: (key: string, value: unknown) => ((own.attributes[key] = value as never), span),
        setAttributes: (values: Attributes) => (Object.assign(own.attributes, values), span),
        addEvent: (...args: unknown[]) => (own.events.push(args), span),
        addLink: () => span,
        addLinks: () => span,
        setStatus: (status: SpanStatus) => ((own.status = status), span),
        updateName: (next: string) => ((own.name = next), span),
        end: () => {},
        isRecording: () => true,
        recordException: (error: unknown) => own.events.push(String(error)),
      } as unknown as Span;
      return span;
    },
    startActiveSpan: (() => {
      throw new Error('not used');
    }) as Tracer['startActiveSpan'],
  };
  return { tracer, text: () => JSON.stringify(spans) };
}

function bytesUnder(folder: string): string {
  return readdirSync(folder, { recursive: true })
    .map((name) => join(folder, String(name)))
    .filter((path) => existsSync(path) && !path.endsWith('/'))
    .map((path) => {
      try {
        return readFileSync(path).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('\n');
}

function leaks(places: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [place, text] of Object.entries(places)) {
    for (const [name, secret] of Object.entries(SECRETS)) if (text.includes(secret)) found.push(`${name} in ${place}`);
  }
  return found;
}

describe('the run context stays out of the model, the record, the store, telemetry and logs', () => {
  for (const kind of ['memory', 'sqlite'] as const) {
    it(`with the ${kind} store`, async () => {
      received.length = 0;
      const folder = mkdtempSync(join(tmpdir(), `tw-context-secrets-${kind}-`));
      folders.push(folder);
      const inner = kind === 'memory' ? createMemoryRunStore() : await openSqliteRunStore({ path: join(folder, 'state.db') });
      const { store, seen } = watchedStore(inner);
      const { tracer, text: spans } = recordingTracer();
      const events: unknown[] = [];
      const logged: unknown[] = [];
      const logger: ToolLogger = { error: (message, details) => logged.push({ message, details: String(details.error) }) };
      const guarded: string[] = [];
      const policy = createPolicy({
        trust: {
          classify: (input) => {
            received.push(`classify:${(input.runContext as AppContext).handle}`);
            return 'trusted';
          },
        },
      });
      const model = createScriptedModel([
        toolCallTurn([
          { id: 'c1', name: 'lookup', arguments: { query: 'open orders' } },
          { id: 'c0', name: 'flaky', arguments: {} },
        ]),
        toolCallTurn([{ id: 'c2', name: 'refund', arguments: { order: 'ord_1' } }]),
        textTurn('Refunded ord_1.'),
      ]);
      const common = {
        model,
        tools: [lookup, flaky, refund],
        store,
        recordDir: join(folder, 'runs'),
        tracer,
        logger,
        policy,
        onEvent: (event: unknown) => events.push(event),
        guardToolCall: ({ context }: { context: AppContext }) => {
          guarded.push(context.handle);
          return { action: 'allow' as const };
        },
      };
      const paused = await runAgent({ ...common, prompt: 'Refund the open order.', context: appContext() });
      expect(paused.status).toBe('awaiting_confirmation');
      if (paused.status !== 'awaiting_confirmation') return;
      expect(paused.pending[0]!.summary).toBe('Refund ord_1 for acme');
      const done = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], { ...common, context: appContext() });
      expect(done.status).toBe('completed');
      await inner.close();

      // The context arrived everywhere it should.
      // (The two reads of the first turn run together, so their entries are compared as a set.)
      expect(received.slice(0, 3).sort()).toEqual([`classify:${SECRETS.handle}`, `classify:${SECRETS.handle}`, `lookup:${SECRETS.handle}`]);
      expect(received.slice(3)).toEqual([`confirm:${SECRETS.handle}`, `summarize:${SECRETS.handle}`, `refund:${SECRETS.dsn}`, `classify:${SECRETS.handle}`]);
      expect(guarded).toEqual([SECRETS.handle, SECRETS.handle, SECRETS.handle]);
      // And nowhere else.
      const files = bytesUnder(folder);
      expect(files).toContain('run_started'); // the record was written and is searched
      if (kind === 'sqlite') expect(files).toContain('SQLite format 3');
      expect(seen.length).toBeGreaterThan(0);
      expect(spans()).toContain('execute_tool');
      expect(JSON.stringify(logged)).toContain('backend unavailable');
      expect(
        leaks({
          files,
          store: seen.join('\n'),
          requests: JSON.stringify(model.requests),
          events: JSON.stringify(events),
          spans: spans(),
          logs: JSON.stringify(logged),
          results: JSON.stringify([paused, done]),
        }),
      ).toEqual([]);
    });
  }
});
