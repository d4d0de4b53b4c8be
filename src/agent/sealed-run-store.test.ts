import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../shared/redaction/index.js';
import type { ToolCallOutcome } from './agent-result.js';
import { RunStoreError } from './agent-errors.js';
import { createMemoryRunStore } from './memory-run-store.js';
import type { RunState } from './run-state.js';
import { SEALED_FIELD, sealRunStore } from './sealed-run-store.js';

const tool = { name: 'rotate', inputSchema: { type: 'object', properties: { value: { type: 'string', writeOnly: true } } } };

function stateWithSecrets(): RunState {
  return {
    version: 1,
    runId: 'run_sealed',
    modelId: 'scripted',
    messages: [
      { role: 'user', content: 'Use sk-abcdefghijklmnopqrstuvwx please' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'c1', name: 'rotate', arguments: { value: 'writeonly-value' }, argumentsText: '{"value":"writeonly-value"}' }],
      },
    ],
    steps: [],
    usage: { inputTokens: 1, outputTokens: 2, modelCalls: 1, toolCalls: 0, wallTimeMs: 0 },
    costUsd: 0,
    iterations: 1,
    routed: true,
    routedTools: undefined,
    failureCounts: {},
    callCounts: {},
    pendingTurn: {
      step: 0,
      calls: [
        {
          callKey: '0.0',
          callId: 'c1',
          toolName: 'rotate',
          request: { id: 'c1', name: 'rotate', argumentsText: '{"value":"writeonly-value"}' },
          kind: 'confirm',
          arguments: { value: 'writeonly-value' },
          summary: 'rotate',
        },
      ],
    },
    limits: {},
    settings: {},
    meta: { password: 'meta-password' },
    recordPath: undefined,
  };
}

describe('sealRunStore', () => {
  it('stores the state redacted with its secrets sealed, and loads it back whole', async () => {
    const inner = createMemoryRunStore();
    const store = sealRunStore(inner, createRedactor({ tools: [tool] }));
    const state = stateWithSecrets();
    await store.saveRun({ runId: state.runId, status: 'awaiting_confirmation', state });
    const raw = JSON.stringify((await inner.loadRun(state.runId))!.state);
    for (const secret of ['sk-abcdefghijklmnopqrstuvwx', 'writeonly-value', 'meta-password']) expect(raw).not.toContain(secret);
    expect(raw).toContain(SEALED_FIELD);
    expect((await store.loadRun(state.runId))!.state).toEqual(state);
    // Wrapping twice changes nothing.
    expect(sealRunStore(store, createRedactor())).toBe(store);
  });

  it('seals call outcomes the same way', async () => {
    const inner = createMemoryRunStore();
    const store = sealRunStore(inner, createRedactor({ tools: [tool] }));
    const outcome: ToolCallOutcome = {
      callKey: '0.0',
      callId: 'c1',
      toolName: 'rotate',
      arguments: { value: 'writeonly-value' },
      status: 'succeeded',
      result: { content: [{ type: 'text', text: 'new token ghp_abcdefghijklmnopqrstuvwxyz0123456789' }], isError: false },
      durationMs: 1,
      truncated: false,
    };
    expect(await store.beginCall('run_sealed', '0.0')).toBeUndefined();
    await store.finishCall('run_sealed', '0.0', outcome);
    expect(JSON.stringify(await inner.beginCall('run_sealed', '0.0'))).not.toMatch(/writeonly-value|ghp_/);
    expect(await store.beginCall('run_sealed', '0.0')).toEqual({ status: 'done', outcome });
  });

  it('refuses, with TW_RUN_STORE, sealed values it cannot open (altered, or from another store)', async () => {
    const inner = createMemoryRunStore();
    const state = stateWithSecrets();
    await sealRunStore(inner, createRedactor({ tools: [tool] })).saveRun({ runId: state.runId, status: 'awaiting_confirmation', state });
    const stored = (await inner.loadRun(state.runId))!;
    const sealed = (stored.state as unknown as Record<string, string>)[SEALED_FIELD]!;
    const other = createMemoryRunStore();
    await other.saveRun({ runId: state.runId, status: 'awaiting_confirmation', state: stored.state });
    await expect(sealRunStore(other, createRedactor()).loadRun(state.runId)).rejects.toThrow(RunStoreError);
    // Flip the body's first character: every bit of it is used (the last one's low bits may not be, which made this flaky).
    const bodyStart = sealed.lastIndexOf('.') + 1;
    const flipped = `${sealed.slice(0, bodyStart)}${sealed[bodyStart] === 'A' ? 'B' : 'A'}${sealed.slice(bodyStart + 1)}`;
    const altered = { ...stored.state, [SEALED_FIELD]: flipped } as RunState;
    await inner.saveRun({ runId: state.runId, status: 'awaiting_confirmation', state: altered });
    await expect(sealRunStore(inner, createRedactor()).loadRun(state.runId)).rejects.toMatchObject({
      code: 'TW_RUN_STORE',
      message: expect.stringContaining('could not be unsealed'),
    });
  });

  // The seal moved from node:crypto to Web Crypto (so that the core runs on every runtime): stores written before must still open.
  it('reads values node:crypto sealed, and seals values node:crypto reads (same key, same tws1 format)', async () => {
    const inner = createMemoryRunStore();
    const state = stateWithSecrets();
    await sealRunStore(inner, createRedactor({ tools: [tool] })).saveRun({ runId: state.runId, status: 'awaiting_confirmation', state });
    const stored = (await inner.loadRun(state.runId))!;
    const key = Buffer.from(hkdfSync('sha256', await inner.getSecret(), Buffer.alloc(0), 'toolwright sealed run values v1', 32));
    const [format, iv, tag, body] = (stored.state as unknown as Record<string, string>)[SEALED_FIELD]!.split('.') as [string, string, string, string];
    expect(format).toBe('tws1');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(state.runId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const originals = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    expect(originals).toContain('writeonly-value');

    const newIv = Buffer.alloc(12, 7);
    const cipher = createCipheriv('aes-256-gcm', key, newIv);
    cipher.setAAD(Buffer.from(state.runId, 'utf8'));
    const newBody = Buffer.concat([cipher.update(originals, 'utf8'), cipher.final()]);
    const sealedByNode = ['tws1', newIv.toString('base64url'), cipher.getAuthTag().toString('base64url'), newBody.toString('base64url')].join('.');
    await inner.saveRun({ runId: state.runId, status: 'awaiting_confirmation', state: { ...stored.state, [SEALED_FIELD]: sealedByNode } as RunState });
    expect((await sealRunStore(inner, createRedactor()).loadRun(state.runId))!.state).toEqual(state);
  });
});
