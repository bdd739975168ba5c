/**
 * What the query generator knows about the data: the TPC-H tables (SF 0.01)
 * and the harness's small tables (NULLs in every type; per-batch dictionaries), their columns and coarse types,
 * row-count estimates, key restrictions for the big tables, join edges with
 * fan-out estimates, and sample values of every column (taken from the data,
 * so literals hit real values).
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { arrowKind, normalizeValue } from '../../helpers/compare.js';
import { dictsTable, NULLS_COLUMNS, NULLS_R_COLUMNS, NULLS_R_ROWS, NULLS_ROWS } from '../harness.js';
import type { T } from './model.js';

/** A column of a catalog table. */
export interface ColumnInfo {
  readonly name: string;
  readonly type: T;
}

/** A table the generator may query. */
export interface TableInfo {
  readonly name: string;
  /** Rows at SF 0.01. */
  readonly rows: number;
  readonly columns: readonly ColumnInfo[];
  /** Whether columns may be NULL. */
  readonly nullable: boolean;
  /** A key range that keeps a big table small: `column < bound` with bound in [lo, hi]; rows ≈ bound × density. */
  readonly restrict?: { readonly column: string; readonly lo: number; readonly hi: number; readonly density: number };
  /** Relative chance of being picked. */
  readonly weight: number;
}

/** A join edge between two columns (`table.column`); `ab` is the expected matches of a row of `a` in `b`, `ba` the reverse. */
export interface Edge {
  readonly a: string;
  readonly b: string;
  readonly ab: number;
  readonly ba: number;
  /** Further column pairs that belong to the same (composite) key. */
  readonly also?: readonly (readonly [string, string])[];
}

/** Everything the generator reads: tables, join edges and sample values by `table.column`. */
export interface Catalog {
  readonly tables: readonly TableInfo[];
  readonly edges: readonly Edge[];
  readonly samples: ReadonlyMap<string, readonly unknown[]>;
}

const I = 'int' as const;
const D = 'double' as const;
const S = 'varchar' as const;
const DT = 'date' as const;
const B = 'bool' as const;

function cols(spec: string): ColumnInfo[] {
  const types: Record<string, T> = { i: I, d: D, s: S, t: DT, b: B };
  return spec.split(' ').map((c) => {
    const [name, t] = c.split(':');
    return { name: name!, type: types[t!]! };
  });
}

/** The tables the generator draws from. */
export const TABLES: readonly TableInfo[] = [
  { name: 'region', rows: 5, nullable: false, weight: 2, columns: cols('r_regionkey:i r_name:s r_comment:s') },
  { name: 'nation', rows: 25, nullable: false, weight: 5, columns: cols('n_nationkey:i n_name:s n_regionkey:i n_comment:s') },
  { name: 'supplier', rows: 100, nullable: false, weight: 4, columns: cols('s_suppkey:i s_name:s s_address:s s_nationkey:i s_phone:s s_acctbal:d s_comment:s') },
  {
    name: 'customer', rows: 1500, nullable: false, weight: 4, restrict: { column: 'c_custkey', lo: 50, hi: 1500, density: 1 },
    columns: cols('c_custkey:i c_name:s c_address:s c_nationkey:i c_phone:s c_acctbal:d c_mktsegment:s c_comment:s'),
  },
  {
    name: 'part', rows: 2000, nullable: false, weight: 3, restrict: { column: 'p_partkey', lo: 50, hi: 2000, density: 1 },
    columns: cols('p_partkey:i p_name:s p_mfgr:s p_brand:s p_type:s p_size:i p_container:s p_retailprice:d p_comment:s'),
  },
  {
    name: 'partsupp', rows: 8000, nullable: false, weight: 2, restrict: { column: 'ps_partkey', lo: 20, hi: 800, density: 4 },
    columns: cols('ps_partkey:i ps_suppkey:i ps_availqty:i ps_supplycost:d ps_comment:s'),
  },
  {
    name: 'orders', rows: 15000, nullable: false, weight: 5, restrict: { column: 'o_orderkey', lo: 100, hi: 12000, density: 0.25 },
    columns: cols('o_orderkey:i o_custkey:i o_orderstatus:s o_totalprice:d o_orderdate:t o_orderpriority:s o_clerk:s o_shippriority:i o_comment:s'),
  },
  {
    name: 'lineitem', rows: 60175, nullable: false, weight: 5, restrict: { column: 'l_orderkey', lo: 100, hi: 6000, density: 1 },
    columns: cols('l_orderkey:i l_partkey:i l_suppkey:i l_linenumber:i l_quantity:d l_extendedprice:d l_discount:d l_tax:d l_returnflag:s l_linestatus:s l_shipdate:t l_commitdate:t l_receiptdate:t l_shipinstruct:s l_shipmode:s l_comment:s'),
  },
  { name: 'nulls', rows: 13, nullable: true, weight: 3, columns: cols('k:i i:i b:i d:d s:s dt:t f:b f2:b g:s') },
  { name: 'nulls_r', rows: 7, nullable: true, weight: 2, columns: cols('j:i s2:s w:d') },
  /** 5 batches, each with its own dictionary for `c` (`p` is the same strings, plain). */
  { name: 'dicts', rows: 200, nullable: true, weight: 2, columns: cols('id:i c:s p:s v:d') },
];

/** Join edges (symmetric; `ab`/`ba` are fan-out estimates at SF 0.01 on unrestricted tables). */
export const EDGES: readonly Edge[] = [
  { a: 'region.r_regionkey', b: 'nation.n_regionkey', ab: 5, ba: 1 },
  { a: 'nation.n_nationkey', b: 'supplier.s_nationkey', ab: 4, ba: 1 },
  { a: 'nation.n_nationkey', b: 'customer.c_nationkey', ab: 60, ba: 1 },
  { a: 'customer.c_custkey', b: 'orders.o_custkey', ab: 10, ba: 1 },
  { a: 'orders.o_orderkey', b: 'lineitem.l_orderkey', ab: 4, ba: 1 },
  { a: 'part.p_partkey', b: 'lineitem.l_partkey', ab: 30, ba: 1 },
  { a: 'part.p_partkey', b: 'partsupp.ps_partkey', ab: 4, ba: 1 },
  { a: 'supplier.s_suppkey', b: 'lineitem.l_suppkey', ab: 600, ba: 1 },
  { a: 'supplier.s_suppkey', b: 'partsupp.ps_suppkey', ab: 80, ba: 1 },
  { a: 'partsupp.ps_partkey', b: 'lineitem.l_partkey', ab: 8, ba: 1, also: [['partsupp.ps_suppkey', 'lineitem.l_suppkey']] },
  { a: 'customer.c_nationkey', b: 'supplier.s_nationkey', ab: 4, ba: 60 },
  { a: 'nation.n_regionkey', b: 'nation.n_regionkey', ab: 5, ba: 5 },
  { a: 'supplier.s_nationkey', b: 'supplier.s_nationkey', ab: 4, ba: 4 },
  { a: 'nulls.k', b: 'nulls_r.j', ab: 1, ba: 1 },
  { a: 'nulls.i', b: 'nulls_r.j', ab: 1, ba: 2 },
  { a: 'nulls.s', b: 'nulls_r.s2', ab: 1, ba: 1 },
  { a: 'nulls.k', b: 'nation.n_nationkey', ab: 1, ba: 1 },
  { a: 'nulls.i', b: 'nulls.k', ab: 1, ba: 1 },
  { a: 'nulls.g', b: 'nulls.g', ab: 3, ba: 3 },
  { a: 'nulls_r.j', b: 'nation.n_nationkey', ab: 1, ba: 1 },
  { a: 'nulls.i', b: 'region.r_regionkey', ab: 1, ba: 3 },
  { a: 'dicts.c', b: 'dicts.p', ab: 30, ba: 30 },
  { a: 'dicts.c', b: 'dicts.c', ab: 30, ba: 30 },
  { a: 'dicts.id', b: 'nation.n_nationkey', ab: 1, ba: 1 },
  { a: 'dicts.id', b: 'nulls.k', ab: 1, ba: 1 },
  { a: 'dicts.c', b: 'nulls.s', ab: 1, ba: 10 },
];

/** Up to `n` values spread evenly over a column (distinct, NULLs kept once). */
function spread(values: readonly unknown[], n: number): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<string>();
  const step = Math.max(1, Math.floor(values.length / n));
  for (let i = 0; i < values.length && out.length < n; i += step) {
    const v = values[i];
    const key = String(v);
    if (!seen.has(key)) { seen.add(key); out.push(v); }
  }
  return out;
}

const SAMPLES_PER_COLUMN = 48;

/** Builds the catalog from the generated TPC-H Arrow tables (samples are deterministic for a scale factor). */
export function buildCatalog(tpch: Readonly<Record<string, ArrowTable>>): Catalog {
  const samples = new Map<string, unknown[]>();
  for (const t of TABLES) {
    if (t.name === 'nulls' || t.name === 'nulls_r' || t.name === 'dicts') continue;
    const table = tpch[t.name];
    if (!table) throw new Error(`buildCatalog: missing TPC-H table ${t.name}`);
    for (const c of t.columns) {
      const vec = table.getChild(c.name);
      const field = table.schema.fields.find((f) => f.name === c.name);
      if (!vec || !field) throw new Error(`buildCatalog: missing column ${t.name}.${c.name}`);
      const kind = arrowKind(field.type);
      const step = Math.max(1, Math.floor(vec.length / (SAMPLES_PER_COLUMN * 4)));
      const raw: unknown[] = [];
      for (let i = 0; i < vec.length; i += step) raw.push(normalizeValue(vec.get(i), kind));
      samples.set(`${t.name}.${c.name}`, spread(raw, SAMPLES_PER_COLUMN));
    }
  }
  const small: [string, Readonly<Record<string, string>>, readonly Record<string, unknown>[]][] = [
    ['nulls', NULLS_COLUMNS, NULLS_ROWS],
    ['nulls_r', NULLS_R_COLUMNS, NULLS_R_ROWS],
  ];
  for (const [name, columns, rows] of small) {
    for (const c of Object.keys(columns)) samples.set(`${name}.${c}`, spread(rows.map((r) => r[c] ?? null), rows.length));
  }
  const dicts = dictsTable();
  for (const c of ['id', 'c', 'p', 'v']) {
    const vec = dicts.getChild(c)!;
    samples.set(`dicts.${c}`, spread(Array.from({ length: vec.length }, (_, i) => vec.get(i) ?? null), SAMPLES_PER_COLUMN));
  }
  return { tables: TABLES, edges: EDGES, samples };
}
