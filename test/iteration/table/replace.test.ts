/**
 * env.iterate in replace mode (bulk iteration): PageRank against a reference
 * loop, round counting, `until`, empty next, maxRounds 0, several variables,
 * static data used outside a join's build side — at parallelism 1 and 4.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';
import { col } from '../../../src/api/expr.js';
import type { Table } from '../../../src/api/table.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });
function make(parallelism: number, options: Parameters<typeof TableEnvironment.create>[0] = {}): TableEnvironment {
  const env = TableEnvironment.create({ parallelism, ...options });
  envs.push(env);
  return env;
}

async function rows(t: Table): Promise<Record<string, unknown>[]> {
  return (await t.collect()).toArray().map((r) => ({ ...r.toJSON() }));
}

const EDGES: [number, number][] = [[1, 2], [1, 3], [2, 3], [3, 1], [4, 3], [2, 5], [5, 1], [5, 4]];
const N = 5;

/** PageRank by a plain loop: rank' = 0.15/N + 0.85 · Σ rank(src)/outdeg(src) over edges into the node. */
function referencePageRank(rounds: number): Map<number, number> {
  let rank = new Map<number, number>(Array.from({ length: N }, (_, i) => [i + 1, 1 / N]));
  const deg = new Map<number, number>();
  for (const [s] of EDGES) deg.set(s, (deg.get(s) ?? 0) + 1);
  for (let r = 0; r < rounds; r++) {
    const next = new Map<number, number>(Array.from({ length: N }, (_, i) => [i + 1, 0.15 / N]));
    for (const [s, d] of EDGES) next.set(d, next.get(d)! + 0.85 * rank.get(s)! / deg.get(s)!);
    rank = next;
  }
  return rank;
}

function pageRank(env: TableEnvironment, maxRounds: number): Table {
  const nodes = env.fromRecords(Array.from({ length: N }, (_, i) => ({ id: i + 1 })));
  const edges = env.fromRecords(EDGES.map(([src, dst]) => ({ src, dst })));
  const outdeg = edges.groupBy('src').select('src AS s', 'count(*) AS deg');
  const init = nodes.select('id', `1.0 / ${N} AS rank`);
  const { ranks } = env.iterate({
    variables: { ranks: init },
    data: { nodes, edges, outdeg },
    maxRounds,
    body: (v, d) => {
      const contrib = v.ranks.join(d.edges, col('id').eq(col('src'))).join(d.outdeg, col('src').eq(col('s'))).select('dst', 'rank / deg AS c');
      const sums = contrib.groupBy('dst').select('dst', 'sum(c) AS total');
      const next = d.nodes.leftJoin(sums, col('id').eq(col('dst'))).select('id', `0.15 / ${N} + 0.85 * coalesce(total, 0.0) AS rank`);
      return { next: { ranks: next } };
    },
  });
  return ranks;
}

describe('env.iterate, replace mode', () => {
  for (const p of [1, 4]) {
    it(`PageRank matches a reference loop after 1, 2 and 20 rounds (p=${p})`, async () => {
      const env = make(p);
      for (const rounds of [1, 2, 20]) {
        const ref = referencePageRank(rounds);
        const got = await rows(pageRank(env, rounds).orderBy('id'));
        expect(got.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
        for (const r of got) expect(r.rank as number).toBeCloseTo(ref.get(r.id as number)!, 12);
      }
    });

    it(`maxRounds counts applications of the body; an aggregate over the result emits once (p=${p})`, async () => {
      const env = make(p);
      const init = env.fromRecords([{ n: 0 }, { n: 10 }]);
      const { x } = env.iterate({ variables: { x: init }, maxRounds: 7, body: (v) => ({ next: { x: v.x.select('n + 1 AS n') } }) });
      expect(await rows(x.orderBy('n'))).toEqual([{ n: 7 }, { n: 17 }]);
      expect(await rows(x.select('count(*) AS c', 'sum(n) AS s'))).toEqual([{ c: 2n, s: 24n }]);
    });

    it(`until: stops after the first round whose until table is empty (p=${p})`, async () => {
      const env = make(p);
      const init = env.fromRecords([{ n: 1 }]);
      // Doubles while n < 100: 1, 2, 4, ..., 128; the round producing 128 has an empty until.
      const { x } = env.iterate({
        variables: { x: init },
        maxRounds: 50,
        body: (v) => {
          const next = v.x.select('n * 2 AS n');
          return { next: { x: next }, until: next.filter('n < 100') };
        },
      });
      expect(await rows(x)).toEqual([{ n: 128 }]);
    });

    it(`stops when every next is empty; the result is then empty (p=${p})`, async () => {
      const env = make(p);
      const init = env.fromRecords([{ n: 1 }, { n: 5 }]);
      const { x } = env.iterate({ variables: { x: init }, body: (v) => ({ next: { x: v.x.filter('n < 3').select('n + 1 AS n') } }) });
      expect(await rows(x)).toEqual([]);
    });

    it(`several variables: each result is its own Iterate node (p=${p})`, async () => {
      const env = make(p);
      const a = env.fromRecords([{ v: 1 }]);
      const b = env.fromRecords([{ w: 100 }]);
      const res = env.iterate({
        variables: { a, b },
        maxRounds: 3,
        // a' = a + b, b' = b + 1: (1,100) → (101,101) → (202,102) → (304,103)
        body: (v) => ({ next: { a: v.a.crossJoin(v.b).select('v + w AS v'), b: v.b.select('w + 1 AS w') } }),
      });
      expect(await rows(res.a)).toEqual([{ v: 304 }]);
      expect(await rows(res.b)).toEqual([{ w: 103 }]);
      // Both results in one query: one loop with two exits.
      const both = res.a.crossJoin(res.b);
      expect(await rows(both)).toEqual([{ v: 304, w: 103 }]);
      const names = env.plan(both.plan).graph.vertices.map((x) => x.name);
      expect(names.filter((x) => x.startsWith('Head'))).toEqual(['Head0', 'Head1']);
      expect(names.filter((x) => x === 'IterateExit')).toHaveLength(2);
    });

    it(`static data outside a join build side is seen every round (union branch, whole next) (p=${p})`, async () => {
      const env = make(p);
      const seed = env.fromRecords([{ n: 1 }]);
      const extra = env.fromRecords([{ n: 1000 }]);
      const { x } = env.iterate({
        variables: { x: seed },
        data: { extra },
        maxRounds: 3,
        // Every round: the current rows + 1, plus the static row 1000: {2, 1000} → {3, 1001, 1000} → {4, 1002, 1001, 1000}.
        body: (v, d) => ({ next: { x: v.x.select('n + 1 AS n').unionAll(d.extra).distinct() } }),
      });
      expect((await rows(x.orderBy('n'))).map((r) => r.n)).toEqual([4, 1000, 1001, 1002]);
      const { y } = env.iterate({ variables: { y: seed }, data: { extra }, maxRounds: 4, body: (_v, d) => ({ next: { y: d.extra } }) });
      expect(await rows(y)).toEqual([{ n: 1000 }]);
    });
  }

  it('maxRounds 0 returns the initial value', async () => {
    const env = make(1);
    const init = env.fromRecords([{ n: 3 }]);
    const { x } = env.iterate({ variables: { x: init }, maxRounds: 0, body: (v) => ({ next: { x: v.x.select('n + 1 AS n') } }) });
    expect(await rows(x)).toEqual([{ n: 3 }]);
  });
});

describe('env.iterate, rounds without rows', () => {
  it('a global aggregate in the body answers a round whose input is empty (count 0), as a query would', async () => {
    const env = make(1);
    // x: {5} → {} (filter) while c: count of x → the round where x is empty still yields c = 0.
    const res = env.iterate({
      variables: { x: env.fromRecords([{ n: 5 }]), c: env.fromRecords([{ k: -1 }]).select('CAST(k AS BIGINT) AS k') },
      maxRounds: 3,
      body: (v) => ({ next: { x: v.x.filter('n > 100'), c: v.x.select('count(*) AS k') } }),
    });
    expect(await rows(res.c)).toEqual([{ k: 0n }]);
    expect(await rows(res.x)).toEqual([]);
  });
});

describe('env.iterate, joins between kept data and the variables', () => {
  for (const p of [1, 2, 3, 4]) {
    it(`semi, anti and non-equi joins with the kept data on the left see it every round (p=${p})`, async () => {
      const env = make(p);
      const nums = env.fromRecords(Array.from({ length: 10 }, (_, i) => ({ k: i })));
      const seed = env.fromRecords([{ k: 0 }]);
      // Each round: the numbers not yet in x and at most 2 above x's largest (anti join, then a non-equi join).
      const { x } = env.iterate({
        variables: { x: seed },
        data: { nums },
        maxRounds: 3,
        body: (v, d) => {
          const top = v.x.select('max(k) AS top');
          const near = d.nums.antiJoin(v.x, 'k').join(top, col('k').le(col('top').plus(2))).select('k');
          return { next: { x: v.x.unionAll(d.nums.semiJoin(near, 'k')) } };
        },
      });
      // {0} → {0,1,2} → {0,1,2,3,4} → {0,...,6}
      expect((await rows(x.orderBy('k'))).map((r) => r.k)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });
  }
});

describe('env.iterate, a round whose variable side is empty (on a subtask or everywhere)', () => {
  for (const p of [1, 4]) {
    it(`the kept side's owed rows still come out: anti and left outer joins (p=${p})`, async () => {
      const env = make(p);
      const nums = env.fromRecords(Array.from({ length: 10 }, (_, i) => ({ k: i })));
      const seed = env.fromRecords([{ k: 0 }]);
      // Round 1: y = {0}; round 2: y is empty, so nums ▷ y and nums ⟕ y are all of nums.
      const { z, w } = env.iterate({
        variables: { y: seed, z: seed, w: seed },
        data: { nums },
        maxRounds: 2,
        body: (v, d) => ({
          next: {
            y: v.y.filter(col('k').lt(0)),
            z: d.nums.antiJoin(v.y, 'k'),
            w: d.nums.leftJoin(v.y.select('k AS j'), col('k').eq(col('j'))).select('k'),
          },
        }),
      });
      const all = Array.from({ length: 10 }, (_, i) => i);
      expect((await rows(z.orderBy('k'))).map((r) => r.k)).toEqual(all);
      expect((await rows(w.orderBy('k'))).map((r) => r.k)).toEqual(all);
    });
  }
});
