/**
 * The suite's data: the built-in TPC-H generator's tables, written once per
 * scale factor to bench/.data/sf-<sf>/ as Arrow IPC (eddy's writer) and
 * Parquet (written by DuckDB from the same generated batches), with a
 * manifest written last so a half-written folder is never reused. eddy (and
 * the JS peers) load the Arrow files, DuckDB loads the Parquet files: every
 * engine sees the same generated values, none pays for generation, and the
 * row counts of both loads are checked against the manifest.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Table as ArrowTable } from 'apache-arrow';
import type { DuckDBConnection } from '@duckdb/node-api';
import { generateTpch, TPCH_TABLES, type TpchTableName } from '../../src/io/tpch/index.js';
import { writeArrowFile } from '../../src/io/write.js';
import type { TableEnvironment } from '../../src/api/environment.js';
import { openDuckDb } from '../lib/duckdb-load.js';

/** What bench/.data/sf-<sf>/manifest.json records. */
export interface DataManifest {
  readonly sf: number;
  readonly rows: Readonly<Record<TpchTableName, number>>;
  /** Bytes per file name. */
  readonly bytes: Readonly<Record<string, number>>;
  readonly generateMs: number;
  readonly writeMs: number;
}

/** A ready data folder. */
export interface DataSet {
  readonly dir: string;
  readonly manifest: DataManifest;
  /** True when the folder existed already (nothing was generated). */
  readonly reused: boolean;
}

/** The default cache folder, bench/.data. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.data/', import.meta.url));

const sfName = (sf: number): string => `sf-${sf}`;
const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The data folder of `sf` under `root`, generated and written when missing. */
export async function ensureData(sf: number, root = DEFAULT_DATA_DIR, log: (m: string) => void = () => {}): Promise<DataSet> {
  const dir = join(root, sfName(sf));
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    return { dir, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) as DataManifest, reused: true };
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    let t0 = performance.now();
    const tables = generateTpch(sf);
    const generateMs = performance.now() - t0;
    log(`generated TPC-H SF ${sf} in ${(generateMs / 1000).toFixed(1)} s`);
    t0 = performance.now();
    for (const name of TPCH_TABLES) await writeArrowFile(join(tmp, `${name}.arrow`), tables[name]);
    const duck = await openDuckDb(tables);
    try {
      for (const name of TPCH_TABLES) {
        await duck.connection.run(`COPY ${name} TO ${quote(join(tmp, `${name}.parquet`))} (FORMAT parquet)`);
      }
    } finally {
      duck.connection.closeSync();
      duck.instance.closeSync();
    }
    const writeMs = performance.now() - t0;
    const bytes: Record<string, number> = {};
    for (const name of TPCH_TABLES) for (const ext of ['arrow', 'parquet']) bytes[`${name}.${ext}`] = statSync(join(tmp, `${name}.${ext}`)).size;
    const rows = Object.fromEntries(TPCH_TABLES.map((n) => [n, tables[n].numRows])) as Record<TpchTableName, number>;
    const manifest: DataManifest = { sf, rows, bytes, generateMs: Math.round(generateMs), writeMs: Math.round(writeMs) };
    writeFileSync(join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    log(`wrote Arrow IPC and Parquet to ${dir} in ${(writeMs / 1000).toFixed(1)} s`);
    return { dir, manifest, reused: false };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Reads the Arrow IPC files through eddy (`fromArrowFile` + `collect`): in-memory tables for eddy and the JS peers. */
export async function loadArrowTables(data: DataSet, env: TableEnvironment): Promise<Record<TpchTableName, ArrowTable>> {
  const out = {} as Record<TpchTableName, ArrowTable>;
  for (const name of TPCH_TABLES) {
    const t = await (await env.fromArrowFile(join(data.dir, `${name}.arrow`))).collect();
    if (t.numRows !== data.manifest.rows[name]) throw new Error(`${name}.arrow has ${t.numRows} rows, manifest says ${data.manifest.rows[name]}`);
    out[name] = t;
  }
  return out;
}

/** Loads the Parquet files into DuckDB tables of the same names. */
export async function loadDuckDbTables(data: DataSet, con: DuckDBConnection): Promise<void> {
  for (const name of TPCH_TABLES) {
    await con.run(`CREATE OR REPLACE TABLE ${name} AS SELECT * FROM read_parquet(${quote(join(data.dir, `${name}.parquet`))})`);
    const n = Number((await con.runAndReadAll(`SELECT count(*) FROM ${name}`)).getRowsJS()[0]![0]);
    if (n !== data.manifest.rows[name]) throw new Error(`${name}.parquet has ${n} rows in DuckDB, manifest says ${data.manifest.rows[name]}`);
  }
}
