/**
 * ITERATION-SEMANTICS.md scenarios S7–S11 with the stream API, at
 * parallelism 1 and at the parallelism the scenario gives (4).
 */
import { describe, expect, it } from 'vitest';
import { Iterations, OperatorLifeCycle, ReplayableDataStreamList, forEachRound } from '../../src/iteration/index.js';
import { OutputTag } from '../../src/iteration/stream/process.js';
import type { CoProcessOperator, ProcessOperator } from '../../src/iteration/stream/process.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { FOUR_RANGES, RANGE_SUM, envOf, neverEnding, sleep } from './helpers/streams.js';
import { s7Reducer } from './helpers/s7.js';

const V = { v: 'INTEGER' } as const;

describe.each([1, 4])('scenarios S7–S11 at parallelism %i', (p) => {
  it('S7 sync reducer over 4 sources: exactly 5 rounds each summing 1,998,000, then terminated', async () => {
    const env = envOf(p);
    const reports: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination(
      [env.fromRows([], { schema: V, parallelism: p })],
      ReplayableDataStreamList.notReplay(env.fromRows(FOUR_RANGES, { parallelism: p })),
      {},
      ([x], [d]) => {
        const reducer = x!.connect(d!).process(s7Reducer(reports)).setParallelism(1);
        const keyed = reducer.keyBy('v').map((r) => r).setParallelism(p);
        return { feedbackVariableStreams: [keyed], outputStreams: [reducer] };
      },
    );
    const rows = await out!.collect();
    expect(reports).toEqual(['0:1998000', '1:1998000', '2:1998000', '3:1998000', '4:1998000', 'terminated']);
    expect(rows.length).toBe(4 * 4000);
  });

  it('S8 async unbounded: 8000 records over rounds 0 and 1, no callbacks, runs until cancelled', async () => {
    const env = envOf(p);
    const seenTag = new OutputTag('seen', schemaOf([field('v', 'INTEGER'), field('e', 'INTEGER')]));
    const callbacks: string[] = [];
    const [seen] = Iterations.iterateUnboundedStreams([env.fromAsyncIterable(neverEnding(FOUR_RANGES), { schema: V, parallelism: p })], [], ([x]) => {
      const reducer = x!.process((): ProcessOperator => ({
        processElement(row, ctx, o) { ctx.output(seenTag, { v: row['v'], e: ctx.epoch }); if (ctx.epoch === 0) o.collect(row); },
        onEpochWatermarkIncremented(w) { callbacks.push(`wm ${w}`); },
        onIterationTerminated() { callbacks.push('terminated'); },
      })).setParallelism(1);
      const back = reducer.keyBy('v').map((r) => r).setParallelism(p);
      return { feedbackVariableStreams: [back], outputStreams: [reducer.getSideOutput(seenTag)] };
    });
    const ctrl = new AbortController();
    const it = seen!.rows({ signal: ctrl.signal })[Symbol.asyncIterator]();
    const perEpoch = new Map<number, number>();
    let sum = 0;
    for (let n = 0; n < 8000; n++) {
      const r = await it.next();
      expect(r.done).toBe(false);
      const e = r.value!['e'] as number;
      perEpoch.set(e, (perEpoch.get(e) ?? 0) + 1);
      sum += r.value!['v'] as number;
    }
    expect([...perEpoch].sort()).toEqual([[0, 4000], [1, 4000]]);
    expect(sum).toBe(2 * RANGE_SUM);
    const more = await Promise.race([it.next().then(() => 'more'), sleep(300).then(() => 'still running')]);
    expect(more).toBe('still running');
    expect(callbacks).toEqual([]);
    ctrl.abort();
    await sleep(50);
  });

  it('S8 cancelled by breaking out of rows(): the loop returns promptly and the job stops', async () => {
    const env = envOf(p);
    let processed = 0;
    const [out] = Iterations.iterateUnboundedStreams([env.fromAsyncIterable(neverEnding(FOUR_RANGES), { schema: V, parallelism: p })], [], ([x]) => {
      const reducer = x!.process((): ProcessOperator => ({
        processElement(row, ctx, o) { processed++; if (ctx.epoch === 0) o.collect(row); },
      })).setParallelism(1);
      return { feedbackVariableStreams: [reducer.keyBy('v').map((r) => r).setParallelism(p)], outputStreams: [reducer] };
    });
    let n = 0;
    const t0 = performance.now();
    for await (const _ of out!.rows()) if (++n === 4000) break;
    expect(performance.now() - t0).toBeLessThan(10_000);
    const after = processed;
    await sleep(100);
    expect(processed).toBe(after); // nothing runs any more
    expect(n).toBe(4000);
  });

  it('S9 the same bounded: 8000 records, then terminated at epoch 2', async () => {
    const env = envOf(p);
    const callbacks: string[] = [];
    let processed = 0;
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows(FOUR_RANGES, { parallelism: p })], [], {}, ([x]) => {
      const reducer = x!.process((): ProcessOperator => ({
        processElement(row, ctx, o) { processed++; if (ctx.epoch === 0) o.collect(row); },
        onEpochWatermarkIncremented(w) { callbacks.push(`wm ${w}`); },
        onIterationTerminated() { callbacks.push('terminated'); },
      })).setParallelism(1);
      return { feedbackVariableStreams: [reducer.keyBy('v').map((r) => r).setParallelism(p)], outputStreams: [reducer] };
    });
    expect((await out!.collect()).length).toBe(4000);
    expect(processed).toBe(8000);
    expect(callbacks).toEqual(['wm 0', 'wm 1', 'terminated']);
  });

  it('S10 per-round with replay: exactly 5 closed reports, rounds 0..4, each summing 1,998,000', async () => {
    const env = envOf(p);
    const closed: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination(
      [env.fromRows([{ v: 0 }])],
      ReplayableDataStreamList.replay(env.fromRows(FOUR_RANGES, { parallelism: p })),
      { operatorLifeCycle: OperatorLifeCycle.PER_ROUND },
      ([x], [d]) => {
        const reducer = x!.connect(d!).process((): CoProcessOperator => {
          let epoch = -1;
          let sum = 0;
          return {
            open(ctx) { epoch = ctx.epoch; },
            processElement1(row, _ctx, o) { o.collect({ v: (row['v'] as number) + 1 }); },
            processElement2(row) { sum += row['v'] as number; },
            close() { closed.push(`${epoch}:${sum}`); },
          };
        }).setParallelism(1);
        const f = reducer.filter((r) => (r['v'] as number) < 5).setParallelism(1);
        return { feedbackVariableStreams: [f], outputStreams: [reducer], terminationCriteria: f };
      },
    );
    expect((await out!.collect()).map((r) => r['v'])).toEqual([1, 2, 3, 4, 5]);
    expect(closed).toEqual([0, 1, 2, 3, 4].map((e) => `${e}:${RANGE_SUM}`));
  });

  it('S11 mixed lifecycles: the per-round branch reports rounds 0..5, the all-round one 6 watermarks then terminated', async () => {
    const env = envOf(p);
    const perRound: string[] = [];
    const allRound: string[] = [];
    const [a, b] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }], { parallelism: p })], [], {}, ([x]) => {
      const all = x!.process((): ProcessOperator => ({
        processElement(row, _ctx, o) { o.collect({ v: (row['v'] as number) + 1 }); },
        onEpochWatermarkIncremented(w, ctx) { if (ctx.subtaskIndex === 0) allRound.push(`wm ${w}`); },
        onIterationTerminated(ctx) { if (ctx.subtaskIndex === 0) allRound.push('terminated'); },
      }));
      const [pr] = forEachRound([x!], ([y]) => [y!.process((): ProcessOperator => {
        let n = 0;
        return {
          processElement() { n++; },
          onEpochWatermarkIncremented(w, _ctx, o) { perRound.push(`round ${w}: ${n}`); o.collect({ v: w }); },
        };
      }).setParallelism(1)]);
      return { feedbackVariableStreams: [all.filter((r) => (r['v'] as number) < 6)], outputStreams: [all, pr!] };
    });
    const ra = await a!.collect();
    const rb = await b!.collect();
    expect(ra.map((r) => r['v'])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rb.map((r) => r['v'])).toEqual([0, 1, 2, 3, 4, 5]);
    // Each collect() runs what its stream needs: a's job has no per-round branch, b's has both (it feeds on the loop).
    expect(perRound).toEqual([0, 1, 2, 3, 4, 5].map((w) => `round ${w}: 1`));
    const six = [...Array.from({ length: 6 }, (_, i) => `wm ${i}`), 'terminated'];
    expect(allRound).toEqual([...six, ...six]);
  });
});
