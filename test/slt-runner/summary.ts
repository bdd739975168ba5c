/**
 * Per-file and overall figures of a run, checked against the allow-list,
 * written as `summary.md` (for people) and `summary.json` (for tools).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AllowCategory, AllowList } from './allowlist.js';
import { formatMode, modeTextOf } from './failure-mode.js';
import type { Source } from './dialect.js';
import type { FileRun, RecordOutcome } from './run-file.js';

/** A failed record, with the allow-list's verdict on it. */
export interface FailureDetail {
  readonly line: number;
  readonly reason: string;
  readonly sql?: string;
  readonly expected?: readonly string[];
  readonly actual?: readonly string[];
  /** How it failed, as allow-list text (`rows:<md5>` or `error:<regex>`). */
  readonly mode?: string;
  /** Set when the allow-list expects this failure. */
  readonly allowed?: { readonly category: AllowCategory; readonly reason: string };
  /** Set when the allow-list names the record but records another failure mode: it fails in a new way. */
  readonly changed?: { readonly category: AllowCategory; readonly reason: string; readonly mode: string };
}

/** Per-status counts of `query` records only (statements excluded). */
export interface QueryCounts {
  passed: number;
  failed: number;
  skipped: number;
  unsupported: number;
  /** Failed queries the allow-list puts down to unimplemented features or dialect differences. */
  unsupportedSql: number;
}

/** The figures of one file. */
export interface FileSummary {
  /** The same figures for `query` records alone. */
  readonly queries: QueryCounts;
  readonly file: string;
  readonly source: Source;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly unsupported: number;
  /** Failures the allow-list expects. */
  readonly allowedFailures: number;
  /** Of those, failures of SQL features eddy does not implement. */
  readonly featureFailures: number;
  /** Of those, failures where eddy deliberately differs from the file's engine. */
  readonly dialectFailures: number;
  /** Failures not on the allow-list: each one is a regression or an unexplained failure. */
  readonly unexpected: readonly FailureDetail[];
  /** Every failure (allowed or not). */
  readonly failures: readonly FailureDetail[];
  /**
   * Stale entries: allow-listed records that did not fail (they passed, or are
   * skipped, unsupported or missing now). Remove them from the list.
   */
  readonly nowPassing: readonly { readonly line: number; readonly reason: string; readonly status: string }[];
  /** Set when the file could not run to the end (crash, hang). */
  readonly error?: string;
  readonly ms: number;
}

/** Checks a file run against the allow-list. */
export function summarizeFile(key: string, run: FileRun, allow: AllowList, ms: number, error?: string): FileSummary {
  const failures: FailureDetail[] = [];
  const nowPassing: { line: number; reason: string; status: string }[] = [];
  const failedLines = new Set<number>();
  const statusOf = new Map<number, string>();
  let allowedFailures = 0;
  let featureFailures = 0;
  let dialectFailures = 0;
  const queries: QueryCounts = { passed: 0, failed: 0, skipped: 0, unsupported: 0, unsupportedSql: 0 };
  for (const o of run.outcomes) {
    statusOf.set(o.line, o.status);
    if (o.status === 'failed') failedLines.add(o.line);
    const entry = o.status === 'failed' ? allow.lookup(key, o.line, o) : undefined;
    if (o.kind === 'query') {
      queries[o.status] += o.count;
      if (o.status === 'failed' && entry && entry.category !== 'bug') queries.unsupportedSql += o.count;
    }
    if (o.status === 'failed') {
      const d = detail(o);
      if (entry) {
        allowedFailures += o.count;
        if (entry.category === 'feature') featureFailures += o.count;
        if (entry.category === 'dialect') dialectFailures += o.count;
        failures.push({ ...d, allowed: { category: entry.category, reason: entry.reason } });
      } else {
        const listed = allow.listed(key, o.line)[0];
        failures.push(listed ? { ...d, changed: { category: listed.category, reason: listed.reason, mode: listed.mode ? formatMode(listed.mode) : '(any)' } } : d);
      }
    }
  }
  for (const e of allow.recordEntries(key)) {
    if (!failedLines.has(e.line!)) nowPassing.push({ line: e.line!, reason: e.reason, status: statusOf.get(e.line!) ?? 'no record at this line' });
  }
  nowPassing.sort((a, b) => a.line - b.line);
  const s: FileSummary = {
    queries,
    file: key,
    source: run.source,
    ...run.counts,
    allowedFailures,
    featureFailures,
    dialectFailures,
    unexpected: failures.filter((f) => !f.allowed),
    failures,
    nowPassing,
    ms,
  };
  return error === undefined ? s : { ...s, error };
}

function detail(o: RecordOutcome): FailureDetail {
  const d: { -readonly [K in keyof FailureDetail]: FailureDetail[K] } = { line: o.line, reason: o.reason ?? 'failed', mode: modeTextOf(o) };
  if (o.sql !== undefined) d.sql = o.sql;
  if (o.expected !== undefined) d.expected = o.expected.slice(0, 50);
  if (o.actual !== undefined) d.actual = o.actual.slice(0, 50);
  return d;
}

/** Overall figures. */
export interface Totals {
  readonly files: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly unsupported: number;
  readonly allowedFailures: number;
  readonly featureFailures: number;
  readonly dialectFailures: number;
  readonly unexpectedFailures: number;
  readonly nowPassing: number;
  /** passed / (passed + failed). */
  readonly passRate: number;
  /** `query` records alone. */
  readonly queries: QueryCounts & { readonly passRate: number; readonly supportedPassRate: number };
  /**
   * passed / (passed + failed − allow-listed failures of unimplemented features
   * or deliberate dialect differences): the rate over records using only SQL
   * eddy supports.
   */
  readonly supportedPassRate: number;
}

/** Sums file figures. */
export function totalsOf(files: readonly FileSummary[]): Totals {
  const sum = (f: (s: FileSummary) => number): number => files.reduce((n, s) => n + f(s), 0);
  const passed = sum((s) => s.passed);
  const failed = sum((s) => s.failed);
  const featureFailures = sum((s) => s.featureFailures);
  const dialectFailures = sum((s) => s.dialectFailures);
  const unsupportedSql = featureFailures + dialectFailures;
  const q = (k: keyof QueryCounts): number => sum((s) => s.queries[k]);
  const qp = q('passed');
  const qf = q('failed');
  const qu = q('unsupportedSql');
  return {
    queries: {
      passed: qp, failed: qf, skipped: q('skipped'), unsupported: q('unsupported'), unsupportedSql: qu,
      passRate: qp + qf === 0 ? 1 : qp / (qp + qf),
      supportedPassRate: qp + qf - qu === 0 ? 1 : qp / (qp + qf - qu),
    },
    files: files.length,
    passed,
    failed,
    skipped: sum((s) => s.skipped),
    unsupported: sum((s) => s.unsupported),
    allowedFailures: sum((s) => s.allowedFailures),
    featureFailures,
    dialectFailures,
    unexpectedFailures: sum((s) => s.unexpected.length),
    nowPassing: sum((s) => s.nowPassing.length),
    passRate: passed + failed === 0 ? 1 : passed / (passed + failed),
    supportedPassRate: passed + failed - unsupportedSql === 0 ? 1 : passed / (passed + failed - unsupportedSql),
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}

/** The Markdown report. */
export function summaryMarkdown(files: readonly FileSummary[], meta: Readonly<Record<string, string>>): string {
  const t = totalsOf(files);
  const out: string[] = [];
  out.push('# sqllogictest results', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push(
    `- files: ${t.files}; records passed ${t.passed}, failed ${t.failed} (allow-listed ${t.allowedFailures}: unimplemented features ${t.featureFailures}, dialect differences ${t.dialectFailures}, known bugs ${t.allowedFailures - t.featureFailures - t.dialectFailures}; unexpected ${t.unexpectedFailures}), skipped ${t.skipped}, unsupported ${t.unsupported}`,
    `- pass rate: ${pct(t.passRate)} of records run; ${pct(t.supportedPassRate)} over records using supported features`,
    `- queries alone: passed ${t.queries.passed}, failed ${t.queries.failed} (of which unimplemented features or dialect differences ${t.queries.unsupportedSql}), skipped ${t.queries.skipped}, unsupported ${t.queries.unsupported}; pass rate ${pct(t.queries.passRate)}, over queries using supported features ${pct(t.queries.supportedPassRate)}`,
    `- stale allow-list entries (the record no longer fails): ${t.nowPassing}`,
    '',
    'Records (statements and queries; queries alone in parentheses):',
    '',
    '| file | passed | failed | allow-listed | skipped | unsupported | pass rate | time |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const f of files) {
    const rate = f.passed + f.failed === 0 ? '—' : pct(f.passed / (f.passed + f.failed));
    const q = f.queries;
    out.push(`| ${f.file}${f.error ? ' ⚠' : ''} | ${f.passed} (${q.passed}) | ${f.failed} (${q.failed}) | ${f.allowedFailures} | ${f.skipped} (${q.skipped}) | ${f.unsupported} (${q.unsupported}) | ${rate} | ${(f.ms / 1000).toFixed(1)} s |`);
  }
  const crashed = files.filter((f) => f.error);
  if (crashed.length > 0) {
    out.push('', '## Files that did not run to the end', '');
    for (const f of crashed) out.push(`- ${f.file}: ${f.error}`);
  }
  const reasons = new Map<string, number>();
  for (const f of files) for (const x of f.failures) if (x.allowed) reasons.set(`${x.allowed.category}: ${x.allowed.reason}`, (reasons.get(`${x.allowed.category}: ${x.allowed.reason}`) ?? 0) + 1);
  if (reasons.size > 0) {
    out.push('', '## Allow-listed failures by reason', '', '| records | category: reason |', '|---:|---|');
    for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1])) out.push(`| ${n} | ${r.replace(/\|/g, '\\|')} |`);
  }
  const unexpected = files.flatMap((f) => f.unexpected.map((u) => ({ file: f.file, ...u })));
  if (unexpected.length > 0) {
    out.push('', `## Unexpected failures (${unexpected.length}; first 200)`, '');
    for (const u of unexpected.slice(0, 200)) {
      out.push(`### ${u.file}:${u.line}`, '', `${u.reason}`, '');
      if (u.changed) out.push(`Allow-listed (${u.changed.category}: ${u.changed.reason}) as failing with \`${u.changed.mode}\`; it now fails with \`${u.mode}\`.`, '');
      out.push('```sql', (u.sql ?? '').slice(0, 2000), '```');
      if (u.expected) out.push('expected:', '```', u.expected.slice(0, 20).join('\n'), '```');
      if (u.actual) out.push('actual:', '```', u.actual.slice(0, 20).join('\n'), '```');
      out.push('');
    }
  }
  const fixed = files.flatMap((f) => f.nowPassing.map((p) => `${f.file}:${p.line} (${p.status}; listed as: ${p.reason})`));
  if (fixed.length > 0) out.push('', '## Stale allow-list entries: the record no longer fails (remove them from test/slt/allowlist.tsv)', '', ...fixed.map((x) => `- ${x}`));
  return `${out.join('\n')}\n`;
}

/** Writes `summary.md` and `summary.json` into `dir`. */
export function writeSummary(dir: string, files: readonly FileSummary[], meta: Readonly<Record<string, string>>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.md'), summaryMarkdown(files, meta));
  // Allow-listed failures are listed as [line, category, mode, message] (their reasons are in the allow-list);
  // unexpected ones keep every detail.
  const unexpected = (x: FailureDetail): FailureDetail => ({ ...x, ...(x.sql ? { sql: x.sql.slice(0, 2000) } : {}) });
  const json = {
    meta,
    totals: totalsOf(files),
    files: files.map(({ failures, unexpected: u, ...f }) => ({ ...f, unexpected: u.map(unexpected), allowed: failures.filter((x) => x.allowed).map((x) => [x.line, x.allowed!.category, x.mode, x.reason.slice(0, 300)]) })),
  };
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(json)}\n`);
}
