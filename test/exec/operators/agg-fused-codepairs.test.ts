/**
 * Two dictionary-encoded group keys read in place (KeyRows shape 'codes', hash-code-pairs.ts): the
 * fused sum loop finds a row's group through the pair of codes (TPC-H Q1's flags in generated
 * tables). Groups, their first-seen order and the sums' bits must be those of the group-id path
 * over the same keys as plain Utf8 — across batches with another dictionary, a dictionary that
 * repeats a string, a pair of dictionaries too large to read in place, and a filter's selection.
 */
import { Dictionary, Int32, Utf8, makeData, makeVector, type Data, type Vector } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { batchFromColumns, utf8FromStrings } from '../../../src/exec/batch.js';
import { compileStage } from '../../../src/exec/kernels/fused-stage.js';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { call as rexCall, inputRef, literal } from '../../../src/relnode/rex.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { Harness, column, schema, valueAt } from '../helpers/fake-context.js';

const call = (fn: string, args: number[], type: string): AggCall => ({ fn, args, distinct: false, type, name: `${fn}${args.join('')}` } as never);
const CALLS = [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT'), call('avg', [3], 'DOUBLE')];
const IN = schema('f:VARCHAR', 's:VARCHAR', 'x:DOUBLE', 'y:DOUBLE', 'i:INTEGER');

const FLAGS = ['A', 'N', 'R'];
const STATUS = ['O', 'F'];
const FLAGS2 = ['R', 'X', 'A'];
const REPEATS = ['F', 'O', 'F'];
const BIG = Array.from({ length: 300 }, (_, i) => `k${i}`);
const BIG2 = Array.from({ length: 300 }, (_, i) => `j${i % 5}`);

const vectors = new Map<string[], Vector<Utf8>>();
const dictOf = (dict: string[]): Vector<Utf8> => vectors.get(dict) ?? vectors.set(dict, makeVector(utf8FromStrings(dict))).get(dict)!;
const dictColumn = (dict: string[], codes: number[]): Data =>
  makeData({ type: new Dictionary(new Utf8(), new Int32()), length: codes.length, nullCount: 0, data: Int32Array.from(codes), dictionary: dictOf(dict) });

let seed = 11;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };

interface Batch { df: string[]; ds: string[]; f: number[]; s: number[]; x: number[]; y: number[] }
function batch(df: string[], ds: string[], n: number): Batch {
  return {
    df, ds, f: Array.from({ length: n }, () => rnd(df.length)), s: Array.from({ length: n }, () => rnd(ds.length)),
    x: Array.from({ length: n }, (_, i) => (i % 97 === 0 ? 1e16 * (i % 2 ? 1 : -1) : rnd(1000) / 8 + 0.1)),
    y: Array.from({ length: n }, () => rnd(100) / 3),
  };
}

function run(batches: Batch[], asDictionary: boolean, filtered: boolean): string[] {
  const cond = rexCall('ne', [rexCall('mod', [inputRef(4, 'INTEGER'), literal(3, 'INTEGER')], 'INTEGER'), literal(0, 'INTEGER')], 'BOOLEAN');
  const out = schemaOf([field('f', 'VARCHAR'), field('s', 'VARCHAR'), ...CALLS.map((c) => field(c.name, c.type))]);
  const agg = hashAggregate({ groupKeys: [0, 1], aggCalls: CALLS, ...(filtered ? { input: { stage: compileStage(cond, undefined, IN), schema: IN } } : {}) });
  const h = new Harness(agg, out, [IN], 1 << 24);
  for (const b of batches) {
    const key = (dict: string[], codes: number[]): Data => (asDictionary ? dictColumn(dict, codes) : column('VARCHAR', codes.map((c) => dict[c]!)));
    h.push(0, batchFromColumns(IN, [key(b.df, b.f), key(b.ds, b.s), column('DOUBLE', b.x), column('DOUBLE', b.y), column('INTEGER', b.x.map((_, i) => i))], b.f.length));
  }
  h.finish();
  const lines: string[] = [];
  for (const { batch: ob } of h.ctx.emitted) for (let i = 0; i < ob.numRows; i++) lines.push(ob.data.children.map((d) => String(valueAt(d, i))).join('|'));
  return lines;
}

describe('KeyTable.keyRows over two dictionary keys', () => {
  it("reads the pair of codes in place ('codes'), one entry per pair, resolved to the strings' group", () => {
    const t = new KeyTable(['VARCHAR', 'VARCHAR']);
    const a = dictColumn(FLAGS, [0, 1, 2, 1]);
    const b = dictColumn(REPEATS, [0, 1, 2, 2]);
    const rows = t.keyRows([a, b], 4)!;
    expect(rows.shape).toBe('codes');
    expect(rows.map.length).toBe(9);
    const gids = [0, 1, 2, 3].map((r) => t.resolveKeyRow([a, b], rows, r));
    // (R, F) twice — codes (2, 2) and, below, (2, 0): one group, since REPEATS has F twice.
    expect(gids).toEqual([0, 1, 2, 3]);
    const c = dictColumn(FLAGS, [2]);
    const d = dictColumn(REPEATS, [0]);
    const again = t.keyRows([c, d], 1)!;
    expect(again.map[2 * 3 + 0]).toBe(-1);
    expect(t.resolveKeyRow([c, d], again, 0)).toBe(2);
  });

  it('is null when the pair table would be too large, or a key is not a dictionary', () => {
    const t = new KeyTable(['VARCHAR', 'VARCHAR']);
    expect(t.keyRows([dictColumn(BIG, [0]), dictColumn(Array.from({ length: 300 }, (_, i) => `z${i}`), [0])], 1)).toBeNull();
    expect(t.keyRows([dictColumn(FLAGS, [0]), column('VARCHAR', ['long string'])], 1)).toBeNull();
  });
});

describe('fused aggregates over two dictionary keys', () => {
  const batches = [
    batch(FLAGS, STATUS, 3000),
    batch(FLAGS2, STATUS, 800), // another dictionary: a new pair table, X is new, R and A are old groups
    batch(FLAGS, REPEATS, 1200), // two codes of one string
    batch(BIG, BIG2, 900), // 90,000 pairs: the general path
    batch(FLAGS, STATUS, 2500),
  ];
  for (const filtered of [false, true]) {
    it(`order, counts and bit-identical sums as the group-id path${filtered ? ", through a filter's selection" : ''}`, () => {
      const coded = run(batches, true, filtered);
      expect(coded).toEqual(run(batches, false, filtered));
      expect(coded.length).toBeGreaterThan(12);
    });
  }
});
