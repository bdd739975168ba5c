/**
 * sqllogictest in `npm test`: every one of eddy's own files (test/slt/*.slt)
 * and a fast slice of the vendored conformance suite (../shared/slt, beside
 * the repository). A failure not on test/slt/allowlist.tsv fails the file's
 * test, printing the record, its SQL, the expected and the actual rows.
 * The whole suite runs with `npm run test:slt`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AllowList, REPO_ROOT, fileKey } from './slt-runner/allowlist.js';
import { collectFiles } from './slt-runner/cli.js';
import { eddyCachedFactory, eddyFactory, type EngineFactory } from './slt-runner/engine.js';
import { runText } from './slt-runner/run-file.js';
import { summarizeFile, type FailureDetail } from './slt-runner/summary.js';

const SUITE = resolve(REPO_ROOT, '../shared/slt');

/**
 * The vendored files `npm test` runs (folders included whole): every DuckDB and
 * DataFusion file, SQLite's select1–3 and evidence files — a cross-section that
 * runs in well under a minute. select4/select5 and the random/ and index/
 * files (about 100k records) run with `npm run test:slt`.
 */
const FAST_SLICE = [
  'sqlite/test/select1.test',
  'sqlite/test/select2.test',
  'sqlite/test/select3.test',
  'sqlite/test/evidence',
  'duckdb',
  'datafusion',
];

const allow = AllowList.load();

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
    if (s.nowPassing.length > 0) {
      console.warn(`${s.file}: allow-listed records now pass (remove them from test/slt/allowlist.tsv): ${s.nowPassing.map((p) => p.line).join(', ')}`);
    }
    const report = s.unexpected.map(explain).join('\n\n');
    expect(s.unexpected.length, `${s.file}: ${s.unexpected.length} unexpected failure(s)\n\n${report}`).toBe(0);
  } finally {
    await engine.close();
  }
}

describe('sqllogictest: eddy files', () => {
  for (const f of collectFiles([resolve(REPO_ROOT, 'test/slt')])) {
    it(fileKey(f), () => check(f), 60_000);
  }
});

/** Pinned EXPLAIN text shows cache nodes when everything is cached, so that file is left out of the cached run. */
const PLAN_TEXT_FILES = ['explain.slt'];

describe('sqllogictest: eddy files with every subtree cached (answers must not change)', () => {
  for (const f of collectFiles([resolve(REPO_ROOT, 'test/slt')]).filter((f) => !PLAN_TEXT_FILES.some((p) => f.endsWith(p)))) {
    it(fileKey(f), () => check(f, eddyCachedFactory), 60_000);
  }
});

describe.skipIf(!existsSync(SUITE))('sqllogictest: vendored slice', () => {
  for (const f of existsSync(SUITE) ? collectFiles(FAST_SLICE.map((p) => resolve(SUITE, p))) : []) {
    it(fileKey(f), () => check(f), 120_000);
  }
});
