/**
 * Bug 9 of issue 7: a plain string in an expression position names a column,
 * everywhere; `lit('x')` is a string literal. Before, `upper('n')` read a
 * column while `concat('a', 'b')`, `coalesce('n', lit(5))`, `eq('R')` and
 * when/otherwise values made literals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coalesce, col, concat, dateAdd, lit, nullif, power, substring, TableEnvironment, upper, when } from '../../src/index.js';

let env: TableEnvironment;

beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('p', env.fromRecords([
    { first: 'ann', last: 'lee', n: null, m: 7, flag: true, code: 'R', R: 'r-col', d: new Date('2020-01-01T00:00:00Z'), k: 2 },
    { first: 'bob', last: 'ray', n: 3, m: 3, flag: false, code: 'x', R: 'R', d: new Date('2020-01-02T00:00:00Z'), k: 1 },
  ], { first: 'VARCHAR', last: 'VARCHAR', n: 'INTEGER', m: 'INTEGER', flag: 'BOOLEAN', code: 'VARCHAR', R: 'VARCHAR', d: 'DATE', k: 'INTEGER' }));
});

afterAll(async () => { await env.close(); });

const p = () => env.from('p');
const column = async (e: ReturnType<typeof lit>): Promise<unknown[]> => (await p().select(e.as('v')).toArray()).map((r) => r['v']);

describe('strings in expression positions are columns', () => {
  it('concat reads columns; lit adds a string', async () => {
    expect(await column(concat('first', 'last'))).toEqual(['annlee', 'bobray']);
    expect(await column(concat('first', lit(' '), 'last'))).toEqual(['ann lee', 'bob ray']);
    expect(await column(col('first').concat('last'))).toEqual(['annlee', 'bobray']);
  });

  it('coalesce and nullif read columns', async () => {
    expect(await column(coalesce('n', lit(5)))).toEqual([5, 3]);
    expect(await column(coalesce('n', 'm'))).toEqual([7, 3]);
    expect(await column(nullif('m', 'n'))).toEqual([7, null]);
  });

  it('when/otherwise values read columns', async () => {
    expect(await column(when('flag', 'first').otherwise('last'))).toEqual(['ann', 'ray']);
    expect(await column(when(col('flag'), lit('yes')).otherwise(lit('no')))).toEqual(['yes', 'no']);
  });

  it('comparison operands and IN lists read columns', async () => {
    // 'R' is a column here (values 'r-col', 'R'), not the string 'R'.
    expect(await column(col('code').eq('R'))).toEqual([false, false]);
    expect(await column(col('code').eq(lit('R')))).toEqual([true, false]);
    expect(await column(col('m').gt('n'))).toEqual([null, false]);
    expect(await column(col('code').in([lit('x'), 'R']))).toEqual([false, true]);
    expect(await column(col('m').between('n', 'm'))).toEqual([null, true]);
  });

  it('function arguments after the first read columns too', async () => {
    expect(await column(power('m', 'k'))).toEqual([49, 3]);
    expect(await column(substring('first', 'k'))).toEqual(['nn', 'bob']);
    const days = await p().select(dateAdd('d', 'k').as('v')).toArray();
    expect(days.map((r) => (r['v'] as Date).toISOString().slice(0, 10))).toEqual(['2020-01-03', '2020-01-03']);
    expect(await column(upper('first'))).toEqual(['ANN', 'BOB']);
  });

  it('a string meant as a value is an unknown column, not silently a literal', () => {
    expect(() => p().select(concat('first', ' ').as('v'))).toThrow(/column " " not found/);
    expect(() => p().filter(col('code').eq('nope'))).toThrow(/column "nope" not found/);
  });

  it('like keeps its pattern string; lit keeps its string', async () => {
    expect(await column(col('first').like('a%'))).toEqual([true, false]);
    expect(await column(lit('first'))).toEqual(['first', 'first']);
  });
});
