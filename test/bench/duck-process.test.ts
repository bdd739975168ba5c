/**
 * The suite's DuckDB in a process of its own (bench/suite/duck-process.ts; why: duck-session.ts):
 * it answers as DuckDB in the suite's process does, its runs are measured in its process (not
 * billed to the suite's), a query is interrupted at the signal, and a failed statement is an error
 * that leaves the process serving. runWithTimeout takes a runner's figures from `usageOf`.
 * SF 0.002 data in a temporary folder, removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunUsage } from '../../bench/lib/run-usage.js';
import type { PlainResult } from '../../bench/lib/verify.js';
import { ensureData } from '../../bench/suite/data.js';
import { openDuckProcess } from '../../bench/suite/duck-process.js';
import { openDuckInProcess, type DuckSession } from '../../bench/suite/duck-session.js';
import { duckRunner } from '../../bench/suite/engines.js';
import { loadQueries } from '../../bench/suite/queries.js';
import { runWithTimeout } from '../../bench/suite/run.js';

describe('DuckDB in its own process', () => {
  let dir: string;
  let own: DuckSession;
  let here: DuckSession;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eddy-duck-process-test-'));
    const data = await ensureData(0.002, dir);
    [own, here] = await Promise.all([openDuckProcess(data), openDuckInProcess(data)]);
  }, 60_000);

  afterAll(async () => {
    await own?.close();
    await here?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs in another process and answers as DuckDB in this one does', async () => {
    expect(own.pid).not.toBe(process.pid);
    expect(here.pid).toBe(process.pid);
    for (const q of loadQueries(['q1', 'q3', 'q13'])) {
      const a = await own.query(q.sql);
      const b = await here.query(q.sql);
      expect(a.answer().rows.length).toBeGreaterThan(0);
      expect(a.answer()).toEqual(b.answer());
      expect(a.usage!.ms).toBeGreaterThan(0);
      expect(b.usage).toBeUndefined();
    }
  });

  it('measures a run in its own process, not in the caller\'s', async () => {
    await own.exec('SET threads = 1');
    const c0 = process.cpuUsage();
    const r = await runWithTimeout(duckRunner(own, 1, 'SELECT sum(i % 7) AS s FROM range(30000000) t(i)'), 60_000);
    const c = process.cpuUsage(c0);
    const callerMs = (c.user + c.system) / 1000;
    // DuckDB's ~100+ ms of CPU is reported from its process; this process only waited.
    expect(r.cpuMs).toBeGreaterThan(20);
    expect(callerMs).toBeLessThan(r.cpuMs / 2);
    expect(r.ms).toBeGreaterThan(0);
    expect(r.minorFaults).toBeGreaterThanOrEqual(0);
  });

  it('interrupts a query at the signal and keeps serving', async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const run = own.query('SELECT sum(i * i) FROM range(100000000000) t(i)', ac.signal);
    setTimeout(() => ac.abort(), 200);
    await expect(run).rejects.toThrow(/interrupt/i);
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect((await own.rows('SELECT 41 + 1'))[0]![0]).toBe(42);
  });

  it('reports a failed statement as an error and keeps serving', async () => {
    await expect(own.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    await expect(own.exec('SET no_such_setting = 1')).rejects.toThrow();
    expect(await own.exec('SET threads = 2')).toBeGreaterThanOrEqual(0);
  });

  it('runWithTimeout reports the figures a runner measured elsewhere', async () => {
    const usage: RunUsage = { ms: 123, cpuMs: 45, sysCpuMs: 6, minorFaults: 7, otherThreadsCpuMs: { 'x#1': 8 } };
    const r = await runWithTimeout({ run: async () => 'raw', normalize: () => ({ columns: [], rows: [] }) as PlainResult, usageOf: () => usage }, 10_000);
    expect(r).toMatchObject({ raw: 'raw', ...usage });
    const mine = await runWithTimeout({ run: async () => 'raw', normalize: () => ({ columns: [], rows: [] }) as PlainResult, usageOf: () => undefined }, 10_000);
    expect(mine.ms).toBeLessThan(123);
  });
});
