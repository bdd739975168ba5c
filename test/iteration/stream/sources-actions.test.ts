/**
 * Stream sources and actions: async iterables (rows, record batches, slow
 * and never-ending producers), cancellation by leaving rows() / batches(),
 * timers staying responsive, tables ↔ streams, and value conversion.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecordBatch } from 'apache-arrow';
import { TableEnvironment } from '../../../src/index.js';

const envs: TableEnvironment[] = [];
function envOf(parallelism = 1, batchSize = 1024): TableEnvironment {
  const e = TableEnvironment.create({ parallelism, batchSize });
  envs.push(e);
  return e;
}
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('fromAsyncIterable', () => {
  it('reads rows of a bounded async generator, at parallelism 1 and 2', async () => {
    for (const p of [1, 2]) {
      async function* gen(): AsyncGenerator<{ v: number }> { for (let i = 0; i < 1000; i++) { if (i % 100 === 0) await sleep(1); yield { v: i }; } }
      const out = await envOf(p).streams.fromAsyncIterable(gen(), { schema: { v: 'INTEGER' }, parallelism: p }).map((r) => r).collect();
      expect(out.length).toBe(1000);
      expect(out.reduce((t, r) => t + (r.v as number), 0)).toBe(499500);
      expect(new Set(out.map((r) => r.v)).size).toBe(1000);
    }
  });

  it('accepts record batches and a plain iterable', async () => {
    const env = envOf();
    const batch = (await env.streams.fromRows([{ v: 1 }, { v: 2 }]).batches().next()).value as RecordBatch;
    expect(batch).toBeInstanceOf(RecordBatch);
    const out = await env.streams.fromAsyncIterable([batch, { v: 3 }, batch], { schema: { v: 'INTEGER' } }).collect();
    expect(out.map((r) => r.v)).toEqual([1, 2, 3, 1, 2]);
  });

  it('gathers rows of a fast producer into full batches', async () => {
    async function* gen(): AsyncGenerator<{ v: number }> { for (let i = 0; i < 5000; i++) yield { v: i }; }
    const sizes: number[] = [];
    for await (const b of envOf(1, 1000).streams.fromAsyncIterable(gen(), { schema: { v: 'INTEGER' } }).batches()) sizes.push(b.numRows);
    expect(sizes).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  it('a slow producer\'s rows come out one by one as they are produced', async () => {
    // The producer makes row i + 1 only once row i has reached the consumer (or after 5 s): a source
    // that held rows back to fill a batch would deliver them after those waits, all at the end. (It
    // slept 20 ms between rows; on a loaded machine the consumer could then lag a row behind.)
    let seen = -1;
    let wake: (() => void) | undefined;
    const consumed = (i: number): Promise<void> => seen >= i ? Promise.resolve() : new Promise((resolve) => {
      const timer = setTimeout(resolve, 5000);
      wake = () => { clearTimeout(timer); resolve(); };
    });
    const produced: number[] = [];
    async function* gen(): AsyncGenerator<{ v: number }> { for (let i = 0; i < 5; i++) { if (i > 0) await consumed(i - 1); produced.push(i); yield { v: i }; } }
    const seenWhenProduced: number[] = [];
    for await (const r of envOf().streams.fromAsyncIterable(gen(), { schema: { v: 'INTEGER' } }).rows()) {
      seenWhenProduced.push(produced.length - (r.v as number));
      seen = r.v as number;
      wake?.();
      wake = undefined;
    }
    // Each row arrives before the producer has made the next one.
    expect(seenWhenProduced).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('cancellation by leaving the loop', () => {
  it('break out of rows() over a never-ending source cancels the job promptly and closes the producer', async () => {
    let closed = false;
    let made = 0;
    async function* forever(): AsyncGenerator<{ v: number }> {
      try { for (;;) { made++; yield { v: made }; } } finally { closed = true; }
    }
    const env = envOf();
    let n = 0;
    for await (const r of env.streams.fromAsyncIterable(forever(), { schema: { v: 'INTEGER' } }).map((r) => r).rows()) {
      expect(r.v).toBe(++n);
      if (n === 3000) break;
    }
    // Promptly, counted in rows rather than wall time: the source read at most a few batches (of
    // 1,024 rows) past the 3,000 consumed.
    expect(made).toBeLessThanOrEqual(3000 + 4 * 1024);
    await sleep(10);
    expect(closed).toBe(true);
    const after = made;
    await sleep(30);
    expect(made).toBe(after);
    expect(env.runningQueries).toBe(0);
  });

  it('break out of batches() over a slow never-ending source returns at once', async () => {
    let made = 0;
    async function* slow(): AsyncGenerator<{ v: number }> { for (let i = 0; ; i++) { await sleep(15); made++; yield { v: i }; } }
    let got = 0;
    let madeAtBreak = 0;
    for await (const b of envOf().streams.fromAsyncIterable(slow(), { schema: { v: 'INTEGER' } }).batches()) {
      got += b.numRows;
      if (got >= 3) { madeAtBreak = made; break; }
    }
    expect(got).toBe(3);
    // At once, counted in rows: leaving did not wait for the producer's next rows (a batch to fill),
    // at most for the one in flight. (A wall-clock bound failed on a loaded machine.)
    expect(made - madeAtBreak).toBeLessThanOrEqual(1);
  });

  it('an AbortSignal cancels collect()', async () => {
    async function* forever(): AsyncGenerator<{ v: number }> { for (let i = 0; ; i++) { if (i % 1000 === 0) await sleep(0); yield { v: i }; } }
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 50);
    await expect(envOf().streams.fromAsyncIterable(forever(), { schema: { v: 'INTEGER' } }).collect({ signal: ctrl.signal })).rejects.toThrow(/cancelled/);
  });
});

describe('environment close', () => {
  it('cancels a running stream job, which then fails saying why; new jobs are refused', async () => {
    async function* forever(): AsyncGenerator<{ v: number }> { for (let i = 0; ; i++) { if (i % 100 === 0) await sleep(1); yield { v: i }; } }
    const env = TableEnvironment.create();
    const s = env.streams.fromAsyncIterable(forever(), { schema: { v: 'INTEGER' } });
    const job = s.collect();
    await sleep(20);
    expect(env.runningQueries).toBe(1);
    await env.close();
    await expect(job).rejects.toThrow(/stream job cancelled: the TableEnvironment was closed while it ran/);
    expect(env.runningQueries).toBe(0);
    await expect(s.collect()).rejects.toThrow(/this TableEnvironment is closed/);
  });
});

describe('timers stay responsive', () => {
  it('a never-ending slow producer does not block a timer', async () => {
    let ticks = 0;
    const ticksAtRow: number[] = [];
    async function* slow(): AsyncGenerator<{ v: number }> { for (let i = 0; ; i++) { await sleep(40); ticksAtRow.push(ticks); yield { v: i }; } }
    const timer = setInterval(() => { ticks++; }, 5);
    try {
      let n = 0;
      for await (const _ of envOf().streams.fromAsyncIterable(slow(), { schema: { v: 'INTEGER' } }).map((r) => r).rows()) if (++n === 3) break;
    } finally { clearInterval(timer); }
    // While the producer waited 40 ms for each row, the 5 ms timer ran: at least once between any
    // two rows (a timer due earlier runs first, however late the process gets a core; a count of
    // ticks in the whole wait fell short on a loaded machine).
    expect(ticksAtRow.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < ticksAtRow.length; i++) expect(ticksAtRow[i]!).toBeGreaterThan(ticksAtRow[i - 1]!);
  });

  it('a never-ending fast producer does not block a timer either', async () => {
    async function* fast(): AsyncGenerator<{ v: number }> { for (let i = 0; ; i++) yield { v: i }; }
    let fired = false;
    setTimeout(() => { fired = true; }, 20);
    let n = 0;
    for await (const _ of envOf().streams.fromAsyncIterable(fast(), { schema: { v: 'INTEGER' } }).filter(() => true).rows()) {
      if (fired) break;
      if (++n > 50_000_000) throw new Error('the timer never fired');
    }
    expect(fired).toBe(true);
  });
});

describe('tables and streams', () => {
  it('fromTable streams a query; toTable is queried with SQL and the Table API', async () => {
    const env = envOf(2);
    env.registerTable('t', env.fromRecords([{ k: 'a', v: 1 }, { k: 'b', v: 2 }, { k: 'a', v: 3 }]));
    const s = env.streams.fromTable(env.sql('SELECT k, v * 10 AS v FROM t'));
    expect(s.schema.fields.map((f) => `${f.name} ${f.type}`)).toEqual(['k VARCHAR', 'v INTEGER']);
    const doubled = s.map((r) => ({ k: r.k, v: (r.v as number) * 2 }));
    env.registerTable('s', doubled.toTable());
    const rows = await env.sql('SELECT k, SUM(v) AS total FROM s GROUP BY k ORDER BY k').toArray();
    expect(rows).toEqual([{ k: 'a', total: 80n }, { k: 'b', total: 40n }]);
    expect(await doubled.toTable().count()).toBe(3);
  });

  it('rows carry BIGINT as bigint and DATE/TIMESTAMP as Date, as toArray does', async () => {
    const env = envOf();
    const t = env.sql("SELECT CAST(5 AS BIGINT) AS b, DATE '2024-03-01' AS d, TIMESTAMP '2024-03-01 10:00:00' AS ts, NULL::INTEGER AS n");
    const viaStream = await env.streams.fromTable(t).collect();
    expect({ ...viaStream[0] }).toEqual({ ...(await t.toArray())[0] });
    expect(viaStream[0]!.b).toBe(5n);
    expect(viaStream[0]!.d).toBeInstanceOf(Date);
    const back = await env.streams.fromRows([{ d: new Date(Date.UTC(2024, 2, 1)), ts: new Date(0) }], { schema: { d: 'DATE', ts: 'TIMESTAMP' } }).collect();
    expect((back[0]!.d as Date).toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect((back[0]!.ts as Date).getTime()).toBe(0);
  });
});
