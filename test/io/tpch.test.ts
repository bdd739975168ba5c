import { DataType, type RecordBatch, type Table, type Vector } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/relnode/errors.js';
import { TPCH_TABLES, generateTpch, tpchTable, type TpchTableName } from '../../src/io/tpch/index.js';

const SF = 0.01;
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const CURRENT = day('1995-06-17');

let db: Record<TpchTableName, Table>;
beforeAll(() => {
  db = generateTpch(SF, { seed: 7 });
});

/** A column's values as a plain array (strings for string and dictionary columns). */
function col(table: Table, name: string): unknown[] {
  const v = table.getChild(name) as Vector | null;
  if (v === null) throw new Error(`no column ${name}`);
  return Array.from(v.toArray() as ArrayLike<unknown>);
}

/** Numeric column values straight from the typed arrays (dates as days since epoch). */
function nums(table: Table, name: string): number[] {
  const v = table.getChild(name) as Vector | null;
  if (v === null) throw new Error(`no column ${name}`);
  const out: number[] = [];
  for (const d of v.data) {
    const values = d.values as ArrayLike<number>;
    for (let i = 0; i < d.length; i++) out.push(values[d.offset + i]!);
  }
  return out;
}

function strs(table: Table, name: string): string[] {
  return col(table, name) as string[];
}

/** A text fingerprint of every value of every column, in row order (independent of batch cuts). */
function fingerprint(batches: Iterable<RecordBatch>): string {
  const columns: string[][] = [];
  for (const b of batches) {
    b.schema.fields.forEach((_, i) => {
      (columns[i] ??= []).push(JSON.stringify(Array.from(b.getChildAt(i)!.toArray() as ArrayLike<unknown>)).slice(1, -1));
    });
  }
  return columns.map((parts) => parts.join(',')).join('\n');
}

describe('tpch generator: shape', () => {
  it('produces the spec row counts', () => {
    expect(db.region.numRows).toBe(5);
    expect(db.nation.numRows).toBe(25);
    expect(db.supplier.numRows).toBe(100);
    expect(db.customer.numRows).toBe(1500);
    expect(db.part.numRows).toBe(2000);
    expect(db.partsupp.numRows).toBe(8000);
    expect(db.orders.numRows).toBe(15000);
    expect(db.lineitem.numRows).toBeGreaterThan(15000 * 3.8);
    expect(db.lineitem.numRows).toBeLessThan(15000 * 4.2);
    for (const name of TPCH_TABLES) expect(tpchTable(name, SF, { seed: 7 }).numRows).toBe(db[name].numRows);
  });

  it('scales row counts by rounding, at least one row', () => {
    const t = tpchTable('supplier', 0.00001);
    expect(t.numRows).toBe(1);
    expect(tpchTable('customer', 0.05).numRows).toBe(7500);
    expect([...t.batches()].map((b) => b.numRows)).toEqual([1]);
  });

  it('uses spec column names and the canonical physical types, without nulls', () => {
    const dictCols = new Set([
      'r_name', 'n_name', 'c_mktsegment', 'o_orderstatus', 'o_orderpriority', 'l_returnflag', 'l_linestatus',
      'l_shipinstruct', 'l_shipmode', 'p_mfgr', 'p_brand', 'p_type', 'p_container',
    ]);
    const money = /(acctbal|price|cost|quantity|discount|tax)$/;
    const dates = /date$/;
    const ints = /(key|number|size|availqty|shippriority)$/;
    for (const name of TPCH_TABLES) {
      for (const field of db[name].schema.fields) {
        expect(field.nullable, field.name).toBe(false);
        const t = field.type;
        if (dictCols.has(field.name)) {
          expect(DataType.isDictionary(t), field.name).toBe(true);
          expect(DataType.isUtf8(t.dictionary) && DataType.isInt(t.indices) && t.indices.bitWidth === 32).toBe(true);
        } else if (money.test(field.name)) {
          expect(DataType.isFloat(t) && t.precision === 2, field.name).toBe(true);
        } else if (dates.test(field.name)) {
          expect(DataType.isDate(t) && t.unit === 0, field.name).toBe(true);
        } else if (ints.test(field.name)) {
          expect(DataType.isInt(t) && t.bitWidth === 32 && t.isSigned, field.name).toBe(true);
        } else {
          expect(DataType.isUtf8(t), field.name).toBe(true);
        }
      }
      expect(db[name].batches.every((b) => b.data.children.every((c) => c.nullCount === 0))).toBe(true);
    }
    expect(db.lineitem.schema.fields.map((f) => f.name)).toEqual([
      'l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice', 'l_discount',
      'l_tax', 'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate', 'l_shipinstruct',
      'l_shipmode', 'l_comment',
    ]);
  });

  it('shares one dictionary vector per column across all batches', () => {
    const t = tpchTable('lineitem', SF);
    const batches = [...t.batches(5000)];
    expect(batches.length).toBeGreaterThan(10);
    for (const name of ['l_returnflag', 'l_shipmode']) {
      const dicts = new Set(batches.map((b) => b.getChild(name)!.data[0]!.dictionary));
      expect(dicts.size).toBe(1);
    }
    expect(batches.every((b) => b.numRows === 5000 || b === batches[batches.length - 1])).toBe(true);
  });
});

describe('tpch generator: determinism', () => {
  it('regenerates identical data for the same seed', () => {
    const again = generateTpch(SF, { seed: 7, batchSize: 4096 });
    for (const name of TPCH_TABLES) {
      expect(again[name].batches.length).toBe(Math.ceil(db[name].numRows / 4096));
      expect(fingerprint(again[name].batches) === fingerprint(db[name].batches), name).toBe(true);
    }
  });

  it('gives the same rows for any batch size', () => {
    for (const name of ['lineitem', 'orders', 'supplier'] as const) {
      const t = tpchTable(name, SF, { seed: 3 });
      const whole = fingerprint(t.batches());
      expect(fingerprint(t.batches(1000)) === whole, name).toBe(true);
      expect(fingerprint(t.batches(777)) === whole, name).toBe(true);
    }
  });

  it('gives different data for a different seed', () => {
    const a = fingerprint(tpchTable('orders', SF, { seed: 7 }).batches());
    expect(fingerprint(tpchTable('orders', SF, { seed: 8 }).batches()) === a).toBe(false);
    expect(fingerprint(db.orders.batches) === a).toBe(true);
  });
});

describe('tpch generator: spec rules', () => {
  it('keeps referential integrity', () => {
    const orderkeys = new Set(nums(db.orders, 'o_orderkey'));
    expect(orderkeys.size).toBe(db.orders.numRows);
    expect(nums(db.lineitem, 'l_orderkey').every((k) => orderkeys.has(k))).toBe(true);
    const custkeys = new Set(nums(db.customer, 'c_custkey'));
    const oCust = nums(db.orders, 'o_custkey');
    expect(oCust.every((k) => custkeys.has(k) && k % 3 !== 0)).toBe(true);
    const parts = new Set(nums(db.part, 'p_partkey'));
    const supps = new Set(nums(db.supplier, 's_suppkey'));
    expect(nums(db.partsupp, 'ps_partkey').every((k) => parts.has(k))).toBe(true);
    expect(nums(db.partsupp, 'ps_suppkey').every((k) => supps.has(k))).toBe(true);
    const ps = new Set<string>();
    const psPart = nums(db.partsupp, 'ps_partkey');
    const psSupp = nums(db.partsupp, 'ps_suppkey');
    psPart.forEach((p, i) => ps.add(`${p}:${psSupp[i]}`));
    expect(ps.size).toBe(db.partsupp.numRows);
    const lPart = nums(db.lineitem, 'l_partkey');
    const lSupp = nums(db.lineitem, 'l_suppkey');
    expect(lPart.every((p, i) => ps.has(`${p}:${lSupp[i]}`))).toBe(true);
    const nations = nums(db.nation, 'n_regionkey');
    expect(nations.every((r) => r >= 0 && r < 5)).toBe(true);
    expect(nums(db.customer, 'c_nationkey').every((n) => n >= 0 && n < 25)).toBe(true);
  });

  it('uses the spec nations and regions', () => {
    const names = strs(db.nation, 'n_name');
    const regions = nums(db.nation, 'n_regionkey');
    expect(names[24]).toBe('UNITED STATES');
    expect(regions[names.indexOf('GERMANY')]).toBe(3);
    expect(regions[names.indexOf('JAPAN')]).toBe(2);
    expect(strs(db.region, 'r_name')).toEqual(['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST']);
  });

  it('follows the date rules', () => {
    const orderdate = new Map<number, number>();
    const oKey = nums(db.orders, 'o_orderkey');
    const oDate = nums(db.orders, 'o_orderdate');
    oKey.forEach((k, i) => orderdate.set(k, oDate[i]!));
    expect(Math.min(...oDate)).toBeGreaterThanOrEqual(day('1992-01-01'));
    expect(Math.max(...oDate)).toBeLessThanOrEqual(day('1998-12-31') - 151);
    const lKey = nums(db.lineitem, 'l_orderkey');
    const ship = nums(db.lineitem, 'l_shipdate');
    const commit = nums(db.lineitem, 'l_commitdate');
    const receipt = nums(db.lineitem, 'l_receiptdate');
    for (let i = 0; i < lKey.length; i++) {
      const od = orderdate.get(lKey[i]!)!;
      const s = ship[i]! - od;
      const c = commit[i]! - od;
      const r = receipt[i]! - ship[i]!;
      if (s < 1 || s > 121 || c < 30 || c > 90 || r < 1 || r > 30) {
        throw new Error(`line ${i} breaks the date rules: ship+${s} commit+${c} receipt+${r}`);
      }
    }
  });

  it('derives return flag, line status and order status', () => {
    const flag = strs(db.lineitem, 'l_returnflag');
    const status = strs(db.lineitem, 'l_linestatus');
    const ship = nums(db.lineitem, 'l_shipdate');
    const receipt = nums(db.lineitem, 'l_receiptdate');
    for (let i = 0; i < flag.length; i++) {
      const expectedStatus = ship[i]! > CURRENT ? 'O' : 'F';
      const flagOk = receipt[i]! <= CURRENT ? flag[i] === 'R' || flag[i] === 'A' : flag[i] === 'N';
      if (!flagOk || status[i] !== expectedStatus) throw new Error(`line ${i}: ${flag[i]}/${status[i]}`);
    }
    expect(new Set(flag)).toEqual(new Set(['R', 'A', 'N']));

    const lKey = nums(db.lineitem, 'l_orderkey');
    const lines = new Map<number, string[]>();
    lKey.forEach((k, i) => (lines.get(k) ?? lines.set(k, []).get(k)!).push(status[i]!));
    const oKey = nums(db.orders, 'o_orderkey');
    const oStatus = strs(db.orders, 'o_orderstatus');
    const wrong = oKey.filter((k, i) => {
      const ls = lines.get(k)!;
      const expected = ls.every((s) => s === 'F') ? 'F' : ls.every((s) => s === 'O') ? 'O' : 'P';
      return oStatus[i] !== expected;
    });
    expect(wrong).toEqual([]);
    expect(new Set(oStatus)).toEqual(new Set(['F', 'O', 'P']));
  });

  it('computes prices from the spec formulas', () => {
    const retail = new Map<number, number>();
    const pKey = nums(db.part, 'p_partkey');
    const pPrice = nums(db.part, 'p_retailprice');
    pKey.forEach((p, i) => retail.set(p, pPrice[i]!));
    expect(pKey.filter((p, i) => pPrice[i] !== (90000 + (Math.floor(p / 10) % 20001) + 100 * (p % 1000)) / 100))
      .toEqual([]);
    const lKey = nums(db.lineitem, 'l_orderkey');
    const qty = nums(db.lineitem, 'l_quantity');
    const ext = nums(db.lineitem, 'l_extendedprice');
    const disc = nums(db.lineitem, 'l_discount');
    const tax = nums(db.lineitem, 'l_tax');
    const lPart = nums(db.lineitem, 'l_partkey');
    const total = new Map<number, number>();
    let bad = 0;
    for (let i = 0; i < lKey.length; i++) {
      if (!(Number.isInteger(qty[i]) && qty[i]! >= 1 && qty[i]! <= 50)) bad++;
      if (Math.abs(ext[i]! - qty[i]! * retail.get(lPart[i]!)!) > 1e-6) bad++;
      if (disc[i] !== Math.round(disc[i]! * 100) / 100 || tax[i] !== Math.round(tax[i]! * 100) / 100) bad++;
      if (!(disc[i]! >= 0 && disc[i]! <= 0.1 && tax[i]! >= 0 && tax[i]! <= 0.08)) bad++;
      total.set(lKey[i]!, (total.get(lKey[i]!) ?? 0) + ext[i]! * (1 + tax[i]!) * (1 - disc[i]!));
    }
    expect(bad).toBe(0);
    const oKey = nums(db.orders, 'o_orderkey');
    const oTotal = nums(db.orders, 'o_totalprice');
    const wrong = oKey.filter((k, i) =>
      Math.abs(oTotal[i]! - total.get(k)!) > 0.04 || oTotal[i] !== Math.round(oTotal[i]! * 100) / 100);
    expect(wrong).toEqual([]);
  });

  it('uses sparse order keys and the spec supplier formula', () => {
    const keys = nums(db.orders, 'o_orderkey');
    expect(keys.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 32, 33, 34]);
    const S = db.supplier.numRows;
    const psPart = nums(db.partsupp, 'ps_partkey');
    const psSupp = nums(db.partsupp, 'ps_suppkey');
    const wrong = psPart.filter((p, r) =>
      psSupp[r] !== ((p + (r % 4) * (Math.floor(S / 4) + Math.floor((p - 1) / S))) % S) + 1);
    expect(wrong).toEqual([]);
  });

  it('keeps partsupp keys unique at tiny scale factors', () => {
    for (const sf of [0.001, 0.0005]) {
      const ps = generateTpch(sf).partsupp;
      const part = nums(ps, 'ps_partkey');
      const supp = nums(ps, 'ps_suppkey');
      expect(new Set(part.map((p, i) => `${p}:${supp[i]}`)).size, String(sf)).toBe(ps.numRows);
    }
  });

  it('formats names, phones and low-cardinality strings like the spec', () => {
    expect(strs(db.supplier, 's_name')[0]).toBe('Supplier#000000001');
    expect(strs(db.customer, 'c_name')[1499]).toBe('Customer#000001500');
    expect(strs(db.orders, 'o_clerk').every((c) => /^Clerk#0000000(0[1-9]|10)$/.test(c))).toBe(true);
    const phones = strs(db.customer, 'c_phone');
    const cNation = nums(db.customer, 'c_nationkey');
    phones.forEach((p, i) => {
      expect(p).toMatch(/^\d\d-[1-9]\d\d-[1-9]\d\d-[1-9]\d\d\d$/);
      expect(Number(p.slice(0, 2))).toBe(cNation[i]! + 10);
    });
    expect(strs(db.part, 'p_name').every((n) => new Set(n.split(' ')).size === 5)).toBe(true);
    expect(strs(db.part, 'p_brand').every((b) => /^Brand#[1-5][1-5]$/.test(b))).toBe(true);
    expect(strs(db.part, 'p_type').some((t) => t.endsWith('BRASS'))).toBe(true);
    expect(strs(db.part, 'p_type').some((t) => t.startsWith('PROMO'))).toBe(true);
    expect(new Set(strs(db.lineitem, 'l_shipmode')).size).toBe(7);
    expect(new Set(strs(db.customer, 'c_mktsegment')).size).toBe(5);
  });

  it('writes comments the standard queries look for', () => {
    const lengthsOk = (values: string[], lo: number, hi: number): boolean =>
      values.every((s) => s.length >= lo && s.length <= hi);
    expect(lengthsOk(strs(db.lineitem, 'l_comment'), 10, 43)).toBe(true);
    expect(lengthsOk(strs(db.orders, 'o_comment'), 19, 78)).toBe(true);
    expect(lengthsOk(strs(db.supplier, 's_comment'), 25, 100)).toBe(true);
    const specialRequests = strs(db.orders, 'o_comment').filter((c) => /special.*requests/.test(c)).length;
    expect(specialRequests).toBeGreaterThan(0);
    expect(specialRequests).toBeLessThan(db.orders.numRows / 10);
    const sComments = strs(db.supplier, 's_comment');
    expect(sComments.some((c) => /Customer.*Complaints/.test(c))).toBe(true);
    expect(sComments.some((c) => /Customer.*Recommends/.test(c))).toBe(true);
    expect(strs(db.part, 'p_name').some((n) => n.includes('green'))).toBe(true);
  });

  it('rejects bad arguments with a ValidationError', () => {
    expect(() => tpchTable('orders', 0)).toThrow(ValidationError);
    expect(() => tpchTable('orders', Number.NaN)).toThrow(ValidationError);
    expect(() => tpchTable('orders', 1000)).toThrow(ValidationError);
    expect(() => tpchTable('orders', 1, { seed: -1 })).toThrow(ValidationError);
    expect(() => tpchTable('region', 1).batches(0)).toThrow(ValidationError);
    expect(() => tpchTable('nope' as TpchTableName, 1)).toThrow(ValidationError);
  });
});
