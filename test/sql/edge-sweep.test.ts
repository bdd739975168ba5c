/**
 * The edge sweep: every scalar function of the registry, every cast between the scalar types and the
 * arithmetic operators, called with edge values (edge-sweep-cases.ts) in eddy and DuckDB
 * (edge-sweep-run.ts). No call may raise an internal error, crash or hang; a user error must name
 * what the user wrote; where DuckDB answers, eddy gives the same value or a documented refusal
 * (EXCEPTIONS, each with its reason). `npm test` runs an evenly spread slice of the calls (every
 * function is in it); `npm run test:heavy` (EDDY_HEAVY=1) runs all of them (~12,000 calls, minutes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { FUNCTION_REGISTRY } from '../../src/relnode/function-registry.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { HEAVY } from '../helpers/heavy.js';
import { castCalls, functionCalls, operatorCalls, SKIPPED, type SweepCall } from './edge-sweep-cases.js';
import { runCall, type Finding, type Outcome } from './edge-sweep-run.js';

/** Outcomes that are fine by themselves: the same value or refusal, eddy's text limit, eddy answering where DuckDB refuses. */
const FINE: ReadonlySet<Outcome> = new Set(['same', 'both-error', 'limit', 'duck-error']);

/** Where eddy legitimately differs from DuckDB: the call pattern, the outcome, why. Keep it small. */
const EXCEPTIONS: readonly { readonly expr: RegExp; readonly outcome: Outcome; readonly why: string }[] = [
  { expr: /^TRY_CAST\(/, outcome: 'eddy-error', why: 'TRY_CAST between types with no cast at all (DATE to INTEGER) is a binding error in eddy; DuckDB returns NULL' },
  { expr: /^(floor|ceil|ceiling)\(CAST\(('-)?9223372036854775807?8?'? AS BIGINT\)\)$/, outcome: 'differs', why: 'floor/ceil of a BIGINT is the exact BIGINT in eddy; DuckDB returns the double it rounds to' },
  { expr: /^regexp_extract\(.*, CAST\(NULL AS INTEGER\)\)$/, outcome: 'differs', why: 'a NULL group gives NULL in eddy (NULL in, NULL out); DuckDB gives the empty string' },
  { expr: /^regexp_extract\(/, outcome: 'eddy-error', why: 'a group the pattern does not have is an error in eddy; DuckDB returns the empty string' },
  { expr: /^printf\('Ab1 é%_'/, outcome: 'eddy-error', why: "'%_' is not a format specifier; DuckDB's fmt prints the argument with thousands separators" },
  { expr: /^i?like_escape\(/, outcome: 'eddy-error', why: 'a pattern ending in the escape character is an error, as in PostgreSQL; DuckDB matches nothing' },
  { expr: /^round\(CAST\('?(2147483647|-2147483648|9223372036854775807|-9223372036854775808)'? AS (INTEGER|BIGINT)\), CAST\(-1 AS INTEGER\)\)$/, outcome: 'eddy-error', why: 'round to tens past the INTEGER/BIGINT range is an overflow error in eddy; DuckDB wraps around (a wrong value)' },
  { expr: /^date_part\('(nonsense|)', CAST\(NULL AS (DATE|TIMESTAMP)\)\)$/, outcome: 'eddy-error', why: 'an unknown part is an error whatever the date; DuckDB folds the NULL date first and returns NULL' },
  { expr: /^gcd\(.*'-9223372036854775808'/, outcome: 'eddy-error', why: 'gcd needs |BIGINT min|, which is not a BIGINT: an overflow error' },
  { expr: /^(greatest|least|coalesce|ifnull|nullif)\(/, outcome: 'eddy-error', why: 'no implicit conversion between text, numbers and booleans (docs/sql.md: eddy asks for a CAST)' },
  { expr: /^date_(trunc|diff|sub)\(/, outcome: 'eddy-error', why: 'parts that are not boundaries (dow, epoch, isoyear, yearweek, ...) are rejected by date_trunc/date_diff/date_sub' },
  { expr: /^epoch_us\(TIMESTAMP '294247/, outcome: 'eddy-error', why: 'TIMESTAMP is milliseconds: the literal past ±8.64e15 ms is rejected' },
  { expr: /^to_timestamp\(/, outcome: 'differs', why: "DuckDB's to_timestamp is a TIMESTAMP WITH TIME ZONE, which the oracle does not normalise (more-scalars.test.ts compares it through epoch_ms)" },
  { expr: /^make_timestamp\(CAST\(-1 AS BIGINT\)\)$/, outcome: 'differs', why: 'eddy floors microseconds to the millisecond (-1 µs is -1 ms); the oracle truncates DuckDB\'s -1 µs toward zero' },
  { expr: /^\(.* - (DATE|TIMESTAMP) '[^']*'\)$/, outcome: 'eddy-error', why: 'eddy has no INTERVAL values (a difference of timestamps is date_diff), and DATE - DATE is an INTEGER number of days (BIGINT in DuckDB): 5881580-07-10 minus 0001-01-01 overflows it' },
];

/** Findings no exception explains. */
function unexplained(findings: readonly Finding[]): string[] {
  return findings
    .filter((f) => !FINE.has(f.outcome) && !EXCEPTIONS.some((x) => x.outcome === f.outcome && x.expr.test(f.call.expr)))
    .map((f) => `${f.outcome}: ${f.call.expr.length > 200 ? `${f.call.expr.slice(0, 200)}…` : f.call.expr}\n    ${f.detail}`);
}

/** Every n-th call (all of them under EDDY_HEAVY), and each function's first and last call, so every function is called. */
function slice(calls: readonly SweepCall[], n: number): SweepCall[] {
  if (HEAVY) return [...calls];
  return calls.filter((c, i) => i % n === 0 || calls[i - 1]?.name !== c.name || calls[i + 1]?.name !== c.name);
}

let env: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 });
  duck = await openDuck();
});

afterAll(async () => {
  await env?.close();
  duck?.close();
});

async function sweep(calls: readonly SweepCall[]): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const c of calls) out.push(await runCall(env, duck, c));
  return out;
}

describe('edge sweep: no internal error, crash or hang at extreme arguments, DuckDB\'s values', () => {
  it('every scalar function of the registry, every signature', async () => {
    const all = functionCalls();
    const scalars = FUNCTION_REGISTRY.filter((e) => e.kind === 'scalar');
    const called = new Set(all.map((c) => c.name.toLowerCase()));
    // Every scalar function is called (under the name of one of its signatures) or skipped with a reason.
    const missing = scalars.filter((e) => SKIPPED[e.name] === undefined && !e.signatures.some((s) => called.has(s.split('(')[0]!.toLowerCase())));
    expect(missing.map((e) => e.name)).toEqual([]);
    const findings = await sweep(slice(all, 50));
    expect(unexplained(findings)).toEqual([]);
    // The sweep really compares: most calls give DuckDB's value.
    expect(findings.filter((f) => f.outcome === 'same').length).toBeGreaterThan(findings.length / 2);
  }, HEAVY ? 1_800_000 : 600_000);

  it('casts between every pair of scalar types, and TRY_CAST', async () => {
    const findings = await sweep(slice(castCalls(), 5));
    expect(unexplained(findings)).toEqual([]);
  }, 600_000);

  it('the arithmetic operators, and DATE/TIMESTAMP arithmetic at the ends of the ranges', async () => {
    const findings = await sweep(slice(operatorCalls(), 60));
    expect(unexplained(findings)).toEqual([]);
  }, 600_000);
});
