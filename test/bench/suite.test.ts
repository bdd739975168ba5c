/**
 * The benchmark suite's machinery at SF 0.002 (bench/suite): data folder
 * written once and reused, answers verified before timing (a deliberately
 * wrong engine is reported WRONG and not timed; a hanging one times out),
 * the JSON has its documented fields, the SVG charts are well-formed XML.
 * Everything goes to a temporary folder removed afterwards.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteOptions } from '../../bench/suite/args.js';
import { engineDef, type EngineContext, type EngineDef, type Runner } from '../../bench/suite/engines.js';
import { runSuite } from '../../bench/suite/main.js';
import { suiteMarkdown } from '../../bench/suite/report-md.js';
import { criticalPath, MAX_WARMUP_RUNS, runQuery, runWithTimeout, stillWarming } from '../../bench/suite/run.js';
import { parseSuiteArgs } from '../../bench/suite/args.js';
import { cpuTicks, stealPercent } from '../../bench/lib/cpu-steal.js';
import { parallelSpeedUp, type EngineOutcome, type QueryOutcome, type SuiteReport } from '../../bench/suite/results.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { verifyAnswer } from '../../bench/suite/verify.js';
import type { PlainResult } from '../../bench/lib/verify.js';
import { ensureData } from '../../bench/suite/data.js';
import { quiesce } from '../../bench/lib/quiesce.js';

/** Checks that `text` is well-formed XML of the kind the charts write (elements, attributes, text, entities). */
function checkWellFormed(text: string): void {
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<\?[^>]*\?>/g;
  let last = 0;
  let roots = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const between = text.slice(last, m.index);
    expect(between, `stray markup before offset ${m.index}`).not.toMatch(/[<>]/);
    expect(between.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, ''), 'unescaped &').not.toContain('&');
    for (const v of (m[3] ?? '').matchAll(/="([^"]*)"/g)) expect(v[1]!.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, '')).not.toMatch(/[&<]/);
    last = m.index + m[0].length;
    if (m[0].startsWith('<?')) continue;
    if (m[1] === '/') expect(stack.pop(), `closing </${m[2]}>`).toBe(m[2]);
    else if (m[4] !== '/') { if (stack.length === 0) roots++; stack.push(m[2]!); }
  }
  expect(text.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  expect(text.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

describe('bench suite', () => {
  let dir: string;
  let report: SuiteReport;
  let files: string[];

  /** eddy p1 with every number of its answer's first row off by 1%. */
  const wrongEngine = (ctx: Parameters<typeof engineDef>[1]): EngineDef => {
    const base = engineDef('eddy-p1', ctx);
    return {
      id: 'eddy-wrong', label: 'eddy p1, answer altered',
      runner: (q) => {
        const r = base.runner(q)!;
        return {
          run: r.run,
          normalize: (raw, d) => {
            const p = r.normalize(raw, d);
            return { columns: p.columns, rows: p.rows.map((row, i) => (i === 0 ? row.map((v) => (typeof v === 'number' ? v * 1.01 + 1 : v)) : row)) };
          },
        };
      },
    };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eddy-bench-test-'));
    const opts: SuiteOptions = {
      sf: 0.002, runs: 1, warmup: 2, queries: ['q1', 'q6', 'q13'], cacheWorkload: true, engines: ['duckdb-1t', 'eddy-p1', 'eddy-cached-p1', 'hand-loop'],
      timeoutMs: 30_000, memory: false, outDir: join(dir, 'out'), dataDir: join(dir, 'data'), quick: false, warmupMs: 0,
    };
    ({ report, files } = await runSuite(opts, { log: () => {}, extraEngines: (ctx) => [wrongEngine(ctx)] }));
  }, 180_000); // ~10 s alone; a loaded machine (another test run beside it) has taken over 60

  afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('verifies every answer before timing it: the altered one is WRONG and untimed', () => {
    for (const q of report.queries) {
      expect(q.engines['eddy-p1']!.status, q.id).toBe('ok');
      expect(q.engines['eddy-p1']!.medianMs).toBeGreaterThan(0);
      expect(q.engines['duckdb-1t']!.status).toBe('reference');
      const w = q.engines['eddy-wrong']!;
      expect(w.status, q.id).toBe('wrong');
      expect(w.medianMs).toBeUndefined();
      expect(w.problems!.length).toBeGreaterThan(0);
    }
    expect(report.queries.find((q) => q.id === 'q1')!.engines['hand-loop']!.status).toBe('ok');
    expect(report.queries.find((q) => q.id === 'q13')!.engines['hand-loop']!.status).toBe('not-applicable');
    expect(readFileSync(files.find((f) => f.endsWith('.md'))!, 'utf8')).toContain('eddy p1, answer altered: **WRONG**');
  });

  it('writes the JSON with the documented fields', () => {
    const json = JSON.parse(readFileSync(files.find((f) => f.endsWith('.json'))!, 'utf8')) as SuiteReport;
    expect(json).toMatchObject({ benchmark: 'suite', schemaVersion: 1, sf: 0.002, runs: 1, warmupRuns: 2, timeoutMs: 30_000 });
    for (const k of ['startedAt', 'finishedAt', 'machine', 'versions', 'load', 'data', 'engines', 'queries', 'geomeans', 'cpuGeomeans', 'workloads']) expect(json).toHaveProperty(k);
    expect(json.load.before).toHaveLength(3);
    // The memory-bandwidth probe ran before and after (not with --quick), and the Markdown names it.
    for (const p of [json.memoryBandwidth!.before, json.memoryBandwidth!.after]) {
      expect(p.oneThreadGBs).toBeGreaterThan(0);
      expect(p.twoThreadsGBs.every((x) => x > 0)).toBe(true);
      // Each figure is rounded to 0.01: the scaling lies within what the rounded ones allow (a loaded
      // machine's small rates make that range wide).
      const [a, b] = p.twoThreadsGBs;
      expect(p.scaling).toBeGreaterThanOrEqual((a + b - 0.01) / (p.oneThreadGBs + 0.005) - 0.005);
      expect(p.scaling).toBeLessThanOrEqual((a + b + 0.01) / Math.max(1e-9, p.oneThreadGBs - 0.005) + 0.005);
    }
    expect(readFileSync(files.find((f) => f.endsWith('.md'))!, 'utf8')).toMatch(/Memory streaming .* before: [\d.]+ GB\/s alone, [\d.]+ \+ [\d.]+ at once/);
    expect(json.versions).toHaveProperty('duckdb');
    const ok = json.queries[0]!.engines['eddy-p1']!;
    for (const k of ['medianMs', 'minMs', 'maxMs', 'samplesMs', 'firstMs', 'cpuMedianMs', 'sysCpuMedianMs', 'minorFaultsMedian', 'criticalCpuSamplesMs', 'rows']) expect(ok).toHaveProperty(k);
    expect(ok.criticalCpuSamplesMs).toHaveLength(1);
    expect(json.geomeans.find((g) => g.num === 'eddy-p1' && g.den === 'duckdb-1t')!.queries).toBe(3);
    const cache = json.workloads.cache as { queries: { engines: Record<string, { status: string }> }[]; entry: { bytes: number } };
    expect(cache.entry.bytes).toBeGreaterThan(0);
    for (const q of cache.queries) for (const c of ['eddy-recomputed', 'eddy-cached', 'eddy-cached-over-budget', 'duckdb-temp']) expect(q.engines[c]!.status).toBe('ok');
  });

  it('writes well-formed SVG charts', () => {
    const svgs = files.filter((f) => f.endsWith('.svg'));
    expect(svgs.map((f) => f.replace(/.*\//, ''))).toEqual(['suite-sf0.002-ratios.svg', 'suite-sf0.002-cache.svg']);
    for (const f of svgs) checkWellFormed(readFileSync(f, 'utf8'));
    expect(() => checkWellFormed('<svg xmlns="http://www.w3.org/2000/svg"><text>a & b</text></svg>')).toThrow();
    expect(() => checkWellFormed('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')).toThrow();
  });

  it('reuses the data folder', async () => {
    expect(existsSync(join(dir, 'data', 'sf-0.002', 'lineitem.parquet'))).toBe(true);
    expect((await ensureData(0.002, join(dir, 'data'))).reused).toBe(true);
  });

  it('runs the warm-ups untimed, the first one checked', async () => {
    const ref: EngineDef = { id: 'ref', label: 'ref', runner: () => ({ run: async () => ({ columns: ['x'], rows: [[1]] }), normalize: (r) => r as PlainResult }) };
    let calls = 0;
    const counted: EngineDef = { id: 'counted', label: 'counted', runner: () => ({ run: async () => { calls++; return { columns: ['x'], rows: [[1]] }; }, normalize: (r) => r as PlainResult }) };
    const q = { id: 'q0', n: 0, title: 't', sql: '', orderKeys: [] };
    const out = await runQuery(q, ref, [counted], { runs: 2, warmup: 3, timeoutMs: 10_000 });
    expect(calls).toBe(5);
    expect(out.engines['counted']!.samplesMs).toHaveLength(2);
    expect(out.engines['counted']!.firstMs).toBeGreaterThanOrEqual(0); // the checked first run's time is kept
  });

  it('warms each engine up for the time budget too, the slow one only its minimum runs', async () => {
    const ref: EngineDef = { id: 'ref', label: 'ref', runner: () => ({ run: async () => ({ columns: ['x'], rows: [[1]] }), normalize: (r) => r as PlainResult }) };
    const log: string[] = [];
    // The fast engine spins (a timer may fire tens of ms late on a loaded machine, which would use up the
    // budget in 3 runs); the slow one sleeps.
    const spin = (ms: number): void => { const t0 = performance.now(); while (performance.now() - t0 < ms) { /* busy */ } };
    const engine = (id: string, ms: number): EngineDef => ({ id, label: id, runner: () => ({ run: async () => { log.push(id); if (ms < 10) spin(ms); else await new Promise((r) => setTimeout(r, ms)); return { columns: ['x'], rows: [[1]] }; }, normalize: (r) => r as PlainResult }) });
    const q = { id: 'q0', n: 0, title: 't', sql: '', orderKeys: [] };
    const out = await runQuery(q, ref, [engine('fast', 5), engine('slow', 60)], { runs: 2, warmup: 2, warmupMs: 100, timeoutMs: 10_000, settle: async () => {} });
    const fast = out.engines['fast']!;
    const slow = out.engines['slow']!;
    // After the answer check (not counted toward the budget), slow: 2 more runs of ≥ 60 ms pass 100 ms;
    // fast: ~20 runs of ≥ 5 ms, never more than MAX_WARMUP_RUNS.
    expect(slow.warmupRuns).toBe(3);
    expect(fast.warmupRuns).toBeGreaterThan(3);
    expect(fast.warmupRuns).toBeLessThanOrEqual(MAX_WARMUP_RUNS);
    expect(log.filter((x) => x === 'fast')).toHaveLength(fast.warmupRuns! + 2);
    expect(log.filter((x) => x === 'slow')).toHaveLength(5);
    // The timed rounds come after every warm-up, interleaved.
    expect(log.slice(-4).sort()).toEqual(['fast', 'fast', 'slow', 'slow']);
    expect(fast.samplesMs).toHaveLength(2);
  });

  it('stops warming up at MAX_WARMUP_RUNS, and never before the minimum count', () => {
    expect(stillWarming(1, 5000, 3, 1000)).toBe(true);
    expect(stillWarming(3, 5000, 3, 1000)).toBe(false);
    expect(stillWarming(3, 999, 3, 1000)).toBe(true);
    expect(stillWarming(MAX_WARMUP_RUNS - 1, 10, 3, 1000)).toBe(true);
    expect(stillWarming(MAX_WARMUP_RUNS, 10, 3, 1000)).toBe(false);
    expect(stillWarming(1, 0, 1, 0)).toBe(false);
  });

  it('waits for quiet threads before every warm-up-round and timed run, never timed', async () => {
    const ref: EngineDef = { id: 'ref', label: 'ref', runner: () => ({ run: async () => ({ columns: ['x'], rows: [[1]] }), normalize: (r) => r as PlainResult }) };
    const log: string[] = [];
    const engine = (id: string): EngineDef => ({ id, label: id, runner: () => ({ run: async () => { log.push(id); return { columns: ['x'], rows: [[1]] }; }, normalize: (r) => r as PlainResult }) });
    const q = { id: 'q0', n: 0, title: 't', sql: '', orderKeys: [] };
    const out = await runQuery(q, ref, [engine('a'), engine('b')], {
      runs: 2, warmup: 3, timeoutMs: 10_000,
      // A settle that takes 200 ms: the timed samples must not include it.
      settle: async () => { log.push('settle'); await new Promise((r) => setTimeout(r, 200)); },
    });
    // The answer-checking runs first (no settle), then 2 untimed + 2 timed rounds of both engines, each run settled first.
    expect(log.slice(0, 2)).toEqual(['a', 'b']);
    const rest = log.slice(2);
    expect(rest).toHaveLength(16);
    for (let i = 0; i < rest.length; i += 2) expect(rest[i]).toBe('settle');
    for (const id of ['a', 'b']) for (const ms of out.engines[id]!.samplesMs!) expect(ms).toBeLessThan(150);
  });

  it('reports a run past the limit as timeout', async () => {
    const ref: EngineDef = { id: 'ref', label: 'ref', runner: () => ({ run: async () => ({ columns: ['x'], rows: [[1]] }), normalize: (r) => r as PlainResult }) };
    const hang: EngineDef = { id: 'hang', label: 'hang', runner: () => ({ run: () => new Promise(() => {}), normalize: (r) => r as PlainResult }) };
    const q = { id: 'q0', n: 0, title: 't', sql: '', orderKeys: [] };
    const out = await runQuery(q, ref, [hang], { runs: 1, timeoutMs: 100 });
    expect(out.engines['hang']!.status).toBe('timeout');
  });
});

describe('warm-up and steal options', () => {
  it('parses --warmup-s (default 1 s, 0 with --quick)', () => {
    expect(parseSuiteArgs(['--warmup-s', '2.5']).warmupMs).toBe(2500);
    expect(parseSuiteArgs([]).warmupMs).toBe(1000);
    expect(parseSuiteArgs(['--quick']).warmupMs).toBe(0);
    expect(parseSuiteArgs(['--quick', '--warmup-s', '1']).warmupMs).toBe(1000);
  });

  it('computes the steal share between two readings', () => {
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1400, steal: 30 })).toBe(5);
    expect(stealPercent({ total: 1000, steal: 10 }, { total: 1000, steal: 10 })).toBeUndefined();
    expect(stealPercent(undefined, { total: 1, steal: 0 })).toBeUndefined();
    const t = cpuTicks();
    if (process.platform === 'linux') expect(t!.total).toBeGreaterThan(t!.steal);
  });
});

describe('quiesce (the wait before a timed run)', () => {
  /** A fake process: CPU used per window from a list, a clock that only sleeps advance. */
  const fake = (perWindow: readonly number[]): { cpuMs: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } => {
    let cpu = 0;
    let w = 0;
    const slept: number[] = [];
    return { cpuMs: () => cpu, sleep: async (ms) => { slept.push(ms); cpu += perWindow[Math.min(w++, perWindow.length - 1)]!; }, slept };
  };

  it('waits while other threads use CPU and stops at the first quiet window', async () => {
    const f = fake([4.8, 3.1, 0.2, 5]);
    const r = await quiesce({ ...f, windowMs: 5, quietCpuMs: 0.5 });
    expect(r).toEqual({ waitedMs: 15, quiet: true, cpuMs: 4.8 + 3.1 + 0.2 });
    expect(f.slept).toEqual([5, 5, 5]);
  });

  it('returns after one window when the process is already quiet', async () => {
    const r = await quiesce({ ...fake([0]), windowMs: 5 });
    expect(r.waitedMs).toBe(5);
    expect(r.quiet).toBe(true);
  });

  it('gives up at maxMs when the threads never go quiet', async () => {
    const f = fake([2]);
    const r = await quiesce({ ...f, windowMs: 10, maxMs: 40, quietCpuMs: 1 });
    expect(r).toEqual({ waitedMs: 40, quiet: false, cpuMs: 8 });
    expect(f.slept).toHaveLength(4);
  });

  it('sees a real thread burning CPU (process CPU, all threads)', async () => {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker('const t = Date.now(); let x = 0; while (Date.now() - t < 800) x++; require("node:worker_threads").parentPort.postMessage(x);', { eval: true });
    await new Promise((r) => w.once('online', r));
    // One 100 ms window while the worker spins: the sleeping calling thread uses ~0.1 ms, the worker
    // tens (a few even at load 30 on two cores). Reading only this thread's CPU would fail here.
    const r = await quiesce({ windowMs: 100, maxMs: 100, quietCpuMs: 0.5 });
    await new Promise((r2) => w.once('message', r2));
    await w.terminate();
    expect(r).toMatchObject({ waitedMs: 100, quiet: false });
    expect(r.cpuMs).toBeGreaterThan(2);
  });
});

describe('bench suite answer check', () => {
  const want: PlainResult = { columns: ['k', 'v'], rows: [[2, 'a'], [2, 'b'], [1, 'c']] };
  it('accepts ties in any order and float noise', () => {
    expect(verifyAnswer({ columns: ['v', 'k'], rows: [['b', 2], ['a', 2 + 1e-12], ['c', 1]] }, want, ['k'])).toEqual([]);
  });
  it('catches a wrong order, a wrong value and a missing row', () => {
    expect(verifyAnswer({ columns: ['k', 'v'], rows: [[1, 'c'], [2, 'a'], [2, 'b']] }, want, ['k'])[0]).toMatch(/^order: row 0 k/);
    expect(verifyAnswer({ columns: ['k', 'v'], rows: [[2, 'a'], [2, 'x'], [1, 'c']] }, want, ['k']).length).toBeGreaterThan(0);
    expect(verifyAnswer({ columns: ['k', 'v'], rows: [[2, 'a'], [1, 'c']] }, want, ['k'])).toEqual(['2 rows, expected 3']);
  });
});

describe('bench suite p2 speed-up', () => {
  const outcome = (medianMs: number, criticalCpuMedianMs?: number): EngineOutcome => ({
    status: 'ok', medianMs, minMs: medianMs, maxMs: medianMs, samplesMs: [medianMs], cpuMedianMs: medianMs * 2,
    ...(criticalCpuMedianMs !== undefined ? { criticalCpuMedianMs } : {}),
  });
  const q = (p1: EngineOutcome, p2: EngineOutcome): QueryOutcome => ({ id: 'q1', title: 't', rows: 4, engines: { 'eddy-p1': p1, 'eddy-p2': p2 } });

  it('takes the critical path as the calling thread outside the shares plus the busiest share', () => {
    const at = (calling: number, shares: number[], share0OnCalling = false) => ({ calling, shares, share0OnCalling });
    expect(criticalPath(at(100, [10, 20]), at(150, [50, 45]))).toBe(50 + 40); // workers only
    expect(criticalPath(at(100, []), at(130, [40, 25]))).toBe(30 + 40); // workers started by the run count from 0
    expect(criticalPath(at(100, []), at(160, []))).toBe(60); // parallelism 1
    // share 0 on the calling thread: 70 of the calling thread's 80 ms ran beside the worker's 60
    expect(criticalPath(at(100, [0, 0], true), at(180, [70, 60], true))).toBe(10 + 70);
    expect(criticalPath(undefined, at(160, []))).toBeUndefined();
  });

  it('divides p1 by p2 over wall and critical-path CPU medians, only when both are timed', () => {
    expect(parallelSpeedUp(q(outcome(90, 88), outcome(60, 55)), 'wall')).toBeCloseTo(1.5);
    expect(parallelSpeedUp(q(outcome(90, 88), outcome(60, 55)), 'critical')).toBeCloseTo(1.6);
    expect(parallelSpeedUp(q(outcome(90), outcome(60)), 'critical')).toBeUndefined();
    expect(parallelSpeedUp(q(outcome(90, 88), { status: 'wrong', rows: 3 }), 'wall')).toBeUndefined();
  });

  it('shows both speed-ups in the per-query table', () => {
    const rep: SuiteReport = {
      benchmark: 'suite', schemaVersion: 1, sf: 1, runs: 5, warmupRuns: 1, timeoutMs: 1000, startedAt: 'a', finishedAt: 'b',
      machine: { 'logical cores': 2 }, versions: {}, load: { before: [0, 0, 0], after: [0, 0, 0] }, data: {},
      engines: ['eddy-p1', 'eddy-p2'], engineLabels: {}, queries: [q(outcome(90, 88), outcome(60, 55))], geomeans: [], cpuGeomeans: [], workloads: {},
    };
    const md = suiteMarkdown(rep);
    const cells = (start: string): string[] => md.split('\n').find((l) => l.startsWith(start))!.split('|').map((c) => c.trim());
    const head = cells('| Q |');
    const row = cells('| Q1 |');
    expect(row[head.indexOf('eddy p2 speed-up (wall)')]).toBe('1.50×');
    expect(row[head.indexOf('eddy p2 speed-up (CPU)')]).toBe('1.60×');
    expect(suiteMarkdown({ ...rep, engines: ['eddy-p1'] })).not.toContain('speed-up (wall)');
  });

  it('lists each engine\'s first run in its own table', () => {
    const first = (o: EngineOutcome, ms: number): EngineOutcome => ({ ...o, firstMs: ms });
    const rep: SuiteReport = {
      benchmark: 'suite', schemaVersion: 1, sf: 1, runs: 5, warmupRuns: 1, timeoutMs: 1000, startedAt: 'a', finishedAt: 'b',
      machine: {}, versions: {}, load: { before: [0, 0, 0], after: [0, 0, 0] }, data: {},
      engines: ['eddy-p1', 'eddy-p2'], engineLabels: {}, queries: [q(first(outcome(90, 88), 412), first(outcome(60, 55), 733))], geomeans: [], cpuGeomeans: [], workloads: {},
    };
    const md = suiteMarkdown(rep);
    const table = md.slice(md.indexOf('## First run (ms)'));
    expect(table.split('\n').find((l) => l.startsWith('| Q1 |'))).toBe('| Q1 | 412 | 733 |');
    expect(md).toContain('after 1 warm-up run, engines');
    const timed = suiteMarkdown({ ...rep, warmupRuns: 3, warmupMs: 1000, stealPct: 4.2, queries: [q({ ...outcome(90, 88), warmupRuns: 3 }, { ...outcome(60, 55), warmupRuns: 17 })] });
    expect(timed).toContain('after at least 3 warm-up runs and 1 s of them per engine and query (3–17 done per engine and query)');
    expect(timed).toContain('CPU steal over the run 4.2%');
  });

  it('counts the minor page faults and system CPU of a run that touches fresh memory', async () => {
    const touch = (mb: number): Runner => ({
      run: async () => { const a = new Uint8Array(mb << 20); for (let i = 0; i < a.length; i += 4096) a[i] = 1; return a.length; },
      normalize: () => ({ columns: [], rows: [] }) as unknown as PlainResult,
    });
    const small = await runWithTimeout(touch(0), 30_000);
    const big = await runWithTimeout(touch(64), 30_000);
    // 64 MB of fresh pages fault at least once per 2 MB (huge pages) and usually once per 4 KB.
    expect(big.minorFaults).toBeGreaterThan(small.minorFaults + 30);
    expect(big.sysCpuMs).toBeGreaterThanOrEqual(0);
    expect(big.sysCpuMs).toBeLessThanOrEqual(big.cpuMs);
  });

  it('names the other threads that used CPU during a run', async () => {
    const { Worker } = await import('node:worker_threads');
    let worker: InstanceType<typeof Worker> | undefined;
    const busy: Runner = {
      // The worker burns ~80 ms of its own CPU (its thread's schedstat run time, not process.cpuUsage(), which
      // counts every thread of the process: under load the other threads' time ended the loop early) and stays
      // alive until terminated (a timer: without it the thread ended right after posting, and under load the
      // run's second snapshot came after it was gone from /proc/self/task — "expected 1.9 to be >= 40").
      run: () => new Promise((resolve, reject) => {
        const own = 'const fs = require("node:fs"); const own = () => { try { return Number(fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6; }'
          + ' catch { const f = fs.readFileSync("/proc/thread-self/stat", "utf8").slice(fs.readFileSync("/proc/thread-self/stat", "utf8").lastIndexOf(")") + 2).split(" "); return (Number(f[11]) + Number(f[12])) * 10; } };';
        worker = new Worker(`${own} const t = own(); let x = 0; while (own() - t < 80) for (let i = 0; i < 1e5; i++) x++; require("node:worker_threads").parentPort.postMessage(x); setInterval(() => {}, 60000);`, { eval: true });
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
      normalize: () => ({ columns: [], rows: [] }) as unknown as PlainResult,
    };
    try {
      const r = await runWithTimeout(busy, 30_000);
      expect(Math.max(...Object.values(r.otherThreadsCpuMs))).toBeGreaterThanOrEqual(40);
    } finally {
      await worker?.terminate();
    }
  });

  it('gets the calling thread and worker CPU from an eddy p2 run', async () => {
    const t = (await import('apache-arrow')).tableFromArrays({ k: Int32Array.from({ length: 20_000 }, (_, i) => i % 7), v: Float64Array.from({ length: 20_000 }, (_, i) => i) });
    const env = TableEnvironment.create({ parallelism: 2 });
    try {
      env.registerTable('t', t);
      const ctx = { tables: {}, envs: { 'eddy-p2': env }, duck: {} } as unknown as EngineContext;
      const runner = engineDef('eddy-p2', ctx).runner({ id: 'qx', n: 0, title: 't', sql: 'SELECT k, sum(v) AS s FROM t GROUP BY k', orderKeys: [] })!;
      const r = await runWithTimeout(runner, 30_000);
      expect(runner.normalize(r.raw, []).rows).toHaveLength(7);
      expect(r.criticalCpuMs).toBeGreaterThanOrEqual(0);
      expect(Array.isArray(runner.threadCpu!()!.shares)).toBe(true);
    } finally {
      await env.close();
    }
  });
});
