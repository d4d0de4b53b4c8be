/**
 * Whether a run the store or its record calls `running` still is: a process that died mid-run leaves the status at
 * `running` for ever, and the console shows such a run as `interrupted` instead. A lease says it exactly (its holder
 * renews it while it drives the run); without one, silence does: a run whose store row and record have not changed for
 * {@link SILENT_RUN_MS} is taken for dead.
 * @module
 */
import type { RunLease } from '../../agent/index.js';

/**
 * A `running` run with no lease whose store row and record have not changed for this long shows as `interrupted`. A live
 * run writes a record line at every model request, response and tool result, and saves its state at every turn, so only
 * a single model or tool call this long keeps a live run this quiet (toolwright sets no timeout on either by default:
 * the status then reads `interrupted` until its next line).
 */
export const SILENT_RUN_MS = 30 * 60_000;

export interface Liveness {
  /** The status the store or the record holds. */
  status: string;
  /** The lease the store holds for the run, if any. */
  lease?: RunLease | undefined;
  /** Milliseconds since the epoch of the last write seen: the store's `updatedAt`, the record file's mtime, whichever is later. */
  lastWriteAt?: number | undefined;
  /** An MCP server's session record (`mcp-client:<name>`): a session may sit idle for hours, so silence says nothing of it. */
  session?: boolean;
}

/** `interrupted` for a `running` run whose lease lapsed, or that has none and has been silent for {@link SILENT_RUN_MS}; else the status as it is. */
export function shownStatus(run: Liveness, now = Date.now()): string {
  if (run.status !== 'running') return run.status;
  if (run.lease) return run.lease.expiresAt <= now ? 'interrupted' : 'running';
  if (run.session || run.lastWriteAt === undefined) return 'running';
  return now - run.lastWriteAt > SILENT_RUN_MS ? 'interrupted' : 'running';
}
