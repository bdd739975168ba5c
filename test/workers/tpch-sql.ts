/**
 * The 22 TPC-H queries of bench/tpch/ (the suite's SQL, DuckDB dialect) and small TPC-H
 * environments for the multi-core tests.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/index.js';
import { generateTpch, TPCH_TABLES, type TpchTableName } from '../../src/io/tpch/index.js';

const DIR = fileURLToPath(new URL('../../bench/tpch/', import.meta.url));

/** The query text of TPC-H query n (comment lines removed) and its ORDER BY columns. */
export function tpchSql(n: number): { readonly sql: string; readonly orderKeys: string[] } {
  const text = readFileSync(`${DIR}q${String(n).padStart(2, '0')}.sql`, 'utf8');
  const lines = text.split('\n');
  const order = lines.find((l) => /^--\s*order:/.test(l)) ?? '';
  const orderKeys = order.replace(/^--\s*order:/, '').split(',').map((s) => s.trim().replace(/\s+(asc|desc)$/i, '')).filter(Boolean);
  return { sql: lines.filter((l) => !l.startsWith('--')).join('\n').trim(), orderKeys };
}

const cache = new Map<number, Record<TpchTableName, ArrowTable>>();

/** An environment over generated TPC-H tables at scale factor `sf` (generated once per sf). */
export function tpchEnv(sf: number, options: EnvironmentOptions): TableEnvironment {
  let tables = cache.get(sf);
  if (tables === undefined) { tables = generateTpch(sf); cache.set(sf, tables); }
  const env = TableEnvironment.create(options);
  for (const n of TPCH_TABLES) env.registerTable(n, tables[n]);
  return env;
}
