/**
 * Bug 10 of issue 7: Arrow tables from another copy of apache-arrow (here the
 * CommonJS build, a different module instance than our ESM import) failed
 * deep inside an operator with `Unrecognized type 'NONE'`. fromArrow reads
 * them structurally, zero-copy, and rejects unreadable columns up front.
 */
import * as arrow from 'apache-arrow';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { col, countStar, sum, TableEnvironment, ValidationError } from '../../src/index.js';
import { adoptArrowTable, type ArrowTableLike } from '../../src/io/foreign-arrow.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cjs: any = createRequire(import.meta.url)('apache-arrow');

let env: TableEnvironment;
beforeAll(() => { env = TableEnvironment.create({ parallelism: 2 }); });
afterAll(async () => { await env.close(); });

/** The same columns built with either copy of apache-arrow. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function sample(A: any): any {
  const v = (values: unknown[], type: unknown) => A.vectorFromArray(values, type);
  return new A.Table({
    i32: v([1, null, 3, 4], new A.Int32()),
    i64: v([10n, 2n ** 62n, null, -4n], new A.Int64()),
    i8: v([-1, 2, null, 4], new A.Int8()),
    u32: v([4294967295, 0, 1, null], new A.Uint32()),
    f64: v([1.5, null, -2.25, 0], new A.Float64()),
    f32: v([0.5, 1, null, 2], new A.Float32()),
    b: v([true, false, null, true], new A.Bool()),
    s: v(['a', null, 'ccc', ''], new A.Utf8()),
    ds: v(['x', 'y', null, 'x'], new A.Dictionary(new A.Utf8(), new A.Int32())),
    ls: v(['big', null, 'strings', '!'], new A.LargeUtf8()),
    d: v([new Date('2020-01-01T00:00:00Z'), null, new Date('1969-12-31T00:00:00Z'), new Date('2024-02-29T00:00:00Z')], new A.DateDay()),
    ts: v([new Date('2020-01-01T01:02:03.004Z'), new Date(0), null, new Date(-1)], new A.TimestampMillisecond()),
    tsec: v([0, 1000, null, -1000], new A.TimestampSecond()),
  });
}

describe('fromArrow over another copy of apache-arrow', () => {
  it('the CommonJS copy is a different module instance (the case under test)', () => {
    expect(cjs.DataType).not.toBe(arrow.DataType);
    expect(sample(cjs).schema.fields[0].type instanceof arrow.DataType).toBe(false);
  });

  it('answers queries exactly as the same table built with our copy', async () => {
    const mine = await env.fromArrow(sample(arrow)).toArray();
    const theirs = await env.fromArrow(sample(cjs)).toArray();
    expect(theirs).toEqual(mine);
    expect(theirs[0]).toMatchObject({ i32: 1, i64: 10n, s: 'a', ds: 'x', ls: 'big', b: true });
    const q = (t: arrow.Table | ArrowTableLike) => env.fromArrow(t).filter(col('i32').gt(1).or(col('ds').eq(col('s')).isNull())).groupBy('ds').select('ds', sum('i64').as('t'), countStar().as('n')).orderBy('ds').toArray();
    expect(await q(sample(cjs))).toEqual(await q(sample(arrow)));
  });

  it('is zero-copy: the rebuilt columns view the foreign buffers', () => {
    const t = sample(cjs);
    const mine = adoptArrowTable(t, 'test');
    const names = ['i32', 'i64', 'f64', 's', 'ds', 'd', 'ts'];
    for (const n of names) {
      const k = t.schema.fields.findIndex((f: { name: string }) => f.name === n);
      const theirs = t.batches[0].data.children[k];
      const ours = mine.batches[0]!.data.children[k]!;
      expect(ours.values.buffer, n).toBe(theirs.values.buffer);
      expect(ours.type instanceof arrow.DataType, n).toBe(true);
      expect(arrow.Data.prototype.isPrototypeOf(ours), n).toBe(true);
    }
    const ds = mine.batches[0]!.data.children[t.schema.fields.findIndex((f: { name: string }) => f.name === 'ds')]!;
    expect(arrow.Data.prototype.isPrototypeOf(ds.dictionary!.data[0]!)).toBe(true);
  });

  it('keeps slice offsets and several batches', async () => {
    const t = sample(cjs);
    const sliced = t.slice(1, 4); // offset 1 into every column
    expect(await env.fromArrow(sliced).toArray()).toEqual(await env.fromArrow(sample(arrow).slice(1, 4)).toArray());
    const two = new cjs.Table([...t.batches, ...t.slice(2).batches]);
    expect(await env.fromArrow(two).count()).toBe(6);
    expect(await env.fromArrow(two).sum('i32')).toBe(15n);
  });

  it('reads Utf8View columns (16-byte views, strings inline)', async () => {
    const views = new Uint8Array(32);
    const dv = new DataView(views.buffer);
    dv.setInt32(0, 2, true); views.set([104, 105], 4);
    dv.setInt32(16, 3, true); views.set([121, 111, 117], 20);
    const t = new cjs.Table({ v: new cjs.Vector([cjs.makeData({ type: new cjs.Utf8View(), length: 2, views })]) });
    expect(await env.fromArrow(t).toArray()).toEqual([{ v: 'hi' }, { v: 'you' }]);
  });

  it('registerTable takes a foreign table too', async () => {
    env.registerTable('foreign', sample(cjs));
    expect(await env.sql('SELECT ds, sum(i32) AS t, max(s) AS m FROM foreign WHERE i32 > 1 GROUP BY ds ORDER BY ds').toArray()).toEqual([{ ds: 'x', t: 4n, m: '' }, { ds: null, t: 3n, m: 'ccc' }]);
  });

  it('a column of a type eddy cannot read fails at fromArrow, naming the column and type', () => {
    const t = new cjs.Table({ ok: cjs.vectorFromArray([1], new cjs.Int32()), xs: cjs.vectorFromArray([[1, 2]], new cjs.List(new cjs.Field('item', new cjs.Int32(), true))) });
    expect(() => env.fromArrow(t)).toThrow(ValidationError);
    expect(() => env.fromArrow(t)).toThrow(/column "xs" has Arrow type List<Int32>, which eddy cannot read/);
  });
});

describe('fromArrow over a hand-made Arrow-shaped object', () => {
  const int32 = { typeId: arrow.Type.Int, bitWidth: 32, isSigned: true, toString: () => 'Int32' };
  const utf8 = { typeId: arrow.Type.Utf8, toString: () => 'Utf8' };
  const dict = { typeId: arrow.Type.Dictionary, id: 7, isOrdered: false, dictionary: utf8, indices: int32, toString: () => 'Dictionary<Int32, Utf8>' };
  const words = { type: utf8, offset: 0, length: 2, nullCount: 0, valueOffsets: Int32Array.from([0, 3, 6]), values: new TextEncoder().encode('redblu') };
  const table: ArrowTableLike = {
    schema: { fields: [{ name: 'n', type: int32, nullable: true }, { name: 'c', type: dict, nullable: true }] },
    batches: [{
      numRows: 3,
      data: {
        children: [
          { type: int32, offset: 0, length: 3, nullCount: 1, nullBitmap: Uint8Array.from([0b101]), values: Int32Array.from([5, 0, 7]) },
          { type: dict, offset: 0, length: 3, nullCount: 0, values: Int32Array.from([1, 0, 1]), dictionary: { data: [words] } },
        ],
      },
    }],
  };

  it('is read by type ids and buffers', async () => {
    expect(await env.fromArrow(table).toArray()).toEqual([{ n: 5, c: 'blu' }, { n: null, c: 'red' }, { n: 7, c: 'blu' }]);
    expect(await env.fromArrow(table).filter(col('c').eq(col('c')).and(col('n').gt(5))).count()).toBe(1);
  });

  it('an unknown type id or a non-table fails with a clear error', () => {
    const odd: ArrowTableLike = { ...table, schema: { fields: [{ name: 'when', type: { typeId: arrow.Type.Time, toString: () => 'Time32<MILLISECOND>' }, nullable: true }] } };
    expect(() => env.fromArrow(odd)).toThrow(/fromArrow\(arrow\): column "when" has Arrow type Time32<MILLISECOND>, which eddy cannot read/);
    expect(() => env.fromArrow({} as ArrowTableLike)).toThrow(/expected an Arrow JS Table/);
  });
});
