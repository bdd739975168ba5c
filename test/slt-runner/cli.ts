/**
 * Runs sqllogictest files or folders against eddy and reports per file:
 * passed, failed, skipped, unsupported; writes test/slt/results/summary.md
 * and summary.json. Each file runs in a child process (worker.ts); a record
 * that blocks the process past its timeout gets the child killed, the record
 * failed, and the file resumed after it.
 *
 *   tsx test/slt-runner/cli.ts ../shared/slt [--timeout 10000] [--file-budget 1800] [--jobs 2]
 *       [--engines eddy,postgresql] [--filter REGEX] [--out DIR] [--no-write] [--no-fail]
 *       [--update-allowlist]
 *
 * Exit status 1 when a record fails unexpectedly (not allow-listed, or
 * allow-listed with another failure mode: it fails in a new way), a file
 * crashed, or an allow-list entry is stale (its record no longer fails):
 * a stale entry is an exception nobody needs, and leaving it would let the
 * record regress unseen, so the list must shrink when eddy improves.
 * `--update-allowlist` records each listed record's observed failure mode
 * and removes stale entries.
 */
import { fork } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { AllowList, DEFAULT_ALLOWLIST, REPO_ROOT, fileKey } from './allowlist.js';
import { updateAllowlist } from './allowlist-update.js';
import { sourceOf } from './dialect.js';
import { parseSlt } from './records.js';
import { skippedBy, type Counts, type FileRun, type RecordOutcome } from './run-file.js';
import { summarizeFile, totalsOf, writeSummary, type FileSummary } from './summary.js';
import type { WorkerJob, WorkerMessage } from './worker.js';

const TEST_FILE = /\.(test|test_slow|slt|slt\.part)$/;

/** Every test file under the given paths, sorted. */
export function collectFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
    else if (TEST_FILE.test(p)) out.push(p);
  };
  for (const p of paths) walk(resolve(p));
  return [...new Set(out)].sort();
}

interface CliOptions {
  readonly timeout: number;
  /** Seconds per file before its remaining records are failed as not run. */
  readonly fileBudget: number;
  readonly jobs: number;
  readonly engines: string[];
  readonly filter?: string;
  readonly out: string;
  readonly allowlist: string;
  readonly write: boolean;
  readonly fail: boolean;
  readonly updateAllowlist: boolean;
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Runs one file in child processes, resuming after hangs and crashes. */
async function runFileInChild(file: string, o: CliOptions): Promise<{ run: FileRun; error?: string }> {
  const outcomes: RecordOutcome[] = [];
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, unsupported: 0 };
  const add = (x: RecordOutcome): void => { outcomes.push(x); counts[x.status] += x.count; };
  const skipLines: number[] = [];
  const deadline = Date.now() + o.fileBudget * 1000;
  let resumeAt = 0;
  let error: string | undefined;
  let startupRetries = 3;
  for (let attempt = 0; attempt < 500; attempt++) {
    const before = outcomes.length;
    const r = await attemptChild(file, o, resumeAt, skipLines, deadline, add);
    if (r.kind === 'done') return { run: { path: file, source: sourceOf(file), outcomes, counts } };
    if (r.kind === 'error' && outcomes.length === before && startupRetries-- > 0) {
      // Failed before any record ran (e.g. a source file caught mid-edit): try again shortly.
      await new Promise((res) => setTimeout(res, 3000));
      attempt--;
      continue;
    }
    if (r.kind === 'error') { error = r.message; break; }
    // Hung or crashed while running record `r.line`: fail it and resume after it.
    if (r.line === undefined) { error = r.message; break; }
    add({ line: r.line, kind: r.recordKind ?? 'query', status: 'failed', count: 1, reason: r.message });
    skipLines.push(r.line);
    resumeAt = r.line + 1;
  }
  error ??= 'too many hung records; gave up on the rest of the file';
  // The records never reached still count: as failed, not run.
  const seen = new Set(outcomes.map((x) => x.line));
  for (const rec of parseSlt(readFileSync(file, 'utf8'))) {
    if ((rec.kind === 'statement' || rec.kind === 'query') && !seen.has(rec.line) && !skippedBy(rec.conditions, o.engines)) {
      add({ line: rec.line, kind: rec.kind, status: 'failed', count: 1, sql: rec.sql, reason: `not run: ${error.split('\n')[0]}` });
    }
  }
  return { run: { path: file, source: sourceOf(file), outcomes, counts }, error };
}

type Attempt = { kind: 'done' } | { kind: 'error'; message: string } | { kind: 'lost'; line?: number; recordKind?: 'statement' | 'query'; message: string };

function attemptChild(file: string, o: CliOptions, resumeAt: number, skipLines: readonly number[], deadline: number, add: (x: RecordOutcome) => void): Promise<Attempt> {
  return new Promise((res) => {
    const child = fork(WORKER, [], { cwd: REPO_ROOT, execArgv: ['--import', 'tsx', '--max-old-space-size=3072', ...(process.env['SLT_CPU_PROF'] ? ['--cpu-prof', '--cpu-prof-dir=' + process.env['SLT_CPU_PROF']] : [])], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let current: number | undefined;
    let currentKind: 'statement' | 'query' = 'query';
    let settled = false;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2000); });
    const hardMs = 2 * o.timeout; // a record still blocking the process at twice its timeout is hung
    let watchdog = setTimeout(() => lose(`hung: no progress for ${hardMs} ms (the record blocked the process past its ${o.timeout} ms timeout)`), hardMs + 60_000);
    const arm = (ms: number): void => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => lose(`hung: no progress for ${ms} ms (the record blocked the process past its ${o.timeout} ms timeout)`), ms);
    };
    const finish = (a: Attempt): void => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      res(a);
    };
    const lose = (message: string): void => {
      child.kill('SIGKILL');
      finish(current === undefined ? { kind: 'lost', message } : { kind: 'lost', line: current, recordKind: currentKind, message });
    };
    child.on('message', (m: WorkerMessage) => {
      if (m.t === 'start') { current = m.line; currentKind = m.kind; arm(hardMs); }
      else if (m.t === 'outcome') { add(m.o); current = undefined; arm(hardMs + 60_000); }
      else if (m.t === 'done') finish({ kind: 'done' });
      else finish({ kind: 'error', message: m.message });
    });
    child.on('exit', (code, signal) => {
      if (!settled) lose(`crashed: the process exited (${signal ?? `code ${code}`}) while running the record${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
    });
    const job: WorkerJob = { file, engines: o.engines, timeoutMs: o.timeout, resumeAt, skipLines, deadline };
    child.send(job);
  });
}

/** Runs `tasks` with at most `n` at a time. */
async function pool<T>(n: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, lane));
  return results;
}

function line(s: FileSummary): string {
  const extra = s.allowedFailures ? ` (allow-listed ${s.allowedFailures})` : '';
  const warn = s.error ? `  ⚠ ${s.error.split('\n')[0]}` : '';
  return `${s.file}: passed ${s.passed}, failed ${s.failed}${extra}, skipped ${s.skipped}, unsupported ${s.unsupported}  [${(s.ms / 1000).toFixed(1)} s]${warn}`;
}

async function main(argv: string[]): Promise<number> {
  const cmd = new Command()
    .name('slt')
    .argument('<paths...>', 'test files or folders')
    .option('--timeout <ms>', 'per-record timeout', '10000')
    .option('--file-budget <s>', 'seconds per file; records not started by then fail as "not run"', '1800')
    .option('--jobs <n>', 'files run in parallel', String(Math.max(1, cpus().length)))
    .option('--engines <names>', 'engine names for skipif/onlyif', 'eddy')
    .option('--filter <regex>', 'only files whose path matches')
    .option('--out <dir>', 'where summary.md and summary.json go', join(REPO_ROOT, 'test/slt/results'))
    .option('--allowlist <file>', 'expected failures', DEFAULT_ALLOWLIST)
    .option('--no-write', 'do not write the summary files')
    .option('--no-fail', 'exit 0 even with unexpected failures')
    .option('--update-allowlist', "record each allow-listed record's observed failure mode in the allow-list and remove stale entries");
  cmd.parse(argv);
  const raw = cmd.opts<{ timeout: string; fileBudget: string; jobs: string; engines: string; filter?: string; out: string; allowlist: string; write: boolean; fail: boolean; updateAllowlist?: boolean }>();
  const o: CliOptions = {
    timeout: Number(raw.timeout),
    fileBudget: Number(raw.fileBudget),
    jobs: Number(raw.jobs),
    engines: raw.engines.split(',').map((e) => e.trim().toLowerCase()),
    out: raw.out,
    allowlist: raw.allowlist,
    write: raw.write,
    fail: raw.fail,
    updateAllowlist: raw.updateAllowlist === true,
    ...(raw.filter ? { filter: raw.filter } : {}),
  };
  const allow = AllowList.load(o.allowlist);
  let files = collectFiles(cmd.args);
  if (o.filter) files = files.filter((f) => new RegExp(o.filter!).test(f));
  if (files.length === 0) {
    console.error('no test files found');
    return 2;
  }
  const started = Date.now();
  // Start the biggest files first so the slowest one does not run alone at the end.
  const bySize = files.map((f, i) => ({ f, i, size: statSync(f).size })).sort((a, b) => b.size - a.size);
  const summaries: FileSummary[] = new Array(files.length);
  await pool(o.jobs, bySize.map(({ f, i }) => async () => {
    const t0 = Date.now();
    const { run, error } = await runFileInChild(f, o);
    run.outcomes.sort((a, b) => a.line - b.line);
    const s = summarizeFile(fileKey(f), run, allow, Date.now() - t0, error);
    summaries[i] = s;
    console.log(line(s));
    // Keep a partial summary on disk during long runs.
    if (o.write) writeSummary(o.out, summaries.filter((x) => x !== undefined), { command: `slt ${cmd.args.join(' ')}`, status: 'partial: still running' });
  }));
  const t = totalsOf(summaries);
  const meta = {
    command: `slt ${cmd.args.join(' ')}`,
    engines: o.engines.join(','),
    'record timeout': `${o.timeout} ms`,
    'file budget': `${o.fileBudget} s`,
    'wall time': `${((Date.now() - started) / 1000).toFixed(0)} s`,
    date: new Date().toISOString(),
  };
  if (o.write) writeSummary(o.out, summaries, meta);
  console.log(`\n${t.files} files: passed ${t.passed}, failed ${t.failed} (allow-listed ${t.allowedFailures}, unexpected ${t.unexpectedFailures}), skipped ${t.skipped}, unsupported ${t.unsupported}`);
  console.log(`pass rate ${(t.passRate * 100).toFixed(2)}%; over supported features ${(t.supportedPassRate * 100).toFixed(2)}%; stale allow-list entries: ${t.nowPassing}`);
  console.log(`queries: passed ${t.queries.passed}, failed ${t.queries.failed}; pass rate ${(t.queries.passRate * 100).toFixed(2)}%, over queries using supported features ${(t.queries.supportedPassRate * 100).toFixed(2)}%`);
  if (o.write) console.log(`wrote ${join(o.out, 'summary.md')} and summary.json`);
  if (o.updateAllowlist) {
    const u = updateAllowlist(readFileSync(o.allowlist, 'utf8'), summaries);
    writeFileSync(o.allowlist, u.text);
    console.log(`${o.allowlist}: failure modes recorded or changed for ${u.recorded.length} entries, ${u.removed.length} stale entries removed`);
    for (const k of u.removed) console.log(`  removed ${k}`);
    if (u.unlisted.length > 0) console.log(`${u.unlisted.length} failures have no entry (triage them: tsx test/slt-runner/triage.ts ${join(o.out, 'summary.json')}):\n  ${u.unlisted.join('\n  ')}`);
  }
  const crashed = summaries.filter((s) => s.error).length;
  return o.fail && !o.updateAllowlist && (t.unexpectedFailures > 0 || crashed > 0 || t.nowPassing > 0) ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv).then((code) => process.exit(code), (e: unknown) => {
    console.error(e);
    process.exit(2);
  });
}
