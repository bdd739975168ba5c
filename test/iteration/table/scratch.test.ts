import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';

describe('scratch', () => {
  for (const p of [1, 4]) it(`counts p=${p}`, async () => {
    const env = TableEnvironment.create({ parallelism: p });
    const init = env.fromRecords([{ n: 0 }, { n: 10 }]);
    const { x } = env.iterate({ variables: { x: init }, maxRounds: 5, body: (v) => ({ next: { x: v.x.select('n + 1 AS n') } }) });
    const rows = (await x.orderBy('n').collect()).toArray().map((r) => r.toJSON());
    expect(rows).toEqual([{ n: 5 }, { n: 15 }]);
    console.log(await x.explain());
    const s = (await x.select('sum(n) AS s').collect()).toArray().map((r) => r.toJSON());
    expect(s).toEqual([{ s: 20n }]);
    await env.close();
  });
});
