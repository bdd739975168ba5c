/**
 * A long unbounded iteration can be stopped (issue #8 "Done when"): by
 * breaking out of `rows()`, by an AbortSignal, and by Ctrl-C in a program
 * whose SIGINT handler aborts that signal — each within a bounded time,
 * and the loop really stops (no more records go round afterwards).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Iterations } from '../../src/iteration/index.js';
import { CancelledError } from '../../src/relnode/errors.js';
import type { DataStream } from '../../src/iteration/stream/data-stream.js';
import { bundleScript } from '../helpers/bundle-script.js';
import { testTempDir } from '../helpers/temp-dir.js';
import { envOf, neverEnding, sleep } from './helpers/streams.js';

/** An iteration that never ends: records go round next to a never-ending data source; every 1,000th trip is output. */
function forever(p: number): { out: DataStream; trips: () => number } {
  const env = envOf(p);
  let trips = 0;
  const [out] = Iterations.iterateUnboundedStreams([env.fromRows(Array.from({ length: p }, (_, i) => ({ v: i })), { parallelism: p })], [env.fromAsyncIterable(neverEnding([{ v: 7 }]), { schema: { v: 'INTEGER' } })], ([x], [d]) => {
    const next = x!.connect(d!).process(() => ({
      processElement1(r, _ctx, o) { trips++; o.collect({ v: (r['v'] as number) + 1 }); },
    }));
    return { feedbackVariableStreams: [next], outputStreams: [next.filter((r) => (r['v'] as number) % 1000 === 0)] };
  });
  return { out: out!, trips: () => trips };
}

describe('cancelling a never-ending iteration', () => {
  it.each([1, 4])('breaking out of rows() returns promptly and stops the loop (p%i)', async (p) => {
    const { out, trips } = forever(p);
    let seen = 0;
    const t0 = performance.now();
    let broke = 0;
    for await (const _ of out.rows()) {
      if (++seen >= 20 || performance.now() - t0 > 20_000) { broke = performance.now(); break; }
    }
    const ms = performance.now() - broke;
    expect(seen).toBe(20);
    expect(ms).toBeLessThan(1000);
    const n = trips();
    await sleep(100);
    expect(trips()).toBe(n); // nothing goes round any more
  });

  it('an AbortSignal cancels collect() within a bounded time and stops the loop', async () => {
    const { out, trips } = forever(2);
    const ctrl = new AbortController();
    const run = out.collect({ signal: ctrl.signal });
    while (trips() < 5000) await sleep(10);
    const t0 = performance.now();
    ctrl.abort();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(performance.now() - t0).toBeLessThan(1000);
    const n = trips();
    await sleep(100);
    expect(trips()).toBe(n);
  });

  it('Ctrl-C (SIGINT to a program that aborts on it) stops it within a bounded time', async () => {
    const fixture = await bundleScript(fileURLToPath(new URL('./fixtures/unbounded-loop.ts', import.meta.url)), testTempDir('eddy-cancel-'));
    const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: performance.now() })));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('running')) resolve(); });
      child.on('exit', () => reject(new Error(`the program ended before running: ${out} ${err}`)));
    });
    await sleep(200); // let it run a while longer
    const t0 = performance.now();
    child.kill('SIGINT');
    const { code, at } = await exited;
    expect(code).toBe(130);
    expect(out).toMatch(/cancelled \d+ CancelledError/);
    expect(at - t0).toBeLessThan(3000);
    const reported = Number(/cancelled (\d+)/.exec(out)![1]);
    expect(reported).toBeLessThan(1000); // from the signal to the job's end, inside the program
  }, 60_000);
});
