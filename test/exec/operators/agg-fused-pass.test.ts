/**
 * The one-pass aggregate loop (operators/agg-fused-pass.ts): which shapes compile, and — against
 * the stage path it replaces (the same HashAggregate without `pass`) — the same groups in the same
 * order with bit-identical sums over batches that take the pass and batches that cannot (NULLs in
 * an argument, in the filter's column or in a counted column, a filter dropping every row, a
 * longer key string, too few rows), one and two one-byte keys, a dictionary key and no key; integer
 * overflow inside an argument raises only for a row the filter keeps.
 */
import { describe, expect, it } from 'vitest';
import type { RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { compileStage } from '../../../src/exec/kernels/fused-stage.js';
import { BYTE_KEYS_MIN_ROWS } from '../../../src/exec/kernels/hash-byte-keys.js';
import { compileFusedPass, type FusedPass } from '../../../src/exec/operators/agg-fused-pass.js';
import { fusedRangeTuning } from '../../../src/exec/kernels/fused-ranges.js';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { call as rexCall, cast, inputRef, literal, type RexNode } from '../../../src/relnode/rex.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { Harness, column, schema, valueAt } from '../helpers/fake-context.js';

const call = (fn: string, args: number[], type: string): AggCall => ({ fn, args, distinct: false, type, name: `${fn}${args.join('')}` } as never);

// Input: a, b one-byte flags; p, d, t DOUBLE; ship DATE; i INTEGER; c VARCHAR (counted).
const IN = schema('a:VARCHAR', 'b:VARCHAR', 'p:DOUBLE', 'd:DOUBLE', 't:DOUBLE', 'ship:DATE', 'i:INTEGER', 'c:VARCHAR');
const ref = (k: number): RexNode => inputRef(k, IN.fields[k]!.type);
const D = (v: number): RexNode => literal(v, 'DOUBLE');
const discPrice = rexCall('times', [ref(2), rexCall('minus', [D(1), ref(3)], 'DOUBLE')], 'DOUBLE');
const charge = rexCall('times', [discPrice, rexCall('plus', [D(1), ref(4)], 'DOUBLE')], 'DOUBLE');
const CUT = literal(100, 'DATE');
const Q1_FILTER = rexCall('le', [ref(5), CUT], 'BOOLEAN');
/** Q1's projection: keys, quantity-like p, disc_price, charge, d, c (counted), i * 50000 as DOUBLE. */
const Q1_EXPRS = [ref(0), ref(1), ref(2), discPrice, charge, ref(3), ref(7), cast(rexCall('times', [ref(6), literal(50_000, 'INTEGER')], 'INTEGER'), 'DOUBLE')];
const Q1_CALLS = [call('sum', [2], 'DOUBLE'), call('sum', [3], 'DOUBLE'), call('sum', [4], 'DOUBLE'), call('avg', [2], 'DOUBLE'), call('avg', [5], 'DOUBLE'), call('count_star', [], 'BIGINT'), call('count', [6], 'BIGINT'), call('sum', [7], 'DOUBLE')];
/** With one key, flag b is counted (every projected column is read, or no pass compiles). */
const ONE_KEY_CALLS = [...Q1_CALLS, call('count', [1], 'BIGINT')];
const OUT_OF = (exprs: readonly RexNode[]) => schemaOf(exprs.map((e, k) => field(`o${k}`, e.type)));

let seed = 11;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };

interface Opts { nullP?: boolean; nullShip?: boolean; nullC?: boolean; long?: boolean; none?: boolean; bigI?: 'kept' | 'dropped' }

function batch(n: number, as: string, bs: string, o: Opts = {}, dict = false): RecordBatch {
  const a = Array.from({ length: n }, () => as[rnd(as.length)]!);
  const b = Array.from({ length: n }, () => bs[rnd(bs.length)]!);
  if (o.long) a[n - 3] = 'LONG';
  // Large and small magnitudes: a plain running sum would lose the small ones.
  const p: (number | null)[] = Array.from({ length: n }, (_, r) => (r % 89 === 0 ? 1e16 * (r % 2 ? 1 : -1) : rnd(100_000) / 7));
  const d = Array.from({ length: n }, () => rnd(11) / 100);
  const t = Array.from({ length: n }, () => rnd(9) / 100);
  const ship: (number | null)[] = Array.from({ length: n }, () => (o.none ? 101 + rnd(50) : rnd(130)));
  const i = Array.from({ length: n }, () => rnd(1000) - 500);
  const c: (string | null)[] = Array.from({ length: n }, (_, r) => `c${r % 7}`);
  if (o.nullP) p[5] = null;
  if (o.nullShip) ship[7] = null;
  if (o.nullC) c[9] = null;
  // i * 50000 overflows INTEGER for |i| > 42949: in a row the filter keeps or drops.
  if (o.bigI !== undefined) { i[20] = 50_000; ship[20] = o.bigI === 'kept' ? 3 : 120; }
  const cols = [column('VARCHAR', a, dict ? true : undefined), column('VARCHAR', b), column('DOUBLE', p), column('DOUBLE', d), column('DOUBLE', t), column('DATE', ship), column('INTEGER', i), column('VARCHAR', c)];
  return batchFromColumns(IN, cols, n);
}

/** Counts the batches a pass took. */
function counting(pass: FusedPass): { pass: FusedPass; taken: () => number } {
  let taken = 0;
  return { pass: { keyColumns: pass.keyColumns, add: (...a) => { const ok = pass.add(...a); if (ok) taken++; return ok; } }, taken: () => taken };
}

/** One line per output group (every value printed exactly: String(double) round-trips). */
function run(batches: readonly RecordBatch[], groupKeys: number[], withPass: boolean, projection: readonly RexNode[] | null = Q1_EXPRS, calls = Q1_CALLS, cond: RexNode = Q1_FILTER): { lines: string[]; taken: number } {
  const exprs = projection ?? undefined; // null: no projection (undefined would take the default)
  const stage = compileStage(cond, exprs, IN);
  const compiled = compileFusedPass(cond, exprs, IN, groupKeys, calls);
  if (withPass && compiled === undefined) throw new Error('no pass compiled');
  const c = withPass ? counting(compiled!) : undefined;
  const proj = exprs === undefined ? IN : OUT_OF(exprs);
  const out = schemaOf([...groupKeys.map((k) => field(`k${k}`, (exprs?.[k] ?? ref(k)).type)), ...calls.map((x) => field(x.name, x.type))]);
  const agg = hashAggregate({ groupKeys, aggCalls: calls, input: { stage, schema: proj, ...(c ? { pass: c.pass } : {}) } });
  const h = new Harness(agg, out, [IN], 1 << 24);
  for (const b of batches) h.push(0, b);
  h.finish();
  const lines: string[] = [];
  for (const { batch: ob } of h.ctx.emitted) for (let r = 0; r < ob.numRows; r++) lines.push(ob.data.children.map((d) => String(valueAt(d, r))).join('|'));
  return { lines, taken: c?.taken() ?? 0 };
}

const N = BYTE_KEYS_MIN_ROWS + 500;

describe('one-pass aggregate loop: which shapes compile', () => {
  const compiles = (cond: RexNode | undefined, exprs: readonly RexNode[] | undefined, keys: number[], calls: AggCall[]): boolean => compileFusedPass(cond, exprs, IN, keys, calls) !== undefined;
  it('TPC-H Q1\'s shape, and without a projection', () => {
    expect(compiles(Q1_FILTER, Q1_EXPRS, [0, 1], Q1_CALLS)).toBe(true);
    expect(compiles(Q1_FILTER, undefined, [0], [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT')])).toBe(true);
  });
  it('a global aggregate (TPC-H Q6\'s shape), even of one call', () => {
    expect(compiles(Q1_FILTER, undefined, [], [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT')])).toBe(true);
    expect(compiles(Q1_FILTER, [rexCall('times', [ref(2), ref(3)], 'DOUBLE')], [], [call('sum', [0], 'DOUBLE')])).toBe(true);
    expect(compiles(Q1_FILTER, undefined, [], [])).toBe(false);
  });
  it('one INTEGER or DATE key (hash-int-keys.ts), and one call with a key', () => {
    expect(compiles(Q1_FILTER, undefined, [6], [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT')])).toBe(true);
    expect(compiles(Q1_FILTER, undefined, [5], [call('sum', [2], 'DOUBLE')])).toBe(true);
    expect(compiles(Q1_FILTER, undefined, [0], [call('sum', [2], 'DOUBLE')])).toBe(true);
  });
  it('not: a division in a summed argument, a non-numeric filter conjunct, an unread projected column, a computed, third, DOUBLE or second INTEGER key, a non-fusible call', () => {
    const div = [...Q1_EXPRS.slice(0, 7), rexCall('divide', [ref(2), ref(3)], 'DOUBLE')];
    expect(compiles(Q1_FILTER, div, [0, 1], Q1_CALLS)).toBe(false);
    const like = rexCall('and', [Q1_FILTER, rexCall('like', [ref(7), literal('c1%', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN');
    expect(compiles(like, Q1_EXPRS, [0, 1], Q1_CALLS)).toBe(false);
    expect(compiles(Q1_FILTER, [...Q1_EXPRS, ref(4)], [0, 1], Q1_CALLS)).toBe(false);
    expect(compiles(Q1_FILTER, [rexCall('concat', [ref(0), ref(1)], 'VARCHAR'), ...Q1_EXPRS.slice(1)], [0, 1], Q1_CALLS)).toBe(false);
    expect(compiles(Q1_FILTER, Q1_EXPRS, [0, 1, 6], Q1_CALLS)).toBe(false);
    expect(compiles(Q1_FILTER, undefined, [2], [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT')])).toBe(false);
    expect(compiles(Q1_FILTER, undefined, [0, 6], [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT')])).toBe(false);
    expect(compiles(Q1_FILTER, Q1_EXPRS, [0, 1], [...Q1_CALLS, call('min', [2], 'DOUBLE')])).toBe(false);
    expect(compiles(Q1_FILTER, undefined, [], [call('min', [2], 'DOUBLE')])).toBe(false);
  });
});

describe('one-pass aggregate loop: the same answer as the stage path, bit for bit', () => {
  const batches = [
    batch(N, 'NRA', 'OF'),
    batch(N, 'NRAX', 'OFP', { long: true }), // a longer key string: stage path
    batch(N, 'NRA', 'OF', { none: true }), // the filter drops every row
    batch(N, 'NR', 'O', { nullP: true }), // a NULL argument: stage path
    batch(100, 'NRAY', 'OF'), // too few rows for the byte table: stage path
    batch(N, 'NRA', 'OF', { nullShip: true }), // a NULL in the filter's column: stage path
    batch(N, 'ZNRA', 'QOF'),
    batch(N, 'NRA', 'OF', { nullC: true }), // a NULL in a counted column: stage path
    batch(N, 'NRA', 'OF', { bigI: 'dropped' }), // an overflowing argument in a dropped row: no error
    batch(N, 'AN', 'FO'),
  ];
  for (const keys of [[0, 1], [0]]) {
    it(`${keys.length} one-byte key(s): groups, order and sums as the stage path; the pass took the batches it could`, () => {
      const calls = keys.length === 2 ? Q1_CALLS : ONE_KEY_CALLS;
      const pass = run(batches, keys, true, Q1_EXPRS, calls);
      expect(pass.lines).toEqual(run(batches, keys, false, Q1_EXPRS, calls).lines);
      expect(pass.lines.length).toBeGreaterThan(keys.length === 2 ? 12 : 3);
      expect(pass.taken).toBe(5);
    });
  }

  it('a global aggregate: one row, its sums as the stage path\'s; the pass took every batch without a NULL it reads', () => {
    const exprs = [discPrice, charge, ref(3), ref(7)];
    const calls = [call('sum', [0], 'DOUBLE'), call('sum', [1], 'DOUBLE'), call('avg', [2], 'DOUBLE'), call('count', [3], 'BIGINT'), call('count_star', [], 'BIGINT')];
    const pass = run(batches, [], true, exprs, calls);
    expect(pass.lines).toEqual(run(batches, [], false, exprs, calls).lines);
    expect(pass.lines).toHaveLength(1);
    // Not the batches with a NULL price, ship date or counted string; the 100-row batch and the long key do not matter here.
    expect(pass.taken).toBe(7);
    // Over no rows at all: count 0, sums NULL, as the stage path.
    const none = [batch(N, 'NRA', 'OF', { none: true })];
    expect(run(none, [], true, exprs, calls).lines).toEqual(run(none, [], false, exprs, calls).lines);
  });

  it('a dictionary key: the same', () => {
    const dicts = [batch(300, 'NRA', 'OF', {}, true), batch(300, 'NRA', 'OF', { nullP: true }, true), batch(300, 'AXN', 'OF', {}, true)];
    const pass = run(dicts, [0], true, Q1_EXPRS, ONE_KEY_CALLS);
    expect(pass.lines).toEqual(run(dicts, [0], false, Q1_EXPRS, ONE_KEY_CALLS).lines);
    expect(pass.taken).toBe(2);
  });

  it('an INTEGER key of a small domain, and one call: the same; a batch whose keys span too wide a domain ends the table', () => {
    const calls = [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT')];
    const pass = run(batches, [6], true, null, calls);
    expect(pass.lines).toEqual(run(batches, [6], false, null, calls).lines);
    expect(pass.lines.length).toBeGreaterThan(900);
    // Not the 100-row batch, nor the NULL price or ship date (columns the loop reads); a NULL counted string is not read here.
    expect(pass.taken).toBe(7);
    const one = [call('sum', [3], 'DOUBLE')];
    const dates = run(batches, [5], true, null, one);
    expect(dates.lines).toEqual(run(batches, [5], false, null, one).lines);
    const wide = batch(N, 'NRA', 'OF');
    (wide.data.children[6]!.values as Int32Array)[3] = 1 << 20;
    const mixed = [batches[0]!, wide, batches[6]!];
    const w = run(mixed, [6], true, null, calls);
    expect(w.lines).toEqual(run(mixed, [6], false, null, calls).lines);
    expect(w.taken).toBe(1);
  });

  it('a filter whose division by zero makes NULL (the row is dropped): the same', () => {
    // p / d > 1000 AND ship <= 100; d is 0 in about one row of eleven.
    const cond = rexCall('and', [rexCall('gt', [rexCall('divide', [ref(2), ref(3)], 'DOUBLE'), D(1000)], 'BOOLEAN'), Q1_FILTER], 'BOOLEAN');
    const bs = [batch(N, 'NRA', 'OF'), batch(N, 'NRA', 'OF')];
    const pass = run(bs, [0, 1], true, Q1_EXPRS, Q1_CALLS, cond);
    expect(pass.lines).toEqual(run(bs, [0, 1], false, Q1_EXPRS, Q1_CALLS, cond).lines);
    expect(pass.taken).toBe(2);
  });

  it('a filter with ranges (fused-ranges.ts: one test per column bounded from both sides, tested first): the same', () => {
    // 20 <= ship < 90 AND i > -100 AND i <= 250 AND p / d > 10 (a division: NULL on a zero divisor).
    const cond = rexCall('and', [
      rexCall('gt', [rexCall('divide', [ref(2), ref(3)], 'DOUBLE'), D(10)], 'BOOLEAN'),
      rexCall('ge', [ref(5), literal(20, 'DATE')], 'BOOLEAN'), rexCall('lt', [ref(5), literal(90, 'DATE')], 'BOOLEAN'),
      rexCall('gt', [ref(6), literal(-100, 'INTEGER')], 'BOOLEAN'), rexCall('le', [ref(6), literal(250, 'INTEGER')], 'BOOLEAN'),
    ], 'BOOLEAN');
    const bs = [batch(N, 'NRA', 'OF'), batch(N, 'NRA', 'OF', { nullShip: true }), batch(N, 'NRA', 'OF')];
    // The reference: the stage path with every bound tested on its own (no range fusion).
    const plain = (f: () => ReturnType<typeof run>): ReturnType<typeof run> => { fusedRangeTuning.on = false; try { return f(); } finally { fusedRangeTuning.on = true; } };
    const pass = run(bs, [0, 1], true, Q1_EXPRS, Q1_CALLS, cond);
    expect(pass.lines).toEqual(plain(() => run(bs, [0, 1], false, Q1_EXPRS, Q1_CALLS, cond)).lines);
    expect(pass.taken).toBe(2);
    // An empty range keeps nothing.
    const empty = rexCall('and', [rexCall('ge', [ref(5), literal(50, 'DATE')], 'BOOLEAN'), rexCall('lt', [ref(5), literal(50, 'DATE')], 'BOOLEAN')], 'BOOLEAN');
    expect(run(bs, [0, 1], true, Q1_EXPRS, Q1_CALLS, empty).lines).toEqual(plain(() => run(bs, [0, 1], false, Q1_EXPRS, Q1_CALLS, empty)).lines);
  });

  it('integer overflow in an argument raises for a kept row, as the stage path does', () => {
    const bs = [batch(N, 'NRA', 'OF'), batch(N, 'NRA', 'OF', { bigI: 'kept' })];
    expect(() => run(bs, [0, 1], true)).toThrow(/integer overflow: 50000 \* 50000 is out of range for INTEGER/);
    expect(() => run(bs, [0, 1], false)).toThrow(/integer overflow: 50000 \* 50000 is out of range for INTEGER/);
  });
});
