import { describe, expect, it } from 'vitest';
import { Type, type RecordBatch } from 'apache-arrow';
import { joinOutputTuning } from '../../../src/exec/operators/join-output.js';
import { hashJoin, type HashJoinConfig } from '../../../src/exec/operators/hash-join.js';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import { join as joinNode, scan } from '../../../src/relnode/rel.js';
import { literal } from '../../../src/relnode/rex.js';
import type { Schema } from '../../../src/relnode/types.js';
import { Harness, batchOf, schema, sorted } from '../helpers/fake-context.js';
import { oracleJoin, rowPredicate } from '../helpers/join-oracle.js';

type Row = LiteralValue[];
const L = schema('lk:INTEGER', 'ls:VARCHAR', 'lv:INTEGER');
const R = schema('rk:INTEGER', 'rs:VARCHAR', 'rv:DOUBLE');

const LEFT: Row[] = [
  [1, 'a', 10], [2, 'b', 20], [2, 'b', 21], [3, 'c', 30], [null, 'a', 40], [5, null, 50], [7, 'z', 70], [1, 'a', 11],
];
const RIGHT: Row[] = [
  [1, 'a', 1.5], [2, 'b', 2.5], [2, 'x', 2.75], [2, 'b', 3.5], [4, 'd', 4.5], [null, 'a', 0.5], [5, null, 5.5], [1, 'q', 9.5],
];

function outSchema(jt: HashJoinConfig['joinType']): Schema {
  const t = { kind: 'Scan', name: 'x', id: 'x', version: 1, handle: {} } as const;
  return joinNode(scan({ ...t, schema: L }), scan({ ...t, id: 'y', schema: R }), jt, literal(true, 'BOOLEAN')).schema;
}

/** Splits rows into batches of `per` rows, dictionary-encoding the string column in every other batch. */
function batches(s: Schema, rows: Row[], per: number): RecordBatch[] {
  const out: RecordBatch[] = [];
  for (let i = 0; i < rows.length; i += per) out.push(batchOf(s, rows.slice(i, i + per), (i / per) % 2 === 1 ? [1] : []));
  return out;
}

function runJoin(cfg: HashJoinConfig, left: Row[], right: Row[], batchSize = 1024): Harness {
  const h = new Harness(hashJoin(cfg), outSchema(cfg.joinType), [L, R], batchSize);
  const build = cfg.buildSide === 'left' ? 0 : 1;
  const [bRows, bSchema, pRows, pSchema] = build === 0 ? [left, L, right, R] : [right, R, left, L];
  for (const b of batches(bSchema, bRows, 3)) h.push(build, b);
  h.end(build);
  for (const b of batches(pSchema, pRows, 3)) h.push(1 - build, b);
  return h.finish();
}

const TYPES = ['inner', 'left', 'right', 'full', 'semi', 'anti'] as const;
const KEYSETS: [number[], number[]][] = [[[0], [0]], [[1], [1]], [[0, 1], [0, 1]]];
const RESIDUALS: [string, ((r: Row) => boolean) | undefined][] = [
  ['none', undefined],
  ['lv < 25 or rv > 3', (r) => (r[2] as number) < 25 || (r[5] as number) > 3],
];

describe('hashJoin vs a reference join', () => {
  for (const jt of TYPES) for (const build of ['left', 'right'] as const) for (const [lk, rk] of KEYSETS) for (const [rn, res] of RESIDUALS) {
    it(`${jt} join, build ${build}, keys ${lk.join('+')}, residual ${rn}`, () => {
      const cfg: HashJoinConfig = { joinType: jt, leftKeys: lk, rightKeys: rk, buildSide: build, ...(res ? { residual: rowPredicate(res) } : {}) };
      const expected = oracleJoin(jt, LEFT, RIGHT, lk, rk, res);
      for (const bs of [1024, 2]) expect(sorted(runJoin(cfg, LEFT, RIGHT, bs).rows())).toEqual(sorted(expected));
    });
  }
});

describe('hashJoin with a used-column mask (late materialization)', () => {
  // Read above the join: ls and rv (and lv, rv for the residual); every other column is a placeholder.
  const used = [false, true, true, false, false, true];
  for (const jt of TYPES) for (const build of ['left', 'right'] as const) {
    it(`${jt} join, build ${build}: used columns as the reference join, unused ones all-NULL placeholders`, () => {
      const res = RESIDUALS[1]![1];
      const cfg: HashJoinConfig = { joinType: jt, leftKeys: [0], rightKeys: [0], buildSide: build, residual: rowPredicate(res!), used };
      const h = runJoin(cfg, LEFT, RIGHT, 2);
      const width = jt === 'semi' || jt === 'anti' ? 3 : 6;
      const mask = (r: Row): Row => r.map((v, i) => (used[i] ? v : null));
      expect(sorted(h.rows())).toEqual(sorted(oracleJoin(jt, LEFT, RIGHT, [0], [0], res).map(mask)));
      for (const e of h.ctx.emitted) {
        expect(e.batch.numCols).toBe(width);
        for (let c = 0; c < width; c++) if (!used[c]) expect(String(e.batch.data.children[c]!.type)).toBe('Null');
      }
    });
  }
});

describe('hashJoin edge cases', () => {
  it('empty build and empty probe sides', () => {
    for (const jt of TYPES) for (const build of ['left', 'right'] as const) {
      const cfg: HashJoinConfig = { joinType: jt, leftKeys: [0], rightKeys: [0], buildSide: build };
      expect(sorted(runJoin(cfg, LEFT, [], 4).rows())).toEqual(sorted(oracleJoin(jt, LEFT, [], [0], [0])));
      expect(sorted(runJoin(cfg, [], RIGHT, 4).rows())).toEqual(sorted(oracleJoin(jt, [], RIGHT, [0], [0])));
      expect(runJoin(cfg, [], [], 4).rows()).toEqual([]);
    }
  });

  it('many-to-many groups split across output batches', () => {
    const left = Array.from({ length: 7 }, (_, i) => [1, 'a', i]);
    const right = Array.from({ length: 5 }, (_, i) => [1, 'b', i]);
    const cfg: HashJoinConfig = { joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    const h = runJoin(cfg, left, right, 4);
    expect(h.rows().length).toBe(35);
    expect(sorted(h.rows())).toEqual(sorted(oracleJoin('inner', left, right, [0], [0])));
  });

  it('wants the build input until its END', () => {
    const h = new Harness(hashJoin({ joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' }), outSchema('inner'), [L, R]);
    expect(h.op.selectInput!()).toBe(1);
    expect(() => h.push(0, batchOf(L, [LEFT[0]!]))).toThrow(/wants input 1/);
    h.end(1);
    expect(h.op.selectInput!()).toBe(-1);
  });

  it('joins INTEGER with BIGINT keys and DATE keys', () => {
    const A = schema('a:INTEGER');
    const B = schema('b:BIGINT');
    const h = new Harness(hashJoin({ joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' }), schema('a:INTEGER', 'b:BIGINT'), [A, B]);
    h.push(1, batchOf(B, [[3n], [2n ** 40n], [-1n]])).end(1);
    h.push(0, batchOf(A, [[3], [-1], [0]])).finish();
    expect(sorted(h.rows())).toEqual(sorted([[3, 3n], [-1, -1n]]));
  });

  it('a large unique-key join matches a Map join', () => {
    const A = schema('k:INTEGER', 'v:INTEGER');
    const n = 20000;
    const build = Array.from({ length: n }, (_, i) => [i * 3, i]);
    const probe = Array.from({ length: 2 * n }, (_, i) => [(i * 7) % (4 * n), i]);
    const h = new Harness(hashJoin({ joinType: 'left', leftKeys: [0], rightKeys: [0], buildSide: 'right' }), schema('k:INTEGER', 'v:INTEGER', 'k2:INTEGER', 'v2:INTEGER'), [A, A], 4096);
    h.push(1, batchOf(A, build.slice(0, n / 2))).push(1, batchOf(A, build.slice(n / 2))).end(1);
    h.push(0, batchOf(A, probe)).finish();
    const byKey = new Map(build.map((r) => [r[0], r]));
    const expected = probe.map((p) => [...p, ...(byKey.get(p[0]!) ?? [null, null])]);
    expect(sorted(h.rows())).toEqual(sorted(expected));
  });
});

describe('hashJoin epochs', () => {
  it('static build side reused across epochs; unmatched build rows per epoch', () => {
    const cfg: HashJoinConfig = { joinType: 'full', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    const h = new Harness(hashJoin(cfg), outSchema('full'), [L, R]);
    h.push(1, batchOf(R, [[1, 'a', 1.5], [2, 'b', 2.5]])).end(1);
    h.push(0, batchOf(L, [[1, 'x', 10], [9, 'y', 90]]), 0);
    h.watermark(0);
    expect(sorted(h.rows(0))).toEqual(sorted([[1, 'x', 10, 1, 'a', 1.5], [9, 'y', 90, null, null, null], [null, null, null, 2, 'b', 2.5]]));
    h.push(0, batchOf(L, [[2, 'z', 20]]), 1);
    h.watermark(1);
    expect(sorted(h.rows(1))).toEqual(sorted([[2, 'z', 20, 2, 'b', 2.5], [null, null, null, 1, 'a', 1.5]]));
    h.push(0, batchOf(L, [[2, 'w', 21]]), 2);
    h.finish();
    expect(sorted(h.rows(2))).toEqual(sorted([[2, 'w', 21, 2, 'b', 2.5], [null, null, null, 1, 'a', 1.5]]));
    expect(h.epochs()).toEqual([0, 1, 2]);
  });

  it('semi join with build = left resolves matches per epoch', () => {
    const cfg: HashJoinConfig = { joinType: 'semi', leftKeys: [0], rightKeys: [0], buildSide: 'left' };
    const h = new Harness(hashJoin(cfg), outSchema('semi'), [L, R]);
    h.push(0, batchOf(L, [[1, 'a', 10], [2, 'b', 20], [2, 'c', 21]])).end(0);
    h.push(1, batchOf(R, [[2, 'q', 1]]), 0).watermark(0);
    h.push(1, batchOf(R, [[1, 'q', 1], [1, 'r', 2]]), 1).finish();
    expect(h.rows(0)).toEqual([[2, 'b', 20], [2, 'c', 21]]);
    expect(h.rows(1)).toEqual([[1, 'a', 10]]);
  });

  it('probe batches and watermarks that arrive before the build END are deferred', () => {
    const cfg: HashJoinConfig = { joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    const op = hashJoin(cfg);
    const h = new Harness(op, outSchema('inner'), [L, R]);
    op.processBatch(0, batchOf(L, [[1, 'a', 10]]), 0);
    op.processBatch(1, batchOf(R, [[1, 'b', 2]]), 0);
    op.onEpochWatermarkIncremented!(0);
    expect(h.rows()).toEqual([]);
    h.end(1);
    expect(h.rows(0)).toEqual([[1, 'a', 10, 1, 'b', 2]]);
  });
});

describe('hashJoin probe scratch (one group-id array reused across probe batches)', () => {
  // Probe batches that arrive before the build END are probed one per step while earlier ones still
  // have output steps pending: each must keep its own group ids (a shared array would be overwritten).
  it('early probe batches whose output spans several steps join as the reference join', () => {
    const build: Row[] = [[1, 'a', 1.5], [1, 'b', 2.5], [2, 'c', 3.5], [2, 'd', 4.5], [3, 'e', 5.5]];
    const probes: Row[][] = [[[1, 'x', 1], [2, 'y', 2], [1, 'z', 3]], [[3, 'p', 4], [2, 'q', 5], [9, 'r', 6]], [[2, 's', 7], [1, 't', 8]]];
    const cfg: HashJoinConfig = { joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    const op = hashJoin(cfg);
    const h = new Harness(op, outSchema('inner'), [L, R], 2);
    for (const p of probes) op.processBatch(0, batchOf(L, p), 0);
    op.processBatch(1, batchOf(R, build), 0);
    h.end(1).finish();
    expect(sorted(h.rows())).toEqual(sorted(oracleJoin('inner', probes.flat(), build, [0], [0])));
  });

  it('batches probed one after another, their output kept, join as the reference join', () => {
    const build: Row[] = Array.from({ length: 40 }, (_, i) => [i % 10, `b${i}`, i + 0.5]);
    const probe: Row[] = Array.from({ length: 60 }, (_, i) => [(i * 7) % 13, `p${i}`, i]);
    for (const jt of ['inner', 'left', 'semi', 'anti'] as const) {
      const cfg: HashJoinConfig = { joinType: jt, leftKeys: [0], rightKeys: [0], buildSide: 'right' };
      expect(sorted(runJoin(cfg, probe, build, 3).rows())).toEqual(sorted(oracleJoin(jt, probe, build, [0], [0])));
    }
  });
});

describe('hashJoin dictionary gather of a small build side', () => {
  it('emits the build side\'s VARCHAR columns as codes over one dictionary per build; rows as with copying', () => {
    const cfg: HashJoinConfig = { joinType: 'left', leftKeys: [0], rightKeys: [0], buildSide: 'right', residual: rowPredicate(RESIDUALS[1]![1]!) };
    const expected = sorted(oracleJoin('left', LEFT, RIGHT, [0], [0], RESIDUALS[1]![1]));
    const on = runJoin(cfg, LEFT, RIGHT, 2);
    expect(sorted(on.rows())).toEqual(expected);
    const dicts = new Set(on.ctx.emitted.map((e) => e.batch.data.children[4]!).filter((d) => d.typeId === Type.Dictionary).map((d) => d.dictionary));
    expect(dicts.size).toBe(1); // one dictionary for the build side, shared by every output batch
    const saved = joinOutputTuning.dictBuildRows;
    joinOutputTuning.dictBuildRows = 0;
    try {
      const off = runJoin(cfg, LEFT, RIGHT, 2);
      expect(sorted(off.rows())).toEqual(expected);
      expect(off.ctx.emitted.some((e) => e.batch.data.children[4]!.typeId === Type.Dictionary)).toBe(false);
    } finally {
      joinOutputTuning.dictBuildRows = saved;
    }
  });
});
