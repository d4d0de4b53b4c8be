/**
 * An MCP session's record (`createMcpServer({ recordDir })`): the `run_started` and `stop` lines around the call events
 * the session's guards tell, so that a list of runs (the console) reads a closed session as finished.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Redactor } from '../agent/redact.js';
import { RunRecorder } from '../agent/run-recorder.js';
import type { ToolGuards } from '../agent/tool-guards.js';
import type { ToolRegistry } from '../tools/index.js';
import type { McpAuthIdentity } from './auth/mcp-auth-options.js';
import { sessionLimits, type McpCallLimits } from './session-guards.js';

/** A session's record (`recordDir`): begun on its first call, finished when the session closes. */
export interface SessionRecord {
  recorder: RunRecorder;
  /** Writes the `stop` line (`completed`, or `stopped` with the guards' stop) and closes the file. */
  finish(guards: ToolGuards | undefined): void;
}

/**
 * Opens a session's record with a `run_started` line, shaped as a run's but holding only what is true of a session (docs/mcp.md,
 * "A record per session"): `modelId` names the client (the model behind it is the client's, unknown here), `limits` holds the
 * session's own limits, and the session is never resumed.
 */
export function startSessionRecord(
  server: Server,
  registry: ToolRegistry,
  runId: string,
  path: string,
  redactor: Redactor,
  limits: McpCallLimits | undefined,
  auth?: McpAuthIdentity,
): SessionRecord {
  const recorder = new RunRecorder(runId, path, redactor);
  const startedAt = Date.now();
  let finished = false;
  const client = server.getClientVersion()?.name;
  const modelId = `mcp-client:${typeof client === 'string' && client !== '' ? client.slice(0, 100) : 'unnamed'}`;
  // With `auth`, who the session's access token speaks for (never the token), where a run keeps what it chose to record of its
  // context; under `identity`, since the redactor hides any value under a key named `auth`.
  const context = auth && { identity: { subject: auth.subject, clientId: auth.clientId, scopes: auth.scopes, issuer: auth.issuer } };
  recorder.write({
    type: 'run_started',
    modelId,
    tools: registry.list().map((tool) => tool.name),
    limits: sessionLimits(limits),
    resumed: false,
    ...(context ? { context } : {}),
  });
  return {
    recorder,
    finish(guards) {
      // A transport may report its close more than once; the record ends once.
      if (finished) return;
      finished = true;
      const stopped = guards?.stopped;
      // No model call is made or seen here: tokens, model calls and cost are zero; the wall time runs from the first call to the close.
      const usage = { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: guards?.spent().toolCalls ?? 0, wallTimeMs: Date.now() - startedAt };
      recorder.write({ type: 'stop', status: stopped ? 'stopped' : 'completed', ...(stopped ? { stopReason: stopped } : {}), usage, costUsd: 0 });
      recorder.close();
    },
  };
}
