/**
 * The two engines of the random differential test, loaded with the same
 * data: eddy (TPC-H via `registerTpch`, the harness's small tables `nulls`,
 * `nulls_r`, `dicts`) and an in-process DuckDB (the same Arrow tables through
 * the appender). Used by
 * the command-line runner; the vitest entry uses the harness instead.
 */
import { TableEnvironment } from '../../../src/index.js';
import { generateTpch, TPCH_TABLES } from '../../../src/io/tpch/index.js';
import { loadArrow, openDuck, type Duck } from '../../helpers/duckdb.js';
import { dictsTable, loadNullTables, registerNullTables, SF } from '../harness.js';
import { buildCatalog, type Catalog } from './catalog.js';

/**
 * Works around DuckDB 1.5.6 bugs the generator hits: with several threads its
 * join filter pushdown into a TopN (`(SELECT ... ORDER BY a, b LIMIT n) d JOIN t
 * ON d.k = t.k`) sometimes returns rows outside the top n.
 */
export async function avoidDuckBugs(duck: Duck): Promise<void> {
  await duck.run("SET disabled_optimizers = 'join_filter_pushdown'");
}

/** Both engines and the generator's catalog. */
export interface Engines {
  readonly env: TableEnvironment;
  readonly duck: Duck;
  readonly catalog: Catalog;
  /** Closes both engines. */
  close(): Promise<void>;
}

/** Opens eddy (with the given parallelism and batch size) and DuckDB, both loaded with TPC-H SF 0.01 and the NULL tables. */
export async function openEngines(options: { parallelism?: number; batchSize?: number } = {}): Promise<Engines> {
  const env = TableEnvironment.create({ parallelism: options.parallelism ?? 1, ...(options.batchSize ? { batchSize: options.batchSize } : {}) });
  const duck = await openDuck();
  await avoidDuckBugs(duck);
  await registerNullTables(env);
  await loadNullTables(duck);
  const dicts = dictsTable();
  env.registerTable('dicts', dicts);
  await loadArrow(duck, 'dicts', dicts);
  env.registerTpch(SF);
  const tpch = generateTpch(SF);
  for (const name of TPCH_TABLES) await loadArrow(duck, name, tpch[name]);
  return {
    env,
    duck,
    catalog: buildCatalog(tpch),
    async close(): Promise<void> {
      await env.close();
      duck.close();
    },
  };
}
