/**
 * Window functions against DuckDB on generated data and generated queries
 * (window-gen.ts): every ranking, navigation and aggregate function, every
 * frame kind, NULLs and ties in partition and order keys, at parallelism 1
 * (one batch) and 2 (7-row batches, so hash exchanges split the input).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../../src/api/environment.js';
import { diffResults, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';
import { WIN_COLUMNS, windowQuery, winRows } from './window-gen.js';

/** Queries per parallelism: few in `npm test` (each runs on both engines); EDDY_WINDOW_QUERIES=2000 for a long run. */
const QUERIES = Number(process.env.EDDY_WINDOW_QUERIES ?? 40);
const rows = winRows(7, 61);

let duck: Duck;
const envs: TableEnvironment[] = [];

beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 'win', WIN_COLUMNS, rows);
  for (const [parallelism, batchRows] of [[1, rows.length], [2, 7]] as const) {
    const env = TableEnvironment.create({ parallelism });
    const batches: RecordBatch[] = [];
    for (let i = 0; i < rows.length; i += batchRows) batches.push(...(await env.fromRecords(rows.slice(i, i + batchRows), WIN_COLUMNS).collect()).batches);
    env.registerTable('win', new ArrowTable(batches[0]!.schema, batches));
    envs.push(env);
  }
});

afterAll(async () => {
  for (const e of envs) await e.close();
  duck?.close();
});

describe('window functions vs DuckDB (random queries)', () => {
  it.each([0, 1])('parallelism %s', async (k) => {
    const env = envs[k]!;
    const failures: string[] = [];
    for (let seed = 1; seed <= QUERIES; seed++) {
      const sql = windowQuery(seed + 1000 * k);
      const expected = await duck.query(sql);
      let diff: string | undefined;
      try {
        const actual = fromArrow(await env.sql(sql).collect());
        diff = diffResults(actual, expected, { tolerance: 1e-9 });
      } catch (e) {
        diff = `eddy failed: ${(e as Error).message}`;
      }
      if (diff) failures.push(`seed ${seed + 1000 * k}: ${sql}\n${diff}`);
      if (failures.length >= 3) break;
    }
    expect(failures.join('\n\n')).toBe('');
  });
});
