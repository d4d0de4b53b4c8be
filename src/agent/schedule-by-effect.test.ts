import { describe, expect, it } from 'vitest';
import { scheduleByEffect, type ScheduledJob } from './schedule-by-effect.js';

describe('scheduleByEffect', () => {
  it('starts a write only after earlier reads settle, and later reads only after it', async () => {
    const log: string[] = [];
    const job = (name: string, effect: ScheduledJob<string>['effect']): ScheduledJob<string> => ({
      effect,
      run: async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`end ${name}`);
        return name;
      },
    });
    const results = await scheduleByEffect([job('r1', 'read'), job('r2', 'read'), job('w', 'write'), job('n', 'none'), job('r3', 'read')], 4);
    expect(results).toEqual(['r1', 'r2', 'w', 'n', 'r3']);
    expect(log).toEqual(['start r1', 'start r2', 'end r1', 'end r2', 'start w', 'end w', 'start n', 'start r3', 'end n', 'end r3']);
  });
});
