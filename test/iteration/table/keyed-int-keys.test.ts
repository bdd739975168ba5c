/**
 * A keyed iteration's INTEGER keys that go to the int index's hash before
 * its direct-mapped range grows over them (int-index.ts): the fused pair
 * loop reads the keyed table by key over that range, so such keys must be
 * found there too. Before the fix, USING KEY connected components on the
 * 1M-edge benchmark graph (250k nodes in random order) left 2,021
 * components instead of one. Compared with DuckDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/index.js';
import { IntIndex } from '../../../src/iteration/table/int-index.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../../helpers/duckdb.js';

describe('IntIndex', () => {
  it('a hashed key that the direct range grows over is found there', () => {
    const ix = new IntIndex();
    ix.set(100_000, 0); // outside the direct range while few keys are held: hashed
    for (let k = 0; k < 3_000; k++) ix.set(k, k + 1);
    ix.set(110_000, 3_001); // grows the direct range past 100,000
    expect(ix.directIds.length).toBeGreaterThan(100_000);
    expect(ix.directIds[100_000]).toBe(1);
    expect(ix.get(100_000)).toBe(0);
    expect(ix.get(110_000)).toBe(3_001);
  });
});

describe('USING KEY components with late direct keys', () => {
  const nodes = [100_000, ...Array.from({ length: 3_000 }, (_, i) => i), 110_000];
  const edges: { src: number; dst: number }[] = [];
  const link = (a: number, b: number): void => { edges.push({ src: a, dst: b }, { src: b, dst: a }); };
  for (let i = 1; i < 3_000; i++) link(i, i >> 1); // a binary tree: a dozen rounds
  link(100_000, 2_999);
  link(110_000, 2_998);
  let env: TableEnvironment;
  let duck: Duck;
  beforeAll(async () => {
    env = TableEnvironment.create();
    duck = await openDuck();
    env.registerTable('e', env.fromRecords(edges, { src: 'INTEGER', dst: 'INTEGER' }));
    env.registerTable('n', env.fromRecords(nodes.map((node) => ({ node })), { node: 'INTEGER' }));
    await loadRows(duck, 'e', { src: 'INTEGER', dst: 'INTEGER' }, edges);
    await loadRows(duck, 'n', { node: 'INTEGER' }, nodes.map((node) => ({ node })));
  }, 60_000);
  afterAll(async () => { duck.close(); await env.close(); });

  it('every node gets label 0', async () => {
    const sql = `
      WITH RECURSIVE cc(node, label) USING KEY (node) AS (
        SELECT node, node FROM n
        UNION
        SELECT e.dst, min(cc.label)
        FROM cc JOIN e ON cc.node = e.src JOIN recurring.cc r ON r.node = e.dst
        WHERE cc.label < r.label
        GROUP BY e.dst
      )
      SELECT node, label FROM cc`;
    expectSameResult(fromArrow(await env.sql(sql).collect()), await duck.query(sql));
  }, 60_000);
});
