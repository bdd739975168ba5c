import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/index.js';
import '../../../src/sql/index.js';
import { memorySource } from '../../../src/io/memory.js';
import { batchFromRows } from '../../../src/exec/operators/values.js';
import { reorderJoins } from '../../../src/planner/rules/reorder-joins.js';
import { digest } from '../../../src/relnode/digest.js';
import { join, scan, type RelNode, type TableRef } from '../../../src/relnode/rel.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { and, eq, ref, show, TRUE } from '../plan-fixtures.js';

const env = TableEnvironment.create();
afterAll(() => env.close());
const table = (name: string, col: string, n: number, mod: number): void => {
  env.registerTable(name, env.fromRecords(Array.from({ length: n }, (_, i) => ({ [col]: i % mod })), { [col]: 'INTEGER' }));
};
table('a', 'x', 1000, 50);
table('b', 'y', 2000, 50);
table('c', 'z', 100, 50);
table('big', 'v', 5000, 5000);

/** The optimized logical plan of a query. */
async function optimized(sql: string): Promise<string> {
  const text = await env.sql(sql).explain();
  return text.slice(text.indexOf('== Optimized Plan =='), text.indexOf('== Physical Plan =='));
}

const count = async (sql: string): Promise<bigint> => (await env.sql(sql).collect()).getChildAt(0)!.get(0) as bigint;

describe('reorder-joins', () => {
  it('never joins two relations without a predicate between them when one connects them through a third', async () => {
    const sql = 'SELECT count(*) FROM a, b, c WHERE a.x = c.z AND b.y = c.z';
    const plan = await optimized(sql);
    expect(plan).not.toContain('type=[cross]');
    expect(plan).toMatch(/Join\(type=\[inner\], condition=\[\(y = z\)\]\)[\s\S]*Join\(type=\[inner\], condition=\[\(x = z\)\]\)/);
    expect(await count(sql)).toBe(50n * 20n * 40n * 2n); // 50 keys, each with 20 a-rows · 40 b-rows · 2 c-rows
  });

  it('puts the smaller estimated side on the build (right) side', async () => {
    const text = await env.sql('SELECT count(*) FROM big, c, a WHERE big.v = a.x AND a.x = c.z').explain();
    const phys = text.slice(text.indexOf('== Physical Plan =='));
    // The first join pairs the small c with big through the implied big.v = c.z (100 rows; c with a would give 2,000), and every hash join builds its smaller input.
    expect(phys).toMatch(/HashJoin\(inner, \(v = z\), build=right[,)]/);
    expect(phys).not.toMatch(/build=left/);
    expect(phys).toContain('est=');
  });

  it('keeps the output columns in their written order (a Project restores it)', async () => {
    const r = await env.sql('SELECT * FROM a, b, c WHERE a.x = c.z AND b.y = c.z AND a.x = 3 LIMIT 1').collect();
    expect(r.schema.fields.map((f) => f.name)).toEqual(['x', 'y', 'z']);
    expect(r.toArray().map((x) => x.toJSON())).toEqual([{ x: 3, y: 3, z: 3 }]);
  });

  it('treats outer joins as barriers: the left join keeps its inputs and its condition', async () => {
    const plan = await optimized('SELECT count(*) FROM a LEFT JOIN big ON a.x = big.v, b, c WHERE a.x = c.z AND b.y = c.z');
    expect(plan).toMatch(/Join\(type=\[left\], condition=\[\(x = v\)\]\)\n\s+Scan\(table=\[a\][^\n]*\n\s+Scan\(table=\[big\]/);
    expect(plan).not.toContain('type=[cross]');
  });

  it('places a predicate over three relations on the lowest join that covers them', async () => {
    const plan = await optimized('SELECT count(*) FROM a, b, c, big WHERE a.x = c.z AND b.y = c.z AND big.v = a.x AND a.x + b.y < big.v + c.z');
    const lines = plan.split('\n');
    const at = lines.findIndex((l) => l.includes('((x + y) < (v + z))'));
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1).filter((l) => l.includes('Join(')).length).toBeGreaterThanOrEqual(1);
    expect(await count('SELECT count(*) FROM a, b, c, big WHERE a.x = c.z AND b.y = c.z AND big.v = a.x AND a.x + b.y < big.v + c.z')).toBe(
      await count('SELECT count(*) FROM (SELECT * FROM a JOIN c ON a.x = c.z JOIN b ON b.y = c.z JOIN big ON big.v = a.x) t WHERE x + y < v + z'));
  });

  it('orders a 40-relation chain written out of order greedily, without cross products, in seconds', async () => {
    const N = 40;
    for (let i = 0; i < N; i++) table(`r${i}`, `c${i}`, 20, 20);
    // Even relations first, then odd ones: neighbours in the text never share a predicate (text order = 39 cross products).
    const from = [...Array.from({ length: N / 2 }, (_, i) => `r${2 * i}`), ...Array.from({ length: N / 2 }, (_, i) => `r${2 * i + 1}`)].join(', ');
    const where = Array.from({ length: N - 1 }, (_, i) => `r${i}.c${i} = r${i + 1}.c${i + 1}`).reverse().join(' AND ');
    const sql = `SELECT count(*) FROM ${from} WHERE ${where}`;
    const t0 = performance.now();
    const plan = await optimized(sql);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(plan).not.toContain('type=[cross]');
    expect(await count(sql)).toBe(20n);
  });

  it('reaches a fixpoint: a reordered plan is not reordered again, and a two-relation join is left alone', () => {
    const src = (n: number) => memorySource([batchFromRows(Array.from({ length: n }, (_, i) => [i]), schemaOf([field('k', 'INTEGER')]))]);
    const ref_ = (name: string, n: number): TableRef => ({ id: name, name, version: 1, schema: schemaOf([field('k', 'INTEGER')]), handle: src(n) });
    const [p, q, r] = [scan(ref_('p', 10)), scan(ref_('q', 1000)), scan(ref_('r', 100))];
    const k = (i: number) => ref(i, 'INTEGER', 'k');
    // (p × q) ⋈ r with both predicates on top: the written order has a cross product.
    const before: RelNode = join(join(p, q, 'cross', TRUE), r, 'inner', and(eq(k(0), k(2)), eq(k(1), k(2))));
    const once = reorderJoins.rewrite(before);
    expect(show(once)).not.toContain('cross');
    expect(digest(reorderJoins.rewrite(once))).toBe(digest(once));
    const two = join(p, q, 'inner', eq(k(0), k(1)));
    expect(reorderJoins.rewrite(two)).toBe(two);
  });

  it('joins two relations a transitive key equality links first, and drops the equality that becomes redundant', async () => {
    // TPC-H Q9's shape: fact.f = c.z AND fact.f = a.x (a.x = c.z is implied; 122 estimated rows, against 6,100 for fact ⋈ a).
    table('fact', 'f', 5000, 50);
    const sql = 'SELECT count(*) FROM fact, c, a WHERE fact.f = c.z AND fact.f = a.x AND a.x < 3';
    const text = await env.sql(sql).explain();
    const phys = text.slice(text.indexOf('== Physical Plan =='));
    expect(phys).toMatch(/HashJoin\(inner, \(x = z\)|HashJoin\(inner, \(z = x\)/); // a ⋈ c on the implied key, before big
    expect(phys).not.toMatch(/\(f = [xz]\) AND \(f = [xz]\)/); // fact joins on one key, not two equal ones
    // Keys 0..2: 100 fact rows · 2 c-rows · 20 a-rows each.
    expect(await count(sql)).toBe(3n * 100n * 2n * 20n);
  });
});
