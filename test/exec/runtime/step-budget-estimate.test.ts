/**
 * The per-channel cost estimate of the step budget (runtime/step-budget.ts): measurement noise
 * only adds time, so a slow first sample (the consumer's JIT warm-up, a GC) must not keep a
 * cheap consumer's deliveries sliced; a consumer that really costs more still raises it.
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_BUDGET_MS, deliveryRows, observeDelivery } from '../../../src/exec/runtime/step-budget.js';
import type { Channel } from '../../../src/exec/runtime/channel.js';

const channel = (): Channel => ({ msPerRow: -1, deliveries: 0 }) as unknown as Channel;
const BIG = 65536;

describe('step budget: the cost estimate of a channel', () => {
  it('a slow first delivery followed by a cheap one gives whole batches again', () => {
    const ch = channel();
    observeDelivery(ch, 4096, 2); // first call: 0.5 µs/row (compiling the consumer)
    expect(deliveryRows(ch, BIG)).toBeLessThan(BIG);
    observeDelivery(ch, 16384, 0.1); // cheap from then on
    expect(deliveryRows(ch, BIG)).toBe(BIG);
  });

  it('a delivery measured at 0 ms (under the CPU clock\'s resolution) does not pin the estimate at 0', () => {
    const ch = channel();
    observeDelivery(ch, 2048, 0); // a cheap consumer: whole batches
    expect(deliveryRows(ch, BIG)).toBe(BIG);
    observeDelivery(ch, 4096, 8); // it got dear (2 µs a row): the estimate must move off 0
    expect(ch.msPerRow).toBeGreaterThan(0);
    expect(deliveryRows(ch, BIG)).toBeLessThan(BIG / 4);
  });

  it('a consumer that gets dearer reaches its cost within a few samples, at most 2.2x per sample', () => {
    const ch = channel();
    observeDelivery(ch, 4096, 0.04);
    const before = ch.msPerRow;
    observeDelivery(ch, 4096, 40); // a GC or a real change: bounded rise
    expect(ch.msPerRow).toBeCloseTo(0.6 * before + 0.4 * 4 * before, 12);
    for (let i = 0; i < 12; i++) observeDelivery(ch, 4096, 40);
    expect(ch.msPerRow).toBeGreaterThan(0.9 * (40 / 4096));
    expect(deliveryRows(ch, BIG)).toBeLessThanOrEqual(Math.max(1024, Math.ceil(DELIVERY_BUDGET_MS / ch.msPerRow) * 1.25));
  });
});
