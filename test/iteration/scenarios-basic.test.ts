/**
 * ITERATION-SEMANTICS.md scenarios S1–S6 with the stream API, at
 * parallelism 1 and 3 (the scenarios give p = 1; the parallel run checks
 * that every subtask sees the same callbacks).
 */
import { describe, expect, it } from 'vitest';
import type { Operator, OperatorContext } from '../../src/exec/operator.js';
import { END } from '../../src/exec/operator.js';
import { Iterations, ReplayableDataStreamList, TerminateOnMaxIter } from '../../src/iteration/index.js';
import { streamOf } from '../../src/iteration/stream/data-stream.js';
import { callbacks, envOf, ep, neverEnding, plusOne, sleep, withEpochs, wmsUpTo } from './helpers/streams.js';

const sorted = (rows: Record<string, unknown>[]): string[] => rows.map((r) => `${String(r['v'])}@${String(r['e'])}`).sort();

describe.each([1, 3])('scenarios S1–S6 at parallelism %i', (p) => {
  it('S1 round counting', async () => {
    const env = envOf(p);
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }], { parallelism: p })], [], {}, ([x]) => {
      const m = plusOne(x!, log);
      return { feedbackVariableStreams: [m.filter((r) => (r['v'] as number) < 3)], outputStreams: [withEpochs(m)] };
    });
    expect(sorted(await out!.collect())).toEqual(['1@0', '2@1', '3@2']);
    for (let s = 0; s < p; s++) expect(callbacks(log, s)).toEqual(wmsUpTo(3));
  });

  it('S2 criteria decides: the epoch-3 record is processed, no callback for 3', async () => {
    const env = envOf(p);
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }], { parallelism: p })], [], {}, ([x]) => {
      const m = plusOne(x!, log);
      return { feedbackVariableStreams: [m], outputStreams: [withEpochs(m)], terminationCriteria: m.process(() => new TerminateOnMaxIter(3)) };
    });
    expect(sorted(await out!.collect())).toEqual(['1@0', '2@1', '3@2', '4@3']);
    for (let s = 0; s < p; s++) expect(callbacks(log, s)).toEqual(wmsUpTo(3));
  });

  it('S3 empty start: w = 0 once, then terminated', async () => {
    const env = envOf(p);
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([], { schema: { v: 'INTEGER' }, parallelism: p })], [], {}, ([x]) => {
      const m = plusOne(x!, log);
      return { feedbackVariableStreams: [m], outputStreams: [m] };
    });
    expect(await out!.collect()).toEqual([]);
    for (let s = 0; s < p; s++) expect(callbacks(log, s)).toEqual(wmsUpTo(1));
  });

  it('S4 unbounded variable: no callbacks, records still go round; breaking out of rows() cancels', async () => {
    const env = envOf(p);
    const log: string[] = [];
    const init = env.fromAsyncIterable(neverEnding([{ v: 0 }]), { schema: { v: 'INTEGER' }, parallelism: p });
    const [out] = Iterations.iterateUnboundedStreams([init], [], ([x]) => {
      const m = plusOne(x!, log);
      return { feedbackVariableStreams: [m.filter((r) => (r['v'] as number) < 50)], outputStreams: [withEpochs(m)] };
    });
    const seen: string[] = [];
    const t0 = performance.now();
    for await (const r of out!.rows()) {
      seen.push(`${String(r['v'])}@${String(r['e'])}`);
      if (seen.length === 50) break;
    }
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `${i + 1}@${i}`));
    expect(log.filter((l) => l.includes('wm') || l.includes('terminated'))).toEqual([]);
  });

  it('S5 replay: a sum over the replayed data sees rounds 0..9, total 60', async () => {
    const env = envOf(p);
    const rounds: string[] = [];
    let total = 0;
    const [out] = Iterations.iterateBoundedStreamsUntilTermination(
      [env.fromRows([{ v: 5 }], { parallelism: p })],
      ReplayableDataStreamList.replay(env.fromRows([{ v: 1 }, { v: 2 }, { v: 3 }], { parallelism: p })),
      {},
      ([x], [d]) => {
        const sum = d!.process(() => {
          const byEpoch = new Map<number, number>();
          return {
            processElement(row, ctx) { total += row['v'] as number; byEpoch.set(ctx.epoch, (byEpoch.get(ctx.epoch) ?? 0) + (row['v'] as number)); },
            onEpochWatermarkIncremented(w, ctx, o) { o.collect({ v: byEpoch.get(w) ?? 0 }); rounds.push(`${ctx.subtaskIndex}:${w}`); },
          };
        }).setParallelism(1);
        return { feedbackVariableStreams: [x!.map((r) => r)], outputStreams: [withEpochs(sum)], terminationCriteria: x!.process(() => new TerminateOnMaxIter(10)) };
      },
    );
    const got = await out!.collect();
    expect(total).toBe(60);
    expect(sorted(got)).toEqual(Array.from({ length: 10 }, (_, i) => `6@${i}`).sort());
    expect(rounds).toEqual(Array.from({ length: 10 }, (_, i) => `0:${i}`));
  });

  it('S6 not replayed: the data is seen in round 0 only, and its input watermark is END once it ended', async () => {
    const env = envOf(p);
    const seen: string[] = [];
    const dataWatermarks: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination(
      [env.fromRows([{ v: 5 }], { parallelism: p })],
      ReplayableDataStreamList.notReplay(env.fromRows([{ v: 1 }, { v: 2 }, { v: 3 }], { parallelism: p })),
      {},
      ([x], [d]) => {
        const factory = (): Operator => {
          let ctx!: OperatorContext;
          return {
            open(c) { ctx = c; },
            processBatch(input, b, e) { if (input === 1) seen.push(`${e}:${b.numRows}`); else ctx.emit(b, e); },
            onInputWatermark(input, w) { if (input === 1) dataWatermarks.push(ep(w)); },
            finish() {}, close() {},
          };
        };
        const obs = streamOf(env, env.operator('Observe', [x!, d!], x!.schema, factory, { parallelism: 1 }));
        return { feedbackVariableStreams: [x!.map((r) => r)], outputStreams: [obs], terminationCriteria: x!.process(() => new TerminateOnMaxIter(4)) };
      },
    );
    expect((await out!.collect()).length).toBe(5); // the variable in rounds 0..4 (the terminating round's record included)
    expect(seen.map((s) => s.split(':')[0])).toEqual(seen.map(() => '0'));
    expect(seen.reduce((n, s) => n + Number(s.split(':')[1]), 0)).toBe(3);
    expect(dataWatermarks).toEqual(['END']);
    expect(END).toBeGreaterThan(1e9);
  });
});

export { sleep };
