/** A run left `running` by a process that died shows as `interrupted`: by its lapsed lease, or by its silence. */
import { describe, expect, it } from 'vitest';
import { shownStatus, SILENT_RUN_MS } from './run-liveness.js';

const now = Date.parse('2026-03-02T09:00:00Z');
const lease = (expiresAt: number) => ({ owner: 'o', holder: 'pid 1 on host-a', expiresAt });

describe('shownStatus', () => {
  it('reads a lease exactly: live is running, lapsed is interrupted, however recent the last write', () => {
    expect(shownStatus({ status: 'running', lease: lease(now + 1), lastWriteAt: now - 10 * SILENT_RUN_MS }, now)).toBe('running');
    expect(shownStatus({ status: 'running', lease: lease(now), lastWriteAt: now }, now)).toBe('interrupted');
  });

  it('without a lease, takes a run silent for longer than SILENT_RUN_MS for dead', () => {
    expect(shownStatus({ status: 'running', lastWriteAt: now - SILENT_RUN_MS }, now)).toBe('running');
    expect(shownStatus({ status: 'running', lastWriteAt: now - SILENT_RUN_MS - 1 }, now)).toBe('interrupted');
    expect(shownStatus({ status: 'running' }, now)).toBe('running');
  });

  it('leaves an MCP session (idle for hours is normal) and every other status as they are', () => {
    expect(shownStatus({ status: 'running', lastWriteAt: 0, session: true }, now)).toBe('running');
    for (const status of ['completed', 'stopped', 'awaiting_confirmation', 'unknown'])
      expect(shownStatus({ status, lease: lease(0), lastWriteAt: 0 }, now)).toBe(status);
  });
});
