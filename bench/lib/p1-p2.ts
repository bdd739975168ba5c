/**
 * The SF tables of the suite's Arrow files in two environments, parallelism 1 and 2, sharing the same
 * in-memory batches (bench/multi-core.ts, p2-fixed-cost.ts): loaded once through a parallelism-1
 * environment, so both read identical batches in table order.
 */
import { join } from 'node:path';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../../src/api/environment.js';
import { TPCH_TABLES } from '../../src/io/tpch/index.js';
import { DEFAULT_DATA_DIR, ensureData } from '../suite/data.js';

/** The tables by name and the two environments (close both when done). */
export async function p1AndP2(sf: number, dataDir: string | undefined): Promise<{ tables: Record<string, ArrowTable>; p1: TableEnvironment; p2: TableEnvironment }> {
  const data = await ensureData(sf, dataDir ?? DEFAULT_DATA_DIR, (m) => console.error(m));
  const loader = TableEnvironment.create({ parallelism: 1 });
  const tables: Record<string, ArrowTable> = {};
  for (const n of TPCH_TABLES) tables[n] = await (await loader.fromArrowFile(join(data.dir, `${n}.arrow`))).collect();
  await loader.close();
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2 });
  for (const n of TPCH_TABLES) { p1.registerTable(n, tables[n]!); p2.registerTable(n, tables[n]!); }
  return { tables, p1, p2 };
}

/**
 * The p1 and p2 environments a benchmark runs on: SF 0.1 generated in process (registerTpch) when no
 * data folder is given, else the suite's Arrow files through `p1AndP2`.
 */
export async function tpchEnvironments(sf: number, dataDir: string | undefined): Promise<{ p1: TableEnvironment; p2: TableEnvironment }> {
  if (sf === 0.1 && dataDir === undefined) {
    const p1 = TableEnvironment.create({ parallelism: 1 });
    const p2 = TableEnvironment.create({ parallelism: 2 });
    p1.registerTpch(0.1);
    p2.registerTpch(0.1);
    return { p1, p2 };
  }
  const { p1, p2 } = await p1AndP2(sf, dataDir);
  return { p1, p2 };
}
