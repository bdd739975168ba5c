/**
 * Differential-test harness: one TableEnvironment per harness and an
 * in-process DuckDB, loaded (beforeAll) with the same data — TPC-H at
 * SF 0.01 and small hand-made tables with NULLs in every type — and `check`,
 * which runs a Table and a SQL query and compares the results.
 *
 * The DuckDB oracle is shared by every harness of a test worker (vitest runs
 * files with isolate: false): loading TPC-H into it row by row cost ~0.7 s
 * CPU per harness, ~30 of them in `npm test`. Tables a test file adds to it
 * are dropped when the file's last harness ends; a file that replaced one of
 * the shared tables gets the oracle closed, and the next harness loads a
 * fresh one.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  Dictionary, Field, Float64, Int32, makeData, RecordBatch, Schema as ArrowSchema, Struct, Table as ArrowTableClass, Utf8, vectorFromArray,
  type Table as ArrowTable,
} from 'apache-arrow';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { generateTpch, TPCH_TABLES, type TpchTableName } from '../../src/io/tpch/index.js';
import { expectSameResult, fromArrow, type CompareOptions, type ResultSet } from '../helpers/compare.js';
import { loadArrow, loadRows, openDuck, type ColumnType, type Duck } from '../helpers/duckdb.js';

/** The TPC-H scale factor of the differential tests. */
export const SF = 0.01;

/** Columns of `nulls`: NULLs in every type; `g` is a group key with NULLs, group 'v' has only NULL values. */
export const NULLS_COLUMNS: Readonly<Record<string, ColumnType>> = {
  k: 'INTEGER', i: 'INTEGER', b: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR', dt: 'DATE', f: 'BOOLEAN', f2: 'BOOLEAN', g: 'VARCHAR',
};

/** Rows of `nulls` (f, f2 cover all nine TRUE/FALSE/NULL combinations). */
export const NULLS_ROWS: readonly Record<string, unknown>[] = [
  { k: 1, i: 1, b: 10, d: 1.5, s: 'apple', dt: '2020-01-01', f: true, f2: true, g: 'x' },
  { k: 2, i: 2, b: 20, d: -2.25, s: 'Banana', dt: '2020-02-29', f: true, f2: false, g: 'x' },
  { k: 3, i: null, b: 30, d: 0, s: ' cherry ', dt: '2019-12-31', f: true, f2: null, g: 'y' },
  { k: 4, i: 4, b: null, d: 3.75, s: 'date_fruit', dt: null, f: false, f2: true, g: 'y' },
  { k: 5, i: 0, b: 50, d: null, s: 'Elder%', dt: '2021-06-15', f: false, f2: false, g: null },
  { k: 6, i: -3, b: -60, d: 10, s: null, dt: '2020-01-01', f: false, f2: null, g: null },
  { k: 7, i: 7, b: 70, d: -0.5, s: '', dt: '2000-03-01', f: null, f2: true, g: 'z' },
  { k: 8, i: null, b: null, d: null, s: null, dt: null, f: null, f2: false, g: 'z' },
  { k: 9, i: 9, b: 90, d: 2.5, s: 'apple', dt: '1999-12-31', f: null, f2: null, g: 'x' },
  { k: 10, i: 2, b: 20, d: 1.5, s: 'APPLE', dt: '2020-02-29', f: true, f2: true, g: null },
  { k: 11, i: -7, b: 5, d: 2.5, s: 'a_b', dt: '2024-02-29', f: false, f2: true, g: 'w' },
  { k: 12, i: null, b: null, d: null, s: 'zz', dt: null, f: null, f2: null, g: 'v' },
  { k: 13, i: null, b: null, d: null, s: null, dt: null, f: null, f2: null, g: 'v' },
];

/** Columns of `nulls_r`, the right side of NULL-key joins and set operations. */
export const NULLS_R_COLUMNS: Readonly<Record<string, ColumnType>> = { j: 'INTEGER', s2: 'VARCHAR', w: 'DOUBLE' };

/** Rows of `nulls_r`: NULL keys, duplicate keys, keys matching nothing. */
export const NULLS_R_ROWS: readonly Record<string, unknown>[] = [
  { j: 1, s2: 'apple', w: 100 },
  { j: 2, s2: 'Banana', w: 200 },
  { j: 2, s2: 'banana', w: 201 },
  { j: null, s2: 'zz', w: 300 },
  { j: null, s2: null, w: null },
  { j: 42, s2: 'nomatch', w: 400 },
  { j: 9, s2: null, w: 900 },
];

/** Columns of `strs`: non-ASCII strings (multi-byte UTF-8, astral-plane characters). */
export const STRS_COLUMNS: Readonly<Record<string, ColumnType>> = { id: 'INTEGER', u: 'VARCHAR' };

/** Rows of `strs`. */
export const STRS_ROWS: readonly Record<string, unknown>[] = [
  { id: 1, u: 'héllo' },
  { id: 2, u: 'ÉCOLE' },
  { id: 3, u: '😀 smile' },
  { id: 4, u: '～tilde' },
  { id: 5, u: 'abc' },
  { id: 6, u: 'Z' },
  { id: 7, u: null },
  { id: 8, u: 'naïve café' },
  { id: 9, u: '' },
  { id: 10, u: '日本語テキスト' },
  { id: 11, u: 'a😀b' },
  { id: 12, u: 'héllo' },
];

/** Columns of `bigs`: BIGINT values beyond 2^53 (exactness). */
export const BIGS_COLUMNS: Readonly<Record<string, ColumnType>> = { id: 'INTEGER', v: 'BIGINT' };

/** Rows of `bigs`: 2^53 and 2^53 + 1 differ only beyond double precision. */
export const BIGS_ROWS: readonly Record<string, unknown>[] = [
  { id: 1, v: 9007199254740993n },
  { id: 2, v: 9007199254740992n },
  { id: 3, v: -9007199254740993n },
  { id: 4, v: 4611686018427387904n },
  { id: 5, v: null },
  { id: 6, v: 1n },
  { id: 7, v: 9007199254740993n },
  { id: 8, v: 4611686018427387905n },
];

/**
 * `dicts`: 200 rows in 5 record batches whose dictionary-encoded column `c`
 * carries a different dictionary in every batch (different orders and
 * subsets; NULLs), next to a plain Utf8 copy `p` and a DOUBLE `v`.
 */
export function dictsTable(): ArrowTable {
  const pool = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'x', ''];
  const dictType = new Dictionary(new Utf8(), new Int32());
  const schema = new ArrowSchema([new Field('id', new Int32(), true), new Field('c', dictType, true), new Field('p', new Utf8(), true), new Field('v', new Float64(), true)]);
  const batches: RecordBatch[] = [];
  for (let b = 0; b < 5; b++) {
    const ids: number[] = [];
    const cs: (string | null)[] = [];
    const vs: (number | null)[] = [];
    for (let i = 0; i < 40; i++) {
      const id = b * 40 + i;
      ids.push(id);
      // Batch b draws from a rotated subset of the pool, so first appearances (= dictionary order) differ.
      const pick = (i * (b + 2) + b) % (pool.length - (b % 3));
      cs.push(id % 11 === 3 ? null : pool[(pick + b * 2) % pool.length]!);
      vs.push(id % 13 === 5 ? null : (id % 17) * 1.25 - 4);
    }
    const children = [vectorFromArray(ids, new Int32()), vectorFromArray(cs, dictType), vectorFromArray(cs, new Utf8()), vectorFromArray(vs, new Float64())].map((v) => v.data[0]!);
    batches.push(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 40, nullCount: 0, children })));
  }
  return new ArrowTableClass(schema, batches);
}

/** What a test file asks the harness to load. */
export interface HarnessOptions {
  /** Load TPC-H (default true). */
  readonly tpch?: boolean;
  /** Options of the eddy environment. */
  readonly env?: EnvironmentOptions;
  /** Register the small hand-made tables as several record batches of this many rows (default: one batch). */
  readonly smallBatchRows?: number;
  /** Eddy runs per `check`, each compared with DuckDB (default 1); with the cache on, later runs read what earlier ones wrote. */
  readonly runsPerCheck?: number;
  /** Called before every eddy run of `run` and `check` (e.g. to kill the cache service instances). */
  readonly beforeRun?: (env: TableEnvironment) => void | Promise<void>;
}

/** The harness of one test file. */
export interface Harness {
  /** The eddy environment (valid inside tests). */
  readonly env: TableEnvironment;
  /** The DuckDB oracle (valid inside tests). */
  readonly duck: Duck;
  /** The options the harness was created with (known when tests are registered). */
  readonly options: HarnessOptions;
  /** The generated TPC-H Arrow tables. */
  readonly tpch: Record<TpchTableName, ArrowTable>;
  /** Runs `table` on eddy and `sql` on DuckDB and asserts equal results. */
  check(table: Table, sql: string, opts?: CompareOptions): Promise<void>;
  /** Runs a table on eddy and normalises the result. */
  run(table: Table): Promise<ResultSet>;
}

const SMALL_TABLES: readonly [string, Readonly<Record<string, ColumnType>>, readonly Record<string, unknown>[]][] = [
  ['nulls', NULLS_COLUMNS, NULLS_ROWS],
  ['nulls_r', NULLS_R_COLUMNS, NULLS_R_ROWS],
  ['strs', STRS_COLUMNS, STRS_ROWS],
  ['bigs', BIGS_COLUMNS, BIGS_ROWS],
];

/**
 * Registers the hand-made tables in an eddy environment (`fromRecords` +
 * `registerTable`); with `batchRows`, each is registered as an Arrow table of
 * several record batches of that many rows.
 */
export async function registerNullTables(env: TableEnvironment, batchRows?: number): Promise<void> {
  for (const [name, columns, rows] of SMALL_TABLES) {
    if (batchRows === undefined) {
      env.registerTable(name, env.fromRecords(rows, columns));
      continue;
    }
    const batches: RecordBatch[] = [];
    for (let i = 0; i < rows.length; i += batchRows) batches.push(...(await env.fromRecords(rows.slice(i, i + batchRows), columns).collect()).batches);
    env.registerTable(name, new ArrowTableClass(batches[0]!.schema, batches));
  }
}

/** Loads the hand-made tables into DuckDB. */
export async function loadNullTables(duck: Duck): Promise<void> {
  for (const [name, columns, rows] of SMALL_TABLES) await loadRows(duck, name, columns, rows);
}

let tpchTables: Record<TpchTableName, ArrowTable> | undefined;
/** TPC-H at SF, generated once per test worker (Arrow tables are immutable). */
function sharedTpch(): Record<TpchTableName, ArrowTable> {
  tpchTables ??= generateTpch(SF);
  return tpchTables;
}

interface Oracle {
  readonly duck: Duck;
  /** The shared tables and views, by name, with their DuckDB object ids. */
  readonly base: ReadonlyMap<string, string>;
  users: number;
}
let oracle: Promise<Oracle> | undefined;

/** DuckDB's tables and views (not its internal ones), by name, with their object ids. */
async function catalogObjects(duck: Duck): Promise<Map<string, string>> {
  const r = await duck.query("SELECT table_name AS n, 'TABLE' AS k, table_oid AS id FROM duckdb_tables() UNION ALL SELECT view_name, 'VIEW', view_oid FROM duckdb_views() WHERE NOT internal");
  return new Map(r.rows.map(([n, k, id]) => [String(n), `${String(k)} ${String(id)}`]));
}

/** The worker's shared DuckDB oracle, loaded with the harness tables on first use. */
async function acquireOracle(): Promise<Duck> {
  oracle ??= (async () => {
    const duck = await openDuck();
    await loadNullTables(duck);
    await loadArrow(duck, 'dicts', dictsTable());
    const tpch = sharedTpch();
    for (const name of TPCH_TABLES) await loadArrow(duck, name, tpch[name]);
    return { duck, base: await catalogObjects(duck), users: 0 };
  })();
  const o = await oracle;
  o.users++;
  return o.duck;
}

/** Ends one harness's use of the oracle; the last one drops what the file added, or closes a changed oracle. */
async function releaseOracle(): Promise<void> {
  if (oracle === undefined) return;
  const o = await oracle;
  if (--o.users > 0) return;
  const now = await catalogObjects(o.duck);
  const intact = [...o.base].every(([name, id]) => now.get(name) === id);
  if (!intact) {
    oracle = undefined;
    o.duck.close();
    return;
  }
  for (const [name, what] of now) if (!o.base.has(name)) await o.duck.run(`DROP ${what.split(' ')[0]} IF EXISTS "${name}"`);
}

/** Sets up (beforeAll) and tears down (afterAll) the environment of a test file and its use of the DuckDB oracle. */
export function useHarness(options: HarnessOptions = {}): Harness {
  let env: TableEnvironment | undefined;
  let duck: Duck | undefined;
  let tpch: Record<TpchTableName, ArrowTable> | undefined;
  beforeAll(async () => {
    env = TableEnvironment.create(options.env);
    duck = await acquireOracle();
    await registerNullTables(env, options.smallBatchRows);
    env.registerTable('dicts', dictsTable());
    if (options.tpch !== false) {
      env.registerTpch(SF);
      tpch = sharedTpch();
    }
  });
  afterAll(async () => {
    await env?.close();
    if (duck !== undefined) await releaseOracle();
    duck = undefined;
  });
  const h: Harness = {
    options,
    get env() { if (!env) throw new Error('harness not set up'); return env; },
    get duck() { if (!duck) throw new Error('harness not set up'); return duck; },
    get tpch() { if (!tpch) throw new Error('TPC-H not loaded'); return tpch; },
    async run(table: Table): Promise<ResultSet> {
      await options.beforeRun?.(h.env);
      return fromArrow(await table.collect());
    },
    async check(table: Table, sql: string, opts?: CompareOptions): Promise<void> {
      const expected = await h.duck.query(sql);
      const runs = options.runsPerCheck ?? 1;
      for (let i = 1; i <= runs; i++) {
        const actual = await h.run(table);
        try {
          expectSameResult(actual, expected, opts);
        } catch (e) {
          if (runs > 1 && e instanceof Error) e.message = `run ${i} of ${runs}: ${e.message}`;
          throw e;
        }
      }
    },
  };
  return h;
}

/**
 * One describe block per parallelism (1, then 2), each with its own harness: a test per
 * `[name, sql]` that checks the query against DuckDB, then `extra(h, parallelism)` for the
 * block's own tests (plan shapes, equality of the two parallelisms).
 */
export function checkAtP1AndP2(title: string, queries: readonly (readonly [string, string])[], extra?: (h: Harness, parallelism: 1 | 2) => void): void {
  for (const parallelism of [1, 2] as const) {
    describe(`${title}, parallelism ${parallelism}`, () => {
      const h = useHarness({ env: { parallelism } });
      for (const [name, sql] of queries) it(name, async () => { await h.check(h.env.sql(sql), sql); });
      extra?.(h, parallelism);
    });
  }
}
