/**
 * Iterations and the cache (FLIP-36): an iteration's result caches like any
 * Table, an identical iteration built again reads that cache,
 * invalidateCache drops it, and a cached table used as data is read once per
 * query (never per round), replayed or not. Also with every subtree cached
 * (the differential suites' switch): results do not change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';
import { col } from '../../../src/api/expr.js';
import type { Table } from '../../../src/api/table.js';
import { memorySource } from '../../../src/io/memory.js';
import { batchFromRows } from '../../../src/exec/operators/values.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { probeSource, type Probe } from '../../cache/helpers.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });

const edgeSchema = schemaOf([field('src', 'INTEGER'), field('dst', 'INTEGER')]);
const EDGES = [[1, 2], [2, 3], [3, 4], [4, 5], [5, 1], [2, 6]];

/** An environment with a probed `edges` table. */
function setup(parallelism = 1): { env: TableEnvironment; probe: Probe; edges: () => Table } {
  const env = TableEnvironment.create({ parallelism });
  envs.push(env);
  const probe: Probe = { scans: 0, batches: 0 };
  env.registerTable('edges', probeSource(memorySource([batchFromRows(EDGES, edgeSchema)], 'edges', edgeSchema), probe));
  return { env, probe, edges: () => env.from('edges') };
}

/** Transitive closure of `edges` reachable from node 1, in 'accumulate' mode; `replay` re-reads edges each round. */
function reachable(env: TableEnvironment, edges: Table, replay = false): Table {
  const start = env.sql('SELECT 1 AS node');
  const { r } = env.iterate({
    variables: { r: start },
    data: { edges },
    ...(replay ? { replay: ['edges' as const] } : {}),
    mode: 'accumulate',
    body: (v, d) => ({ next: { r: v.r.join(d.edges, col('node').eq(col('src'))).select('dst AS node') } }),
  });
  return r;
}

async function nodes(t: Table): Promise<number[]> {
  return (await t.collect()).toArray().map((x) => Number(x.toJSON().node)).sort((a, b) => a - b);
}

describe('iterations and the cache', () => {
  it('an iteration result caches; an identical iteration built again reads it; invalidateCache drops it', async () => {
    const { env, probe, edges } = setup();
    const r = reachable(env, edges()).cache();
    expect(await nodes(r)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(probe.scans).toBe(1);
    const again = reachable(env, edges());
    expect(await again.explain()).toMatch(/CacheSource/);
    expect(await nodes(again)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await nodes(again.filter('node > 3'))).toEqual([4, 5, 6]);
    expect(probe.scans).toBe(1); // read from the cache, not recomputed
    expect(env.cacheManager.stats().hits).toBeGreaterThanOrEqual(2);
    await again.invalidateCache();
    expect(await nodes(again)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(probe.scans).toBe(2); // recomputed once, and cached again
    expect(await nodes(r)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(probe.scans).toBe(2);
    // A different iteration (other rounds) is another entry.
    const { r: other } = env.iterate({ variables: { r: env.sql('SELECT 1 AS node') }, data: { edges: edges() }, mode: 'accumulate', maxRounds: 1, body: (v, d) => ({ next: { r: v.r.join(d.edges, col('node').eq(col('src'))).select('dst AS node') } }) });
    expect(await nodes(other)).toEqual([1, 2]);
    expect(probe.scans).toBe(3);
  });

  for (const replay of [false, true]) {
    it(`a cached table used as ${replay ? 'replayed ' : ''}data is read once per query, never per round`, async () => {
      const { env, probe, edges } = setup();
      const cached = edges().filter('src > 0').cache();
      expect(await nodes(reachable(env, cached, replay))).toEqual([1, 2, 3, 4, 5, 6]);
      expect(probe.scans).toBe(1); // computed once (and written to the cache) in a run of 6 rounds
      expect(await nodes(reachable(env, cached, replay))).toEqual([1, 2, 3, 4, 5, 6]);
      expect(probe.scans).toBe(1); // read from the cache
      const explained = await reachable(env, cached, replay).explain({ analyze: true });
      expect(explained).toMatch(/CacheSource/);
      expect(Number(/rounds=(\d+)/.exec(explained)![1])).toBeGreaterThan(3);
      expect(probe.scans).toBe(1);
    });
  }

  it('with every subtree cached, iterations give the same answers (p=1 and 4)', async () => {
    for (const p of [1, 4]) {
      const env = TableEnvironment.create({ parallelism: p, cache: { cacheAllSubtrees: true } });
      envs.push(env);
      const edges = env.fromRecords(EDGES.map(([src, dst]) => ({ src, dst })));
      const r = reachable(env, edges);
      expect(await nodes(r)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await nodes(r)).toEqual([1, 2, 3, 4, 5, 6]);
      const { x } = env.iterate({ variables: { x: env.fromRecords([{ n: 0 }]) }, maxRounds: 4, body: (v) => ({ next: { x: v.x.select('n + 2 AS n') } }) });
      expect((await x.collect()).toArray().map((y) => y.toJSON().n)).toEqual([8]);
      expect((await x.collect()).toArray().map((y) => y.toJSON().n)).toEqual([8]);
    }
  });
});
