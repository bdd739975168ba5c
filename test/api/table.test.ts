import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avg, col, countStar, date, desc, lit, max, min, sum, TableEnvironment, ValidationError, when } from '../../src/index.js';

let env: TableEnvironment;

/** The same small table with NULLs, fresh each call. */
function peopleTable() {
  return env.fromRecords([
    { id: 1, name: 'ann', age: 34, city: 'Oslo' },
    { id: 2, name: 'bob', age: null, city: 'Rome' },
    { id: 3, name: 'cid', age: 51, city: 'Oslo' },
    { id: 4, name: 'dee', age: 27, city: null },
  ], { id: 'INTEGER', name: 'VARCHAR', age: 'INTEGER', city: 'VARCHAR' });
}

beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('people', peopleTable());
});

afterAll(async () => { await env.close(); });

describe('validation errors', () => {
  it('an unknown column names the closest match and the available ones', () => {
    const t = env.from('people');
    expect(() => t.select('nme')).toThrow(ValidationError);
    expect(() => t.select('nme')).toThrow(/column "nme" not found; did you mean "name"\?/);
    expect(() => t.filter(col('agee').gt(3))).toThrow(/available: .*people\.age/);
  });

  it('type errors name the expression and the types', () => {
    const t = env.from('people');
    expect(() => t.select(col('name').plus(1))).toThrow(/numeric.*VARCHAR.*name \+ 1|name \+ 1/);
    expect(() => t.filter(col('age'))).toThrow(/BOOLEAN/);
  });

  it('a non-key column outside an aggregate is an error', () => {
    expect(() => env.from('people').groupBy('city').select('city', 'name')).toThrow(/"name".*groupBy/);
  });

  it('an ambiguous column in a self-join asks for a qualifier', () => {
    const a = env.from('people');
    const j = a.as('x').join(a.as('y'), col('x.id').eq(col('y.id')));
    expect(() => j.select('name')).toThrow(/ambiguous/);
    expect(j.select('x.name', 'y.age').columns).toEqual(['name', 'age']);
  });

  it('an unknown table names the tables that exist', () => {
    expect(() => env.from('peple')).toThrow(/table "peple" not found; did you mean "people"\?/);
  });
});

describe('queries', () => {
  it('filter, project, order, limit', async () => {
    const rows = await env.from('people').filter(col('age').gt(30)).select('name', col('age').plus(1).as('next')).orderBy(desc('next')).toArray();
    expect(rows).toEqual([{ name: 'cid', next: 52 }, { name: 'ann', next: 35 }]);
  });

  it('group by with NULL keys forming one group', async () => {
    const rows = await env.from('people').groupBy('city').select('city', countStar().as('n'), avg('age').as('a')).orderBy(col('city').asc().nullsFirst()).toArray();
    expect(rows).toEqual([{ city: null, n: 1n, a: 27 }, { city: 'Oslo', n: 2n, a: 42.5 }, { city: 'Rome', n: 1n, a: null }]);
  });

  it('CASE and literals', async () => {
    const rows = await env.from('people').select('name', when(col('age').ge(50), lit('senior')).when(col('age').isNull(), lit('unknown')).otherwise(lit('adult')).as('k')).orderBy('name').toArray();
    expect(rows.map((r) => r['k'])).toEqual(['adult', 'unknown', 'senior', 'adult']);
  });

  it("FLIP-36's motivating example: one derived table, several actions", async () => {
    const b = env.from('people').select('name', 'age').filter(col('age').isNotNull());
    expect(await b.max('age')).toBe(51);
    expect(await b.min('age')).toBe(27);
    expect(await b.count()).toBe(3);
    expect(await b.sum('age')).toBe(112n);
  });

  it('global aggregates over empty input give one row', async () => {
    const rows = await env.from('people').filter(col('age').gt(1000)).select(countStar().as('n'), sum('age').as('s'), max('name').as('m'), min('age').as('lo')).toArray();
    expect(rows).toEqual([{ n: 0n, s: null, m: null, lo: null }]);
  });

  it('explain shows logical, optimized and physical plans; analyze adds metrics', async () => {
    const t = env.from('people').filter(col('age').gt(30)).select('name');
    const text = await t.explain();
    expect(text).toMatch(/== Logical Plan ==[\s\S]*Filter[\s\S]*== Optimized Plan ==[\s\S]*== Physical Plan ==[\s\S]*Scan/);
    const analyzed = await t.explain({ analyze: true });
    expect(analyzed).toMatch(/rows=2/);
  });

  it('dates compare with string literals and date()', async () => {
    const t = env.fromRecords([{ d: '1995-03-15' }, { d: '1996-01-01' }], { d: 'DATE' });
    expect(await t.filter(col('d').lt(lit('1995-12-31'))).count()).toBe(1);
    expect(await t.filter(col('d').ge(date('1995-03-15'))).count()).toBe(2);
  });

  it('replacing a registered table bumps its version', () => {
    const before = env.from('people').plan;
    env.registerTable('people2', peopleTable());
    const v1 = (env.from('people2').plan as { table: { version: number } }).table.version;
    env.registerTable('people2', peopleTable());
    const v2 = (env.from('people2').plan as { table: { version: number } }).table.version;
    expect(v2).toBeGreaterThan(v1);
    expect(before.kind).toBe('Scan');
  });

  it('a closed environment refuses work', async () => {
    const e = TableEnvironment.create();
    await e.close();
    expect(() => e.fromRecords([{ a: 1 }])).toThrow(/closed/);
  });
});
