/**
 * The known answers of ITERATION-SEMANTICS.md, written with the stream API:
 * k-means (all-round, data cached in list state and not replayed, sync,
 * TerminateOnMaxIter, the last round's model forwarded) and linear
 * regression by SGD (the update of round e uses round e − 1's gradients;
 * the last update happens at termination). Both at parallelism 1 and 3.
 */
import { describe, expect, it } from 'vitest';
import { ForwardInputsOfLastRound, Iterations, ReplayableDataStreamList, TerminateOnMaxIter, TerminateOnMaxIterOrTol } from '../../src/iteration/index.js';
import { OutputTag, type CoProcessOperator, type ProcessOperator, type Row } from '../../src/iteration/stream/process.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { envOf } from './helpers/streams.js';

const POINTS = [[0, 0], [0, 0.3], [0.3, 0], [9, 0], [9, 0.6], [9.6, 0]];

describe.each([1, 3])('known answers at parallelism %i', (p) => {
  it.each([[0, 1], [3, 4], [2, 5], [5, 0]])('k-means, k = 2, maxIter = 2, starting from points %i and %i', async (i, j) => {
    const env = envOf(p);
    const init = env.fromRows([{ c: 0, x: POINTS[i]![0], y: POINTS[i]![1] }, { c: 1, x: POINTS[j]![0], y: POINTS[j]![1] }], { schema: { c: 'INTEGER', x: 'DOUBLE', y: 'DOUBLE' } });
    const points = env.fromRows(POINTS.map(([x, y]) => ({ x, y })), { schema: { x: 'DOUBLE', y: 'DOUBLE' }, parallelism: p });
    const [model] = Iterations.iterateBoundedStreamsUntilTermination([init], ReplayableDataStreamList.notReplay(points), {}, ([centroids], [data]) => {
      const partials = centroids!.broadcast().connect(data!).process((): CoProcessOperator => {
        const byEpoch = new Map<number, Row[]>();
        return {
          processElement1(row, ctx) { let l = byEpoch.get(ctx.epoch); if (l === undefined) byEpoch.set(ctx.epoch, l = []); l.push(row); },
          processElement2(row, ctx) { ctx.getListState('points').add(row); },
          onEpochWatermarkIncremented(w, ctx, out) {
            const cs = (byEpoch.get(w) ?? []).sort((a, b) => (a['c'] as number) - (b['c'] as number));
            byEpoch.delete(w);
            const sums = cs.map(() => ({ sx: 0, sy: 0, n: 0 }));
            for (const pt of ctx.getListState('points').rows()) {
              let best = 0;
              let bestD = Infinity;
              cs.forEach((c, k) => {
                const d = ((pt['x'] as number) - (c['x'] as number)) ** 2 + ((pt['y'] as number) - (c['y'] as number)) ** 2;
                if (d < bestD) { bestD = d; best = k; } // strict <: ties go to the lower index
              });
              sums[best]!.sx += pt['x'] as number; sums[best]!.sy += pt['y'] as number; sums[best]!.n++;
            }
            cs.forEach((c, k) => out.collect({ c: c['c'], x: c['x'], y: c['y'], ...sums[k]! }));
          },
        };
      }, { schema: { c: 'INTEGER', x: 'DOUBLE', y: 'DOUBLE', sx: 'DOUBLE', sy: 'DOUBLE', n: 'INTEGER' } });
      const updated = partials.process((): ProcessOperator => {
        const byEpoch = new Map<number, Map<number, { x: number; y: number; sx: number; sy: number; n: number }>>();
        return {
          processElement(row, ctx) {
            let m = byEpoch.get(ctx.epoch);
            if (m === undefined) byEpoch.set(ctx.epoch, m = new Map());
            const c = row['c'] as number;
            const a = m.get(c) ?? { x: row['x'] as number, y: row['y'] as number, sx: 0, sy: 0, n: 0 };
            a.sx += row['sx'] as number; a.sy += row['sy'] as number; a.n += row['n'] as number;
            m.set(c, a);
          },
          onEpochWatermarkIncremented(w, _ctx, out) {
            for (const [c, a] of [...(byEpoch.get(w) ?? new Map())].sort((x, y) => x[0] - y[0])) out.collect({ c, x: a.n > 0 ? a.sx / a.n : a.x, y: a.n > 0 ? a.sy / a.n : a.y });
            byEpoch.delete(w);
          },
        };
      }, { schema: { c: 'INTEGER', x: 'DOUBLE', y: 'DOUBLE' } }).setParallelism(1);
      return {
        feedbackVariableStreams: [updated],
        outputStreams: [updated.process(() => new ForwardInputsOfLastRound())],
        terminationCriteria: updated.process(() => new TerminateOnMaxIter(2)),
      };
    });
    const got = (await model!.collect()).map((r) => [r['x'] as number, r['y'] as number]).sort((a, b) => a[0]! - b[0]!);
    expect(got).toHaveLength(2);
    expect(got[0]![0]).toBeCloseTo(0.1, 5); expect(got[0]![1]).toBeCloseTo(0.1, 5);
    expect(got[1]![0]).toBeCloseTo(9.2, 5); expect(got[1]![1]).toBeCloseTo(0.2, 5);
  });

  it('linear regression by SGD, 20 rounds → (1.141, 1.829)', async () => {
    const env = envOf(p);
    const DATA = [[2, 1, 4], [3, 2, 7], [4, 3, 10], [2, 4, 10], [2, 2, 6], [4, 3, 10], [1, 2, 5], [5, 3, 11]];
    const G = { g0: 'DOUBLE', g1: 'DOUBLE', weight: 'DOUBLE', loss: 'DOUBLE' } as const;
    const MODEL = new OutputTag('model', schemaOf([field('c0', 'DOUBLE'), field('c1', 'DOUBLE')]));
    const init = env.fromRows([{ g0: 0, g1: 0, weight: 0, loss: 0 }], { schema: G });
    const data = env.fromRows(DATA.map(([x0, x1, y]) => ({ x0, x1, y, w: 1 })), { schema: { x0: 'DOUBLE', x1: 'DOUBLE', y: 'DOUBLE', w: 'DOUBLE' }, parallelism: p });
    const lr = 0.1;
    const [model] = Iterations.iterateBoundedStreamsUntilTermination([init], ReplayableDataStreamList.notReplay(data), {}, ([grads], [d]) => {
      const train = grads!.broadcast().connect(d!).process((): CoProcessOperator => {
        const coef = [0, 0];
        const pending = new Map<number, Row>();
        const apply = (g: Row | undefined): void => {
          if (g === undefined || (g['weight'] as number) === 0) return;
          coef[0]! -= (lr / (g['weight'] as number)) * (g['g0'] as number);
          coef[1]! -= (lr / (g['weight'] as number)) * (g['g1'] as number);
        };
        return {
          processElement1(row, ctx) { pending.set(ctx.epoch, row); },
          processElement2(row, ctx) { ctx.getListState('data').add(row); },
          onEpochWatermarkIncremented(w, ctx, out) {
            apply(pending.get(w));
            pending.delete(w);
            let g0 = 0, g1 = 0, weight = 0, loss = 0;
            for (const r of ctx.getListState('data').rows()) {
              const x0 = r['x0'] as number, x1 = r['x1'] as number, wt = r['w'] as number;
              const diff = coef[0]! * x0 + coef[1]! * x1 - (r['y'] as number);
              g0 += diff * wt * x0; g1 += diff * wt * x1; weight += wt; loss += (diff * diff * wt) / 2;
            }
            out.collect({ g0, g1, weight, loss });
          },
          onIterationTerminated(ctx) {
            for (const e of [...pending.keys()].sort((a, b) => a - b)) apply(pending.get(e)); // the last update happens at termination
            if (ctx.subtaskIndex === 0) ctx.output(MODEL, { c0: coef[0], c1: coef[1] });
          },
        };
      }, { schema: G });
      const reduced = train.process((): ProcessOperator => {
        const sums = new Map<number, number[]>();
        return {
          processElement(row, ctx) {
            const s = sums.get(ctx.epoch) ?? [0, 0, 0, 0];
            ['g0', 'g1', 'weight', 'loss'].forEach((k, i) => { s[i]! += row[k] as number; });
            sums.set(ctx.epoch, s);
          },
          onEpochWatermarkIncremented(w, _ctx, out) {
            const s = sums.get(w);
            sums.delete(w);
            if (s !== undefined) out.collect({ g0: s[0], g1: s[1], weight: s[2], loss: s[3] });
          },
        };
      }).setParallelism(1);
      const criteria = reduced.map((r) => ({ loss: (r['loss'] as number) / (r['weight'] as number) }), { schema: { loss: 'DOUBLE' } }).setParallelism(1)
        .process(() => new TerminateOnMaxIterOrTol(20, 1e-6)).setParallelism(1);
      return { feedbackVariableStreams: [reduced], outputStreams: [train.getSideOutput(MODEL)], terminationCriteria: criteria };
    });
    const got = await model!.collect();
    expect(got).toHaveLength(1);
    expect(Math.abs((got[0]!['c0'] as number) - 1.141)).toBeLessThan(1e-3);
    expect(Math.abs((got[0]!['c1'] as number) - 1.829)).toBeLessThan(1e-3);
  });
});
