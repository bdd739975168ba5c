/**
 * The cache benchmark's report: per-action timings recomputed, from the
 * cache and by a hand-written loop; the first run's cost of writing the
 * cache; the cache's size; the targets. Markdown and JSON (no timestamps in
 * file names).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { WallCpuTiming } from './cpu-timing.js';
import { ratio } from './timing.js';

/** One action's measurements. */
export interface CacheQueryResult {
  readonly id: string;
  readonly text: string;
  /** Recomputed from lineitem and orders every time (no cache). */
  readonly recomputed?: WallCpuTiming;
  /** Served from the committed cache entry. */
  readonly cached?: WallCpuTiming;
  /** The hand-written loop over b's collected Arrow columns. */
  readonly handLoop?: WallCpuTiming;
  /** 'ok' when the cached, recomputed and hand-loop results agree. */
  readonly check: 'ok' | 'mismatch' | 'not-run';
  readonly problems?: readonly string[];
}

/** The first query with the cache (compute b, write it, answer) vs the same query without. */
export interface FirstRunResult {
  readonly id: string;
  readonly withoutCache: WallCpuTiming;
  readonly withCache: WallCpuTiming;
}

/** The committed entry of b. */
export interface CacheEntryResult {
  readonly rows: number;
  /** In-memory size of the entry's batches. */
  readonly bytes: number;
  /** `env.cacheManager.stats().memoryBytes`: resident bytes of all instances. */
  readonly residentBytes: number;
  readonly diskBytes: number;
  readonly tier: string;
  readonly partitions: number;
  readonly instances: number;
  readonly budgetBytes: number;
}

/** The whole run. */
export interface CacheReport {
  readonly benchmark: 'cache';
  readonly sf: number;
  readonly runs: number;
  readonly b: string;
  readonly queries: readonly CacheQueryResult[];
  readonly firstRun?: FirstRunResult;
  readonly entry?: CacheEntryResult;
  /** A count over the 5-row region table: the per-query cost of planning and running anything. */
  readonly floor?: WallCpuTiming;
  readonly environment: Readonly<Record<string, string | number | boolean>>;
  readonly problems: readonly string[];
}

function ms(x: number | undefined): string {
  if (x === undefined) return '–';
  return x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
}

function times(x: number | undefined): string {
  return x === undefined ? '–' : `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;
}

/** cached / hand loop, or undefined when the hand loop does no per-row work (count reads numRows: no meaningful ratio). */
function vsHand(cached: number | undefined, hand: number | undefined): number | undefined {
  return hand !== undefined && hand < 0.01 ? undefined : ratio(cached, hand);
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

function verdict(ok: boolean | undefined, detail: string): string {
  return ok === undefined ? 'not measured' : `${ok ? 'yes' : 'NO'} (${detail})`;
}

/** First-run overhead as a fraction (0.05 = 5% slower with the cache) by median wall clock, median CPU time or best wall-clock run. */
export function firstRunOverhead(f: FirstRunResult | undefined, by: 'wall' | 'cpu' | 'best' = 'wall'): number | undefined {
  if (f === undefined) return undefined;
  const pick = (t: WallCpuTiming): number => (by === 'cpu' ? t.cpuMedianMs : by === 'best' ? t.minMs : t.medianMs);
  const r = ratio(pick(f.withCache), pick(f.withoutCache));
  return r === undefined ? undefined : r - 1;
}

const pct = (x: number | undefined): string => (x === undefined ? '–' : `${(x * 100).toFixed(1)}%`);

/** Renders the report as Markdown. */
export function cacheToMarkdown(rep: CacheReport): string {
  const lines = [
    `# eddy cache benchmark — FLIP-36's example at TPC-H SF ${rep.sf}`,
    '',
    `\`b = ${rep.b}\`, then five actions on \`b\`. "recomputed" runs the action in an environment without the cache (b computed from lineitem and orders each time): median of ${rep.runs} runs. "cached" reads the committed entry of \`b\`; "hand loop" is a hand-written loop over the typed arrays of \`b\`'s Arrow columns (collected once), no engine: median of ${3 * rep.runs} samples of about 100 ms each, a sample calling the action repeatedly and recording the mean per call. Every measurement follows one warm-up, every sample a full GC; every result is checked against the recomputed one (1e-6 relative). Times are wall clock; "CPU" is the process's CPU time (user + system, all threads) over the same runs, which waiting for a core on a shared machine does not inflate (sharing caches and memory bandwidth still does).`,
    '',
    ...busyWarning(rep),
    '| action | recomputed ms | cached ms | recomputed / cached | hand loop ms | cached / hand loop |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const q of rep.queries) {
    const bad = q.check === 'mismatch' ? ' (wrong result)' : '';
    lines.push(`| \`${q.text}\`${bad} | ${ms(q.recomputed?.medianMs)} | ${ms(q.cached?.medianMs)} | ${times(ratio(q.recomputed?.medianMs, q.cached?.medianMs))} | ${ms(q.handLoop?.medianMs)} | ${times(vsHand(q.cached?.medianMs, q.handLoop?.medianMs))} |`);
  }
  lines.push('', 'The same runs by CPU time (medians), and the best (fastest) wall-clock sample of each:', '',
    '| action | CPU recomputed ms | CPU cached ms | CPU hand loop ms | CPU: recomputed / cached | CPU: cached / hand loop | best: cached / hand loop |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const q of rep.queries) {
    lines.push(`| ${q.id} | ${ms(q.recomputed?.cpuMedianMs)} | ${ms(q.cached?.cpuMedianMs)} | ${ms(q.handLoop?.cpuMedianMs)} | ${times(ratio(q.recomputed?.cpuMedianMs, q.cached?.cpuMedianMs))} | ${times(vsHand(q.cached?.cpuMedianMs, q.handLoop?.cpuMedianMs))} | ${times(vsHand(q.cached?.minMs, q.handLoop?.minMs))} |`);
  }
  const rec = sum(rep.queries.map((q) => q.recomputed?.medianMs));
  const reads = sum(rep.queries.slice(1).map((q) => q.cached?.medianMs));
  const first = rep.firstRun?.withCache.medianMs;
  const program = first === undefined || reads === undefined ? undefined : first + reads;
  lines.push('', `The whole program (five actions): ${ms(rec)} ms recomputed, ${ms(program)} ms with the cache (the first action computes and writes \`b\`, the other four read it): ${times(ratio(rec, program))} faster.`);
  if (rep.floor) lines.push('', `Per-query floor: \`region.count()\` (5 rows) takes ${ms(rep.floor.medianMs)} ms — planning and starting a job, which a hand loop does not pay.`);
  const f = rep.firstRun;
  if (f) {
    lines.push('', '## First run: computing and writing the cache', '',
      '| measure | without cache ms | with cache (compute + write) ms | overhead |', '| --- | ---: | ---: | ---: |');
    const label = rep.queries.find((q) => q.id === f.id)?.text ?? f.id;
    lines.push(`| \`${label}\`, wall clock (median) | ${ms(f.withoutCache.medianMs)} | ${ms(f.withCache.medianMs)} | ${pct(firstRunOverhead(f))} |`);
    lines.push(`| CPU time (median) | ${ms(f.withoutCache.cpuMedianMs)} | ${ms(f.withCache.cpuMedianMs)} | ${pct(firstRunOverhead(f, 'cpu'))} |`);
    lines.push(`| best wall-clock run | ${ms(f.withoutCache.minMs)} | ${ms(f.withCache.minMs)} | ${pct(firstRunOverhead(f, 'best'))} |`);
    const list = (xs: readonly number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
    lines.push('', `Interleaved, ${f.withoutCache.samplesMs.length} pairs: each timed run without the cache is followed by \`b.invalidateCache()\` (not timed) and a timed run that recomputes \`b\` and writes it. Wall samples without: ${list(f.withoutCache.samplesMs)}; with: ${list(f.withCache.samplesMs)} ms.`);
  }
  const e = rep.entry;
  if (e) {
    lines.push('', '## The cache entry of b', '');
    lines.push(`- rows: ${e.rows}`, `- size of its batches: ${mib(e.bytes)} (${e.bytes} bytes)`, `- resident bytes (\`env.cacheManager.stats().memoryBytes\`): ${mib(e.residentBytes)} (${e.residentBytes} bytes); on disk: ${e.diskBytes} bytes; tier ${e.tier}`);
    lines.push(`- partitions: ${e.partitions} over ${e.instances} cache service instance(s); memory budget ${mib(e.budgetBytes)}`);
  }
  lines.push('', '## Targets (reported, not asserted)', '');
  const within = (x: number | undefined, limit: number, show: (v: number | undefined) => string): string => verdict(x === undefined ? undefined : x <= limit, show(x));
  lines.push(`- first-run overhead of writing the cache ≤ 10%: median wall ${within(firstRunOverhead(f), 0.1, pct)}; median CPU ${within(firstRunOverhead(f, 'cpu'), 0.1, pct)}; best run ${within(firstRunOverhead(f, 'best'), 0.1, pct)}`);
  for (const q of rep.queries) {
    const r = vsHand(q.cached?.medianMs, q.handLoop?.medianMs);
    const rc = vsHand(q.cached?.cpuMedianMs, q.handLoop?.cpuMedianMs);
    const rb = vsHand(q.cached?.minMs, q.handLoop?.minMs);
    if (r === undefined && q.handLoop !== undefined && q.cached !== undefined) {
      lines.push(`- \`${q.id}\` from the cache within 1.5× of the hand loop: no meaningful ratio — the hand-written count reads each batch's numRows (${ms(q.handLoop.medianMs)} ms) while the query takes ${ms(q.cached.medianMs)} ms; NO`);
      continue;
    }
    lines.push(`- \`${q.id}\` from the cache within 1.5× of the hand loop: median wall ${within(r, 1.5, times)}; median CPU ${within(rc, 1.5, times)}; best ${within(rb, 1.5, times)}`);
  }
  const probs = [...rep.problems, ...rep.queries.filter((q) => q.check === 'mismatch').map((q) => `${q.id}: ${q.problems?.join('; ')}`)];
  if (probs.length > 0) lines.push('', '## Problems', '', ...probs.map((p) => `- ${p}`));
  lines.push('', '## Setup', '');
  for (const [k, v] of Object.entries(rep.environment)) lines.push(`- ${k}: ${v}`);
  return `${lines.join('\n')}\n`;
}

function sum(xs: readonly (number | undefined)[]): number | undefined {
  return xs.some((x) => x === undefined) ? undefined : xs.reduce<number>((a, b) => a + b!, 0);
}

/** A warning when other work competed for the CPUs (load average above half the cores). */
function busyWarning(rep: CacheReport): string[] {
  const env = rep.environment;
  const cores = Number(env['logical cores']);
  const load = Math.max(Number(env['load average at start (1 min)'] ?? 0), Number(env['load average at end (1 min)'] ?? 0));
  return cores > 0 && load > cores / 2
    ? [`**Warning:** the machine was busy (1-minute load average up to ${load} on ${cores} cores); timings are unreliable — rerun on a quiet machine.`, '']
    : [];
}

/** Writes the Markdown and JSON files. */
export function writeCacheReport(rep: CacheReport, mdPath: string, jsonPath: string): void {
  mkdirSync(dirname(mdPath), { recursive: true });
  writeFileSync(mdPath, cacheToMarkdown(rep));
  const round = (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v);
  writeFileSync(jsonPath, `${JSON.stringify(rep, round, 2)}\n`);
}
