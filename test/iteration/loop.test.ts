/**
 * The iteration core at the stream-graph level (heads, tails, coordinator,
 * criteria, replay, per-round wrapper) with runtime operators: scenario shapes
 * of ITERATION-SEMANTICS.md before the DataStream layer.
 */
import { describe, expect, it } from 'vitest';
import { buildLoop, type StreamRef } from '../../src/iteration/loop.js';
import { OperatorLifeCycle } from '../../src/iteration/config.js';
import { filter, map, maxIter, newGraph, op, record, run, source, ep, ints } from './helpers/nodes.js';

describe('iteration loop (node level)', () => {
  it('S1 round counting: outputs 1, 2, 3 with epochs 0, 1, 2; listener 0, 1, 2, terminated', async () => {
    const g = newGraph();
    const log: string[] = [];
    const out: string[] = [];
    const init = source(g, () => [0]);
    const [o] = buildLoop({
      graph: g, initVariables: [init], data: [], lifecycle: OperatorLifeCycle.ALL_ROUND, allowCriteria: true,
      body: ([x]) => {
        const m = map(g, x!, (v) => v + 1, log);
        return { feedback: [filter(g, m, (v) => v < 3)], outputs: [record(g, m, out)] };
      },
    });
    expect(await run(o!)).toEqual([1, 2, 3]);
    expect(out).toEqual(['1@0', '2@1', '3@2']);
    expect(log.filter((l) => !l.startsWith('map e'))).toEqual(['map wm 0', 'map wm 1', 'map wm 2', 'map terminated']);
  });

  it('S2 criteria decides: the epoch-3 record is still processed, no callback for 3', async () => {
    const g = newGraph();
    const log: string[] = [];
    const out: string[] = [];
    const [o] = buildLoop({
      graph: g, initVariables: [source(g, () => [0])], data: [], lifecycle: OperatorLifeCycle.ALL_ROUND, allowCriteria: true,
      body: ([x]) => {
        const m = map(g, x!, (v) => v + 1, log);
        return { feedback: [m], outputs: [record(g, m, out)], criteria: maxIter(g, m, 3) };
      },
    });
    expect(await run(o!)).toEqual([1, 2, 3, 4]);
    expect(out).toEqual(['1@0', '2@1', '3@2', '4@3']);
    expect(log.filter((l) => !l.startsWith('map e'))).toEqual(['map wm 0', 'map wm 1', 'map wm 2', 'map terminated']);
  });

  it('S5 replay: a sum over replayed data sees rounds 0..9 (total 60)', async () => {
    const g = newGraph();
    const rounds: string[] = [];
    let sum = 0;
    const [o] = buildLoop({
      graph: g, initVariables: [source(g, () => [7])], data: [{ ref: source(g, () => [1, 2, 3]), replay: true }], lifecycle: OperatorLifeCycle.ALL_ROUND, allowCriteria: true,
      body: ([x], [d]) => {
        const perRound = new Map<number, number>();
        const s = op(g, 'Sum', [d!, x!], {
          batch: (_c, i, vals, e) => { if (i === 0) { sum += vals.reduce((a, b) => a + b, 0); perRound.set(e, (perRound.get(e) ?? 0) + vals.length); } },
          watermark: (_c, w) => rounds.push(`${w}:${perRound.get(w) ?? 0}`),
        });
        return { feedback: [x!], outputs: [s], criteria: maxIter(g, x!, 10) };
      },
    });
    await run(o!);
    expect(sum).toBe(60);
    expect(rounds).toEqual(Array.from({ length: 10 }, (_, i) => `${i}:3`));
  });

  it('per-round operators: one instance per epoch, closed at its watermark', async () => {
    const g = newGraph();
    const log: string[] = [];
    const [o] = buildLoop({
      graph: g, initVariables: [source(g, () => [0])], data: [], lifecycle: OperatorLifeCycle.PER_ROUND, allowCriteria: true,
      body: ([x]) => {
        let made = 0;
        const m = op(g, 'R', [x!], {
          batch: (ctx, _i, vals, e) => { log.push(`open? ${e} made=${++made}`); ctx.emit(ints(vals.map((v) => v + 1)), e); },
          watermark: (ctx, w) => log.push(`wm ${w} ctx=${ep(ctx.epoch)}`),
          terminated: (ctx) => log.push(`terminated ctx=${ep(ctx.epoch)}`),
          finish: (ctx) => log.push(`finish ${ep(ctx.epoch)}`),
        });
        return { feedback: [filter(g, m, (v) => v < 3)], outputs: [m] };
      },
    });
    expect(await run(o!)).toEqual([1, 2, 3]);
    for (const e of [0, 1, 2]) expect(log.filter((l) => l.includes(` ${e}`))).toEqual([`open? ${e} made=${e + 1}`, `wm ${e} ctx=${e}`, `finish ${e}`]);
    expect(log).toHaveLength(9);
  });

  it('per-round at END: the terminating round\'s live instance gets onIterationTerminated instead of the callback, then closes', async () => {
    const g = newGraph();
    const log: string[] = [];
    const [o] = buildLoop({
      graph: g, initVariables: [source(g, () => [0])], data: [], lifecycle: OperatorLifeCycle.PER_ROUND, allowCriteria: true,
      body: ([x]) => {
        const m = op(g, 'R', [x!], {
          batch: (ctx, _i, vals, e) => ctx.emit(ints(vals.map((v) => v + 1)), e),
          watermark: (ctx, w) => log.push(`wm ${w} ctx=${ep(ctx.epoch)}`),
          terminated: (ctx) => log.push(`terminated ctx=${ep(ctx.epoch)}`),
          finish: (ctx) => log.push(`finish ${ep(ctx.epoch)}`),
        });
        const out: string[] = [];
        return { feedback: [m], outputs: [record(g, m, out)], criteria: maxIter(g, m, 2) };
      },
    });
    expect(await run(o!)).toEqual([1, 2, 3]);
    // Rounds 0 and 1 close at their watermarks; round 2 (terminating) has a record, so an instance that ends at END.
    expect(log).toEqual(['wm 0 ctx=0', 'finish 0', 'wm 1 ctx=1', 'finish 1', 'terminated ctx=2', 'finish 2']);
  });
});
export type { StreamRef };
