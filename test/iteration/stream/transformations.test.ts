/**
 * The DataStream API end to end through env.streams: sources, map, flatMap,
 * filter, process, keyBy, union, side outputs and two-input operators, at
 * parallelism 1 and 2.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OutputTag, TableEnvironment, type ProcessContext, type Collector } from '../../../src/index.js';
import { field, schemaOf } from '../../../src/relnode/types.js';

const envs: TableEnvironment[] = [];
function envOf(parallelism: number, batchSize = 4): TableEnvironment {
  const e = TableEnvironment.create({ parallelism, batchSize });
  envs.push(e);
  return e;
}
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

const byV = (a: Record<string, unknown>, b: Record<string, unknown>): number => Number(a.v) - Number(b.v);
const nums = (n: number): { v: number }[] => Array.from({ length: n }, (_, i) => ({ v: i }));

describe.each([1, 2])('at parallelism %i', (p) => {
  it('fromRows → map → filter → collect', async () => {
    const s = envOf(p).streams.fromRows(nums(20), { parallelism: p });
    const out = await s.map((r) => ({ v: (r.v as number) * 10 })).filter((r) => (r.v as number) % 20 === 0).collect();
    expect([...out].sort(byV).map((r) => r.v)).toEqual([0, 20, 40, 60, 80, 100, 120, 140, 160, 180]);
    expect(Object.getPrototypeOf(out[0])).toBe(null);
  });

  it('map with a new schema; flatMap', async () => {
    const s = envOf(p).streams.fromRows(nums(5));
    const m = s.map((r) => ({ v: r.v, s: `x${String(r.v)}`, b: BigInt(r.v as number) }), { schema: { v: 'INTEGER', s: 'VARCHAR', b: 'BIGINT' } });
    const rows = (await m.collect()).sort(byV);
    expect(rows[3]).toEqual(Object.assign(Object.create(null), { v: 3, s: 'x3', b: 3n }));
    const f = s.flatMap((r) => Array.from({ length: r.v as number }, () => ({ v: r.v })));
    expect((await f.collect()).length).toBe(0 + 1 + 2 + 3 + 4);
  });

  it('keyBy routes equal keys to one subtask', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ k: `key${i % 13}`, v: i }));
    const s = envOf(p).streams.fromRows(rows, { parallelism: p });
    const tagged = s.keyBy('k').process(() => ({
      processElement(row, ctx, out) { out.collect({ k: row.k, v: row.v, sub: ctx.subtaskIndex }); },
    }), { schema: { k: 'VARCHAR', v: 'INTEGER', sub: 'INTEGER' } });
    const out = await tagged.collect();
    expect(out.length).toBe(200);
    const subOf = new Map<unknown, Set<unknown>>();
    for (const r of out) { if (!subOf.has(r.k)) subOf.set(r.k, new Set()); subOf.get(r.k)!.add(r.sub); }
    for (const subs of subOf.values()) expect(subs.size).toBe(1);
    if (p === 2) expect(new Set(out.map((r) => r.sub)).size).toBe(2);
  });

  it('union keeps every row of every input', async () => {
    const env = envOf(p);
    const a = env.streams.fromRows(nums(7));
    const b = env.streams.fromRows(nums(3).map((r) => ({ v: r.v + 100 })), { parallelism: p });
    const out = await a.union(b, a.map((r) => ({ v: (r.v as number) + 1000 }))).collect();
    expect(out.map((r) => r.v as number).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 100, 101, 102, 1000, 1001, 1002, 1003, 1004, 1005, 1006]);
  });

  it('process: open, processElement, finish; side outputs', async () => {
    const odd = new OutputTag('odd', schemaOf([field('v', 'INTEGER')]));
    const env = envOf(p);
    const s = env.streams.fromRows(nums(10), { parallelism: p }).process(() => {
      let sum = 0;
      let sub = -1;
      return {
        open(ctx: ProcessContext) { sub = ctx.subtaskIndex; },
        processElement(row, ctx, out) {
          sum += row.v as number;
          if ((row.v as number) % 2 === 1) ctx.output(odd, { v: row.v });
          else out.collect({ sum: -1, sub });
        },
        finish(_ctx: ProcessContext, out: Collector) { out.collect({ sum, sub }); },
      };
    }, { schema: { sum: 'INTEGER', sub: 'INTEGER' } });
    const main = await s.collect();
    expect(main.filter((r) => r.sum !== -1).reduce((t, r) => t + (r.sum as number), 0)).toBe(45);
    expect(main.filter((r) => r.sum === -1).length).toBe(5);
    expect(main.filter((r) => r.sum !== -1).length).toBe(p);
    const odds = await s.getSideOutput(odd).collect();
    expect(odds.map((r) => r.v).sort()).toEqual([1, 3, 5, 7, 9]);
    // Through a downstream operator too.
    expect((await s.getSideOutput(odd).map((r) => ({ v: (r.v as number) * 2 })).collect()).length).toBe(5);
  });

  it('two-input process sees each input on its own method', async () => {
    const env = envOf(p);
    const a = env.streams.fromRows(nums(4));
    const b = env.streams.fromRows([{ w: 'x' }, { w: 'y' }]);
    const out = await a.connect(b).process(() => ({
      processElement1(row, _ctx, out) { out.collect({ from: 'a', v: String(row.v) }); },
      processElement2(row, _ctx, out) { out.collect({ from: 'b', v: row.w }); },
    }), { schema: { from: 'VARCHAR', v: 'VARCHAR' } }).collect();
    expect(out.filter((r) => r.from === 'a').map((r) => r.v).sort()).toEqual(['0', '1', '2', '3']);
    expect(out.filter((r) => r.from === 'b').map((r) => r.v).sort()).toEqual(['x', 'y']);
  });

  it('broadcast sends every row to every subtask; rebalance spreads batches', async () => {
    const env = envOf(p);
    const src = env.streams.fromRows(nums(8));
    const tag = () => ({ processElement(row: Record<string, unknown>, ctx: ProcessContext, out: Collector) { out.collect({ v: row.v, sub: ctx.subtaskIndex }); } });
    const schema = { v: 'INTEGER', sub: 'INTEGER' };
    const b = await src.broadcast().process(tag, { schema }).collect();
    expect(b.length).toBe(8 * p);
    expect(new Set(b.map((r) => r.sub)).size).toBe(p);
    const r = await src.rebalance().process(tag, { schema }).collect();
    expect(r.length).toBe(8);
    expect(new Set(r.map((x) => x.sub)).size).toBe(p);
    expect(src.rebalance().process(tag, { schema }).explain()).toBe(`Process [p=${p}]\n  FromRows(8 rows) [p=1] <- rebalance`);
    expect(src.map((x) => x).explain()).toBe(`Map [p=${p}]\n  FromRows(8 rows) [p=1]${p === 1 ? '' : ' <- rebalance'}`);
  });

  it('a new operator gets the environment parallelism unless setParallelism says otherwise', async () => {
    const env = envOf(p);
    const src = env.streams.fromRows(nums(3));
    expect(src.parallelism).toBe(1);
    const m = src.map((r) => r);
    expect(m.parallelism).toBe(p);
    const m3 = src.map((r) => r).setParallelism(3);
    expect(m3.parallelism).toBe(3);
    const seen = await m3.process(() => ({ processElement(_r, ctx, out) { out.collect({ v: ctx.parallelism }); } })).collect();
    expect(seen.map((r) => r.v)).toEqual([p, p, p]);
  });
});
