/**
 * `passAggregatedToProbe` (planner/lower-marks.ts): which joins pass a GROUP BY's mark on to their
 * probe side (its strings may then stay dictionary codes). Checked on the marks directly; the
 * answers of plans that use it are checked against DuckDB in test/diff/join-dictionary-output.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JobGraphBuilder } from '../../src/exec/job.js';
import { passAggregatedToProbe, probeMarkTuning, takeAggregated } from '../../src/planner/lower-marks.js';
import { join, scan, type JoinType } from '../../src/relnode/rel.js';
import { call } from '../../src/relnode/rex.js';
import { CUSTOMERS, ORDERS, ref } from './plan-fixtures.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const onCust = call('eq', [ref(1, 'INTEGER'), ref(5, 'INTEGER')], 'BOOLEAN');
const onName = call('eq', [ref(3, 'VARCHAR'), ref(6, 'VARCHAR')], 'BOOLEAN');

/** Whether the probe side of `orders ⋈ customers` gets the mark. */
function passes(jt: JoinType, buildSide: 'left' | 'right', probeKey: number, residual = [] as ReturnType<typeof call>[]): boolean {
  const b = new JobGraphBuilder();
  const n = join(orders, customers, jt, probeKey === 3 ? onName : onCust);
  passAggregatedToProbe(b, n, buildSide, [buildSide === 'right' ? probeKey : probeKey - 5], residual);
  const probe = buildSide === 'right' ? n.left : n.right;
  const other = buildSide === 'right' ? n.right : n.left;
  expect(takeAggregated(b, other)).toBe(false); // never the build side
  return takeAggregated(b, probe);
}

describe('passAggregatedToProbe', () => {
  afterEach(() => { probeMarkTuning.enabled = true; });

  it('an inner join passes the mark to its probe side, whichever side that is', () => {
    expect(passes('inner', 'right', 1)).toBe(true);
    expect(passes('inner', 'left', 5)).toBe(true);
  });

  it('semi and anti joins pass it only when they build the right side (they emit the left)', () => {
    expect(passes('anti', 'right', 1)).toBe(true);
    expect(passes('semi', 'right', 1)).toBe(true);
    expect(passes('anti', 'left', 5)).toBe(false);
  });

  it('outer joins keep it (their NULL padding)', () => {
    expect(passes('left', 'right', 1)).toBe(false);
    expect(passes('full', 'right', 1)).toBe(false);
  });

  it('not when the join reads a probe-side VARCHAR as its key or in its residual', () => {
    expect(passes('inner', 'right', 3)).toBe(false);
    expect(passes('inner', 'right', 1, [call('ne', [ref(3, 'VARCHAR'), ref(7, 'VARCHAR')], 'BOOLEAN')])).toBe(false);
    // A residual on the build side's strings does not stop it.
    expect(passes('inner', 'right', 1, [call('ne', [ref(6, 'VARCHAR'), ref(7, 'VARCHAR')], 'BOOLEAN')])).toBe(true);
  });

  it('not when turned off (the benchmark A/B)', () => {
    probeMarkTuning.enabled = false;
    expect(passes('inner', 'right', 1)).toBe(false);
  });
});
