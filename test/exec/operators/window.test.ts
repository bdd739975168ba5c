/**
 * The window operator against a direct per-row reference (every frame
 * rescanned), on random rows with ties and NULLs, over several batches, with
 * small output batches (bounded steps), two epochs, and its memory
 * reservation released at the end.
 */
import { describe, expect, it } from 'vitest';
import { windowOperator } from '../../../src/exec/operators/window.js';
import type { SortKey } from '../../../src/relnode/rel.js';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import type { FrameBound, WindowCall, WindowFrame, WindowFn } from '../../../src/relnode/window.js';
import { Rng } from '../../diff/random/prng.js';
import { Harness, batchOf, schema, sorted } from '../helpers/fake-context.js';

const S = schema('id:INTEGER', 'g:INTEGER', 'o:INTEGER', 'v:INTEGER', 'd:DOUBLE');
type Row = LiteralValue[];

function rowsOf(seed: number, n: number): Row[] {
  const r = new Rng(seed);
  return Array.from({ length: n }, (_, id) => [id, r.chance(0.1) ? null : r.int(0, 2), r.chance(0.2) ? null : r.int(0, 5), r.chance(0.2) ? null : r.int(-9, 9), r.chance(0.2) ? null : r.int(-8, 8) / 2]);
}

/** The reference: partitions by g, sorted by o (NULLS LAST) then id, each frame rescanned. */
function reference(rows: Row[], call: WindowCall, orderDesc: boolean, tieBreak: boolean): Map<number, LiteralValue> {
  const out = new Map<number, LiteralValue>();
  const parts = new Map<string, Row[]>();
  for (const r of rows) { const k = String(r[1]); parts.set(k, [...(parts.get(k) ?? []), r]); }
  const cmpO = (a: Row, b: Row): number => {
    const x = a[2] as number | null; const y = b[2] as number | null;
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return orderDesc ? y - x : x - y;
  };
  for (const p of parts.values()) {
    p.sort((a, b) => cmpO(a, b) || (a[0] as number) - (b[0] as number));
    const m = p.length;
    // With id as the last ORDER BY key every row is its own peer group.
    const peer = (a: Row, b: Row): boolean => cmpO(a, b) === 0 && (!tieBreak || a[0] === b[0]);
    const peersOf = (i: number): [number, number] => { let s = i; while (s > 0 && peer(p[s - 1]!, p[i]!)) s--; let e = i + 1; while (e < m && peer(p[e]!, p[i]!)) e++; return [s, e]; };
    const inRange = (j: number, i: number, b: FrameBound, start: boolean): boolean => {
      const f = call.frame;
      if (b.kind === 'unboundedPreceding' || b.kind === 'unboundedFollowing') return true;
      if (f.mode === 'rows') {
        const at = b.kind === 'currentRow' ? i : b.kind === 'preceding' ? i - b.offset : i + b.offset;
        return start ? j >= at : j <= at;
      }
      const [ps, pe] = peersOf(i);
      const oi = p[i]![2] as number | null;
      if (b.kind === 'currentRow' || oi === null) return start ? j >= ps : j < pe;
      const oj = p[j]![2] as number | null;
      if (oj === null) return false;
      const sign = orderDesc ? -1 : 1;
      const t = oi + sign * (b.kind === 'preceding' ? -b.offset : b.offset);
      return start ? sign * (oj - t) >= 0 : sign * (oj - t) <= 0;
    };
    for (let i = 0; i < m; i++) {
      const frame = p.filter((_, j) => inRange(j, i, call.frame.start, true) && inRange(j, i, call.frame.end, false));
      const vals = frame.map((r) => r[3] as number | null).filter((x): x is number => x !== null);
      const [ps, pe] = peersOf(i);
      let v: LiteralValue;
      switch (call.fn) {
        case 'row_number': v = BigInt(i + 1); break;
        case 'rank': v = BigInt(ps + 1); break;
        case 'cume_dist': v = pe / m; break;
        case 'lag': v = i - 1 >= 0 ? p[i - 1]![3]! : null; break;
        case 'first_value': v = frame.length ? frame[0]![3]! : null; break;
        case 'count_star': v = BigInt(frame.length); break;
        case 'sum': v = vals.length ? BigInt(vals.reduce((a, b) => a + b, 0)) : null; break;
        case 'min': v = vals.length ? Math.min(...vals) : null; break;
        case 'max': v = vals.length ? Math.max(...vals) : null; break;
        default: throw new Error(call.fn);
      }
      out.set(p[i]![0] as number, v);
    }
  }
  return out;
}

const FRAMES: WindowFrame[] = [
  { mode: 'range', start: { kind: 'unboundedPreceding' }, end: { kind: 'currentRow' } },
  { mode: 'rows', start: { kind: 'preceding', offset: 2 }, end: { kind: 'following', offset: 1 } },
  { mode: 'rows', start: { kind: 'following', offset: 1 }, end: { kind: 'unboundedFollowing' } },
  { mode: 'range', start: { kind: 'preceding', offset: 1 }, end: { kind: 'following', offset: 2 } },
  { mode: 'range', start: { kind: 'currentRow' }, end: { kind: 'unboundedFollowing' } },
];
const FNS: [WindowFn, string][] = [['row_number', 'BIGINT'], ['rank', 'BIGINT'], ['cume_dist', 'DOUBLE'], ['lag', 'INTEGER'], ['first_value', 'INTEGER'], ['count_star', 'BIGINT'], ['sum', 'BIGINT'], ['min', 'INTEGER'], ['max', 'INTEGER']];

describe('window operator', () => {
  for (const desc of [false, true]) {
    it(`every function over every frame kind matches the reference (ORDER BY o${desc ? ' DESC' : ''})`, () => {
      const rows = rowsOf(desc ? 2 : 1, 57);
      const order: SortKey[] = [{ index: 2, desc, nullsFirst: false }];
      for (const frame of FRAMES) {
        // Order-sensitive results (row_number, lag, first_value, ROWS frames) need a total order: id breaks ties.
        const tieFree = [...order, { index: 0, desc: false, nullsFirst: false }];
        const calls: WindowCall[] = FNS.map(([fn, type]) => ({ fn, args: fn === 'row_number' || fn === 'rank' || fn === 'cume_dist' || fn === 'count_star' ? [] : [3], frame, type: type as WindowCall['type'], name: fn }));
        const rangeOffset = frame.mode === 'range' && frame.start.kind === 'preceding';
        const out = schema('id:INTEGER', 'g:INTEGER', 'o:INTEGER', 'v:INTEGER', 'd:DOUBLE', ...calls.map((c) => `${c.name}:${c.type}`));
        const h = new Harness(windowOperator({ partitionKeys: [1], orderKeys: rangeOffset ? order : tieFree, calls, inputTypes: S.fields.map((f) => f.type) }), out, [S], 5);
        for (let i = 0; i < rows.length; i += 10) h.push(0, batchOf(S, rows.slice(i, i + 10)));
        h.finish();
        expect(h.ctx.memoryHeld).toBe(0);
        expect(h.ctx.emitted.every((e) => e.batch.numRows <= 5)).toBe(true);
        const got = h.rows();
        expect(got.length).toBe(rows.length);
        calls.forEach((c, k) => {
          // With a RANGE offset frame the order has ties: only peer-insensitive results are compared.
          if (rangeOffset && ['row_number', 'lag', 'first_value'].includes(c.fn)) return;
          const ref = reference(rows, c, desc, !rangeOffset);
          for (const r of got) {
            const want = ref.get(r[0] as number);
            const have = r[5 + k];
            expect([r[0], c.fn, JSON.stringify(frame), have]).toEqual([r[0], c.fn, JSON.stringify(frame), want]);
          }
        });
      }
    });
  }

  it('evaluates each epoch on its own', () => {
    const calls: WindowCall[] = [{ fn: 'count_star', args: [], frame: { mode: 'rows', start: { kind: 'unboundedPreceding' }, end: { kind: 'unboundedFollowing' } }, type: 'BIGINT', name: 'c' }];
    const s2 = schema('id:INTEGER', 'g:INTEGER', 'o:INTEGER', 'v:INTEGER', 'd:DOUBLE', 'c:BIGINT');
    const h = new Harness(windowOperator({ partitionKeys: [], orderKeys: [], calls, inputTypes: S.fields.map((f) => f.type) }), s2, [S], 1024, { multiEpoch: true });
    const rows = rowsOf(3, 6);
    h.push(0, batchOf(S, rows.slice(0, 2)), 0).push(0, batchOf(S, rows.slice(2)), 1).watermark(0);
    expect(sorted(h.rows(0)).map((r) => r[5])).toEqual([2n, 2n]);
    h.finish();
    expect(sorted(h.rows(1)).map((r) => r[5])).toEqual([4n, 4n, 4n, 4n]);
  });
});

describe('generic window aggregates', () => {
  it('the generic-state fallback agrees with the prefix-sum and tree aggregators', async () => {
    const { genericWindowAggregator, windowAggregator } = await import('../../../src/exec/operators/window-aggregates.js');
    const { column } = await import('../helpers/fake-context.js');
    const r = new Rng(9);
    const n = 40;
    const v = column('INTEGER', Array.from({ length: n }, () => (r.chance(0.2) ? null : r.int(-5, 5))));
    const frames = { start: new Int32Array(n), end: new Int32Array(n) };
    for (let i = 0; i < n; i++) { const ps = i < 20 ? 0 : 20; const pe = i < 20 ? 20 : n; frames.start[i] = Math.max(ps, i - r.int(0, 3)); frames.end[i] = Math.min(pe, i + r.int(-1, 3)); }
    for (const fn of ['sum', 'min', 'count'] as const) {
      const call: WindowCall = { fn, args: [0], frame: FRAMES[1]!, type: fn === 'min' ? 'INTEGER' : 'BIGINT', name: fn };
      const fast = windowAggregator(call, n, v, 'INTEGER');
      const slow = genericWindowAggregator(call, v, 'INTEGER');
      for (const [ps, pe] of [[0, 20], [20, n]] as const) { fast.partition(ps, pe, frames); slow.partition(ps, pe, frames); }
      const a = fast.output.slice(0, n); const b = slow.output.slice(0, n);
      const vals = (d: typeof a): unknown[] => Array.from({ length: n }, (_, i) => (d.getValid(i) ? d.values[i] : null));
      expect(vals(a)).toEqual(vals(b));
    }
  });
});
