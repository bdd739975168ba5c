/**
 * The eight TPC-H tables' Arrow schemas (spec column names, eddy's canonical
 * physical types, no nulls) and the shared dictionaries of the low-cardinality
 * string columns. Dictionary code i is position i of the spec list.
 */
import { Dictionary, Field, Int32, Schema, Utf8, vectorFromArray, type DataType } from 'apache-arrow';
import { DATE_DAY, FLOAT64, INT32, UTF8, type DictColumn } from './column-data.js';
import {
  CONTAINER_SYLLABLES, INSTRUCTIONS, NATIONS, PRIORITIES, REGIONS, SEGMENTS, SHIP_MODES, TYPE_SYLLABLES,
  combineSyllables,
} from './spec-lists.js';

/** The names of the TPC-H tables. */
export type TpchTableName =
  | 'region' | 'nation' | 'supplier' | 'customer' | 'part' | 'partsupp' | 'orders' | 'lineitem';

/** All TPC-H table names, smallest first. */
export const TPCH_TABLES: readonly TpchTableName[] = [
  'region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem',
];

function dict(values: readonly string[]): DictColumn {
  return { type: new Dictionary(new Utf8(), new Int32()), vector: vectorFromArray([...values], new Utf8()) };
}

const range = (n: number, f: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => f(i));

/** The shared dictionary of every dictionary-encoded column, by column name. */
export const DICTS = {
  r_name: dict(REGIONS),
  n_name: dict(NATIONS),
  c_mktsegment: dict(SEGMENTS),
  /** p_mfgr code m-1 is 'Manufacturer#m'. */
  p_mfgr: dict(range(5, (i) => `Manufacturer#${i + 1}`)),
  /** p_brand code (m-1)*5 + (n-1) is 'Brand#mn'. */
  p_brand: dict(range(25, (i) => `Brand#${Math.floor(i / 5) + 1}${(i % 5) + 1}`)),
  p_type: dict(combineSyllables(TYPE_SYLLABLES)),
  p_container: dict(combineSyllables(CONTAINER_SYLLABLES)),
  o_orderstatus: dict(['F', 'O', 'P']),
  o_orderpriority: dict(PRIORITIES),
  l_returnflag: dict(['R', 'A', 'N']),
  l_linestatus: dict(['O', 'F']),
  l_shipinstruct: dict(INSTRUCTIONS),
  l_shipmode: dict(SHIP_MODES),
} as const;

/** Dictionary codes of o_orderstatus. */
export const OrderStatus = { F: 0, O: 1, P: 2 } as const;
/** Dictionary codes of l_returnflag. */
export const ReturnFlag = { R: 0, A: 1, N: 2 } as const;
/** Dictionary codes of l_linestatus. */
export const LineStatus = { O: 0, F: 1 } as const;

type Kind = 'int' | 'money' | 'date' | 'str' | 'dict';

function schema(columns: readonly (readonly [string, Kind])[]): Schema {
  const dicts = DICTS as Record<string, DictColumn>;
  return new Schema(columns.map(([name, kind]) => {
    let type: DataType;
    switch (kind) {
      case 'int': type = INT32; break;
      case 'money': type = FLOAT64; break;
      case 'date': type = DATE_DAY; break;
      case 'str': type = UTF8; break;
      case 'dict': type = dicts[name]!.type; break;
    }
    return new Field(name, type, false);
  }));
}

/** The Arrow schema of each table; fields appear in spec order. */
export const TPCH_SCHEMAS: Readonly<Record<TpchTableName, Schema>> = {
  region: schema([['r_regionkey', 'int'], ['r_name', 'dict'], ['r_comment', 'str']]),
  nation: schema([['n_nationkey', 'int'], ['n_name', 'dict'], ['n_regionkey', 'int'], ['n_comment', 'str']]),
  supplier: schema([
    ['s_suppkey', 'int'], ['s_name', 'str'], ['s_address', 'str'], ['s_nationkey', 'int'], ['s_phone', 'str'],
    ['s_acctbal', 'money'], ['s_comment', 'str'],
  ]),
  customer: schema([
    ['c_custkey', 'int'], ['c_name', 'str'], ['c_address', 'str'], ['c_nationkey', 'int'], ['c_phone', 'str'],
    ['c_acctbal', 'money'], ['c_mktsegment', 'dict'], ['c_comment', 'str'],
  ]),
  part: schema([
    ['p_partkey', 'int'], ['p_name', 'str'], ['p_mfgr', 'dict'], ['p_brand', 'dict'], ['p_type', 'dict'],
    ['p_size', 'int'], ['p_container', 'dict'], ['p_retailprice', 'money'], ['p_comment', 'str'],
  ]),
  partsupp: schema([
    ['ps_partkey', 'int'], ['ps_suppkey', 'int'], ['ps_availqty', 'int'], ['ps_supplycost', 'money'],
    ['ps_comment', 'str'],
  ]),
  orders: schema([
    ['o_orderkey', 'int'], ['o_custkey', 'int'], ['o_orderstatus', 'dict'], ['o_totalprice', 'money'],
    ['o_orderdate', 'date'], ['o_orderpriority', 'dict'], ['o_clerk', 'str'], ['o_shippriority', 'int'],
    ['o_comment', 'str'],
  ]),
  lineitem: schema([
    ['l_orderkey', 'int'], ['l_partkey', 'int'], ['l_suppkey', 'int'], ['l_linenumber', 'int'],
    ['l_quantity', 'money'], ['l_extendedprice', 'money'], ['l_discount', 'money'], ['l_tax', 'money'],
    ['l_returnflag', 'dict'], ['l_linestatus', 'dict'], ['l_shipdate', 'date'], ['l_commitdate', 'date'],
    ['l_receiptdate', 'date'], ['l_shipinstruct', 'dict'], ['l_shipmode', 'dict'], ['l_comment', 'str'],
  ]),
};
