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

// Generated once for both tests: 600k × 150k rows, a cross join that would run for hours.
const tables = (['lineitem', 'orders'] as const).map((name) => [name, new ArrowTable([...tpchTable(name, 0.1).batches()])] as const);

function env(): TableEnvironment {
  const e = TableEnvironment.create({ parallelism: 1 });
  for (const [name, t] of tables) e.registerTable(name, t);
  return e;
}

describe('cross joins of TPC-H SF 0.1 tables', () => {
  it('SELECT l_orderkey, o_orderkey FROM lineitem, orders LIMIT 3 returns at once', async () => {
    const e = env();
    const t0 = performance.now();
    const rows = await e.sql('SELECT l_orderkey, o_orderkey FROM lineitem, orders LIMIT 3').toArray();
    expect(rows).toHaveLength(3);
    expect(performance.now() - t0).toBeLessThan(10_000); // generous for a loaded machine; the whole join would take hours
  });

  it('an AbortSignal stops SELECT count(*) FROM lineitem, orders promptly', async () => {
    const e = env();
    const ctrl = new AbortController();
    const due = performance.now() + 300;
    setTimeout(() => ctrl.abort(), 300);
    await expect(e.sql('SELECT count(*) FROM lineitem, orders').toArray({ signal: ctrl.signal })).rejects.toBeInstanceOf(CancelledError);
    // Bounded steps stop it within milliseconds when the machine is quiet; the bound leaves room for load 20.
    expect(performance.now() - due).toBeLessThan(5000);
  });
});
