import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { unifyDictionaries } from '../../src/exec/dictionary-unify.js';
import { writeArrowFile } from '../../src/io/write.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { tempDir } from '../io/file-source-helpers.js';

const TYPE = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), 0);

/** A Dictionary<Utf8, Int32> column of `values` (null: a NULL row) over its own dictionary object holding `dict`. */
function dictColumn(dict: readonly string[], values: readonly (string | null)[], shared?: arrow.Vector): arrow.Data {
  const dictionary = shared ?? arrow.vectorFromArray([...dict], new arrow.Utf8());
  const codes = Int32Array.from(values, (v) => (v === null ? 7 : dict.indexOf(v)));
  const nulls = values.filter((v) => v === null).length;
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  values.forEach((v, i) => { if (v !== null) bitmap[i >> 3]! |= 1 << (i & 7); });
  return arrow.makeData({ type: TYPE, length: values.length, nullCount: nulls, nullBitmap: nulls > 0 ? bitmap : undefined, data: codes, dictionary });
}

const strings = (d: arrow.Data): (string | null)[] => [...arrow.makeVector(d)] as (string | null)[];

describe('unifyDictionaries', () => {
  it('returns the parts themselves when they already share a dictionary', () => {
    const a = dictColumn(['x', 'y'], ['x', 'y']);
    const b = a.slice(1, 1);
    const parts = [a, b];
    expect(unifyDictionaries(parts)).toBe(parts);
  });

  it('points equal dictionaries at the first one and keeps the code buffers', () => {
    const a = dictColumn(['AIR', 'MAIL', 'SHIP'], ['SHIP', 'AIR', null]);
    const b = dictColumn(['AIR', 'MAIL', 'SHIP'], ['MAIL', 'MAIL', 'SHIP', null]);
    const out = unifyDictionaries([a, b]);
    expect(out[0]).toBe(a);
    expect(out[1]!.dictionary).toBe(a.dictionary);
    expect(out[1]!.values).toBe(b.values);
    expect(out.map(strings)).toEqual([['SHIP', 'AIR', null], ['MAIL', 'MAIL', 'SHIP', null]]);
  });

  it('merges dictionaries that differ (order, values, lengths) and remaps every part', () => {
    const a = dictColumn(['b', 'a'], ['a', 'b', null, 'a']);
    const b = dictColumn(['a', 'c', 'b'], ['c', null, 'b', 'a']);
    const c = dictColumn(['b', 'a'], ['b']);
    const out = unifyDictionaries([a, b, c]);
    const dict = out[0]!.dictionary;
    expect(out.every((d) => d.dictionary === dict)).toBe(true);
    expect([...dict!]).toEqual(['b', 'a', 'c']);
    expect(out.map(strings)).toEqual([['a', 'b', null, 'a'], ['c', null, 'b', 'a'], ['b']]);
  });

  it('keeps sliced parts right: codes from the slice, validity from its offset', () => {
    const a = dictColumn(['p', 'q'], ['p', 'q', null, 'q', 'p']).slice(1, 4);
    const b = dictColumn(['q', 'p', 'r'], [null, 'r', 'p', null, 'q']).slice(1, 3);
    const out = unifyDictionaries([a, b]);
    expect(out[0]!.dictionary).toBe(out[1]!.dictionary);
    expect(out.map(strings)).toEqual([['q', null, 'q', 'p'], ['r', 'p', null]]);
  });
});

describe('collect() of a dictionary-encoded Arrow file', () => {
  const tmp = tempDir('dict-unify');
  afterAll(() => tmp.cleanup());

  // The file's one dictionary batch is read once per partition (io/arrow-file.ts): collect() used to
  // see one dictionary per partition and decode the column to plain Utf8.
  for (const parallelism of [1, 2]) {
    it(`keeps the column dictionary-encoded over one dictionary at parallelism ${parallelism}`, async () => {
      const segs = ['AUTOMOBILE', 'BUILDING', 'FURNITURE'];
      const shared = arrow.vectorFromArray(segs, new arrow.Utf8()); // a file has one dictionary batch per column
      const batches = Array.from({ length: 6 }, (_, k) => {
        const vals = Array.from({ length: 50 + k }, (_, i) => ((i + k) % 7 === 0 ? null : segs[(i * 3 + k) % 3]!));
        const id = arrow.makeData({ type: new arrow.Int32(), length: vals.length, data: Int32Array.from(vals, (_, i) => k * 1000 + i) });
        const seg = dictColumn(segs, vals, shared);
        const fields = [new arrow.Field('id', new arrow.Int32(), false), new arrow.Field('seg', TYPE, true)];
        return new arrow.RecordBatch(new arrow.Schema(fields), arrow.makeData({ type: new arrow.Struct(fields), length: vals.length, nullCount: 0, children: [id, seg] }));
      });
      const p = tmp.path(`segs-${parallelism}.arrow`);
      await writeArrowFile(p, batches);
      const env = TableEnvironment.create({ parallelism });
      try {
        const t = await (await env.fromArrowFile(p)).collect();
        expect(arrow.DataType.isDictionary(t.schema.fields[1]!.type)).toBe(true);
        expect(new Set(t.batches.map((b) => b.data.children[1]!.dictionary)).size).toBe(1);
        const want = batches.flatMap((b) => [...b.getChild('seg')!]);
        expect([...t.getChild('seg')!]).toEqual(want);
        env.registerTable('t', t);
        const counts = (await env.sql('SELECT seg, count(*) AS n FROM t GROUP BY seg ORDER BY seg NULLS LAST').toArray()).map((r) => [r.seg, Number(r.n)]);
        const expected = [...segs, null].map((s) => [s, want.filter((v) => v === s).length]);
        expect(counts).toEqual(expected);
      } finally {
        await env.close();
      }
    });
  }
});

describe('scans of a dictionary-encoded Arrow file (io/arrow-file.ts)', () => {
  const tmp = tempDir('dict-scan');
  afterAll(() => tmp.cleanup());

  it('every partition and every query reads the column over one dictionary object', async () => {
    const segs = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'HOUSEHOLD'];
    const shared = arrow.vectorFromArray(segs, new arrow.Utf8());
    const batches = Array.from({ length: 5 }, (_, k) => {
      const vals = Array.from({ length: 40 + k }, (_, i) => (i % 9 === 0 ? null : segs[(i + k) % 4]!));
      const id = arrow.makeData({ type: new arrow.Int32(), length: vals.length, data: Int32Array.from(vals, (_, i) => k * 1000 + i) });
      const fields = [new arrow.Field('id', new arrow.Int32(), false), new arrow.Field('seg', TYPE, true)];
      return new arrow.RecordBatch(new arrow.Schema(fields), arrow.makeData({ type: new arrow.Struct(fields), length: vals.length, nullCount: 0, children: [id, dictColumn(segs, vals, shared)] }));
    });
    const p = tmp.path('segs.arrow');
    await writeArrowFile(p, batches);
    const { arrowFileSource } = await import('../../src/io/arrow-file.js');
    const src = await arrowFileSource(p);
    expect(src.partitions).toBe(5);
    const seen = new Set<unknown>();
    const values: unknown[] = [];
    for (let round = 0; round < 2; round++) {
      for (let part = 0; part < src.partitions; part++) {
        for await (const b of src.scan({ partition: part, batchSize: 1024 } as never)) {
          seen.add(b.data.children[1]!.dictionary);
          if (round === 0) values.push(...b.getChild('seg')!);
        }
      }
    }
    expect(seen.size).toBe(1);
    expect(values).toEqual(batches.flatMap((b) => [...b.getChild('seg')!]));
  });
});
