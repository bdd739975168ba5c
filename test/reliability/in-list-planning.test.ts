/**
 * A long IN list plans in about linear time (issue 11 "Huge statements";
 * the 100k-item repro is in huge-statements.test.ts, linearity in
 * literal-runs.test.ts): its canonical text in digests is a fixed-size fingerprint of
 * the sorted items (so every plan node above it does not carry and rebuild a
 * megabyte of text), and display text (EXPLAIN, operator details) shows the
 * first items and a count. Fingerprints stay keys: the same items in another
 * order digest alike, other items do not. 20k items (~120 KB of text) are far
 * above the bounds checked here, as 100k were, at a fifth of the time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { digest } from '../../src/relnode/digest.js';

let env: TableEnvironment;
beforeAll(() => { env = TableEnvironment.create(); });
afterAll(async () => { await env.close(); });

const N = 20_000;
const items = (f: (i: number) => number): string => Array.from({ length: N }, (_, i) => f(i)).join(', ');
const query = (list: string): string => `SELECT x FROM (VALUES (1), (5), (${N}), (${N + 1}), (-3)) v(x) WHERE x IN (${list})`;

describe('a 20k-item IN list', () => {
  it('digests to short text; order of items does not matter, the items do', () => {
    const a = digest(env.sql(query(items((i) => i + 1))).plan);
    const b = digest(env.sql(query(items((i) => N - i))).plan);
    const c = digest(env.sql(query(items((i) => i + 2))).plan);
    expect(a.length).toBeLessThan(5_000);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  }, 60_000);

  it('shows its first items and a count in EXPLAIN, and answers exactly', async () => {
    const t = env.sql(query(items((i) => i + 1)));
    const text = await t.explain();
    expect(text.length).toBeLessThan(20_000);
    expect(text).toContain(`... ${N - 50} more))`);
    expect((await t.toArray()).map((r) => r.x).sort((x, y) => Number(x) - Number(y))).toEqual([1, 5, N]);
  }, 60_000);
});
