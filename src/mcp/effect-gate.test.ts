import { describe, expect, it } from 'vitest';
import { EffectGate } from './effect-gate.js';

/** A job that records when it starts and ends, and finishes only when released. */
function recorder() {
  const log: string[] = [];
  const releases = new Map<string, () => void>();
  const job = (name: string) => () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve) =>
      releases.set(name, () => {
        log.push(`end ${name}`);
        resolve(name);
      }),
    );
  };
  const release = async (name: string) => {
    releases.get(name)!();
    // Let the gate admit whoever was waiting.
    for (let tick = 0; tick < 5; tick++) await Promise.resolve();
  };
  return { log, job, release };
}

const settle = async () => {
  for (let tick = 0; tick < 5; tick++) await Promise.resolve();
};

describe('EffectGate', () => {
  it('runs reads together, and a write alone once the reads before it ended', async () => {
    const gate = new EffectGate();
    const { log, job, release } = recorder();
    const runs = [gate.run('read', undefined, job('r1')), gate.run('read', undefined, job('r2')), gate.run('write', undefined, job('w1'))];
    await settle();
    expect(log).toEqual(['start r1', 'start r2']);
    await release('r1');
    expect(log).toEqual(['start r1', 'start r2', 'end r1']);
    await release('r2');
    expect(log).toEqual(['start r1', 'start r2', 'end r1', 'end r2', 'start w1']);
    await release('w1');
    expect(await Promise.all(runs)).toEqual(['r1', 'r2', 'w1']);
  });

  it('never overlaps two writes, and admits them in arrival order', async () => {
    const gate = new EffectGate();
    const { log, job, release } = recorder();
    const runs = ['w1', 'w2', 'w3'].map((name) => gate.run('write', undefined, job(name)));
    await settle();
    expect(log).toEqual(['start w1']);
    await release('w1');
    await release('w2');
    await release('w3');
    expect(log).toEqual(['start w1', 'end w1', 'start w2', 'end w2', 'start w3', 'end w3']);
    await Promise.all(runs);
  });

  it('queues a read that arrives behind a waiting write, so writes are not starved', async () => {
    const gate = new EffectGate();
    const { log, job, release } = recorder();
    const runs = [gate.run('read', undefined, job('r1')), gate.run('write', undefined, job('w1')), gate.run('read', undefined, job('r2'))];
    await settle();
    expect(log).toEqual(['start r1']);
    expect(gate.waiting).toBe(2);
    await release('r1');
    expect(log).toEqual(['start r1', 'end r1', 'start w1']);
    await release('w1');
    expect(log.at(-1)).toBe('start r2');
    await release('r2');
    await Promise.all(runs);
  });

  it('takes an aborted waiter out of the queue without running it, and lets the calls behind it go', async () => {
    const gate = new EffectGate();
    const { log, job, release } = recorder();
    const controller = new AbortController();
    const first = gate.run('read', undefined, job('r1'));
    const cancelled = gate.run('write', controller.signal, job('w1'));
    const behind = gate.run('read', undefined, job('r2'));
    await settle();
    expect(log).toEqual(['start r1']);
    controller.abort(new Error('client cancelled'));
    await expect(cancelled).rejects.toThrow('client cancelled');
    await settle();
    expect(log).toEqual(['start r1', 'start r2']);
    await release('r1');
    await release('r2');
    await Promise.all([first, behind]);
    expect(log).not.toContain('start w1');
    expect(gate.waiting).toBe(0);
  });

  it('frees its slot when the work throws', async () => {
    const gate = new EffectGate();
    await expect(
      gate.run('write', undefined, () => {
        throw new Error('tool crashed');
      }),
    ).rejects.toThrow('tool crashed');
    expect(await gate.run('write', undefined, () => Promise.resolve('next'))).toBe('next');
  });

  it('rejects at once when the signal is already aborted', async () => {
    const gate = new EffectGate();
    let ran = false;
    await expect(
      gate.run('read', AbortSignal.abort(new Error('gone')), () => {
        ran = true;
        return Promise.resolve();
      }),
    ).rejects.toThrow('gone');
    expect(ran).toBe(false);
  });
});
