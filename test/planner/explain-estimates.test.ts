import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import '../../src/sql/index.js';
import { digest } from '../../src/relnode/digest.js';

// Assumes parallelism 1 (the default is the machine's cores): the plans pinned here are p1's.
const env = TableEnvironment.create({ parallelism: 1 });
afterAll(() => env.close());
env.registerTable('t', env.fromRecords(Array.from({ length: 1000 }, (_, i) => ({ k: i, g: i % 10 })), { k: 'INTEGER', g: 'INTEGER' }));

describe('EXPLAIN estimates', () => {
  it('EXPLAIN shows estimated rows per physical operator', async () => {
    const text = await env.sql('SELECT g, count(*) FROM t WHERE g = 3 GROUP BY g').explain();
    const phys = text.slice(text.indexOf('== Physical Plan =='));
    expect(phys).toMatch(/Scan\(t[^\n]*\[p=1\]  est=1000(\n|$)/);
    // The filter runs fused inside the aggregate (late materialization, planner/lower.ts).
    expect(phys).toMatch(/HashAggregate\(group=\[g\], aggs=\[count_star\(\)\]; fused: Filter\(\(g = 3\)\); one pass\) \[p=1\]  est=1\n/);
    const unfused = await env.sql('SELECT k FROM t WHERE g = 3').explain();
    expect(unfused).toMatch(/FilterProject\(filter=\(g = 3\), exprs=\[k\]\) \[p=1\]  est=100\n/);
  });

  it('EXPLAIN ANALYZE shows estimated next to actual rows', async () => {
    const text = await env.sql('SELECT k FROM t WHERE k < 250').explain({ analyze: true });
    expect(text).toMatch(/Filter\(\(k < 250\)\) \[p=1\]  rows=250 batches=\d+ time=[\d.]+ms est=25\d\n/);
  });

  it('statistics belong to a table version: an INSERT makes the next plan see the new rows', async () => {
    await env.executeSql('CREATE TABLE v(x INTEGER)');
    await env.executeSql('INSERT INTO v VALUES (1), (2), (3)');
    const scanEst = async (): Promise<string> => (await env.sql('SELECT x FROM v WHERE x = 2').explain()).match(/Filter[^\n]*est=(\d+)/)![1]!;
    expect(await scanEst()).toBe('1');
    await env.executeSql('INSERT INTO v VALUES (2), (2), (2), (2), (2), (2), (2), (2), (2)');
    // 12 rows, 3 distinct values: x = 2 keeps 12 / 3.
    expect(await scanEst()).toBe('4');
  });

  it('estimates do not enter the digest', async () => {
    const a = env.sql('SELECT k FROM t WHERE k < 250') as unknown as { plan: Parameters<typeof digest>[0] };
    const before = digest(a.plan);
    await env.sql('SELECT k FROM t WHERE k < 250').explain();
    expect(digest(a.plan)).toBe(before);
    expect(before).not.toContain('est=');
  });
});
