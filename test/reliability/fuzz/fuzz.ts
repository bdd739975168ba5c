/**
 * A seeded fuzzer of hostile input (issue #11 "Tests and figures"): SQL
 * statements made by mutating the random differential generator's queries
 * (tokens deleted, repeated, swapped, replaced by odd ones, text cut short),
 * and CSV / NDJSON files with flipped, inserted and deleted bytes. Each input
 * runs against eddy and is classified:
 *
 * - ok / error: an answer, or an EddyError whose message reads as an
 *   explanation — both fine;
 * - slow: still running at the time limit, then cancelled promptly — fine
 *   (a mutation may well ask for a cross join);
 * - unclear: an EddyError whose message leaks internals (`undefined`,
 *   `[object Object]`, "is not a function");
 * - internal: an InternalError; crash: anything that is not an EddyError;
 *   hang: not settled within a second after it was cancelled.
 * The last four are failures. Used by test/reliability/fuzz.test.ts (a few
 * hundred inputs per run) and `npm run test:fuzz` (as many as asked).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EddyError, InternalError, TableEnvironment } from '../../../src/index.js';
import { generateTpch } from '../../../src/io/tpch/index.js';
import { buildCatalog, type Catalog } from '../../diff/random/catalog.js';
import { ALL_FEATURES } from '../../diff/random/features.js';
import { Rng } from '../../diff/random/prng.js';
import { generateQuery } from '../../diff/random/query-gen.js';
import { dictsTable, registerNullTables, SF } from '../../diff/harness.js';

/** How one input ended. */
export type Outcome = 'ok' | 'error' | 'slow' | 'unclear' | 'internal' | 'crash' | 'hang';

/** Outcomes that are bugs. */
export const FAILURES: ReadonlySet<Outcome> = new Set(['unclear', 'internal', 'crash', 'hang']);

/** One input that failed. */
export interface FuzzFailure {
  readonly category: string;
  readonly outcome: Outcome;
  readonly input: string;
  readonly message: string;
}

/** Counts per category and outcome, the failures, and the slowest settle time after a cancel. */
export interface FuzzReport {
  readonly counts: Map<string, Map<Outcome, number>>;
  readonly failures: FuzzFailure[];
  cancelMs: number;
}

const UNCLEAR = /\bundefined\b|\[object |is not a function|Cannot read prop|Maximum call stack/;

const ODD_TOKENS = [
  '(', ')', ',', ';', '*', '-', '+', '/', '%', '||', 'NULL', 'NOT', 'AND', 'OR', 'SELECT', 'FROM', 'WHERE', 'GROUP BY',
  'ORDER BY', 'HAVING', 'LIMIT', 'UNION', 'JOIN', 'ON', 'AS', 'CASE', 'END', 'IN', 'EXISTS', '::INTEGER', '::DATE',
  "'x'", "''", "'1995-13-45'", '1e309', '-0.0', "'nan'::DOUBLE", '9223372036854775808', '2147483648', '__proto__',
  'constructor', '"quoted"', '?', '$1', 'DISTINCT', 'ALL', 'CAST(', 'LIKE', "'%_%'", 'ESCAPE', 'ILIKE',
];

/** Splits SQL into tokens (words, quoted strings, punctuation); joining with spaces gives equivalent SQL. */
export function tokens(sql: string): string[] {
  return sql.match(/'(?:[^']|'')*'|"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_.]*|\d+(?:\.\d+)?(?:e[+-]?\d+)?|::|\|\||<=|>=|<>|!=|\S/gi) ?? [];
}

/** One to three random mutations of a query's tokens (or the text cut short). */
export function mutate(sql: string, rng: Rng): string {
  let t = tokens(sql);
  const n = rng.int(1, 3);
  for (let k = 0; k < n && t.length > 1; k++) {
    const i = rng.int(0, t.length - 1);
    switch (rng.int(0, 5)) {
      case 0: t.splice(i, 1); break;
      case 1: t.splice(i, 0, t[i]!); break;
      case 2: { const j = Math.min(t.length - 1, i + 1); [t[i], t[j]] = [t[j]!, t[i]!]; break; }
      case 3: t[i] = rng.pick(ODD_TOKENS); break;
      case 4: t.splice(i, 0, rng.pick(ODD_TOKENS)); break;
      default: t = t.slice(0, i + 1); break;
    }
  }
  return t.join(' ');
}

/** An environment with the random generator's tables (TPC-H SF 0.01 and the NULL tables), and its catalog. */
export async function fuzzEnvironment(): Promise<{ env: TableEnvironment; catalog: Catalog }> {
  const env = TableEnvironment.create({ memoryLimit: '2GB' });
  await registerNullTables(env);
  env.registerTable('dicts', dictsTable());
  env.registerTpch(SF);
  return { env, catalog: buildCatalog(generateTpch(SF)) };
}

function count(r: FuzzReport, category: string, o: Outcome): void {
  let m = r.counts.get(category);
  if (!m) { m = new Map(); r.counts.set(category, m); }
  m.set(o, (m.get(o) ?? 0) + 1);
}

function classify(e: unknown): { outcome: Outcome; message: string } {
  if (!(e instanceof Error)) return { outcome: 'crash', message: String(e) };
  if (e instanceof InternalError) return { outcome: 'internal', message: e.message };
  if (!(e instanceof EddyError)) return { outcome: 'crash', message: `${e.name}: ${e.message}` };
  if (UNCLEAR.test(e.message)) return { outcome: 'unclear', message: e.message };
  return { outcome: 'error', message: e.message };
}

/** Runs `work` with a time limit: cancelled at `timeoutMs`, a hang if it has not settled a second later. */
async function runLimited(r: FuzzReport, work: (signal: AbortSignal) => Promise<unknown>, timeoutMs: number): Promise<{ outcome: Outcome; message: string }> {
  const ctrl = new AbortController();
  let abortedAt = 0;
  const timer = setTimeout(() => { abortedAt = performance.now(); ctrl.abort(); }, timeoutMs);
  let hangTimer: NodeJS.Timeout | undefined;
  const hang = new Promise<{ outcome: Outcome; message: string }>((resolve) => {
    hangTimer = setTimeout(() => resolve({ outcome: 'hang', message: `not settled 1 s after cancelling at ${timeoutMs} ms` }), timeoutMs + 1000);
  });
  const done = Promise.resolve().then(() => work(ctrl.signal)).then(
    () => ({ outcome: 'ok' as Outcome, message: '' }),
    (e: unknown) => (abortedAt > 0 ? { outcome: 'slow' as Outcome, message: '' } : classify(e)),
  );
  const res = await Promise.race([done, hang]);
  clearTimeout(timer);
  clearTimeout(hangTimer);
  if (abortedAt > 0 && res.outcome !== 'hang') r.cancelMs = Math.max(r.cancelMs, performance.now() - abortedAt);
  return res;
}

/** Mutated statements: `count` of them from `seed`. */
export async function fuzzStatements(env: TableEnvironment, catalog: Catalog, r: FuzzReport, seed: number, count_: number, timeoutMs: number): Promise<void> {
  const features = new Set(ALL_FEATURES);
  for (let i = 0; i < count_; i++) {
    const rng = new Rng(seed * 1_000_003 + i);
    const base = generateQuery(seed * 7919 + i, catalog, features).sql;
    const sql = rng.chance(0.1) ? base : mutate(base, rng);
    const res = await runLimited(r, (signal) => env.sql(sql).toArray({ signal }), timeoutMs);
    count(r, 'statements', res.outcome);
    if (FAILURES.has(res.outcome)) r.failures.push({ category: 'statements', outcome: res.outcome, input: sql, message: res.message });
  }
}

function csvText(rng: Rng): string {
  const rows = ['id,name,price,day,flag'];
  for (let i = 0; i < rng.int(1, 40); i++) rows.push(`${i},"n${rng.int(0, 99)}, x",${(rng.next() * 1000).toFixed(2)},1995-0${rng.int(1, 9)}-1${rng.int(0, 9)},${rng.chance(0.5)}`);
  return `${rows.join(rng.chance(0.5) ? '\n' : '\r\n')}\n`;
}

function jsonText(rng: Rng): string {
  const lines: string[] = [];
  for (let i = 0; i < rng.int(1, 40); i++) lines.push(JSON.stringify({ id: i, name: `n${rng.int(0, 99)}`, price: rng.next() * 1000, tags: rng.chance(0.3) ? null : 'a"b', big: rng.chance(0.2) ? 9007199254740993 : i }));
  return `${lines.join('\n')}\n`;
}

const ODD_BYTES = [0x00, 0x22, 0x2c, 0x0a, 0x0d, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x5c, 0xff, 0xc3, 0x80, 0xef, 0xbb, 0xbf];

/** One to four byte-level mutations (flip, insert, delete, truncate). */
export function corrupt(bytes: Buffer, rng: Rng): Buffer {
  let b = Buffer.from(bytes);
  for (let k = 0; k < rng.int(1, 4) && b.length > 1; k++) {
    const i = rng.int(0, b.length - 1);
    switch (rng.int(0, 3)) {
      case 0: b[i] = b[i]! ^ (1 << rng.int(0, 7)); break;
      case 1: b = Buffer.concat([b.subarray(0, i), Buffer.from([rng.pick(ODD_BYTES)]), b.subarray(i)]); break;
      case 2: b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]); break;
      default: b = b.subarray(0, i); break;
    }
  }
  return b;
}

/** Corrupted CSV and NDJSON files: `count` of each from `seed`, read and collected. */
export async function fuzzFiles(env: TableEnvironment, r: FuzzReport, seed: number, count_: number, timeoutMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-fuzz-'));
  try {
    for (let i = 0; i < count_; i++) {
      for (const kind of ['csv', 'json'] as const) {
        const rng = new Rng(seed * 1_000_033 + i * 2 + (kind === 'csv' ? 0 : 1));
        const text = kind === 'csv' ? csvText(rng) : jsonText(rng);
        const bytes = corrupt(Buffer.from(text, 'utf8'), rng);
        const path = join(dir, `f${i}.${kind}`);
        writeFileSync(path, bytes);
        const res = await runLimited(r, async (signal) => {
          const t = kind === 'csv' ? await env.fromCsv(path) : await env.fromJson(path);
          return t.toArray({ signal });
        }, timeoutMs);
        count(r, `${kind} files`, res.outcome);
        if (FAILURES.has(res.outcome)) r.failures.push({ category: `${kind} files`, outcome: res.outcome, input: `${path}: ${JSON.stringify(bytes.toString('latin1')).slice(0, 300)}`, message: res.message });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A new, empty report. */
export function newReport(): FuzzReport {
  return { counts: new Map(), failures: [], cancelMs: 0 };
}

/** The report as a Markdown table (inputs per category and outcome). */
export function formatReport(r: FuzzReport): string {
  const outcomes: Outcome[] = ['ok', 'error', 'slow', 'unclear', 'internal', 'crash', 'hang'];
  const lines = [`| category | inputs | ${outcomes.join(' | ')} |`, `|---|--:|${outcomes.map(() => '--:').join('|')}|`];
  for (const [cat, m] of r.counts) {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    lines.push(`| ${cat} | ${total} | ${outcomes.map((o) => m.get(o) ?? 0).join(' | ')} |`);
  }
  lines.push('', `slowest settle after a cancel: ${r.cancelMs.toFixed(0)} ms`);
  return lines.join('\n');
}

