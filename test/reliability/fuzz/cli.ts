/**
 * `npm run test:fuzz -- [--count N] [--files N] [--seed S] [--timeout MS]`: the
 * long fuzz run (see fuzz.ts). Prints inputs per category and outcome, the
 * slowest settle after a cancel, and every failure; exits 1 on any failure.
 */
import { parseArgs } from 'node:util';
import { formatReport, fuzzEnvironment, fuzzFiles, fuzzStatements, newReport } from './fuzz.js';

const { values } = parseArgs({ options: { count: { type: 'string' }, files: { type: 'string' }, seed: { type: 'string' }, timeout: { type: 'string' } } });
const int = (v: string | undefined, d: number): number => {
  const n = v === undefined ? d : Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a non-negative integer, got ${v}`);
  return n;
};
const seed = int(values.seed, 1);
const count = int(values.count, 2000);
const files = int(values.files, 500);
const timeoutMs = int(values.timeout, 10_000);

const { env, catalog } = await fuzzEnvironment();
const r = newReport();
const t0 = performance.now();
try {
  await fuzzStatements(env, catalog, r, seed, count, timeoutMs);
  await fuzzFiles(env, r, seed, files, timeoutMs);
} finally {
  await env.close();
}
console.log(`fuzz: seed ${seed}, ${count} statements, ${files} CSV + ${files} NDJSON files, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
console.log(formatReport(r));
for (const f of r.failures) console.log(`\n${f.category} ${f.outcome}: ${f.input}\n  -> ${f.message}`);
process.exitCode = r.failures.length > 0 ? 1 : 0;
