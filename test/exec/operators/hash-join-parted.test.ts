/**
 * A hash join whose build side stays in its buffered batches (batch-parts.ts, hash-join-build.ts
 * `buildTuning.parted`) answers exactly as over the concatenated build side: every join type, build
 * batches of uneven sizes (parts smaller and larger than a lookup block), NULLs in INTEGER, DOUBLE,
 * DATE, BIGINT and VARCHAR columns, unmatched build rows emitted by outer joins, a residual; and a
 * dictionary-encoded column or a dictionary-output build still concatenates. Pooled index arrays
 * longer than a chunk never make a batch over the batch size.
 */
import { describe, expect, it } from 'vitest';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import { hashJoin, type HashJoinConfig } from '../../../src/exec/operators/hash-join.js';
import { buildTuning } from '../../../src/exec/operators/hash-join-build.js';
import { PartedBatch } from '../../../src/exec/batch-parts.js';
import { Type } from 'apache-arrow';
import { dropPooledArrays, giveArray } from '../../../src/exec/kernels/buffer-pool.js';
import { Harness, batchOf, schema } from '../helpers/fake-context.js';

const B = schema('bk:INTEGER', 'bi:INTEGER', 'bd:DOUBLE', 'bt:DATE', 'bb:BIGINT', 'bs:VARCHAR');
const P = schema('pk:INTEGER', 'pv:DOUBLE');
const OUT = schema('pk:INTEGER', 'pv:DOUBLE', 'bk:INTEGER', 'bi:INTEGER', 'bd:DOUBLE', 'bt:DATE', 'bb:BIGINT', 'bs:VARCHAR');
const SIZES = [3, 1500, 700, 1, 2600, 64];

function buildRows(): LiteralValue[][] {
  const rows: LiteralValue[][] = [];
  let i = 0;
  for (const s of SIZES) for (let k = 0; k < s; k++, i++) {
    rows.push([i % 17 === 5 ? null : (i * 7) % 3000, i % 5 === 0 ? null : i, i % 6 === 1 ? null : i / 4, i % 9 === 2 ? null : 10_000 + i, i % 8 === 3 ? null : BigInt(i) * 1_000_000_007n, i % 4 === 2 ? null : `s${i}-${'x'.repeat(i % 40)}`]);
  }
  return rows;
}
const probe = Array.from({ length: 5000 }, (_, i) => [i % 13 === 0 ? null : (i * 11) % 4000, i + 0.5]);

function run(cfg: HashJoinConfig, parted: boolean, dict: readonly number[] = [], batchSize = 1024, probeRows = probe): string[] {
  const saved = buildTuning.parted;
  buildTuning.parted = parted;
  try {
    const outSchema = cfg.joinType === 'semi' || cfg.joinType === 'anti' ? (cfg.buildSide === 'left' ? B : P) : cfg.buildSide === 'left' ? schema(...[...B.fields, ...P.fields].map((f) => `${f.name}:${f.type}`)) : OUT;
    const h = new Harness(hashJoin(cfg), outSchema, cfg.buildSide === 'left' ? [B, P] : [P, B], batchSize);
    const build = cfg.buildSide === 'left' ? 0 : 1;
    const rows = buildRows();
    let at = 0;
    for (const s of SIZES) { h.push(build, batchOf(B, rows.slice(at, at + s), dict)); at += s; }
    h.end(build);
    for (let s = 0; s < probeRows.length; s += 1200) h.push(1 - build, batchOf(P, probeRows.slice(s, s + 1200)));
    h.finish();
    return h.rows().map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
  } finally {
    buildTuning.parted = saved;
  }
}

describe('a hash join over its build batches unconcatenated', () => {
  const types = ['inner', 'left', 'right', 'full', 'semi', 'anti'] as const;
  for (const joinType of types) {
    for (const buildSide of ['left', 'right'] as const) {
      it(`${joinType} join, build = ${buildSide}: the same rows as over the concatenated build`, () => {
        const cfg: HashJoinConfig = buildSide === 'right'
          ? { joinType, leftKeys: [0], rightKeys: [0], buildSide }
          : { joinType, leftKeys: [0], rightKeys: [0], buildSide };
        const want = run(cfg, false);
        expect(want.length).toBeGreaterThan(0);
        expect(run(cfg, true)).toEqual(want);
      });
    }
  }
  it('with a residual over build columns, and with unused build columns', () => {
    const residual = (b: import('apache-arrow').RecordBatch) => {
      const d = b.getChildAt(4)!.data[0]!; // bd
      const sel: number[] = [];
      for (let i = 0; i < b.numRows; i++) if (d.getValid(i) && (d.values as Float64Array)[i]! > 300) sel.push(i);
      return Int32Array.from(sel);
    };
    const cfg: HashJoinConfig = { joinType: 'left', leftKeys: [0], rightKeys: [0], buildSide: 'right', residual };
    expect(run(cfg, true)).toEqual(run(cfg, false));
    const used = [true, true, false, true, false, true, false, true];
    const u: HashJoinConfig = { joinType: 'full', leftKeys: [0], rightKeys: [0], buildSide: 'right', used };
    expect(run(u, true)).toEqual(run(u, false));
  });
  it('a dictionary-encoded build column, or dictionary output, still concatenates (same rows)', () => {
    const cfg: HashJoinConfig = { joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    expect(run(cfg, true, [5])).toEqual(run(cfg, false, [5]));
    const d: HashJoinConfig = { ...cfg, dictionaryOutput: true };
    expect(run(d, true)).toEqual(run(d, false));
  });
  it('an output that outgrows the build concatenates it midway (the same rows)', () => {
    const many = [...probe, ...probe, ...probe, ...probe];
    for (const joinType of ['inner', 'full'] as const) {
      const cfg: HashJoinConfig = { joinType, leftKeys: [0], rightKeys: [0], buildSide: 'right' };
      const want = run(cfg, false, [], 1024, many);
      expect(want.length).toBeGreaterThan(2 * buildRows().length);
      expect(run(cfg, true, [], 1024, many)).toEqual(want);
    }
  });
  it('an unread dictionary-encoded build column: the parts skip it, also when the output outgrows the build (the same rows)', () => {
    // bs (output column 7) is dictionary-encoded and never read: the build stays in parts without a placeholder batch per build batch.
    const used = [true, true, true, true, false, true, true, false];
    const many = [...probe, ...probe, ...probe, ...probe];
    for (const joinType of ['inner', 'full'] as const) {
      const cfg: HashJoinConfig = { joinType, leftKeys: [0], rightKeys: [0], buildSide: 'right', used };
      const want = run(cfg, false, [5]);
      expect(want.length).toBeGreaterThan(0);
      expect(run(cfg, true, [5])).toEqual(want);
      expect(run(cfg, true, [5], 1024, many)).toEqual(run(cfg, false, [5], 1024, many));
    }
  });
  it('PartedBatch.concat copies the read columns and puts an all-NULL placeholder for the others', () => {
    const rows = buildRows();
    const parts = [batchOf(B, rows.slice(0, 3), [5]), batchOf(B, rows.slice(3, 1503), [5])];
    const reads = [true, false, true, true, true, false];
    const whole = new PartedBatch(parts, reads).concat();
    expect(whole.numRows).toBe(1503);
    expect(whole.data.children.map((c) => c.typeId === Type.Null)).toEqual(reads.map((r) => !r));
    expect(whole.getChildAt(2)!.get(1500)).toBe(parts[1]!.getChildAt(2)!.get(1497));
    expect(new PartedBatch(parts).concat().data.children.every((c) => c.typeId !== Type.Null)).toBe(true);
  });
  it('pooled index arrays longer than a chunk: no batch over the batch size', () => {
    dropPooledArrays();
    // Arrays four times a 4096-row chunk in the pool: the join takes them for its pair indexes.
    for (let i = 0; i < 3; i++) giveArray(new Int32Array(4 * 4096));
    const cfg: HashJoinConfig = { joinType: 'full', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    expect(run(cfg, true, [], 4096)).toEqual(run(cfg, false, [], 1024)); // the Harness rejects a batch over its size
    dropPooledArrays();
  });

  it('a concatenated DOUBLE build column over a pooled buffer of another kind goes back whole at close', () => {
    // The pool hands a Float64Array view over an Int32Array's buffer whose length is no multiple of 8
    // (kernels/buffer-pool.ts); giving it back as a Float64Array over the whole buffer threw a RangeError.
    const cfg: HashJoinConfig = { joinType: 'left', leftKeys: [0], rightKeys: [0], buildSide: 'right' };
    const want = run(cfg, false);
    dropPooledArrays();
    const rows = SIZES.reduce((a, b) => a + b, 0);
    for (let i = 0; i < 3; i++) giveArray(new Int32Array(rows)); // the INTEGER and DATE columns take these
    giveArray(new Int32Array(2 * rows + 1)); // the DOUBLE column takes this one: 8·rows + 4 bytes
    expect(run(cfg, false)).toEqual(want);
    dropPooledArrays();
  });
});
