/**
 * The suite's Markdown report: geometric means, the per-query table of
 * medians and ratios (WRONG / timeout / error instead of a time where the
 * answer was not verified), the spread (min–max), every problem listed with
 * its difference, the cache workload, the charts and the setup.
 */
import { describeBandwidth } from '../lib/memory-bandwidth.js';
import type { MemoryResult } from '../lib/memory.js';
import type { SuiteEngine } from './args.js';
import type { CacheWorkloadResult } from './cache-workload.js';
import { ENGINE_LABEL } from './engines.js';
import { baseNameOf } from './names.js';
import { parallelSpeedUp, queryRatio, timed, type EngineOutcome, type QueryOutcome, type SuiteReport } from './results.js';

type Label = (id: string) => string;
const ms = (x: number | undefined): string => (x === undefined ? '–' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
const times = (x: number | undefined): string => (x === undefined ? '–' : `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`);

function cell(o: EngineOutcome | undefined): string {
  if (!o || o.status === 'not-applicable') return '–';
  if (o.status === 'wrong') return '**WRONG**';
  if (o.status === 'timeout' || o.status === 'error' || o.status === 'no-reference') return o.status;
  return ms(o.medianMs);
}

const SHOWN_PAIRS = [
  { num: 'eddy-p1', den: 'duckdb-1t' }, { num: 'eddy-p2', den: 'duckdb-2t' }, { num: 'eddy-cached-p1', den: 'duckdb-1t' },
];

function queryTable(rep: SuiteReport, label: Label): string[] {
  const engines = rep.engines;
  const pairs = SHOWN_PAIRS.filter((p) => engines.includes(p.num) && engines.includes(p.den));
  const hasMem = rep.queries.some((q) => q.memory);
  const cpuPair = pairs.find((p) => p.num === 'eddy-p1' && p.den === 'duckdb-1t');
  const speedUp = engines.includes('eddy-p1') && engines.includes('eddy-p2');
  const head = ['Q', 'rows', ...engines.map((e) => `${label(e)} ms`), ...pairs.map((p) => `${label(p.num)} / ${label(p.den)}`),
    ...(cpuPair ? ['eddy p1 / DuckDB 1 thread (CPU)'] : []), ...(speedUp ? ['eddy p2 speed-up (wall)', 'eddy p2 speed-up (CPU)'] : []),
    ...(hasMem ? ['eddy p1 peak +MB'] : [])];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 1 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const q of rep.queries) {
    const mem = q.memory ? ('deltaMb' in q.memory && !(q.memory as MemoryResult).error ? ms((q.memory as MemoryResult).deltaMb) : 'error') : '–';
    lines.push(`| ${[q.id.toUpperCase(), String(q.rows ?? '–'), ...engines.map((e) => cell(q.engines[e])),
      ...pairs.map((p) => times(queryRatio(q, p))), ...(cpuPair ? [times(queryRatio(q, cpuPair, 'cpu'))] : []),
      ...(speedUp ? [times(parallelSpeedUp(q, 'wall')), times(parallelSpeedUp(q, 'critical'))] : []), ...(hasMem ? [mem] : [])].join(' | ')} |`);
  }
  return lines;
}

function spreadTable(rep: SuiteReport, label: Label): string[] {
  const head = ['Q', ...rep.engines.map(label)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 1 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const q of rep.queries) {
    lines.push(`| ${[q.id.toUpperCase(), ...rep.engines.map((e) => {
      const o = q.engines[e];
      return timed(o) === undefined ? cell(o) : `${ms(o!.minMs)} – ${ms(o!.maxMs)}`;
    })].join(' | ')} |`);
  }
  return lines;
}

/** Per query and engine, the first run's wall ms (the answer check, untimed otherwise). */
function firstRunTable(rep: SuiteReport, label: Label): string[] {
  const head = ['Q', ...rep.engines.map(label)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 1 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const q of rep.queries) {
    lines.push(`| ${[q.id.toUpperCase(), ...rep.engines.map((e) => {
      const o = q.engines[e];
      return o?.firstMs === undefined ? cell(o) : ms(o.firstMs);
    })].join(' | ')} |`);
  }
  return lines;
}

function problems(queries: readonly QueryOutcome[], what: string, label: Label): string[] {
  const out: string[] = [];
  for (const q of queries) {
    for (const [e, o] of Object.entries(q.engines)) {
      if (o.status === 'wrong') out.push(`- ${what}${q.id.toUpperCase()} ${label(e)}: **WRONG** (${o.rows} rows): ${o.problems?.join('; ')}`);
      else if (o.status === 'timeout' || o.status === 'error' || o.status === 'no-reference') out.push(`- ${what}${q.id.toUpperCase()} ${label(e)}: ${o.status}: ${o.error}`);
    }
    if (q.memory && 'error' in q.memory && q.memory.error) out.push(`- ${what}${q.id.toUpperCase()} memory child: ${q.memory.error}`);
  }
  return out;
}

function cacheSection(w: CacheWorkloadResult | { error: string }): string[] {
  if ('error' in w) return ['## Cached vs recomputed', '', `The workload failed: ${w.error}`, ''];
  const cfg = Object.keys(w.configs);
  const speed = [['eddy-recomputed', 'eddy-cached'], ['eddy-recomputed', 'eddy-cached-over-budget'], ['duckdb-view', 'duckdb-temp']].filter(([a, b]) => cfg.includes(a!) && cfg.includes(b!));
  const head = ['query', ...cfg.map((c) => `${c} ms`), ...speed.map(([a, b]) => `${b} speed-up`)];
  const lines = [
    '## Cached vs recomputed (FLIP-36\'s example)', '',
    'Every query reads `j`:', '', '```sql', w.join, '```', '',
    ...cfg.map((c) => `- \`${c}\`: ${w.configs[c]}`), '',
    `\`j\`: ${w.entry.rows} rows, ${(w.entry.bytes / 1e6).toFixed(1)} MB in eddy's cache; the over-budget configuration has a budget of ${(w.entry.budgetBytes / 1e6).toFixed(1)} MB and ended with ${(w.entry.overBudgetMemoryBytes / 1e6).toFixed(1)} MB in memory, ${(w.entry.overBudgetDiskBytes / 1e6).toFixed(1)} MB on disk.`, '',
    `| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 1 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  const total: Record<string, number | undefined> = Object.fromEntries(cfg.map((c) => [c, 0]));
  for (const q of w.queries) {
    for (const c of cfg) { const t = timed(q.engines[c]); total[c] = t === undefined || total[c] === undefined ? undefined : total[c]! + t; }
    lines.push(`| ${[q.id, ...cfg.map((c) => cell(q.engines[c])), ...speed.map(([a, b]) => {
      const x = timed(q.engines[a!]); const y = timed(q.engines[b!]);
      return x === undefined || y === undefined ? '–' : times(x / y);
    })].join(' | ')} |`);
  }
  const build = (c: string): number => w.buildMs[c] ?? 0;
  lines.push(`| build \`j\` (once, cold) | ${cfg.map((c) => (c in w.buildMs ? ms(w.buildMs[c]) : '–')).join(' | ')} | ${speed.map(() => '').join(' | ')} |`);
  lines.push(`| whole sequence incl. build | ${cfg.map((c) => (total[c] === undefined ? '–' : ms(total[c]! + build(c)))).join(' | ')} | ${speed.map(([a, b]) => {
    const x = total[a!]; const y = total[b!];
    return x === undefined || y === undefined ? '–' : times((x + build(a!)) / (y + build(b!)));
  }).join(' | ')} |`);
  lines.push('', ...Object.entries(w.cacheStats).map(([k, v]) => `- cache stats of ${k}: ${v}`), '');
  return lines;
}

/** "3 warm-up runs" or "at least 3 warm-up runs and 1 s (3–17 done)". */
function warmupText(rep: SuiteReport): string {
  const n = rep.warmupRuns;
  const runs = `${n} warm-up run${n === 1 ? '' : 's'}`;
  if (!rep.warmupMs) return runs;
  const done = rep.queries.flatMap((q) => Object.values(q.engines).map((e) => e.warmupRuns)).filter((x): x is number => x !== undefined);
  const range = done.length === 0 ? '' : ` (${Math.min(...done)}–${Math.max(...done)} done per engine and query)`;
  return `at least ${runs} and ${rep.warmupMs / 1000} s of them per engine and query${range}`;
}

/** The report as Markdown. */
export function suiteMarkdown(rep: SuiteReport): string {
  const label: Label = (id) => rep.engineLabels[id] ?? ENGINE_LABEL[id as SuiteEngine] ?? id;
  const base = baseNameOf(rep.sf);
  const cores = Number(rep.machine['logical cores']);
  const busy = (rep.load.before[0] ?? 0) > cores / 2 || (rep.load.after[0] ?? 0) > cores;
  const cache = rep.workloads.cache as CacheWorkloadResult | { error: string } | undefined;
  const probs = [...problems(rep.queries, '', label), ...(cache && 'queries' in cache ? problems(cache.queries, 'cache workload ', (id) => id) : [])];
  const lines = [
    `# eddy benchmark suite — TPC-H SF ${rep.sf}`, '',
    `${rep.startedAt} – ${rep.finishedAt}. Median of ${rep.runs} timed run${rep.runs === 1 ? '' : 's'} after ${warmupText(rep)}, engines interleaved run by run. `
      + 'Every answer is checked against DuckDB (1 thread) before anything is timed; a differing answer is **WRONG** and not timed. '
      + `Ratios > 1 mean eddy is slower. Per-run limit ${rep.timeoutMs / 1000} s.`, '',
    `Load average (1 / 5 / 15 min) before: ${rep.load.before.join(' / ')}, after: ${rep.load.after.join(' / ')} on ${cores} cores${rep.stealPct === undefined ? '' : `; CPU steal over the run ${rep.stealPct}% (the host running other guests on this VM's CPUs)`}.`, '',
    ...(rep.memoryBandwidth === undefined ? [] : [`Memory streaming (one thread alone; two threads at once; bench/lib/memory-bandwidth.ts) before: ${describeBandwidth(rep.memoryBandwidth.before)}, after: ${describeBandwidth(rep.memoryBandwidth.after)}. Scans and gathers are bound by memory: a second thread gains what the machine's memory gives two streams.`, '']),
    ...(busy ? [`**Warning:** the machine was busy (load above the cores available to this run); timings are noisy — compare ratios from one run, not times across runs.`, ''] : []),
    '## Geometric means', '',
    '| configuration | geometric mean (wall) | geometric mean (CPU) | queries |', '| --- | ---: | ---: | ---: |',
    ...rep.geomeans.map((g) => {
      const c = rep.cpuGeomeans.find((x) => x.num === g.num && x.den === g.den);
      return `| ${label(g.num)} / ${label(g.den)} | ${times(g.value)} | ${times(c?.value)} | ${g.queries} |`;
    }), '',
    'CPU: the process\'s user + system time per run (all threads), which other work on a shared machine inflates less than wall time; for 2-thread configurations it is the sum over threads.', '',
    '## Per query (median ms)', '', ...queryTable(rep, label), '',
    ...(rep.engines.includes('eddy-p1') && rep.engines.includes('eddy-p2')
      ? ['eddy p2 speed-up: eddy p1\'s median over eddy p2\'s (> 1: parallelism 2 is faster). Wall: wall-clock medians. '
        + 'CPU: medians of the CPU along the critical path — the calling thread\'s outside the parallel shares plus the busiest share\'s per run '
        + '(bench/multi-core.ts\'s "CPU speed-up"): robust to load but an upper bound of the wall speed-up on idle cores — it leaves out V8\'s GC and compiler '
        + 'helper threads and a worker\'s CPU outside its task. The process\'s CPU sums the threads and so cannot show a speed-up.', '']
      : []),
    `![eddy / DuckDB per query](${base}-ratios.svg)`, '',
    '## Spread (min – max ms)', '', ...spreadTable(rep, label), '',
    '## First run (ms)', '',
    'Each engine\'s first run of the query, which checks its answer, before the warm-ups (the process has run the earlier queries): what a query run once costs, JIT warm-up included.', '',
    ...firstRunTable(rep, label), '',
    '## Wrong answers, errors, timeouts', '', ...(probs.length > 0 ? probs : ['None.']), '',
    ...(cache ? [...cacheSection(cache), ...('queries' in cache ? [`![cached vs recomputed](${base}-cache.svg)`, ''] : [])] : []),
    '## Setup', '',
    ...Object.entries(rep.machine).map(([k, v]) => `- ${k}: ${v}`),
    ...Object.entries(rep.versions).map(([k, v]) => `- ${k} version: ${v}`),
    ...Object.entries(rep.data).map(([k, v]) => `- data ${k}: ${v}`),
    '- memory: eddy p1, one fresh child process per query: peak RSS while the query runs once cold (VmHWM after resetting it once the data is loaded) minus RSS with the data loaded after full GC',
    '',
  ];
  return lines.join('\n');
}
