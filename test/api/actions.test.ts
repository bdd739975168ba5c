/** Typings match the docs (issue 7): every action takes `{ signal }`, scalar actions are typed, explain is always a Promise. */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CancelledError, TableEnvironment, type ScalarValue } from '../../src/index.js';

let env: TableEnvironment;

beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('t', env.fromRecords([
    { i: 1, b: 10n, d: 1.5, s: 'x', dt: new Date('2020-01-02T00:00:00Z') },
    { i: 3, b: 20n, d: 2.5, s: 'y', dt: new Date('2021-01-02T00:00:00Z') },
  ], { i: 'INTEGER', b: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR', dt: 'TIMESTAMP' }));
});

afterAll(async () => { await env.close(); });

function aborted(): AbortSignal {
  const c = new AbortController();
  c.abort();
  return c.signal;
}

describe('every action honours { signal }', () => {
  const actions: [string, (signal: AbortSignal) => Promise<unknown>][] = [
    ['collect', (signal) => env.from('t').collect({ signal })],
    ['toArray', (signal) => env.from('t').toArray({ signal })],
    ['stream', async (signal) => { for await (const _ of env.from('t').stream({ signal })) { /* drain */ } }],
    ['count', (signal) => env.from('t').count({ signal })],
    ['min', (signal) => env.from('t').min('i', { signal })],
    ['max', (signal) => env.from('t').max('i', { signal })],
    ['sum', (signal) => env.from('t').sum('i', { signal })],
    ['avg', (signal) => env.from('t').avg('i', { signal })],
    ['explain', (signal) => env.from('t').explain({ signal })],
    ['explain analyze', (signal) => env.from('t').explain({ analyze: true, signal })],
    ['executeSql', (signal) => env.executeSql('SELECT count(*) FROM t', { signal })],
    ['INSERT ... SELECT', (signal) => env.executeSql('CREATE TABLE IF NOT EXISTS ins (i INTEGER); INSERT INTO ins SELECT i FROM t', { signal })],
    ['CACHE TABLE ... AS', (signal) => env.executeSql('CACHE TABLE cached_t AS SELECT i FROM t', { signal })],
    ['insertInto', (signal) => env.insertInto('t', env.from('t'), undefined, { signal })],
    ['cacheTable', (signal) => env.cacheTable('cached_u', env.from('t').filter('i > 1'), { signal })],
  ];
  for (const [name, run] of actions) {
    it(`${name} rejects with CancelledError under an aborted signal`, async () => {
      await expect(run(aborted())).rejects.toThrow(CancelledError);
    });
  }
});

describe('typed scalar actions', () => {
  it('min/max return the JS type of the column, null for no rows', async () => {
    const t = env.from('t');
    expectTypeOf(t.min).returns.resolves.toEqualTypeOf<ScalarValue | null>();
    expect(await t.min('i')).toBe(1);
    expect(await t.max('b')).toBe(20n);
    expect(await t.max('s')).toBe('y');
    expect(await t.min('dt')).toEqual(new Date('2020-01-02T00:00:00Z'));
    expect(await t.filter('i > 5').max('i')).toBeNull();
  });

  it('sum is a bigint over integers and a number over doubles; avg is a number', async () => {
    const t = env.from('t');
    expectTypeOf(t.sum).returns.resolves.toEqualTypeOf<number | bigint | null>();
    expectTypeOf(t.avg).returns.resolves.toEqualTypeOf<number | null>();
    expectTypeOf(t.count).returns.resolves.toEqualTypeOf<number>();
    expect(await t.sum('i')).toBe(4n);
    expect(await t.sum('d')).toBe(4);
    expect(await t.avg('i')).toBe(2);
    expect(await t.count()).toBe(2);
  });
});

describe('explain has one return type', () => {
  it('is a Promise<string> with and without analyze', async () => {
    const t = env.from('t');
    expectTypeOf(t.explain).returns.toEqualTypeOf<Promise<string>>();
    const plain = t.explain();
    expect(plain).toBeInstanceOf(Promise);
    expect(await plain).toMatch(/== Physical Plan ==/);
    expect(await t.explain({ analyze: true })).toMatch(/2 rows in/);
  });
});
