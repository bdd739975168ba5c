/**
 * Self-time attribution (exec/runtime/metrics.ts): the innermost running
 * instance gets the time, an enclosing one's clock pauses meanwhile, the
 * allocation-free stack is reused across calls, and a callback that throws
 * still leaves the stack balanced.
 */
import { describe, expect, it } from 'vitest';
import { SelfTimer, newMetrics } from '../../../src/exec/runtime/metrics.js';

const busy = (ms: number): void => { const end = performance.now() + ms; while (performance.now() < end) { /* spin */ } };

describe('SelfTimer', () => {
  it('attributes nested time to the innermost entry only', () => {
    const t = new SelfTimer();
    const a = newMetrics();
    const b = newMetrics();
    const c = newMetrics();
    const t0 = performance.now();
    for (let round = 0; round < 3; round++) { // the stack's slots are reused
      t.timed(a, () => {
        busy(4);
        t.timed(b, () => { busy(4); t.timed(c, () => busy(4)); });
        busy(4);
      });
    }
    const elapsed = performance.now() - t0;
    expect(a.timeMs).toBeGreaterThanOrEqual(24);
    expect(b.timeMs).toBeGreaterThanOrEqual(12);
    expect(c.timeMs).toBeGreaterThanOrEqual(12);
    // Nothing is counted twice (a nested entry's time is not also its parent's): the parts add up to the whole.
    expect(a.timeMs + b.timeMs + c.timeMs).toBeLessThanOrEqual(elapsed + 0.01);
    expect(a.timeMs + b.timeMs + c.timeMs).toBeGreaterThan(elapsed - 1);
  });

  it('stays balanced when a callback throws', () => {
    const t = new SelfTimer();
    const a = newMetrics();
    const b = newMetrics();
    const t0 = performance.now();
    t.timed(a, () => {
      expect(() => t.timed(b, () => { busy(2); throw new Error('boom'); })).toThrow('boom');
      busy(4);
    });
    const elapsed = performance.now() - t0;
    expect(b.timeMs).toBeGreaterThanOrEqual(2);
    expect(a.timeMs).toBeGreaterThanOrEqual(4); // a's busy time after the throw went to a, not to b
    expect(a.timeMs + b.timeMs).toBeLessThanOrEqual(elapsed + 0.01);
    expect(a.timeMs + b.timeMs).toBeGreaterThan(elapsed - 1);
  });
});
