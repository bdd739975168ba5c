/**
 * Invariants on randomly generated small iteration graphs
 * (ITERATION-SEMANTICS.md "Operator callbacks"): at every body operator
 * subtask the callbacks are 0..N−1 then "terminated", with no gaps or
 * repeats; every record of epoch ≤ w arrives before the callback for w; and
 * records emitted in a callback carry its epoch. Graphs mix parallelism 1–3,
 * forward / rebalance / hash / broadcast edges, two-input operators, and
 * synchronous (emit in the callback) and asynchronous (emit per record)
 * operators, with or without a (replayed or not) data stream as an extra
 * input; termination by TerminateOnMaxIter(R), so N must be R.
 */
import { describe, expect, it } from 'vitest';
import type { Partitioner } from '../../src/exec/job.js';
import { END } from '../../src/exec/operator.js';
import { buildLoop, type StreamRef } from '../../src/iteration/loop.js';
import { OperatorLifeCycle } from '../../src/iteration/config.js';
import { ints, maxIter, newGraph, op, run, source } from './helpers/nodes.js';
import { rng } from '../helpers/rng.js';


interface Trace { name: string; events: string[]; problems: string[] }

function checkTrace(t: Trace, rounds: number): void {
  const cbs = t.events.filter((e) => e.startsWith('wm ') || e === 'terminated');
  expect(cbs, `${t.name}: callbacks`).toEqual([...Array.from({ length: rounds }, (_, i) => `wm ${i}`), 'terminated']);
  expect(t.problems, t.name).toEqual([]);
}

describe('iteration invariants on random graphs', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`graph ${seed}`, async () => {
      const r = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const rounds = 1 + Math.floor(r() * 5);
      const headP = pick([1, 2, 3]);
      const traces: Trace[] = [];
      const g = newGraph();
      const init = source(g, (s) => [s, s + 1], headP);
      const withData = r() < 0.5;
      const data = withData ? [{ ref: source(g, (s) => [7, 8, 9].map((v) => v * (s + 1)), pick([1, 2])), replay: r() < 0.7 }] : [];
      const [o] = buildLoop({
        graph: g, initVariables: [init], data, lifecycle: OperatorLifeCycle.ALL_ROUND, allowCriteria: true,
        body: ([x], [d]) => {
          const made: StreamRef[] = [];
          const n = 2 + Math.floor(r() * 3);
          const addOp = (inputs: StreamRef[], p: number, name: string): StreamRef => {
            const sync = r() < 0.5;
            const part: Partitioner = pick([{ kind: 'rebalance' }, { kind: 'broadcast' }, { kind: 'hash', keys: [0] }, { kind: 'forward' }] as Partitioner[]);
            // Records from the head (initial or fed back) and data records carry values that are not their emission epoch.
            const fromHead = new Set(inputs.map((i, k) => (i.node === x!.node || i.node === d?.node ? k : -1)).filter((k) => k >= 0));
            const perSubtask = new Map<number, Trace>();
            const trace = (s: number): Trace => {
              let t = perSubtask.get(s);
              if (t === undefined) { t = { name: `${name}[${s}] ${sync ? 'sync' : 'async'}`, events: [], problems: [] }; perSubtask.set(s, t); traces.push(t); }
              return t;
            };
            const seen = new Map<number, number>();
            const ref = op(g, name, inputs, {
              batch: (ctx, input, vals, e) => {
                const t = trace(ctx.subtaskIndex);
                const wm = Number(t.events.filter((ev) => ev.startsWith('wm ')).at(-1)?.slice(3) ?? -1);
                if (e <= wm) t.problems.push(`record of epoch ${e} after callback ${wm}`);
                if (t.events.includes('terminated')) t.problems.push(`record of epoch ${e} after terminated`);
                if (!fromHead.has(input)) for (const v of vals) if (v !== e) t.problems.push(`record emitted at epoch ${v} arrived with epoch ${e}`);
                t.events.push(`batch ${e}`);
                seen.set(e, (seen.get(e) ?? 0) + vals.length);
                if (!sync) ctx.emit(ints(vals.map(() => e)));
              },
              watermark: (ctx, w) => {
                const t = trace(ctx.subtaskIndex);
                t.events.push(`wm ${w}`);
                if (ctx.epoch !== w) t.problems.push(`ctx.epoch ${ctx.epoch} in callback ${w}`);
                if (sync || !seen.has(w)) ctx.emit(ints([w])); // one record per round keeps the feedback non-empty
              },
              terminated: (ctx) => { trace(ctx.subtaskIndex).events.push('terminated'); if (ctx.epoch !== END) trace(ctx.subtaskIndex).problems.push('terminated with ctx.epoch ≠ END'); },
            }, p, part);
            made.push(ref);
            return ref;
          };
          let last = addOp([x!], pick([1, 2, 3]), 'Op0');
          for (let i = 1; i < n; i++) {
            const ins = [last];
            if (made.length > 1 && r() < 0.4) ins.push(pick(made.slice(0, -1)));
            if (r() < 0.3) ins.push(x!);
            if (d !== undefined && r() < 0.4) ins.push(d);
            last = addOp(ins, pick([1, 2, 3]), `Op${i}`);
          }
          const fb = addOp([last], headP, 'Fb');
          return { feedback: [fb], outputs: [fb], criteria: maxIter(g, pick(made), rounds) };
        },
      });
      await run(o!);
      expect(traces.length).toBeGreaterThan(0);
      for (const t of traces) checkTrace(t, rounds);
    });
  }
});
