/**
 * Membership probes (exec/operators/hash-join-member.ts): an inner join on one key with unique build keys
 * and no build column read tests its probe keys against its published bitmap instead of its key table.
 * The rows are the same as the table lookup's — with NULL and out-of-range probe keys, a NULL build key,
 * an empty build, batches that match wholly, partly or not at all; the path is taken only when exact
 * (no Bloom filter, INTEGER/DATE probe keys, unique build keys, build columns unread, no residual).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dictionary, Int32, RecordBatch, makeData, makeVector } from 'apache-arrow';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import { hashJoin, type HashJoinConfig } from '../../../src/exec/operators/hash-join.js';
import { membershipTuning } from '../../../src/exec/operators/hash-join-member.js';
import { KeyFilter } from '../../../src/exec/kernels/key-filter.js';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { RuntimeFilterSlot } from '../../../src/exec/runtime-filter.js';
import { Harness, batchOf, schema } from '../helpers/fake-context.js';

const B = schema('bk:INTEGER', 'bs:VARCHAR');
const P = schema('pk:INTEGER', 'pv:DOUBLE');
const PB = schema('pk:BIGINT', 'pv:DOUBLE');
const OUT = schema('bk:INTEGER', 'bs:VARCHAR', 'pk:INTEGER', 'pv:DOUBLE');
const OUTB = schema('bk:INTEGER', 'bs:VARCHAR', 'pk:BIGINT', 'pv:DOUBLE');

interface Case { build: LiteralValue[][]; probe: LiteralValue[][]; used?: boolean[]; residual?: HashJoinConfig['residual']; bigint?: boolean; publish?: boolean; dictProbe?: boolean }

/** A probe batch whose INTEGER key column is dictionary-encoded (never in canonical tables: io/canonical.ts decodes it). */
function dictKeyed(s: typeof P, rows: LiteralValue[][]): RecordBatch {
  const plain = batchOf(s, rows);
  const keys = [...new Set(rows.map((r) => r[0]).filter((v): v is number => v !== null))];
  const valid = rows.map((r) => r[0] !== null);
  const key = makeData({ type: new Dictionary(new Int32(), new Int32()), length: rows.length, nullCount: valid.filter((v) => !v).length, nullBitmap: plain.data.children[0]!.nullBitmap, data: Int32Array.from(rows, (r) => (r[0] === null ? 0 : keys.indexOf(r[0] as number))), dictionary: makeVector(Int32Array.from(keys)) });
  return new RecordBatch(plain.schema, makeData({ type: plain.data.type, length: rows.length, nullCount: 0, children: [key, plain.data.children[1]!] }));
}

/** Rows of the join (build = left), sorted, how many probe batches the join tested by membership, and how many key tables it built. */
function run(c: Case, on: boolean): { rows: string[]; memberTests: number; tables: number } {
  const saved = membershipTuning.on;
  membershipTuning.on = on;
  const spy = vi.spyOn(KeyFilter.prototype, 'select');
  const tables = vi.spyOn(KeyTable.prototype, 'buildSteps');
  try {
    const slot = c.publish === false ? undefined : new RuntimeFilterSlot(1, 1, 1);
    const cfg: HashJoinConfig = { joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'left', used: c.used ?? [false, false, true, true], runtimeFilter: slot, residual: c.residual };
    const ps = c.bigint ? PB : P;
    const h = new Harness(hashJoin(cfg), c.bigint ? OUTB : OUT, [B, ps], 1024);
    slot?.instantiated(0);
    for (let s = 0; s < c.build.length; s += 700) h.push(0, batchOf(B, c.build.slice(s, s + 700)));
    h.end(0);
    for (let s = 0; s < c.probe.length; s += 900) h.push(1, (c.dictProbe ? dictKeyed : batchOf)(ps, c.probe.slice(s, s + 900)));
    h.finish();
    const used = cfg.used!;
    const rows = h.rows().map((r) => JSON.stringify(r.map((v, i) => (used[i] ? v : null)), (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
    return { rows, memberTests: spy.mock.calls.length, tables: tables.mock.calls.length };
  } finally {
    spy.mockRestore();
    tables.mockRestore();
    membershipTuning.on = saved;
  }
}

const build = Array.from({ length: 3000 }, (_, i): LiteralValue[] => [i === 17 ? null : 10 + 3 * i, `s${i}`]);
const probe = Array.from({ length: 8000 }, (_, i): LiteralValue[] => [i % 11 === 0 ? null : i % 7 === 0 ? -5 + i : (i * 13) % 9500, i + 0.5]);

describe('membership probes of an inner join whose build side is not read', () => {
  afterEach(() => { membershipTuning.on = true; });

  it('give the rows of the table lookup: NULL and out-of-range probe keys, a NULL build key, partial matches', () => {
    const want = run({ build, probe }, false);
    expect(want.rows.length).toBeGreaterThan(1000);
    expect(want.rows.length).toBeLessThan(probe.length);
    const got = run({ build, probe }, true);
    expect(got.rows).toEqual(want.rows);
    expect(got.memberTests).toBeGreaterThan(0);
    expect(want.memberTests).toBe(0);
  });

  it('build no key table when the published bitmap shows the build keys distinct (NULL build key included), one otherwise', () => {
    expect(run({ build, probe }, true).tables).toBe(0);
    expect(run({ build, probe }, false).tables).toBe(1);
    const dup = [...build, ...build.slice(0, 500)];
    expect(run({ build: dup, probe }, true).tables).toBe(1);
    expect(run({ build, probe, used: [false, true, true, true] }, true).tables).toBe(1);
  });

  it('a join built without a key table refuses a dictionary-encoded probe key (canonical tables never hold one for INTEGER)', () => {
    expect(() => run({ build, probe, dictProbe: true }, true)).toThrow(/without a key table/);
    expect(run({ build, probe, dictProbe: true }, false).tables).toBe(1);
  });

  it('pass batches that match wholly as they are, and drop batches with no match', () => {
    const all = Array.from({ length: 2000 }, (_, i): LiteralValue[] => [10 + 3 * (i % 1000 === 17 ? 18 : i % 1000), i]);
    const none = Array.from({ length: 2000 }, (_, i): LiteralValue[] => [11 + 3 * i, i]);
    for (const p of [all, none, [...none, ...all]]) expect(run({ build, probe: p }, true).rows).toEqual(run({ build, probe: p }, false).rows);
    expect(run({ build, probe: all }, true).rows).toHaveLength(2000);
    expect(run({ build, probe: none }, true).rows).toHaveLength(0);
  });

  it('emits a wholly matching probe batch\'s own columns (no copy)', () => {
    const slot = new RuntimeFilterSlot(1, 1, 1);
    const h = new Harness(hashJoin({ joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'left', used: [false, false, true, true], runtimeFilter: slot }), OUT, [B, P], 1024);
    slot.instantiated(0);
    h.push(0, batchOf(B, build.slice(0, 100)));
    h.end(0);
    const p = batchOf(P, Array.from({ length: 50 }, (_, i): LiteralValue[] => [10 + 3 * (i + 20), i]));
    h.push(1, p);
    h.finish();
    expect(h.ctx.emitted).toHaveLength(1);
    expect(h.ctx.emitted[0]!.batch.data.children[2]).toBe(p.data.children[0]);
    expect(h.ctx.emitted[0]!.batch.data.children[3]).toBe(p.data.children[1]);
  });

  it('an empty build side matches nothing', () => {
    const got = run({ build: [], probe }, true);
    expect(got.rows).toEqual([]);
  });

  it('is not used with duplicate build keys (each match is output per build row)', () => {
    const dup = [...build, ...build.slice(0, 500)];
    const got = run({ build: dup, probe }, true);
    expect(got.rows).toEqual(run({ build: dup, probe }, false).rows);
    expect(got.memberTests).toBe(0);
  });

  it('is not used when a build column is read, with a residual, without a published filter, or for a Bloom filter', () => {
    const read = { build, probe, used: [false, true, true, true] };
    expect(run(read, true)).toEqual(run(read, false));
    expect(run(read, true).memberTests).toBe(0);
    const residual = (b: RecordBatch): Int32Array => { const out: number[] = []; for (let i = 0; i < b.numRows; i++) if (i % 2 === 0) out.push(i); return Int32Array.from(out); };
    expect(run({ build, probe, residual }, true).memberTests).toBe(0);
    expect(run({ build, probe, publish: false }, true).memberTests).toBe(0);
    // Keys spread over 2^30: the filter is a Bloom filter (may keep rows that cannot match).
    const sparse = Array.from({ length: 3000 }, (_, i): LiteralValue[] => [i * 350_000, `s${i}`]);
    const sp = Array.from({ length: 4000 }, (_, i): LiteralValue[] => [i * 175_000 + (i % 3), i]);
    const bloom = run({ build: sparse, probe: sp }, true);
    expect(bloom.rows).toEqual(run({ build: sparse, probe: sp }, false).rows);
    expect(bloom.memberTests).toBe(0);
  });

  it('a BIGINT probe key takes the table lookup (the filter is exact only for 32-bit keys)', () => {
    const big = probe.map(([k, v]): LiteralValue[] => [k === null ? null : BigInt(k as number), v]);
    big.push([2n ** 60n, 1.5], [10n, 2.5]);
    const got = run({ build, probe: big, bigint: true }, true);
    expect(got.rows).toEqual(run({ build, probe: big, bigint: true }, false).rows);
    expect(got.memberTests).toBe(0);
  });
});
