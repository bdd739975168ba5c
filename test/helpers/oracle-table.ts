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

/** A table of plain rows for `openOracleP1P2`. */
export interface OracleTableDef {
  readonly name: string;
  readonly types: Readonly<Record<string, ColumnType>>;
  readonly rows: readonly Row[];
}

/** DuckDB and a p1 and a p2 environment holding the same tables (`openOracleP1P2`). */
export interface OracleP1P2 {
  readonly duck: Duck;
  readonly p1: TableEnvironment;
  readonly p2: TableEnvironment;
}

/**
 * The setup of the files that check a SQL feature against DuckDB at parallelism 1 and 2: `tables` loaded
 * into DuckDB and registered in a p1 environment and a p2 one whose every stage runs on worker threads
 * (`workers: 'always'`, `batchSize` 64 unless `p2Batch` says otherwise, so small tables still make
 * several morsels). `register` adds tables of its own to both environments. Close with `closeOracleP1P2`.
 */
export async function openOracleP1P2(tables: readonly OracleTableDef[], opts: { readonly p1Batch?: number; readonly p2Batch?: number; readonly register?: (e: TableEnvironment) => void } = {}): Promise<OracleP1P2> {
  const duck = await openDuck();
  for (const t of tables) await loadRows(duck, t.name, t.types, t.rows as Row[]);
  const p1 = TableEnvironment.create({ parallelism: 1, ...(opts.p1Batch !== undefined ? { batchSize: opts.p1Batch } : {}) });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: opts.p2Batch ?? 64 });
  for (const e of [p1, p2]) {
    for (const t of tables) e.registerTable(t.name, e.fromRecords(t.rows as Row[], t.types));
    opts.register?.(e);
  }
  return { duck, p1, p2 };
}

/** Closes what `openOracleP1P2` opened (any part may be missing when its setup failed). */
export async function closeOracleP1P2(o: Partial<OracleP1P2>): Promise<void> {
  await o.p1?.close();
  await o.p2?.close();
  o.duck?.close();
}
