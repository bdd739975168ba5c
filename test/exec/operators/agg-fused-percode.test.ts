/**
 * Fused aggregates kept by dictionary code (KeyTable.keyRows `perm`, FusedAggregates addByCode):
 * once every code of a dictionary key has a group of its own, the fused loop adds into per-code
 * states and moves them to their groups. The groups, their first-seen order and the sums' bits
 * must be those of the group-id path over the same keys as plain Utf8 — with and without a
 * filter's selection, across batches that take the per-code path, batches that cannot (NULL
 * argument, fewer rows than codes, another dictionary) and a dictionary that repeats a string.
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
const CALLS = [call('sum', [1], 'DOUBLE'), call('count_star', [], 'BIGINT'), call('avg', [2], 'DOUBLE'), call('count', [2], 'BIGINT')];
const IN = schema('k:VARCHAR', 'x:DOUBLE', 'y:DOUBLE', 'i:INTEGER');

const MODES = ['MAIL', 'SHIP', 'AIR', 'RAIL', 'TRUCK', 'FOB', 'REG AIR'];
const REPEATS = ['MAIL', 'AIR', 'SHIP', 'AIR']; // codes 1 and 3 are one group
const OTHER = ['TRUCK', 'BOAT', 'MAIL'];

const vectors = new Map<string[], Vector<Utf8>>();
const dictOf = (dict: string[]): Vector<Utf8> => vectors.get(dict) ?? vectors.set(dict, makeVector(utf8FromStrings(dict))).get(dict)!;

function dictColumn(dict: string[], codes: number[]): Data {
  return makeData({ type: new Dictionary(new Utf8(), new Int32()), length: codes.length, nullCount: 0, data: Int32Array.from(codes), dictionary: dictOf(dict) });
}

let seed = 5;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };

interface Batch { dict: string[]; codes: number[]; x: number[]; y: (number | null)[] }

function batch(dict: string[], n: number, opts: { nullY?: boolean } = {}): Batch {
  const codes = Array.from({ length: n }, () => rnd(dict.length));
  // Large and small magnitudes: a plain running sum (or another order of additions) loses the small ones.
  const x = Array.from({ length: n }, (_, i) => (i % 89 === 0 ? 1e16 * (i % 2 ? 1 : -1) : rnd(1000) / 8 + 0.1));
  const y: (number | null)[] = Array.from({ length: n }, () => rnd(100) / 3);
  if (opts.nullY) y[3] = null;
  return { dict, codes, x, y };
}

function run(batches: Batch[], asDictionary: boolean, filtered: boolean): string[] {
  const cond = rexCall('ne', [rexCall('mod', [inputRef(3, 'INTEGER'), literal(3, 'INTEGER')], 'INTEGER'), literal(0, 'INTEGER')], 'BOOLEAN');
  const out = schemaOf([field('k', 'VARCHAR'), ...CALLS.map((c) => field(c.name, c.type))]);
  const agg = hashAggregate({ groupKeys: [0], aggCalls: CALLS, ...(filtered ? { input: { stage: compileStage(cond, undefined, IN), schema: IN } } : {}) });
  const h = new Harness(agg, out, [IN], 1 << 24);
  for (const b of batches) {
    const k = asDictionary ? dictColumn(b.dict, b.codes) : column('VARCHAR', b.codes.map((c) => b.dict[c]!));
    h.push(0, batchFromColumns(IN, [k, column('DOUBLE', b.x), column('DOUBLE', b.y), column('INTEGER', b.x.map((_, i) => i))], b.codes.length));
  }
  h.finish();
  const lines: string[] = [];
  for (const { batch: ob } of h.ctx.emitted) {
    for (let i = 0; i < ob.numRows; i++) lines.push(ob.data.children.map((d) => String(valueAt(d, i))).join('|'));
  }
  return lines;
}

describe('KeyTable.keyRows: the per-code permutation of a complete dictionary key', () => {
  const rows = (t: KeyTable, d: Data) => t.keyRows([d], d.length)!;
  const resolveAll = (t: KeyTable, d: Data): void => {
    const r = rows(t, d);
    for (let i = 0; i < d.length; i++) if (r.map[(d.values as Int32Array)[i]!]! < 0) t.resolveKeyRow([d], r, i);
  };

  it('is null until every code has a group, then the code → gid table itself', () => {
    const t = new KeyTable(['VARCHAR']);
    const part = dictColumn(MODES, [2, 0, 2, 5]);
    expect(rows(t, part).perm).toBeNull();
    resolveAll(t, part);
    expect(rows(t, part).perm).toBeNull(); // 4 of 7 codes seen
    const all = dictColumn(MODES, [6, 1, 3, 4, 0]);
    resolveAll(t, all);
    const r = rows(t, all);
    expect(r.perm).toBe(r.map);
    expect([...r.perm!]).toEqual([1, 4, 0, 5, 6, 2, 3]); // gids in first-seen order: AIR, MAIL, FOB, REG AIR, SHIP, RAIL, TRUCK
  });

  it('is null when the dictionary repeats a string (two codes, one group) and for byte keys', () => {
    const t = new KeyTable(['VARCHAR']);
    const d = dictColumn(REPEATS, [0, 1, 2, 3]);
    resolveAll(t, d);
    expect(rows(t, d).map[1]).toBe(rows(t, d).map[3]);
    expect(rows(t, d).perm).toBeNull();
    const bytes = column('VARCHAR', Array.from({ length: 4096 }, (_, i) => 'AB'[i & 1]!));
    expect(new KeyTable(['VARCHAR']).keyRows([bytes], bytes.length)?.perm).toBeNull();
  });
});

describe('fused aggregates kept by dictionary code', () => {
  const batches = [
    batch(MODES, 3000),
    batch(MODES, 5), // fewer rows than codes: the map path
    batch(MODES, 2500, { nullY: true }), // a NULL argument: the group-id path
    batch(OTHER, 700), // another dictionary (BOAT is new)
    batch(MODES, 4000),
    batch(REPEATS, 1500), // two codes share a group: never per-code
    batch(MODES, 1200),
  ];
  for (const filtered of [false, true]) {
    it(`order, counts and bit-identical sums as the group-id path${filtered ? ', through a filter\'s selection' : ''}`, () => {
      const coded = run(batches, true, filtered);
      expect(coded).toEqual(run(batches, false, filtered));
      expect(coded.length).toBe(8);
    });
  }
});
