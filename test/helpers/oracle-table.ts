/**
 * The setup most SQL-vs-DuckDB test files share: one table of plain rows loaded into DuckDB and
 * registered in a parallelism-1 environment (hooks registered by the call), and a p1-vs-p2 check over
 * a table large enough to ship to workers.
 */
import { afterAll, beforeAll } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow, type ResultSet } from './compare.js';
import { loadRows, openDuck, type ColumnType, type Duck } from './duckdb.js';

type Row = Record<string, unknown>;

/** Registers beforeAll / afterAll hooks that load `rows` as table `name` in DuckDB and in a p1 environment; the getters read them in tests. */
export function oracleTable(name: string, types: Readonly<Record<string, ColumnType>>, rows: readonly Row[]): { duck: () => Duck; env: () => TableEnvironment } {
  let duck: Duck | undefined;
  let env: TableEnvironment | undefined;
  beforeAll(async () => {
    duck = await openDuck();
    await loadRows(duck, name, types, rows as Row[]);
    env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable(name, env.fromRecords(rows as Row[], types));
  });
  afterAll(async () => {
    await env?.close();
    duck?.close();
  });
  return { duck: () => duck!, env: () => env! };
}

/** Runs `query` over table `name` of `rows` at parallelism 1 and 2 and expects the same rows in the same order; returns p2's. */
export async function expectSameAtP1AndP2(name: string, types: Readonly<Record<string, ColumnType>>, rows: readonly Row[], query: string): Promise<ResultSet> {
  const e1 = TableEnvironment.create({ parallelism: 1 });
  const e2 = TableEnvironment.create({ parallelism: 2 });
  try {
    e1.registerTable(name, e1.fromRecords(rows as Row[], types));
    e2.registerTable(name, e2.fromRecords(rows as Row[], types));
    const a = fromArrow(await e2.sql(query).collect());
    expectSameResult(a, fromArrow(await e1.sql(query).collect()), { ordered: true });
    return a;
  } finally {
    await e1.close();
    await e2.close();
  }
}
