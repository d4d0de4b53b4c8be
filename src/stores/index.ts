/**
 * `toolwright/stores`: where paused runs live and how they reach workers. The stores the agent opens by itself (the
 * process's memory store, the SQLite file at `statePath`) and the contract every store keeps (`RunStore`) stay in
 * src/agent/, since `runAgent` uses them by default; this area adds what a deployment of many processes wires in: the
 * PostgreSQL store and the pg-boss queue that hands runs to workers (it drives `resumeAgent`, so it sits above the agent).
 * Any new export added here becomes public API. Use named exports, not wildcards.
 * @module
 */
export { createMemoryRunStore, processRunStore } from '../agent/memory-run-store.js';
export { openSqliteRunStore } from '../agent/sqlite-run-store.js';
export type { SqliteRunStoreOptions } from '../agent/sqlite-run-store.js';
export { createPostgresRunStore } from './postgres-run-store.js';
export type { DecisionNotice, PostgresClient, PostgresPool, PostgresRunStore, PostgresRunStoreOptions } from './postgres-run-store.js';
export { createMemoryTaskStore } from './mcp-task-store.js';
export type { McpTaskChange, McpTaskPage, McpTaskStatus, McpTaskStore, StoredMcpTask } from './mcp-task-store.js';
export { openSqliteTaskStore } from './sqlite-task-store.js';
export type { SqliteTaskStoreOptions } from './sqlite-task-store.js';
export { createPostgresTaskStore } from './postgres-task-store.js';
export type { PostgresTaskStoreOptions } from './postgres-task-store.js';
export type { PostgresConnectionOptions } from './postgres-pool.js';
export { createRunQueue } from './run-queue.js';
export type { ResumeOptionsFor, RunQueue, RunQueueOptions, WorkerOutcome } from './run-queue.js';
export { RunLeasedError, RunStoreError, RunStoreUnavailableError } from '../agent/agent-errors.js';
export { DEFAULT_LEASE_MS } from '../agent/resume-agent.js';
export type {
  CallClaim,
  ClaimOptions,
  ClaimResult,
  Decision,
  LeaseFence,
  RunLease,
  RunStatus,
  RunStore,
  StoredCall,
  StoredConfirmation,
  StoredOutcome,
  StoredRun,
} from '../agent/run-store.js';
