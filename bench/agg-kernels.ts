/**
 * Micro-benchmarks of the hash aggregate's hot kernels, CPU time
 * (process.cpuUsage) of interleaved runs, so a loaded machine skews both
 * sides alike:
 * - TPC-H Q1's eight aggregates (4 DOUBLE sums, 3 DOUBLE averages, count(*))
 *   over 5.9M selected rows in 4 groups: one state and one loop per aggregate
 *   (agg-states.ts) against the fused state (agg-fused.ts).
 * - Q1's group keys: two plain Utf8 one-character columns (the suite's Arrow
 *   files store l_returnflag / l_linestatus so) through KeyTable.groupIds
 *   with a selection.
 * - Q1's keys and sums together: KeyTable.groupIds then FusedAggregates.add
 *   (two passes, a group-id array) against FusedAggregates.addCoded reading
 *   the byte pairs in place (KeyTable.keyRows: one pass).
 * - Q1's projection (disc_price, charge) through a stage with and without
 *   shared subexpressions (kernels/stage-shared.ts).
 * - Q1 whole: filter, projection and sums as the stage then the fused loop
 *   (fused-stage.ts, FusedAggregates.addCoded) against the one-pass loop
 *   (agg-fused-pass.ts); the same sums, bit for bit.
 * - count(DISTINCT x) over 1M rows of 100k INTEGER values in 1k groups.
 * - LIKE '%special%requests%' (TPC-H Q13) over 1.5M comment-like strings.
 *
 *   node --import tsx bench/agg-kernels.ts [--runs 7]
 */
import { Float64, Int32, Utf8, makeData, type Data } from 'apache-arrow';
import { KeyTable } from '../src/exec/kernels/hash.js';
import type { AggCall } from '../src/relnode/rel.js';
import { FusedAggregates } from '../src/exec/operators/agg-fused.js';
import { createAggState } from '../src/exec/operators/agg-states.js';
import { likeMatcher } from '../src/exec/kernels/like-match.js';
import { batchFromColumns } from '../src/exec/batch.js';
import { compileStage } from '../src/exec/kernels/fused-stage.js';
import { call as rexCall, cast, inputRef, literal, type RexNode } from '../src/relnode/rex.js';
import { field, schemaOf } from '../src/relnode/types.js';
import { compileFusedPass } from '../src/exec/operators/agg-fused-pass.js';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7;
const B = 65536;
const BATCHES = 92; // ≈ SF 1 lineitem's 6M rows

const cpuMs = (f: () => void): number => { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;

function q1Aggregates(): void {
  const cols: Data[] = Array.from({ length: 4 }, (_, k) => {
    const v = new Float64Array(B);
    for (let i = 0; i < B; i++) v[i] = (((i + k) * 7919) % 1000) / 7;
    return makeData({ type: new Float64(), length: B, nullCount: 0, data: v });
  });
  const sel = new Int32Array(B);
  let m = 0;
  for (let i = 0; i < B; i++) if (i % 50 !== 0) sel[m++] = i; // Q1 keeps ~98% of the rows
  const gids = new Int32Array(m);
  for (let j = 0; j < m; j++) gids[j] = (Math.imul(j, 0x9e3779b1) >>> 28) & 3;
  const call = (fn: string, arg: number): AggCall => ({ fn, args: arg < 0 ? [] : [arg], distinct: false, type: fn === 'count_star' ? 'BIGINT' : 'DOUBLE', name: fn } as never);
  const calls = [call('sum', 0), call('sum', 1), call('sum', 2), call('sum', 3), call('avg', 0), call('avg', 1), call('avg', 3), call('count_star', -1)];
  const separate = (): void => {
    const states = calls.map((c) => createAggState(c, c.args.map(() => 'DOUBLE')));
    for (const s of states) s.resize(4);
    for (let b = 0; b < BATCHES; b++) calls.forEach((c, k) => states[k]!.addSelected!(c.args.map((a) => cols[a]!), gids, sel, m));
  };
  const fused = (): void => {
    const f = new FusedAggregates(calls);
    f.resize(4);
    for (let b = 0; b < BATCHES; b++) f.add(cols, gids, sel, m);
  };
  const a: number[] = [];
  const f: number[] = [];
  separate(); fused();
  for (let r = 0; r < RUNS; r++) { a.push(cpuMs(separate)); f.push(cpuMs(fused)); }
  console.log(`Q1 aggregates, ${BATCHES * m} rows x ${calls.length}: per-aggregate states ${median(a).toFixed(0)} ms CPU, fused ${median(f).toFixed(0)} ms CPU (${(median(a) / median(f)).toFixed(2)}x)`);
}

/** A Utf8 column of one-character strings drawn from `alphabet`. */
function flags(alphabet: string, seed: number): Data {
  const offs = new Int32Array(B + 1);
  const bytes = new Uint8Array(B);
  for (let i = 0; i < B; i++) { bytes[i] = alphabet.charCodeAt((Math.imul(i + seed, 0x9e3779b1) >>> 29) % alphabet.length); offs[i + 1] = i + 1; }
  return makeData({ type: new Utf8(), length: B, nullCount: 0, valueOffsets: offs, data: bytes });
}

function q1Keys(): void {
  const cols = [flags('ANR', 1), flags('FO', 2)];
  const sel = new Int32Array(B);
  let m = 0;
  for (let i = 0; i < B; i++) if (i % 50 !== 0) sel[m++] = i;
  const out = new Int32Array(B);
  const t: number[] = [];
  const run = (): void => {
    const kt = new KeyTable(['VARCHAR', 'VARCHAR']);
    for (let b = 0; b < BATCHES; b++) kt.groupIds(cols, m, out, sel);
    if (kt.size !== 6) throw new Error(`expected 6 groups, got ${kt.size}`);
  };
  run();
  for (let r = 0; r < RUNS; r++) t.push(cpuMs(run));
  console.log(`Q1 keys, ${BATCHES * m} rows x 2 Utf8 columns: KeyTable.groupIds ${median(t).toFixed(0)} ms CPU`);
}

function q1KeysAndSums(): void {
  const keys = [flags('ANR', 1), flags('FO', 2)];
  const vals: Data[] = Array.from({ length: 5 }, (_, k) => {
    const v = new Float64Array(B);
    for (let i = 0; i < B; i++) v[i] = (((i + k) * 7919) % 1000) / 7;
    return makeData({ type: new Float64(), length: B, nullCount: 0, data: v });
  });
  const cols = [...keys, ...vals];
  const sel = new Int32Array(B);
  let m = 0;
  for (let i = 0; i < B; i++) if (i % 50 !== 0) sel[m++] = i;
  const call = (fn: string, arg: number): AggCall => ({ fn, args: arg < 0 ? [] : [arg], distinct: false, type: fn === 'count_star' ? 'BIGINT' : 'DOUBLE', name: fn } as never);
  const calls = [call('sum', 2), call('sum', 3), call('sum', 4), call('sum', 5), call('avg', 2), call('avg', 3), call('avg', 6), call('count_star', -1)];
  const gids = new Int32Array(B);
  const twoPass = (): void => {
    const kt = new KeyTable(['VARCHAR', 'VARCHAR']);
    const f = new FusedAggregates(calls);
    for (let b = 0; b < BATCHES; b++) { kt.groupIds(keys, m, gids, sel); f.resize(kt.size); f.add(cols, gids, sel, m); }
  };
  const inPlace = (): void => {
    const kt = new KeyTable(['VARCHAR', 'VARCHAR']);
    const f = new FusedAggregates(calls);
    for (let b = 0; b < BATCHES; b++) {
      const rows = kt.keyRows(keys, B);
      if (rows === null || !f.addCoded(cols, rows, sel, m, (r) => kt.resolveKeyRow(keys, rows, r))) throw new Error('expected the in-place path');
    }
  };
  const a: number[] = [];
  const c: number[] = [];
  twoPass(); inPlace();
  for (let r = 0; r < RUNS; r++) { a.push(cpuMs(twoPass)); c.push(cpuMs(inPlace)); }
  console.log(`Q1 keys + aggregates, ${BATCHES * m} rows: group ids then sums ${median(a).toFixed(0)} ms CPU, keys read in place ${median(c).toFixed(0)} ms CPU (${(median(a) / median(c)).toFixed(2)}x)`);
}

function q1Projection(): void {
  const S = schemaOf([field('k', 'INTEGER'), field('p', 'DOUBLE'), field('d', 'DOUBLE'), field('t', 'DOUBLE')]);
  const one = cast(literal(1, 'INTEGER'), 'DOUBLE');
  const [k, p, d, t] = [inputRef(0, 'INTEGER'), inputRef(1, 'DOUBLE'), inputRef(2, 'DOUBLE'), inputRef(3, 'DOUBLE')];
  const dp = (): RexNode => rexCall('times', [p, rexCall('minus', [one, d], 'DOUBLE')], 'DOUBLE');
  const ch = rexCall('times', [dp(), rexCall('plus', [one, t], 'DOUBLE')], 'DOUBLE');
  const cols = [makeData({ type: new Int32(), length: B, nullCount: 0, data: Int32Array.from({ length: B }, (_, i) => i) }),
    ...[1, 2, 3].map((s) => makeData({ type: new Float64(), length: B, nullCount: 0, data: Float64Array.from({ length: B }, (_, i) => ((i * s * 7919) % 1000) / 1000) }))];
  const batch = batchFromColumns(S, cols, B);
  const cond = rexCall('ne', [rexCall('mod', [k, literal(50, 'INTEGER')], 'INTEGER'), literal(0, 'INTEGER')], 'BOOLEAN');
  const shared = compileStage(cond, [dp(), ch], S, new Set([0, 1]));
  // Unshared: each output in its own stage (as before stage-shared.ts), the filter run once.
  const dpAlone = compileStage(cond, [dp()], S, new Set([0]));
  const chAlone = compileStage(undefined, [ch], S, new Set([0]));
  const x: number[] = [];
  const y: number[] = [];
  const runShared = (): void => { for (let b = 0; b < BATCHES; b++) shared(batch); };
  const runAlone = (): void => { for (let b = 0; b < BATCHES; b++) { dpAlone(batch); chAlone(batch); } };
  runShared(); runAlone();
  for (let r = 0; r < RUNS; r++) { x.push(cpuMs(runAlone)); y.push(cpuMs(runShared)); }
  console.log(`Q1 projection, ${BATCHES * B} rows: computed apart ${median(x).toFixed(0)} ms CPU, charge reads disc_price ${median(y).toFixed(0)} ms CPU (${(median(x) / median(y)).toFixed(2)}x)`);
}

/** Q1's filter, projection and aggregates over one batch of synthetic lineitem columns: the stage path against the one-pass loop. */
function q1OnePass(): void {
  const S = schemaOf([field('rf', 'VARCHAR'), field('ls', 'VARCHAR'), field('q', 'DOUBLE'), field('p', 'DOUBLE'), field('d', 'DOUBLE'), field('t', 'DOUBLE'), field('ship', 'DATE')]);
  const ref = (k: number): RexNode => inputRef(k, S.fields[k]!.type);
  const one = literal(1, 'DOUBLE');
  const dp = rexCall('times', [ref(3), rexCall('minus', [one, ref(4)], 'DOUBLE')], 'DOUBLE');
  const ch = rexCall('times', [dp, rexCall('plus', [one, ref(5)], 'DOUBLE')], 'DOUBLE');
  const exprs = [ref(0), ref(1), ref(2), ref(3), dp, ch, ref(4)];
  const cond = rexCall('le', [ref(6), literal(2500, 'DATE')], 'BOOLEAN'); // keeps ~98%
  const call = (fn: string, arg: number): AggCall => ({ fn, args: arg < 0 ? [] : [arg], distinct: false, type: fn === 'count_star' ? 'BIGINT' : 'DOUBLE', name: fn } as never);
  const calls = [call('sum', 2), call('sum', 3), call('sum', 4), call('sum', 5), call('avg', 2), call('avg', 3), call('avg', 6), call('count_star', -1)];
  const num = (f: (i: number) => number): Data => makeData({ type: new Float64(), length: B, nullCount: 0, data: Float64Array.from({ length: B }, (_, i) => f(i)) });
  const ship = makeData({ type: new Int32(), length: B, nullCount: 0, data: Int32Array.from({ length: B }, (_, i) => (i * 7919) % 2550) });
  const cols = [flags('ANR', 1), flags('FO', 2), num((i) => 1 + (i * 31) % 50), num((i) => ((i * 7919) % 100000) / 7), num((i) => (i % 11) / 100), num((i) => (i % 9) / 100), ship];
  const batch = batchFromColumns(S, cols, B);
  const stage = compileStage(cond, exprs, S, new Set([2, 3, 4, 5, 6]));
  const pass = compileFusedPass(cond, exprs, S, [0, 1], calls)!;
  const keys = [cols[0]!, cols[1]!];
  const viaStage = (): FusedAggregates => {
    const kt = new KeyTable(['VARCHAR', 'VARCHAR']);
    const f = new FusedAggregates(calls);
    for (let b = 0; b < BATCHES; b++) {
      const s = stage(batch)!;
      const rows = kt.keyRows(keys, B)!;
      f.addCoded(s.columns, rows, s.sel, s.length, (r) => kt.resolveKeyRow(keys, rows, r));
    }
    return f;
  };
  const onePass = (): FusedAggregates => {
    const kt = new KeyTable(['VARCHAR', 'VARCHAR']);
    const f = new FusedAggregates(calls);
    for (let b = 0; b < BATCHES; b++) {
      const rows = kt.keyRows(keys, B)!;
      if (!pass.add(batch, f, rows, (r) => kt.resolveKeyRow(keys, rows, r))) throw new Error('expected the one-pass loop');
    }
    return f;
  };
  const [x, y] = [viaStage(), onePass()];
  for (let k = 0; k < calls.length; k++) {
    const [u, v] = [x.value(k, 0, 6), y.value(k, 0, 6)];
    for (let g = 0; g < 6; g++) if (!Object.is(Number(u.values[g]), Number(v.values[g]))) throw new Error(`one pass differs from the stage path: call ${k}, group ${g}`);
  }
  const a: number[] = [];
  const c: number[] = [];
  for (let r = 0; r < RUNS; r++) { a.push(cpuMs(viaStage)); c.push(cpuMs(onePass)); }
  console.log(`Q1 filter + projection + aggregates, ${BATCHES * B} rows: stage then fused loop ${median(a).toFixed(0)} ms CPU, one pass ${median(c).toFixed(0)} ms CPU (${(median(a) / median(c)).toFixed(2)}x)`);
}

function countDistinct(): void {
  const n = 1 << 20;
  const v = new Int32Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.imul(i, 0x9e3779b1) >>> 15 & 0x1ffff;
  const gids = new Int32Array(n);
  for (let i = 0; i < n; i++) gids[i] = i % 1000;
  const cols = [makeData({ type: new Int32(), length: n, nullCount: 0, data: v })];
  const c: AggCall = { fn: 'count', args: [0], distinct: true, type: 'BIGINT', name: 'cd' } as never;
  const t: number[] = [];
  const run = (): void => {
    const s = createAggState(c, ['INTEGER']);
    s.resize(1000);
    for (let b = 0; b < n; b += B) s.add(cols.map((d) => d.slice(b, B)), gids.subarray(b, b + B), Math.min(B, n - b));
  };
  run();
  for (let r = 0; r < RUNS; r++) t.push(cpuMs(run));
  console.log(`count(DISTINCT), ${n} rows in 1000 groups: ${median(t).toFixed(0)} ms CPU`);
}

function likeContains(): void {
  const words = ['furiously', 'special', 'requests', 'deposits', 'quickly', 'final', 'packages', 'accounts', 'ironic', 'blithely', 'regular', 'the'];
  const n = 1_500_000;
  const parts: string[] = [];
  let x = 1;
  for (let i = 0; i < n; i++) {
    let s = '';
    for (let w = 0; w < 6; w++) { x = Math.imul(x, 0x9e3779b1) + 1; s += `${words[(x >>> 20) % words.length]} `; }
    parts.push(s);
  }
  const bytes = new TextEncoder().encode(parts.join(''));
  const offs = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offs[i + 1] = offs[i]! + parts[i]!.length;
  const m = likeMatcher('%special%requests%');
  const t: number[] = [];
  let hits = 0;
  const run = (): void => { hits = 0; for (let i = 0; i < n; i++) if (m(bytes, offs[i]!, offs[i + 1]!)) hits++; };
  run();
  for (let r = 0; r < RUNS; r++) t.push(cpuMs(run));
  console.log(`LIKE '%special%requests%', ${n} strings (${(bytes.length / 1e6).toFixed(0)} MB, ${hits} match): ${median(t).toFixed(0)} ms CPU`);
}

q1Aggregates();
q1Keys();
q1KeysAndSums();
q1Projection();
q1OnePass();
countDistinct();
likeContains();
