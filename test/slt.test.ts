/**
 * sqllogictest in `npm test`: every one of eddy's own files (test/slt/*.slt)
 * and a fast slice of the vendored conformance suite (../shared/slt, beside
 * the repository). A failure not on test/slt/allowlist.tsv fails the file's
 * test, printing the record, its SQL, the expected and the actual rows; so
 * does an allow-listed record failing in another way than its entry records
 * (failure-mode.ts), and a stale entry (its record no longer fails: delete
 * the line, or run `npm run test:slt -- --update-allowlist`).
 * The whole suite runs with `npm run test:slt`.
 *
 * Without the vendored suite beside the checkout the slice fails with a test
 * that says where to put it (CI always has it; a silent skip would hide that
 * nothing ran). `EDDY_SLT_SUITE=<dir>` points elsewhere; `EDDY_SLT_SUITE=skip`
 * skips the slice deliberately, with a warning.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AllowList, REPO_ROOT, fileKey } from './slt-runner/allowlist.js';
import { collectFiles } from './slt-runner/cli.js';
import { eddyCachedFactory, eddyFactory, type EngineFactory } from './slt-runner/engine.js';
import { runText } from './slt-runner/run-file.js';
import { summarizeFile, type FailureDetail } from './slt-runner/summary.js';
import { HEAVY } from './helpers/heavy.js';

const SUITE_SETTING = process.env['EDDY_SLT_SUITE'];
const SUITE = resolve(REPO_ROOT, SUITE_SETTING && SUITE_SETTING !== 'skip' ? SUITE_SETTING : '../shared/slt');
const SKIP_SUITE = SUITE_SETTING === 'skip';
const HAVE_SUITE = !SKIP_SUITE && existsSync(resolve(SUITE, 'README.md'));

/** How to get the vendored suite, for the message of a run without it. */
const MISSING_SUITE = `the vendored sqllogictest suite is not at ${SUITE}: put the project's shared/slt folder beside the checkout ` +
  "(so that ../shared/slt/README.md exists), or point EDDY_SLT_SUITE at a copy, or set EDDY_SLT_SUITE=skip to skip the vendored slice on purpose";

/**
 * The vendored files `npm test` runs (folders included whole): every DuckDB and
 * DataFusion file, SQLite's select1 and evidence files — a cross-section that
 * runs in well under a minute. select2 (~11 s) and select3 (3,320 queries, ~70 s
 * alone) join it under `npm run test:heavy` (select2 left `npm test` when the
 * suite reached 5 minutes in CI, 2026-12-07); select4/select5 and the random/ and index/
 * files (about 100k records) run with `npm run test:slt`.
 */
const FAST_SLICE = [
  'sqlite/test/select1.test',
  ...(HEAVY ? ['sqlite/test/select2.test', 'sqlite/test/select3.test'] : []),
  'sqlite/test/evidence',
  'duckdb',
  'datafusion',
];

const allow = AllowList.load();

/**
 * Per-file vitest timeouts. A record that blocks is caught by the runner's own 10 s per-record timeout;
 * these only bound a whole file, whose wall time grows with the machine's load: SQLite's select1/select2
 * (1,000 queries, ~10 s CPU each) passed 120 s at load ~15 and failed it at load ~30.
 */
const FILE_TIMEOUT_MS = 300_000;
const VENDORED_FILE_TIMEOUT_MS = 600_000;

function explain(f: FailureDetail): string {
  const out = [`line ${f.line}: ${f.reason}`, `  SQL: ${(f.sql ?? '').split('\n').join('\n       ')}`];
  if (f.expected) out.push(`  expected:\n    ${f.expected.slice(0, 15).join('\n    ')}`);
  if (f.actual) out.push(`  actual:\n    ${f.actual.slice(0, 15).join('\n    ')}`);
  return out.join('\n');
}

async function check(path: string, factory: EngineFactory = eddyFactory): Promise<void> {
  const engine = await factory();
  const t0 = Date.now();
  try {
    const run = await runText(path, readFileSync(path, 'utf8'), engine, { timeoutMs: 10_000 });
    const s = summarizeFile(fileKey(path), run, allow, Date.now() - t0);
    const report = s.unexpected.map(explain).join('\n\n');
    expect(s.unexpected.length, `${s.file}: ${s.unexpected.length} unexpected failure(s)\n\n${report}`).toBe(0);
    const stale = s.nowPassing.map((p) => `line ${p.line} (${p.status}): ${p.reason}`).join('\n');
    expect(s.nowPassing.length, `${s.file}: stale allow-list entries, the records no longer fail: delete them from test/slt/allowlist.tsv\n${stale}`).toBe(0);
  } finally {
    await engine.close();
  }
}

describe('sqllogictest: eddy files', () => {
  for (const f of collectFiles([resolve(REPO_ROOT, 'test/slt')])) {
    it(fileKey(f), () => check(f), FILE_TIMEOUT_MS);
  }
});

/** Pinned EXPLAIN text shows cache nodes when everything is cached, so that file is left out of the cached run. */
const PLAN_TEXT_FILES = ['explain.slt'];

describe('sqllogictest: eddy files with every subtree cached (answers must not change)', () => {
  for (const f of collectFiles([resolve(REPO_ROOT, 'test/slt')]).filter((f) => !PLAN_TEXT_FILES.some((p) => f.endsWith(p)))) {
    it(fileKey(f), () => check(f, eddyCachedFactory), FILE_TIMEOUT_MS);
  }
});

describe('sqllogictest: vendored slice', () => {
  if (SKIP_SUITE) {
    console.warn('EDDY_SLT_SUITE=skip: the vendored sqllogictest slice is skipped');
    it.skip('skipped on purpose: EDDY_SLT_SUITE=skip', () => undefined);
    return;
  }
  if (!HAVE_SUITE) {
    it('needs the vendored suite beside the checkout (../shared/slt)', () => {
      expect.fail(MISSING_SUITE);
    });
    return;
  }
  for (const f of collectFiles(FAST_SLICE.map((p) => resolve(SUITE, p)))) {
    it(fileKey(f), () => check(f), VENDORED_FILE_TIMEOUT_MS);
  }
});
