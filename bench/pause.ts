/**
 * Event-loop pauses and cancellation latency over the 22 TPC-H queries
 * (issue 11: "no event-loop pause over 100 ms in any operator at SF 1",
 * "cancellation within 200 ms during any query").
 *
 * Per query it reports:
 * - the longest event-loop pause during the run, measured by a timer-lag
 *   probe (a 2 ms timer chain; a pause is the time between two ticks) and
 *   cross-checked with `perf_hooks.monitorEventLoopDelay`;
 * - the longest single synchronous call into any operator or source (open,
 *   processBatch, watermark, finish, a deferred step, a source's next), with
 *   the operator's name: the job graph builder is wrapped in this script
 *   (nothing in src changes), so a long pause can be traced to its step;
 * - the cancellation latency: the query is started again and aborted at
 *   several points of its run; the latency is the time from `abort()` to the
 *   action's rejection.
 *
 * The data comes from the built-in generator (src/io/tpch), in memory.
 *
 *   npm run bench:pause -- [--sf 1] [--only q1,q9] [--no-cancel] [--parallelism 1] [--json out.json]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TableEnvironment } from '../src/api/environment.js';
import { JobGraphBuilder } from '../src/exec/job.js';
import { collectGarbage } from './lib/timing.js';
import type { Operator, OperatorContext, OperatorFactory, SourceFactory, SourceInstance } from '../src/exec/operator.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };
const SF = Number(opt('sf', '1'));
const P = Number(opt('parallelism', '1'));
const ONLY = opt('only', '').split(',').filter(Boolean);
const CANCEL = !argv.includes('--no-cancel');
const JSON_OUT = opt('json', '');
/** Also print the N longest calls of each query (with the rows of the batch a processBatch got). */
const TOP = Number(opt('top', '0'));

// ------------------------------------------------------------------ step attribution

/**
 * The longest synchronous call seen so far, per run, by self time: delivery
 * is push-based, so a call's total time includes the operators downstream
 * that it fed synchronously; their time is subtracted.
 */
let longest = { ms: 0, where: '' };
/** The longest call by self CPU time (process.cpuUsage: not inflated by other processes on a loaded machine). */
let longestCpu = { ms: 0, where: '' };
/** The TOP longest calls of the current run (only kept with --top). */
let top: { ms: number; cpuMs: number; where: string }[] = [];
/** When the current run opened its first operator or source (planning is over). */
let execStart = Infinity;
/** Child wall and CPU time accumulated by each open call on the stack. */
const childMs: number[] = [];
const childCpu: number[] = [];
const cpuNow = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function timed<T>(where: string, f: () => T): T {
  const t0 = performance.now();
  const c0 = cpuNow();
  childMs.push(0);
  childCpu.push(0);
  try { return f(); } finally {
    const total = performance.now() - t0;
    const totalCpu = cpuNow() - c0;
    const self = total - childMs.pop()!;
    const selfCpu = totalCpu - childCpu.pop()!;
    if (childMs.length > 0) { childMs[childMs.length - 1]! += total; childCpu[childCpu.length - 1]! += totalCpu; }
    if (self > longest.ms) longest = { ms: self, where };
    if (selfCpu > longestCpu.ms) longestCpu = { ms: selfCpu, where };
    if (TOP > 0 && (top.length < TOP || self > top[top.length - 1]!.ms)) {
      top.push({ ms: self, cpuMs: selfCpu, where });
      top.sort((a, b) => b.ms - a.ms);
      if (top.length > TOP) top.pop();
    }
  }
}

function wrapOperator(name: string, factory: OperatorFactory): OperatorFactory {
  return (subtask) => {
    const op = factory(subtask);
    const w: Operator = {
      open: (ctx) => {
        const proxied = new Proxy(ctx, {
          get(target, prop, recv) {
            if (prop === 'defer') return (step: () => boolean) => target.defer(() => timed(`${name} deferred step`, step));
            return Reflect.get(target, prop, recv) as unknown;
          },
        }) as OperatorContext;
        execStart = Math.min(execStart, performance.now());
        timed(`${name} open`, () => op.open(proxied));
      },
      processBatch: (i, b, e) => timed(TOP > 0 ? `${name} processBatch(${b.numRows} rows)` : `${name} processBatch`, () => op.processBatch(i, b, e)),
      finish: () => timed(`${name} finish`, () => op.finish()),
      close: () => timed(`${name} close`, () => op.close()),
    };
    if (op.onEpochWatermarkIncremented) w.onEpochWatermarkIncremented = (e) => timed(`${name} watermark`, () => op.onEpochWatermarkIncremented!(e));
    if (op.onInputEnd) w.onInputEnd = (i) => timed(`${name} onInputEnd`, () => op.onInputEnd!(i));
    if (op.selectInput) w.selectInput = () => op.selectInput!();
    return w;
  };
}

function wrapSource(name: string, factory: SourceFactory): SourceFactory {
  return async (ctx) => {
    execStart = Math.min(execStart, performance.now());
    const s: SourceInstance = await factory(ctx);
    return { next: () => timed(`${name} next`, () => s.next()), close: () => s.close() };
  };
}

const addOperator = JobGraphBuilder.prototype.addOperator;
JobGraphBuilder.prototype.addOperator = function (this: JobGraphBuilder, name, parallelism, schema, factory, inputs, detail) {
  return addOperator.call(this, name, parallelism, schema, wrapOperator(name, factory), inputs, detail);
};
const addSource = JobGraphBuilder.prototype.addSource;
JobGraphBuilder.prototype.addSource = function (this: JobGraphBuilder, name, parallelism, schema, factory, detail, options) {
  return addSource.call(this, name, parallelism, schema, wrapSource(name, factory), detail, options);
};

// ------------------------------------------------------------------ pause probe

/**
 * Starts a timer-lag probe; `stop()` returns the longest gap between ticks
 * beyond the timer's own delay, over the whole action (`planMs`: the part
 * before execution started, i.e. parse, plan and lowering) and over the
 * execution alone (`execMs`: gaps that ended after the first operator opened).
 */
function startProbe(): { stop: () => { planMs: number; execMs: number; execCpuMs: number; histMaxMs: number } } {
  const hist = monitorEventLoopDelay({ resolution: 5 });
  hist.enable();
  let planMax = 0;
  let execMax = 0;
  /** The most CPU time the process used between two ticks during execution (a pause's own work, without waiting for a core). */
  let execCpuMax = 0;
  let last = performance.now();
  let lastCpu = cpuNow();
  let timer: NodeJS.Timeout;
  const gap = (now: number): void => {
    const g = now - last - 2;
    // A gap that straddles the start of execution is counted from that start.
    if (now <= execStart) planMax = Math.max(planMax, g);
    else { planMax = Math.max(planMax, execStart - last); execMax = Math.max(execMax, Math.min(g, now - execStart)); }
    const cpu = cpuNow();
    if (now > execStart && last >= execStart) execCpuMax = Math.max(execCpuMax, cpu - lastCpu);
    lastCpu = cpu;
    last = now;
  };
  const tick = (): void => { gap(performance.now()); timer = setTimeout(tick, 2); };
  timer = setTimeout(tick, 2);
  return {
    stop: () => {
      clearTimeout(timer);
      gap(performance.now());
      hist.disable();
      return { planMs: planMax, execMs: execMax, execCpuMs: execCpuMax, histMaxMs: hist.max / 1e6 };
    },
  };
}

// ------------------------------------------------------------------ run

interface QueryResult {
  readonly id: string;
  readonly ms: number;
  readonly rows: number;
  readonly pauseMs: number;
  readonly planPauseMs: number;
  readonly histMaxMs: number;
  readonly pauseCpuMs: number;
  readonly longestStepMs: number;
  readonly longestStep: string;
  readonly longestCpuMs: number;
  readonly longestCpu: string;
  readonly cancelMs: number[];
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

async function measure(env: TableEnvironment, id: string, sql: string): Promise<QueryResult> {
  await env.sql(sql).collect(); // warm-up: JIT and lazily built state are not the runtime's pauses
  // A major GC, not a bare gc(): that one discards optimized code, so the measured run would pay the JIT again.
  collectGarbage();
  await settle();
  longest = { ms: 0, where: '' };
  longestCpu = { ms: 0, where: '' };
  top = [];
  execStart = Infinity;
  const probe = startProbe();
  const t0 = performance.now();
  const table = await env.sql(sql).collect();
  const ms = performance.now() - t0;
  const p = probe.stop();
  const step = longest;
  const stepCpu = longestCpu;
  if (TOP > 0) process.stderr.write(`${id} longest calls:\n${top.map((t) => `  ${t.ms.toFixed(1)} ms (cpu ${t.cpuMs.toFixed(1)}) ${t.where}`).join('\n')}\n`);
  const cancelMs: number[] = [];
  if (CANCEL) {
    for (const frac of [0.1, 0.5, 0.9]) {
      collectGarbage();
      await settle();
      const ac = new AbortController();
      let aborted = 0;
      const at = Math.max(1, ms * frac);
      const t = setTimeout(() => { aborted = performance.now(); ac.abort(); }, at);
      try {
        await env.sql(sql).collect({ signal: ac.signal });
        clearTimeout(t);
      } catch (e) {
        if (!(e instanceof Error) || !/cancel/i.test(e.message)) throw e;
        cancelMs.push(performance.now() - aborted);
      }
    }
  }
  return { id, ms, rows: table.numRows, pauseMs: p.execMs, pauseCpuMs: p.execCpuMs, planPauseMs: p.planMs, histMaxMs: p.histMaxMs, longestStepMs: step.ms, longestStep: step.where, longestCpuMs: stepCpu.ms, longestCpu: stepCpu.where, cancelMs };
}

async function main(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: P });
  let t0 = performance.now();
  env.registerTpch(SF);
  process.stderr.write(`generated TPC-H SF ${SF} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const ids = Array.from({ length: 22 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`)
    .filter((id) => ONLY.length === 0 || ONLY.includes(id) || ONLY.includes(id.replace(/^q0/, 'q')));
  const results: QueryResult[] = [];
  for (const id of ids) {
    const sql = readFileSync(fileURLToPath(new URL(`./tpch/${id}.sql`, import.meta.url)), 'utf8');
    t0 = performance.now();
    const r = await measure(env, id, sql);
    results.push(r);
    const c = r.cancelMs.length ? `cancel max ${Math.max(...r.cancelMs).toFixed(0)} ms (${r.cancelMs.map((x) => x.toFixed(0)).join('/')})` : 'cancel -';
    process.stderr.write(`${id} ${r.ms.toFixed(0)} ms, ${r.rows} rows, pause ${r.pauseMs.toFixed(0)} ms (cpu ${r.pauseCpuMs.toFixed(0)}, plan ${r.planPauseMs.toFixed(0)}, hist ${r.histMaxMs.toFixed(0)}), step ${r.longestStepMs.toFixed(0)} ms ${r.longestStep}, step cpu ${r.longestCpuMs.toFixed(0)} ms ${r.longestCpu}, ${c}\n`);
  }
  const lines = [
    `| query | run ms | planning pause ms | longest pause ms | its CPU ms | longest step ms | where | longest step CPU ms | where | cancel latency ms (10/50/90 %) |`,
    `| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |`,
    ...results.map((r) => `| ${r.id} | ${r.ms.toFixed(0)} | ${r.planPauseMs.toFixed(0)} | ${r.pauseMs.toFixed(0)} | ${r.pauseCpuMs.toFixed(0)} | ${r.longestStepMs.toFixed(0)} | ${r.longestStep} | ${r.longestCpuMs.toFixed(0)} | ${r.longestCpu} | ${r.cancelMs.map((x) => x.toFixed(0)).join(' / ') || '(finished first)'} |`),
  ];
  const worst = results.reduce((a, r) => (r.pauseMs > a.pauseMs ? r : a), results[0]!);
  const allCancel = results.flatMap((r) => r.cancelMs);
  const worstCpu = results.reduce((a, r) => (r.pauseCpuMs > a.pauseCpuMs ? r : a), results[0]!);
  const worstStep = results.reduce((a, r) => (r.longestCpuMs > a.longestCpuMs ? r : a), results[0]!);
  lines.push('', `SF ${SF}, parallelism ${P}: longest pause ${worst.pauseMs.toFixed(0)} ms (${worst.id}); most CPU in one pause ${worstCpu.pauseCpuMs.toFixed(0)} ms (${worstCpu.id}); longest operator call by CPU ${worstStep.longestCpuMs.toFixed(0)} ms (${worstStep.id}, ${worstStep.longestCpu}); cancellation latency max ${allCancel.length ? Math.max(...allCancel).toFixed(0) : '-'} ms over ${allCancel.length} cancels`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ sf: SF, parallelism: P, results }, null, 2)}\n`);
}

await main();
