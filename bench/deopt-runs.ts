/**
 * TurboFan compilations and deoptimizations per query run, per isolate (issue #10: at parallelism 2 on 2 cores
 * the concurrent recompiles of a deopt loop take CPU from the two busy threads; TPC-H Q3's helper-thread CPU).
 *
 *   node --import tsx bench/deopt-runs.ts --data /work/bench-data [--only q3] [--runs 7] [--warmup 3] [--engines p1,p2] [--top 12] [--keep] [--v8='--interrupt-budget=8448']
 *   node --import tsx bench/deopt-runs.ts --data /work/bench-data --only q3,q18 --suite   (as in the suite's process: see below)
 *   node --import tsx bench/deopt-runs.ts --logs <folder kept by --keep>   (reports it again)
 *   ... --why deliver,emit   ('*': all functions; also lists every deopt of those functions in the whole log, with the run it fell in:
 *                             why a function was compiled "after deopt" in a timed run)
 *
 * Runs a child process (with the V8 flags of --v8, if any) with V8's log (`--log-code --log-deopt --log-function-events`, one file per isolate,
 * in a temp folder removed at the end unless --keep), which alternates the engines (p1, p2, p1, ...) as
 * bench/multi-core.ts does, and writes a marker into every isolate's log before each run (bench/lib/jit-mark.ts).
 * Per query, engine and isolate (main = the calling thread; workers = the worker isolates together): the mean
 * per timed run of TurboFan compilations, their compile ms (V8's own figure) and deopts, and the deopts of the
 * timed runs by function, bytecode offset, source position and reason, and the timed runs' compiles by function
 * with their compile ms and optimized code KB (the most ms first; the KB, unlike the ms, do not grow with load); each compile of a timed run is told
 * apart by its cause in that isolate's whole log: the function's first TurboFan compile (a function called a
 * few times per batch reaches TurboFan only after many runs: V8 counts its own bytecodes, not its callees'),
 * a compile after a deopt of its code, or a compile with no deopt since the last ("dropped": optimized code
 * of a closure made per query is held only through its shared feedback vector). Counts do not depend on the machine's load;
 * the log slows the runs, so read no times from this bench but compile ms.
 *
 * --suite runs what `npm run bench` runs before and at each query of --only: every TPC-H query from q1 up to
 * the last one of --only, in order, each with --warmup and --runs rounds of the engines (the order rotated by
 * one each round, as bench/suite/run.ts does), and reports only the queries of --only. A function called a
 * few times per batch that other queries have already driven to TurboFan compiles before Q18's timed runs
 * in the suite, not in a fresh process's: without --suite this bench overstates the later queries' JIT tail.
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    data: { type: 'string' }, only: { type: 'string', default: 'q3' }, runs: { type: 'string', default: '7' }, warmup: { type: 'string', default: '3' },
    engines: { type: 'string', default: 'p1,p2' }, suite: { type: 'boolean', default: false }, v8: { type: 'string', default: '' }, top: { type: 'string', default: '12' }, why: { type: 'string', default: '' }, keep: { type: 'boolean', default: false }, child: { type: 'string' }, logs: { type: 'string' },
  },
});

/** One run as the child records it: its marker label and what it ran (`reported`: a query of --only). */
interface RunInfo { readonly label: string; readonly query: string; readonly engine: string; readonly timed: boolean; readonly reported?: boolean }

/** Functions named by --why, and their deopts found in the logs (isolate, run label, site, reason). */
const why = new Set(values.why!.split(',').filter((x) => x !== ''));
const whyLines: string[] = [];

if (values.child !== undefined) await child(values.child);
else await parent();

/** Runs the queries with markers (in the child process, under the V8 log); writes the run list to `dir`/runs.json. */
async function child(dir: string): Promise<void> {
  process.env.EDDY_WORKER_PRELOAD = fileURLToPath(new URL('./lib/jit-mark.ts', import.meta.url));
  const { markChannel, markHere } = await import('./lib/jit-mark.js');
  markHere('main');
  const { loadQueries } = await import('./suite/queries.js');
  const { p1AndP2 } = await import('./lib/p1-p2.js');
  const { collectGarbage } = await import('./lib/timing.js');
  const { p1, p2 } = await p1AndP2(1, values.data);
  const stats = (): { workerCpuMs: readonly number[] } => (p2 as unknown as { executor: { workerStats: { workerCpuMs: readonly number[] } } }).executor.workerStats;
  const engines = values.engines!.split(',').map((e) => ({ name: e, env: e === 'p2' ? p2 : p1 }));
  const ch = markChannel();
  const runs: RunInfo[] = [];
  const only = loadQueries(values.only!.split(',')).map((q) => q.id);
  const last = Math.max(...only.map((id) => Number(id.slice(1))));
  const queries = values.suite ? loadQueries(Array.from({ length: last }, (_, i) => `q${i + 1}`)) : loadQueries(only);
  for (const q of queries) {
    const total = Number(values.warmup) + Number(values.runs);
    for (let i = 0; i < total; i++) {
      for (let k = 0; k < engines.length; k++) {
        const e = engines[values.suite ? (k + i) % engines.length : k]!;
        collectGarbage();
        const label = `r${runs.length}`;
        // Workers get the marker only before the runs that use them: a worker finishes the compilations its run
        // queued when its next message arrives, so its window runs to its next p2 run (the p1 run between included).
        await ch.mark(label, e.env === p2 ? stats().workerCpuMs.length : 0);
        runs.push({ label, query: q.id, engine: e.name, timed: i >= Number(values.warmup), reported: only.includes(q.id) });
        await e.env.sql(q.sql).collect();
      }
    }
  }
  await ch.mark('done', stats().workerCpuMs.length);
  ch.close();
  writeFileSync(join(dir, 'runs.json'), JSON.stringify(runs));
  await p1.close();
  await p2.close();
}

/** Undoes the V8 log's escapes (`\\x2C` for commas, `\\n`, `\\uXXXX`). */
function unescapeLog(s: string): string {
  return s.replace(/\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|n|\\)/g, (_, e: string) => (e === 'n' ? '\n' : e === '\\' ? '\\' : String.fromCharCode(parseInt(e.slice(1), 16))));
}

/** The code around a deopt's innermost position `<url:line:column>` (the loader's transformed source, one line per file). */
function snippet(sources: ReadonlyMap<string, string>, where: string): string {
  const m = /^<([^>]*):(\d+):(\d+)>/.exec(where);
  if (m === null) return '';
  const src = sources.get(m[1]!);
  if (src === undefined) return '';
  const lines = src.split('\n');
  const line = lines[Number(m[2]) - 1] ?? '';
  const col = Number(m[3]) - 1;
  return '`' + (line.slice(Math.max(0, col - 40), col) + '⟨here⟩' + line.slice(col, col + 40)).replace(/[|`]/g, ' ') + '`';
}

/**
 * Why a function was compiled by TurboFan, from the isolate's whole log: its first compile; again after a
 * deopt of its code; or again with no deopt logged, i.e. its optimized code was dropped (a closure made per
 * query holds it only through the shared feedback vector, and some major GCs drop it: kernels/kernel-cache.ts).
 */
type CompileCause = 'first' | 'after deopt' | 'dropped';

/** Per isolate and run window: compilations (count, ms, by cause) and deopts (by site). */
interface Window { compiles: number; compileMs: number; codeKb: number; deopts: string[]; compiled: Compiled[]; causes: Record<CompileCause, number> }

/**
 * One TurboFan compile: `function | cause`, V8's compile ms (its own figure: wall on the compile thread, so it grows
 * with load) and the optimized code's KB (what it inlined: the same on a loaded machine).
 */
interface Compiled { readonly site: string; readonly ms: number; readonly kb: number }

/** Reads one isolate's log into windows keyed by marker label (events before the first marker are dropped). */
async function readLog(file: string): Promise<{ main: boolean; windows: Map<string, Window> }> {
  const windows = new Map<string, Window>();
  const names = new Map<string, string>(); // optimized code address -> function name
  const sources = new Map<string, string>(); // script URL -> its source (as the loader compiled it)
  const urls = new Map<string, string>(); // script id -> URL
  const byId = new Map<string, string>(); // script id -> its source
  const scriptAt = (url: string, offset: string): string => {
    const src = sources.get(url) ?? '';
    const at = Number(offset);
    return `${url.replace(/^file:\/\/\S*\/(src|bench|node_modules)\//, '$1/')}@${offset} \`${src.slice(at, at + 50).replace(/[|`\n]/g, ' ')}\``;
  };
  let cur: Window | null = null;
  let curLabel = 'before the first run';
  let main = false;
  const compiledBefore = new Map<string, number>(); // script:start -> TurboFan compiles so far
  const deoptedSince = new Set<string>(); // script:start of functions whose optimized code deopted since their last compile
  const codeOf = new Map<string, string>(); // optimized code address -> script:start
  let lastOptimized = ''; // the address of the latest optimized code-creation
  let lastKb = 0; // its size
  const lines = createInterface({ input: createReadStream(file, { encoding: 'latin1' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.startsWith('code-creation,')) {
      const f = line.split(',');
      const name = f[6] ?? '';
      const m = /^__jitmark_(\w+) /.exec(name);
      if (m !== null) {
        if (m[1] === 'main') { main = true; continue; }
        cur = { compiles: 0, compileMs: 0, codeKb: 0, deopts: [], compiled: [], causes: { first: 0, 'after deopt': 0, dropped: 0 } };
        windows.set(m[1]!, cur);
        curLabel = m[1]!;
        continue;
      }
      if (f[1] === 'JS' && f[8] !== '~') names.set(f[4]!, name);
      if (f[1] === 'JS' && f[f.length - 1] === '*') { lastOptimized = f[4]!; lastKb = Number(f[5]) / 1024; }
    } else if (line.startsWith('script-source,')) {
      const f = line.split(',');
      sources.set(f[2]!, unescapeLog(f.slice(3).join(',')));
      urls.set(f[1]!, f[2]!);
      byId.set(f[1]!, sources.get(f[2]!)!);
    } else if (line.startsWith('function,turbofan') || line.startsWith('function,maglev')) {
      // function,<event>,<script>,<start>,<end>,<ms>,<timestamp>,<name>
      const f = line.split(',');
      if ((byId.get(f[2]!) ?? '').includes('__jitmark_')) continue; // the markers themselves
      // The cause is read from the whole log (before the first marker too): the code-creation line of the
      // optimized code comes just before this event, so its address names this function in later deopts.
      const key = `${f[2]}:${f[3]}`;
      const prior = compiledBefore.get(key) ?? 0;
      const cause: CompileCause = prior === 0 ? 'first' : deoptedSince.has(key) ? 'after deopt' : 'dropped';
      compiledBefore.set(key, prior + 1);
      deoptedSince.delete(key);
      const kb = lastOptimized !== '' ? lastKb : 0;
      if (lastOptimized !== '') { codeOf.set(lastOptimized, key); lastOptimized = ''; }
      if (cur === null) continue;
      cur.compiles++;
      cur.compileMs += Number(f[5]);
      cur.codeKb += kb;
      cur.causes[cause]++;
      const name = f.slice(7).join(',');
      // An anonymous function is named by its place: the code at its start offset in its script.
      cur.compiled.push({ site: `${f[1]} ${name !== '' ? name : `(anonymous) ${scriptAt(urls.get(f[2]!) ?? '', f[3]!)}`} | ${cause}`, ms: Number(f[5]), kb });
    } else if (line.startsWith('code-deopt,')) {
      // code-deopt,<timestamp>,<size>,<code>,<inlining id>,<script offset>,<kind>,<position>,<reason>
      const f = line.split(',');
      const key = codeOf.get(f[3]!);
      if (key !== undefined) deoptedSince.add(key);
      const fn = (names.get(f[3]!) ?? '?').replace(/ file:\/\/\S*\/(src|bench)\//, ' $1/');
      const pos = (f[7] ?? '').replace(/file:\/\/\S*\/(src|bench)\//, '$1/');
      if (why.has('*') || why.has(fn.split(' ')[0]!)) whyLines.push(`| ${file.replace(/^.*isolate-/, '')} | ${curLabel} | ${fn} | ${f[6]} at ${pos} | ${snippet(sources, f[7] ?? '')} | ${f.slice(8).join(',')} |`);
      if (cur === null) continue;
      cur.deopts.push(`${fn} | ${f[6]} at ${pos} | ${snippet(sources, f[7] ?? '')} | ${f.slice(8).join(',')}`);
    }
  }
  return { main, windows };
}

async function parent(): Promise<void> {
  if (values.logs !== undefined) { await parse(values.logs); return; }
  const dir = mkdtempSync(join(tmpdir(), 'eddy-deopt-runs-'));
  try {
    const self = fileURLToPath(import.meta.url);
    const args = [...values.v8!.split(' ').filter((f) => f !== ''), '--expose-gc', '--log-code', '--log-deopt', '--log-function-events', `--logfile=${join(dir, 'v8.log')}`, '--import', 'tsx', self, '--child', dir];
    for (const k of ['data', 'only', 'runs', 'warmup', 'engines'] as const) if (values[k] !== undefined) args.push(`--${k}`, String(values[k]));
    if (values.suite) args.push('--suite');
    const code = await new Promise<number | null>((resolve) => {
      const p = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
      p.on('exit', resolve);
    });
    if (code !== 0) throw new Error(`the child run failed (exit ${code})`);
    await parse(dir);
  } finally {
    if (values.keep) console.log(`\nlogs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** Reports the runs of a (kept) log folder. */
async function parse(dir: string): Promise<void> {
  const runs = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as RunInfo[];
  const logs = await Promise.all(readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => readLog(join(dir, f))));
  report(runs, logs);
  if (why.size > 0) {
    console.log(`\n### Deopts of ${[...why].join(', ')} (whole log; run labels: ${join(dir, 'runs.json')} with --keep)\n`);
    console.log(['| isolate log | in run | function | kind and position | code there | reason |', '| --- | --- | --- | --- | --- | --- |', ...whyLines].join('\n'));
  }
}

/** Compiles grouped by function and cause, the most compile ms first. */
function byMs(cs: readonly Compiled[]): { site: string; n: number; ms: number; kb: number }[] {
  const m = new Map<string, { site: string; n: number; ms: number; kb: number }>();
  for (const c of cs) {
    const e = m.get(c.site) ?? { site: c.site, n: 0, ms: 0, kb: 0 };
    e.n++;
    e.ms += c.ms;
    e.kb += c.kb;
    m.set(c.site, e);
  }
  return [...m.values()].sort((a, b) => b.ms - a.ms || b.n - a.n);
}

function report(all: RunInfo[], logs: { main: boolean; windows: Map<string, Window> }[]): void {
  const runs = all.filter((r) => r.reported !== false);
  const main = logs.filter((l) => l.main);
  const workers = logs.filter((l) => !l.main && l.windows.size > 0);
  const top = Number(values.top);
  const f1 = (x: number): string => x.toFixed(1);
  console.log(`| query | engine | isolate | TurboFan compiles / timed run | of which first / after deopt / dropped | compile ms / timed run (wall: grows with load) | optimized code KB / timed run | deopts / timed run | compiles / warm-up run | deopts / warm-up run |`);
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const sites: string[] = [];
  for (const q of [...new Set(runs.map((r) => r.query))]) {
    for (const e of [...new Set(runs.map((r) => r.engine))]) {
      const mine = runs.filter((r) => r.query === q && r.engine === e);
      const timed = mine.filter((r) => r.timed);
      const warm = mine.filter((r) => !r.timed);
      for (const [iso, ls] of [['main', main], ['workers', workers]] as const) {
        const ws = (rs: RunInfo[]): Window[] => rs.flatMap((r) => ls.map((l) => l.windows.get(r.label)).filter((w): w is Window => w !== undefined));
        const per = (rs: RunInfo[], f: (w: Window) => number): string => f1(ws(rs).reduce((a, w) => a + f(w), 0) / Math.max(1, rs.length));
        console.log(`| ${q} | ${e} | ${iso} | ${per(timed, (w) => w.compiles)} | ${per(timed, (w) => w.causes.first)} / ${per(timed, (w) => w.causes['after deopt'])} / ${per(timed, (w) => w.causes.dropped)} | ${per(timed, (w) => w.compileMs)} | ${per(timed, (w) => w.codeKb)} | ${per(timed, (w) => w.deopts.length)} | ${per(warm, (w) => w.compiles)} | ${per(warm, (w) => w.deopts.length)} |`);
        const count = (xs: string[]): [string, number][] => {
          const m = new Map<string, number>();
          for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
          return [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
        };
        const d = count(ws(timed).flatMap((w) => w.deopts));
        const c = byMs(ws(timed).flatMap((w) => w.compiled)).slice(0, top);
        if (d.length > 0 || c.length > 0) {
          sites.push(`\n### ${q} ${e} ${iso}: timed runs (${timed.length})`);
          if (d.length > 0) sites.push('| deopts | function | kind and position | code there | reason |', '| ---: | --- | --- | --- | --- |', ...d.map(([s, n]) => `| ${n} | ${s} |`));
          if (c.length > 0) sites.push('', '| compiles | compile ms | code KB | function | cause |', '| ---: | ---: | ---: | --- | --- |', ...c.map((x) => `| ${x.n} | ${f1(x.ms)} | ${f1(x.kb)} | ${x.site} |`));
        }
      }
    }
  }
  console.log(sites.join('\n'));
  const before = new Set(all.filter((r) => r.reported === false).map((r) => r.query)).size;
  console.log(`\n${runs.filter((r) => r.timed).length / Math.max(1, new Set(runs.map((r) => r.engine)).size)} timed runs per engine after ${values.warmup} warm-up(s), alternating; ${workers.length} worker isolate log(s)${before > 0 ? `; ${before} other queries run as in the suite (--suite)` : ''}`);
}
