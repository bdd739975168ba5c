/**
 * Issue #11 "Hangs": a LIMIT over a cross join of two large tables returns at
 * once (DuckDB: instant), and an AbortSignal stops a cross join promptly —
 * the join emits one batch per scheduler step (bounded steps) and a satisfied
 * LIMIT drops its pending work.
 */
import { describe, expect, it } from 'vitest';
import { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../../src/api/environment.js';
import { tpchTable } from '../../src/io/tpch/index.js';
import { CancelledError } from '../../src/relnode/errors.js';

function env(): TableEnvironment {
  const e = TableEnvironment.create({ parallelism: 1 });
  for (const name of ['lineitem', 'orders'] as const) {
    const t = tpchTable(name, 0.1);
    e.registerTable(name, new ArrowTable([...t.batches()]));
  }
  return e;
}

describe('cross joins of TPC-H SF 0.1 tables', () => {
  it('SELECT l_orderkey, o_orderkey FROM lineitem, orders LIMIT 3 returns at once', async () => {
    const e = env();
    const t0 = performance.now();
    const rows = await e.sql('SELECT l_orderkey, o_orderkey FROM lineitem, orders LIMIT 3').toArray();
    expect(rows).toHaveLength(3);
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it('an AbortSignal stops SELECT count(*) FROM lineitem, orders within 200 ms', async () => {
    const e = env();
    const ctrl = new AbortController();
    const due = performance.now() + 300;
    setTimeout(() => ctrl.abort(), 300);
    await expect(e.sql('SELECT count(*) FROM lineitem, orders').toArray({ signal: ctrl.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(performance.now() - due).toBeLessThan(200);
  });
});
