/**
 * The stage cost model (src/planner/ship-cost.ts) and the choice built on it (ship-choose.ts):
 * a stage ships when the workers beat one thread by the margin, and stays on the calling thread
 * with a reason when its fixed costs, the rows crossing the coordinator or a join side every
 * worker repeats would make it slower. Synthetic plans over tables with fixed statistics.
 */
import { describe, expect, it } from 'vitest';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { field, schemaOf, type Field } from '../../src/relnode/types.js';
import type { TableSource } from '../../src/io/source.js';
import { fixedStatistics, type ColumnStatistics } from '../../src/io/stats.js';
import { estimateRows } from '../../src/planner/estimate.js';
import { partitionedAggregate, shuffleAggregate, splitAggregate, type AggregateStage } from '../../src/planner/ship-stages.js';
import { patternNs, SHIP_COST, stageCost, type StageShape } from '../../src/planner/ship-cost.js';
import { explainStages, nextStage, planStages, type ChooseContext, type StageDecision } from '../../src/planner/ship-choose.js';
import { runtimeFilteredRows } from '../../src/planner/ship-runtime-filters.js';

function table(name: string, rows: number, fields: readonly Field[], stats: readonly ColumnStatistics[]): rel.Scan {
  const schema = schemaOf(fields);
  const st = fixedStatistics(rows, stats);
  const handle: TableSource = { schema, description: name, partitions: 1, numRows: rows, statistics: () => st, scan: () => [] };
  return rel.scan({ id: name, name, version: 1, schema, handle });
}

/** A fact table: k (4 values), v, s (a string per row). */
const fact = (rows: number): rel.Scan => table(`fact${rows}`, rows, [field('k', 'INTEGER'), field('v', 'DOUBLE'), field('s', 'VARCHAR')], [{ distinct: 4 }, { distinct: rows }, { distinct: rows }]);
/** A dimension: key d (unique), name c (a string per row). */
const dim = (rows: number): rel.Scan => table(`dim${rows}`, rows, [field('d', 'INTEGER'), field('c', 'VARCHAR')], [{ distinct: rows }, { distinct: rows }]);

const sum = (arg: number, name: string): rel.AggCall => ({ fn: 'sum', args: [arg], distinct: false, name, type: 'DOUBLE' });
const positive = (n: rel.RelNode): rel.RelNode => rel.filter(n, call('gt', [inputRef(1, 'DOUBLE'), literal(0, 'DOUBLE')], 'BOOLEAN'));
const shape: StageShape = { workers: 2, coScans: new Set(), oneRound: false, contiguous: false, finalHereRows: 8192, rowsOf: estimateRows };

/** SELECT k, sum(v), ..., count(*) FROM fact WHERE v > 0 GROUP BY k, split into partial and final aggregates. */
function fewGroups(rows: number): AggregateStage {
  const s = fact(rows);
  const calls = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => sum(1, n));
  const agg = rel.aggregate(positive(s), [0], [...calls, { fn: 'count_star', args: [], distinct: false, name: 'n', type: 'BIGINT' }]);
  return splitAggregate(agg, s)!;
}

describe('stageCost', () => {
  it('ships a large aggregate with few groups: the workers divide its rows', () => {
    const c = stageCost(fewGroups(6_000_000), shape);
    expect(c.ship).toBe(true);
    expect(c.parallelMs).toBeLessThan(0.8 * c.oneThreadMs);
    expect(c.crossingRows).toBeLessThan(10);
    expect(c.reason).toBe('');
  });

  it('keeps a small one on the calling thread: the stage costs more than its work', () => {
    const c = stageCost(fewGroups(250_000), shape);
    expect(c.ship).toBe(false);
    expect(c.parts.fixed).toBeGreaterThan(c.oneThreadMs / 2);
    expect(c.reason).toMatch(/fixed costs/);
  });

  it('keeps a shuffle whose joined rows carry strings through the coordinator', () => {
    const f = fact(6_000_000);
    const d = dim(1_000_000);
    // GROUP BY d, c over fact ⋈ dim: many groups, so the joined rows themselves are shuffled.
    const j = rel.join(f, d, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN'));
    const agg = rel.aggregate(j, [3, 4, 2], [sum(1, 'a')]);
    const c = stageCost(shuffleAggregate(agg, f), shape);
    expect(c.ship).toBe(false);
    expect(c.crossingRows).toBeGreaterThan(1_000_000);
    expect(c.reason).toMatch(/rows would cross the coordinator/);
  });

  it('keeps a stage whose join side every worker would build whole', () => {
    const f = fact(6_000_000);
    const d = dim(5_000_000);
    const j = rel.join(f, d, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN'));
    const st = splitAggregate(rel.aggregate(j, [0], [sum(1, 'a')]), f)!;
    const c = stageCost(st, shape);
    expect(c.ship).toBe(false);
    expect(c.reason).toMatch(/repeat a join side/);
    // Co-partitioned, each worker builds its share of the side only: it pays.
    expect(stageCost(st, { ...shape, coScans: new Set([d]) }).ship).toBe(true);
  });

  it('counts a large side that every worker probes whole (the distributed side builds) as repeated', () => {
    const f = fact(1_000_000);
    // A DOUBLE key: no runtime filter (its keys must be integer-valued), so every probe row counts.
    const d = table('dim5M', 5_000_000, [field('d', 'DOUBLE'), field('c', 'VARCHAR')], [{ distinct: 5_000_000 }, { distinct: 5_000_000 }]);
    const j = rel.join(f, d, 'inner', call('eq', [inputRef(1, 'DOUBLE'), inputRef(3, 'DOUBLE')], 'BOOLEAN'));
    const c = stageCost(splitAggregate(rel.aggregate(j, [0], [sum(1, 'a')]), f)!, shape);
    expect(c.runtimeFiltered).toEqual([]);
    expect(c.parts.repeated).toBeGreaterThan(c.parts.divided);
    expect(c.ship).toBe(false);
    expect(c.reason).toMatch(/repeat a join side/);
  });

  it("divides the rows a runtime filter from the distributed side keeps of a side probed whole; only its key tests repeat", () => {
    const f = fact(1_000_000);
    const d = dim(5_000_000);
    // fact.k (4 distinct keys) builds; its runtime filter keeps ~4 of dim's 5M keys.
    const j = rel.join(f, d, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN'));
    const c = stageCost(splitAggregate(rel.aggregate(j, [0], [sum(1, 'a')]), f)!, shape);
    expect(c.runtimeFiltered).toEqual([{ table: 'dim5000000', rows: 5_000_000, kept: 4 }]);
    // Each worker tests all 5M rows: 3 ns each.
    expect(c.parts.repeated).toBeCloseTo((5_000_000 * (SHIP_COST.scanRow + SHIP_COST.runtimeFilterTest)) / 1e6, 1);
  });

  it("counts a probe scan's rows after the runtime filter of a selective build side (TPC-H Q8's lineitem ⋈ part)", () => {
    const f = table('lines', 6_000_000, [field('pk', 'INTEGER'), field('v', 'DOUBLE')], [{ distinct: 200_000 }, { distinct: 6_000_000 }]);
    const part = table('parts', 200_000, [field('p', 'INTEGER'), field('t', 'VARCHAR')], [{ distinct: 200_000 }, { distinct: 150 }]);
    const kind = (k: string): rel.RelNode => rel.filter(part, call('eq', [inputRef(1, 'VARCHAR'), literal(k, 'VARCHAR')], 'BOOLEAN'));
    const stage = (side: rel.RelNode): AggregateStage => {
      const j = rel.join(f, side, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(2, 'INTEGER')], 'BOOLEAN'));
      return splitAggregate(rel.aggregate(j, [], [sum(1, 'a')]), f)!;
    };
    // One type of 150: the filter keeps ~1,333 part keys, ~40k of the 6M lines.
    const selective = stageCost(stage(kind('ECONOMY ANODIZED STEEL')), shape);
    expect(selective.runtimeFiltered).toHaveLength(1);
    expect(selective.runtimeFiltered[0]!.table).toBe('lines');
    expect(selective.runtimeFiltered[0]!.kept).toBeCloseTo(40_000, -3);
    expect(selective.ship).toBe(false);
    expect(selective.reason).toMatch(/fixed costs/);
    // Every part: no filter (it would keep every line), 6M probe rows, and the stage pays.
    const all = stageCost(stage(part), shape);
    expect(all.runtimeFiltered).toEqual([]);
    expect(all.ship).toBe(true);
    expect(all.oneThreadMs).toBeGreaterThan(3 * selective.oneThreadMs);
  });

  it("cuts a scan by the keys a build side keeps after a join above filtered it (TPC-H Q18's second stage)", () => {
    // (orders ⋈ lines) ⋉ keys: the semi join's 100 keys cut orders to ~100 rows, which build the
    // inner join and so cut lines to the ~400 rows of those orders, not every line.
    const orders = table('orders', 1_500_000, [field('o', 'INTEGER'), field('p', 'DOUBLE')], [{ distinct: 1_500_000 }, { distinct: 1_000_000 }]);
    const lines = table('lines', 6_000_000, [field('l', 'INTEGER'), field('q', 'DOUBLE')], [{ distinct: 1_500_000 }, { distinct: 50 }]);
    const keys = table('keys', 100, [field('k', 'INTEGER')], [{ distinct: 100 }]);
    const inner = rel.join(orders, lines, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(2, 'INTEGER')], 'BOOLEAN'));
    const semi = rel.join(inner, keys, 'semi', call('eq', [inputRef(0, 'INTEGER'), inputRef(4, 'INTEGER')], 'BOOLEAN'));
    const f = runtimeFilteredRows(semi);
    expect(f.rowsOf(orders)).toBeCloseTo(100, -1);
    expect(f.rowsOf(lines)).toBeGreaterThan(100);
    expect(f.rowsOf(lines)).toBeLessThan(1_000);
    expect(f.scans.get(lines)).toEqual({ rows: 6_000_000, tests: 1 });
  });

  it("counts groups of one key that arrives clustered at a comparison's cost, not a hashed slot's (TPC-H Q18's GROUP BY l_orderkey)", () => {
    const lines = table('lines', 6_000_000, [field('l', 'INTEGER'), field('q', 'DOUBLE')], [{ distinct: 1_500_000 }, { distinct: 50 }]);
    const st = partitionedAggregate(rel.aggregate(lines, [0], [sum(1, 'a')]), lines)!;
    const contiguous = { ...shape, oneRound: true, contiguous: true };
    const hashed = stageCost(st, contiguous);
    const sorted = stageCost(st, { ...contiguous, sortedIn: (s, c) => s === lines && c === 0 });
    const perGroup = (hashed.oneThreadMs - sorted.oneThreadMs) * 1e6 / 1_500_000;
    expect(perGroup).toBeCloseTo(SHIP_COST.bigGroupRow - SHIP_COST.sortedGroupRow, 0);
    // Another column clustered, or two keys: hashed.
    expect(stageCost(st, { ...contiguous, sortedIn: (_s, c) => c === 1 }).oneThreadMs).toBe(hashed.oneThreadMs);
    const two = partitionedAggregate(rel.aggregate(lines, [0, 1], [sum(1, 'a')]), lines)!;
    expect(stageCost(two, { ...contiguous, sortedIn: () => true }).oneThreadMs).toBe(stageCost(two, contiguous).oneThreadMs);
  });

  it('adds a setup cost per join of the stage (each worker lowers and builds it)', () => {
    const f = fact(6_000_000);
    const one = splitAggregate(rel.aggregate(positive(f), [0], [sum(1, 'a')]), f)!;
    const d = dim(100);
    const joined = rel.join(positive(f), d, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN'));
    const two = splitAggregate(rel.aggregate(joined, [0], [sum(1, 'a')]), f)!;
    expect(stageCost(one, shape).parts.fixed).toBe(SHIP_COST.stageMs);
    expect(stageCost(two, shape).parts.fixed).toBe(SHIP_COST.stageMs + SHIP_COST.joinSetupMs);
  });

  it('counts strings with few distinct values as dictionary codes', () => {
    const many = dim(1_000_000);
    const few = table('few', 1_000_000, [field('d', 'INTEGER'), field('c', 'VARCHAR')], [{ distinct: 1_000_000 }, { distinct: 25 }]);
    const st = (s: rel.Scan): AggregateStage => ({ ...shuffleAggregate(rel.aggregate(s, [0, 1], []), s), mode: 'gather', final: (r) => r });
    const a = stageCost(st(many), shape);
    const b = stageCost(st(few), shape);
    expect(b.parts.crossing).toBeLessThan(a.parts.crossing);
  });
});

describe('nextStage', () => {
  const plan = fewGroups(250_000).node;
  const ctx = (costed: boolean): ChooseContext => ({ large: (s) => (s.table.handle as TableSource).numRows, workers: 2, sortedIn: () => false, finalHereRows: 8192, costed });

  it("with the model on ('auto') refuses a stage that does not pay, with its reason", () => {
    const decisions: StageDecision[] = [];
    const skip = new Set<rel.RelNode>();
    expect(nextStage(plan, ctx(true), skip, decisions)).toBeUndefined();
    expect(decisions).toHaveLength(1);
    expect(decisions[0]!.shipped).toBe(false);
    expect(skip.has(plan)).toBe(true);
    expect(explainStages(decisions, 2)[0]).toMatch(/^1\. partial stage over fact250000 \(250,000 rows\): not shipped: too little work for the stage's fixed costs \(est\. 1 thread [\d.]+ ms, 2 workers [\d.]+ ms\)$/);
  });

  it("with the model off ('large', 'always') ships it, still weighed", () => {
    const decisions: StageDecision[] = [];
    const choice = nextStage(plan, ctx(false), new Set(), decisions);
    expect(choice?.stage.mode).toBe('partial');
    expect(decisions[0]!.shipped).toBe(true);
    expect(decisions[0]!.cost?.ship).toBe(false);
    expect(explainStages(decisions, 2)[0]).toMatch(/: shipped \(est\./);
  });

  it('says when a stage was weighed on an earlier stage\'s estimated result (a run weighs it on the real rows)', () => {
    // SELECT k, sum(v) FROM big JOIN (SELECT k, sum(v) ... FROM fact GROUP BY k) USING (k) GROUP BY k: the inner aggregate is stage 1.
    const inner = fewGroups(6_000_000).node;
    const big = fact(5_000_000);
    const j = rel.join(big, inner, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN'));
    const outer = rel.aggregate(j, [0], [sum(1, 'a')]);
    const large = (s: rel.Scan): number | undefined => { const n = (s.table.handle as TableSource).numRows ?? 0; return n >= 200_000 ? n : undefined; };
    const lines = explainStages(planStages(outer, { large, workers: 2, sortedIn: () => false, finalHereRows: 8192, costed: false }), 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^1\. partial stage over fact6000000 \(6,000,000 rows\): shipped \(est\. [^)]*\)$/);
    expect(lines[1]).toMatch(/^2\. partial stage over fact5000000 \(5,000,000 rows\): shipped \(est\. [^)]*\); weighed on stage 1's ~4 estimated rows: a run weighs it again on the real rows$/);
  });
});

describe('patternNs (a LIKE in a filter, per row)', () => {
  const t = table('strings', 1_000_000, [field('comment', 'VARCHAR'), field('flag', 'VARCHAR'), field('other', 'VARCHAR')], [{ distinct: 900_000, avgBytes: 48 }, { distinct: 3 }, { distinct: 900_000 }]);
  const like = (col: number, p: string) => call('like', [inputRef(col, 'VARCHAR'), literal(p, 'VARCHAR')], 'BOOLEAN') as Parameters<typeof patternNs>[0];
  it('a searching pattern costs per byte of the column\'s mean value', () => {
    expect(patternNs(like(0, '%special%requests%'), t, estimateRows)).toBeCloseTo(48 * SHIP_COST.patternByte);
    expect(patternNs(like(0, '%green%'), t, estimateRows)).toBeCloseTo(48 * SHIP_COST.patternByte);
    // No length statistics: the default string size.
    expect(patternNs(like(2, '%green%'), t, estimateRows)).toBeCloseTo(SHIP_COST.stringBytes * SHIP_COST.patternByte);
  });
  it('an anchored pattern compares a few bytes; a few-valued column decides per dictionary entry', () => {
    for (const p of ['PROMO%', '%BRASS', 'forest%', 'a%b', 'exact', '_x%']) expect(patternNs(like(0, p), t, estimateRows)).toBe(SHIP_COST.patternAnchored);
    expect(patternNs(like(1, '%a%b%'), t, estimateRows)).toBe(SHIP_COST.patternCoded);
  });
});
