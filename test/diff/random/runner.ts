/**
 * The random differential run: generates `count` queries from a seed, runs
 * each on eddy and DuckDB, counts outcomes, and for every failure prints the
 * seed, the query, the difference (or eddy's error) and the smallest query
 * the minimizer finds that still fails the same way.
 */
import type { Catalog } from './catalog.js';
import type { FeatureSet } from './features.js';
import { renderQuery } from './model.js';
import { generateQuery } from './query-gen.js';
import { describeOutcome, isFailure, runQuery, sameFailure, type Outcome, type QueryEngines } from './run-query.js';
import { shrinkQuery } from './shrink.js';

/** Options of a run. */
export interface RunOptions {
  readonly seed: number;
  readonly count: number;
  readonly features: FeatureSet;
  /** Run only query `index` of the seed's sequence. */
  readonly index?: number;
  /** Per-query eddy timeout (default 10 s). */
  readonly timeoutMs?: number;
  /** Minimize failing queries (default true). */
  readonly shrink?: boolean;
  /** Print every query and its outcome. */
  readonly verbose?: boolean;
  /** Where reports go (default console.log). */
  readonly log?: (line: string) => void;
  /**
   * Wall-clock budget of the whole run: past it no further query starts and the run throws. A test sets it
   * below its own timeout, so a run on a loaded machine fails as itself instead of running on after the test
   * timed out (its DuckDB queries then raced the next test's on the shared connection).
   */
  readonly budgetMs?: number;
}

/** Counts of a run. */
export interface RunStats {
  /** Queries generated. */
  generated: number;
  /** Queries DuckDB accepted (the ones that count). */
  run: number;
  passed: number;
  mismatches: number;
  errors: number;
  timeouts: number;
  /** Queries DuckDB rejected (not counted); `discardedEddyAccepts` of them eddy accepted. */
  discarded: number;
  discardedEddyAccepts: number;
  /** Wall time of the run, ms. */
  ms: number;
}

/** One failing query. */
export interface Failure {
  readonly seed: number;
  readonly index: number;
  readonly querySeed: number;
  readonly sql: string;
  readonly outcome: Outcome;
  readonly minimal?: { readonly sql: string; readonly outcome: Outcome; readonly attempts: number };
}

/** The seed of query `index` in the sequence of `seed`. */
export function querySeed(seed: number, index: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) + Math.imul(index + 1, 0x85ebca6b)) >>> 0;
}

/** The report of one failure. */
export function formatFailure(f: Failure): string {
  const lines = [
    `=== FAILURE: seed ${f.seed}, query #${f.index} (query seed ${f.querySeed}; rerun: npm run test:diff -- --seed ${f.seed} --index ${f.index})`,
    `-- query:\n${f.sql}`,
    `-- outcome: ${describeOutcome(f.outcome)}`,
  ];
  if (f.minimal && f.minimal.sql !== f.sql) {
    lines.push(`-- minimal failing query (${f.minimal.attempts} attempts):\n${f.minimal.sql}`, `-- its outcome: ${describeOutcome(f.minimal.outcome)}`);
  }
  return lines.join('\n');
}

/** Runs the queries of a seed; returns counts and failures. */
export async function runRandom(engines: QueryEngines & { readonly catalog: Catalog }, opts: RunOptions): Promise<{ stats: RunStats; failures: Failure[] }> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const stats: RunStats = { generated: 0, run: 0, passed: 0, mismatches: 0, errors: 0, timeouts: 0, discarded: 0, discardedEddyAccepts: 0, ms: 0 };
  const failures: Failure[] = [];
  const start = performance.now();
  const indexes = opts.index !== undefined ? [opts.index] : [...Array(opts.count).keys()];
  const overBudget = (): boolean => opts.budgetMs !== undefined && performance.now() - start > opts.budgetMs;
  for (const [n, index] of indexes.entries()) {
    if (overBudget()) throw new Error(`the run's budget of ${opts.budgetMs} ms ran out after ${n} of ${indexes.length} queries (${stats.passed} passed, ${failures.length} failed so far)`);
    const qs = querySeed(opts.seed, index);
    const g = generateQuery(qs, engines.catalog, opts.features);
    stats.generated++;
    if (opts.verbose) log(`-- #${index}\n${g.sql}`);
    const outcome = await runQuery(engines, g.query, g.sql, timeoutMs);
    if (opts.verbose) log(`-- #${index}: ${describeOutcome(outcome).split('\n')[0]}`);
    if (outcome.kind === 'discard') {
      stats.discarded++;
      if (outcome.eddyAccepted) stats.discardedEddyAccepts++;
      continue;
    }
    stats.run++;
    if (outcome.kind === 'pass') { stats.passed++; continue; }
    if (outcome.kind === 'mismatch') stats.mismatches++;
    else if (outcome.kind === 'error') stats.errors++;
    else stats.timeouts++;
    let minimal: Failure['minimal'];
    if (opts.shrink !== false && outcome.kind !== 'timeout') {
      let last: Outcome = outcome;
      // Candidates can be much bigger (a dropped restriction or join condition): keep each one short.
      const r = await shrinkQuery(g.query, async (q, sql) => {
        if (overBudget()) return false;
        const o = await runQuery(engines, q, sql, Math.min(timeoutMs, 3000));
        if (o.kind !== 'timeout' && isFailure(o) && sameFailure(o, outcome)) { last = o; return true; }
        return false;
      });
      minimal = { sql: r.sql, outcome: r.sql === g.sql ? outcome : last, attempts: r.attempts };
      if (renderQuery(r.query) !== r.sql) throw new Error('minimizer: rendering is not stable');
    }
    const f: Failure = { seed: opts.seed, index, querySeed: qs, sql: g.sql, outcome, ...(minimal ? { minimal } : {}) };
    failures.push(f);
    log(formatFailure(f));
  }
  stats.ms = Math.round(performance.now() - start);
  return { stats, failures };
}

/** A one-line summary of a run. */
export function formatStats(s: RunStats): string {
  return `${s.generated} generated, ${s.run} run, ${s.passed} passed, ${s.mismatches} mismatches, ${s.errors} eddy errors, ${s.timeouts} timeouts, `
    + `${s.discarded} discarded (DuckDB rejects; eddy accepts ${s.discardedEddyAccepts}), ${(s.ms / 1000).toFixed(1)} s`;
}
