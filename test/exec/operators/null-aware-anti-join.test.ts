/**
 * The multi-key NULL-aware anti join (exec/operators/null-aware-anti-join.ts, null-aware-tables.ts)
 * against a pair-by-pair evaluation of its condition: random rows with many NULLs over 1 to 8 items,
 * every item wild (NULL-tested) on either, both or neither side, INTEGER, BIGINT-vs-INTEGER and
 * VARCHAR (plain and dictionary) items, small batches (many probe NULL patterns per batch and tables
 * built while probing), an empty build side and an all-NULL build row. The semi form (IN / NOT IN as a
 * value) against the same evaluation: it keeps exactly the rows the anti join drops.
 */
import { describe, expect, it } from 'vitest';
import type { RecordBatch } from 'apache-arrow';
import { nullAwareAntiJoin, type NullAwareAntiJoinConfig } from '../../../src/exec/operators/null-aware-anti-join.js';
import { joinKeyKind } from '../../../src/exec/kernels/hash.js';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { Harness, batchOf, schema, sorted } from '../helpers/fake-context.js';
import { rng } from '../../helpers/rng.js';

type Row = LiteralValue[];

/** Item j TRUE: equal non-NULL values, or a NULL on a side whose NULL the condition tests. */
function itemTrue(l: LiteralValue, r: LiteralValue, lw: boolean, rw: boolean): boolean {
  if (l === null) return lw || (r === null && rw);
  if (r === null) return rw;
  return l === r;
}

/** The anti join by its definition: a left row stays unless some right row makes every item TRUE (semi: iff some does). */
function reference(left: Row[], right: Row[], k: number, lw: boolean[], rw: boolean[], semi = false): Row[] {
  return left.filter((l) => semi === right.some((r) => Array.from({ length: k }, (_, j) => j).every((j) => itemTrue(l[j + 1]!, r[j]!, lw[j]!, rw[j]!))));
}

function run(cfg: NullAwareAntiJoinConfig, types: { l: SqlType[]; r: SqlType[] }, left: Row[], right: Row[], per: number): Row[] {
  const L = schema('id:INTEGER', ...types.l.map((t, j) => `a${j}:${t}`));
  const R = schema(...types.r.map((t, j) => `x${j}:${t}`));
  const batches = (s: typeof L, rows: Row[], dict: number[]): RecordBatch[] => {
    const out: RecordBatch[] = [];
    for (let i = 0; i < rows.length; i += per) out.push(batchOf(s, rows.slice(i, i + per), (i / per) % 2 === 1 ? dict : []));
    return out;
  };
  const h = new Harness(nullAwareAntiJoin(cfg), L, [L, R], 64);
  const strCols = (s: typeof L): number[] => s.fields.flatMap((f, c) => (f.type === 'VARCHAR' ? [c] : []));
  for (const b of batches(R, right, strCols(R))) h.push(1, b);
  h.end(1);
  for (const b of batches(L, left, strCols(L))) h.push(0, b);
  return h.finish().rows();
}

const TYPE_PAIRS: [SqlType, SqlType][] = [['INTEGER', 'INTEGER'], ['VARCHAR', 'VARCHAR'], ['INTEGER', 'BIGINT']];

describe('NULL-aware anti join vs its condition evaluated pair by pair', () => {
  /** Rows kept per seed: the cases must keep some rows and drop others, not all or none everywhere. */
  const kept: number[] = [];
  for (let seed = 1; seed <= 24; seed++) {
    const r = rng(seed);
    const k = 1 + (seed % 8);
    it(`seed ${seed}: ${k} item${k > 1 ? 's' : ''}`, () => {
      const pairs = Array.from({ length: k }, () => TYPE_PAIRS[Math.floor(r() * TYPE_PAIRS.length)]!);
      const lw = Array.from({ length: k }, () => r() < 0.75);
      const rw = Array.from({ length: k }, () => r() < 0.75);
      const nullRate = 0.05 + r() * 0.3;
      const domain = k > 4 ? 2 : 3;
      const value = (t: SqlType): LiteralValue => {
        if (r() < nullRate) return null;
        const v = Math.floor(r() * domain);
        return t === 'VARCHAR' ? `s${v}` : t === 'BIGINT' ? BigInt(v) : v;
      };
      const left: Row[] = Array.from({ length: 300 }, (_, id) => [id, ...pairs.map(([t]) => value(t))]);
      const rightRows = Math.floor(r() * 40);
      const right: Row[] = Array.from({ length: rightRows }, () => pairs.map(([, t]) => value(t)));
      const norm = (rows: Row[]): Row[] => rows.map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
      const cfg: NullAwareAntiJoinConfig = {
        leftKeys: pairs.map((_, j) => j + 1), rightKeys: pairs.map((_, j) => j),
        keyKinds: pairs.map(([a, b]) => joinKeyKind(a, b)), leftWild: lw, rightWild: rw,
      };
      const expected = sorted(reference(norm(left), norm(right), k, lw, rw));
      kept.push(expected.length);
      const semiExpected = sorted(reference(norm(left), norm(right), k, lw, rw, true));
      expect(semiExpected.length + expected.length).toBe(left.length);
      for (const per of [7, 1000]) {
        const types = { l: pairs.map(([a]) => a), r: pairs.map(([, b]) => b) };
        expect(sorted(run(cfg, types, left, right, per))).toEqual(expected);
        expect(sorted(run({ ...cfg, joinType: 'semi' }, types, left, right, per))).toEqual(semiExpected);
      }
    });
  }

  it('the random cases both keep and drop rows', () => {
    expect(kept.length).toBe(24);
    expect(kept.filter((n) => n > 0 && n < 300).length).toBeGreaterThan(12);
  });

  it('an empty build side keeps every row, an all-NULL build row (both sides wild) drops every row', () => {
    const cfg: NullAwareAntiJoinConfig = { leftKeys: [1, 2], rightKeys: [0, 1], keyKinds: ['i32', 'i32'], leftWild: [true, true], rightWild: [true, true] };
    const left: Row[] = [[0, 1, 2], [1, null, null], [2, null, 5]];
    const types = { l: ['INTEGER', 'INTEGER'] as SqlType[], r: ['INTEGER', 'INTEGER'] as SqlType[] };
    expect(sorted(run(cfg, types, left, [], 2))).toEqual(left);
    expect(run(cfg, types, left, [[7, 8], [null, null]], 2)).toEqual([]);
    // (1, NULL) drops rows whose first item is 1 or NULL; the all-NULL probe row is dropped by any build row.
    expect(sorted(run(cfg, types, [...left, [3, 4, 4]], [[1, null]], 2))).toEqual([[3, 4, 4]]);
    // NULL tested on the left only: a right NULL matches nothing, a left NULL anything.
    const leftOnly = { ...cfg, rightWild: [false, false] };
    expect(sorted(run(leftOnly, types, [...left, [3, 4, 4]], [[1, null], [4, 4]], 2))).toEqual([[0, 1, 2], [2, null, 5]]);
    // The semi form: no row over an empty build side, every row over an all-NULL build row.
    const semi = { ...cfg, joinType: 'semi' as const };
    expect(run(semi, types, left, [], 2)).toEqual([]);
    expect(sorted(run(semi, types, left, [[7, 8], [null, null]], 2))).toEqual(left);
    expect(sorted(run({ ...leftOnly, joinType: 'semi' }, types, [...left, [3, 4, 4]], [[1, null], [4, 4]], 2))).toEqual([[1, null, null], [3, 4, 4]]);
  });
});
