/**
 * The one-pass aggregate loop through SQL (planner/lower.ts → operators/agg-fused-pass.ts): EXPLAIN
 * marks the aggregate `one pass` when its filter and projection compile into its loop, and the
 * answers match DuckDB's — over one-byte VARCHAR flags (TPC-H Q1's shape as the benchmark's Arrow
 * files store it) with NULL arguments and NULL filter values in some batches, a filter that drops
 * every row, a dictionary key (the generated lineitem), at parallelism 1 and 2; an integer overflow
 * in an argument raises only when the filter keeps its row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateDay, Field, Float64, Int32, makeData, RecordBatch, Schema as ArrowSchema, Struct, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import '../../src/sql/index.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadArrow } from '../helpers/duckdb.js';

// Assumes parallelism 1 (the default is the machine's cores): EXPLAIN and the one-pass loop of a p1 plan.
const h = useHarness({ env: { parallelism: 1 } });
let p2: TableEnvironment;

const DAY = 86_400_000;
/** Four batches of 2500 rows (enough for the byte-key table); batch 1 has a NULL price, batch 2 a NULL ship date. */
function flagsTable(): ArrowTable {
  const schema = new ArrowSchema([
    new Field('rf', new Utf8(), true), new Field('ls', new Utf8(), true), new Field('qty', new Float64(), true), new Field('price', new Float64(), true),
    new Field('disc', new Float64(), true), new Field('tax', new Float64(), true), new Field('ship', new DateDay(), true), new Field('n', new Int32(), true),
  ]);
  let seed = 3;
  const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };
  const batches: RecordBatch[] = [];
  for (let b = 0; b < 4; b++) {
    const n = 2500;
    const rf: string[] = []; const ls: string[] = []; const qty: number[] = []; const price: (number | null)[] = [];
    const disc: number[] = []; const tax: number[] = []; const ship: (Date | null)[] = []; const big: number[] = [];
    for (let i = 0; i < n; i++) {
      rf.push('RAN'[rnd(3)]!); ls.push('OF'[rnd(2)]!);
      qty.push(1 + rnd(50)); price.push(i % 101 === 0 ? 1e15 : rnd(1_000_000) / 100);
      disc.push(rnd(11) / 100); tax.push(rnd(9) / 100);
      ship.push(new Date((9000 + rnd(2000)) * DAY)); big.push(rnd(1000));
    }
    if (b === 1) price[17] = null;
    if (b === 2) ship[33] = null;
    // One row whose n * 100000 overflows INTEGER, shipped after every cut the tests keep.
    if (b === 3) { big[40] = 50_000; ship[40] = new Date(12_000 * DAY); }
    const children = [vectorFromArray(rf, new Utf8()), vectorFromArray(ls, new Utf8()), vectorFromArray(qty, new Float64()), vectorFromArray(price, new Float64()),
      vectorFromArray(disc, new Float64()), vectorFromArray(tax, new Float64()), vectorFromArray(ship, new DateDay()), vectorFromArray(big, new Int32())].map((v) => v.data[0]!);
    batches.push(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children })));
  }
  return new ArrowTable(schema, batches);
}

beforeAll(async () => {
  const t = flagsTable();
  h.env.registerTable('flags', t);
  await loadArrow(h.duck, 'flags', t);
  p2 = TableEnvironment.create({ parallelism: 2 });
  p2.registerTable('flags', t);
  p2.registerTpch(0.01);
});
afterAll(async () => { await p2.close(); });

const Q1FLAGS = (cut: string, extra = ''): string => `SELECT rf, ls, sum(qty) AS sq, sum(price) AS sp, sum(price * (1 - disc)) AS sdp,
    sum(price * (1 - disc) * (1 + tax)) AS sc, avg(qty) AS aq, avg(price) AS ap, avg(disc) AS ad, count(*) AS c, count(price) AS cp${extra}
  FROM flags WHERE ship <= DATE '${cut}' GROUP BY rf, ls`;

const physical = async (sql: string): Promise<string> => { const t = await h.env.sql(sql).explain(); return t.slice(t.indexOf('== Physical Plan')); };

async function sameAsDuckDb(sql: string): Promise<void> {
  const want = await h.duck.query(sql);
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), want);
  expectSameResult(fromArrow(await p2.sql(sql).collect()), want);
}

describe('one-pass aggregate loop through SQL', () => {
  it('EXPLAIN marks TPC-H Q1\'s shape `one pass`, and not an aggregate whose argument divides', async () => {
    expect(await physical(Q1FLAGS('1998-09-02'))).toMatch(/HashAggregate\(group=\[rf, ls\][^\n]*; fused: Project\([^\n]*\), Filter\(\(ship <= DATE '1998-09-02'\)\); one pass\) \[p=1\]/);
    expect(await physical(`SELECT rf, sum(price / disc) AS s, count(*) AS c FROM flags WHERE ship <= DATE '1998-09-02' GROUP BY rf`)).not.toMatch(/one pass/);
  });

  it('Q1 over one-byte flags, with NULL prices and ship dates in some batches: DuckDB\'s answer', async () => {
    await sameAsDuckDb(Q1FLAGS('1996-01-01'));
  });

  it('a filter that drops every row: no groups', async () => {
    await sameAsDuckDb(Q1FLAGS('1970-01-02'));
    expect((await h.env.sql(Q1FLAGS('1970-01-02')).collect()).numRows).toBe(0);
  });

  it('a dictionary key (the generated lineitem\'s l_returnflag): DuckDB\'s answer', async () => {
    const sql = `SELECT l_returnflag, sum(l_quantity) AS q, sum(l_extendedprice * (1 - l_discount)) AS r, avg(l_tax) AS t, count(*) AS c
      FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' AND l_discount > 0.02 GROUP BY l_returnflag`;
    expect(await physical(sql)).toMatch(/one pass/);
    await sameAsDuckDb(sql);
  });

  it('a global aggregate (TPC-H Q6\'s shape, one call or several), NULL prices and ship dates in some batches: one pass, DuckDB\'s answer', async () => {
    const q6 = `SELECT sum(price * disc) AS revenue FROM flags WHERE ship >= DATE '1995-01-01' AND ship < DATE '1996-01-01' AND disc BETWEEN 0.05 AND 0.07 AND qty < 24`;
    expect(await physical(q6)).toMatch(/HashAggregate\(group=\[\][^\n]*; one pass\)/);
    await sameAsDuckDb(q6);
    await sameAsDuckDb(`SELECT sum(price) AS sp, avg(disc) AS ad, count(price) AS cp, count(*) AS c FROM flags WHERE qty > 10`);
    // No row kept: count 0 and a NULL sum.
    await sameAsDuckDb(`SELECT sum(price * disc) AS s, count(*) AS c FROM flags WHERE qty > 1000`);
    await sameAsDuckDb(`SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`);
  });

  it('an argument that overflows INTEGER: no error when the filter drops its row, an error when it keeps it', async () => {
    const sum = ', sum(CAST(n * 100000 AS DOUBLE)) AS sn';
    expect(await physical(Q1FLAGS('1995-01-01', sum))).toMatch(/one pass/);
    await sameAsDuckDb(Q1FLAGS('1995-01-01', sum));
    await expect(h.env.sql(Q1FLAGS('2010-01-01', sum)).collect()).rejects.toThrow(/integer overflow: 50000 \* 100000 is out of range for INTEGER/);
  });
});
