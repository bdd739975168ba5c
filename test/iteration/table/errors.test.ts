/** env.iterate's build-time errors name the variables, data tables and columns as the user wrote them. */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { await Promise.all(envs.splice(0).map((e) => e.close())); });

describe('env.iterate errors', () => {
  const setup = (): { env: TableEnvironment; t: ReturnType<TableEnvironment['fromRecords']> } => {
    const env = TableEnvironment.create();
    envs.push(env);
    return { env, t: env.fromRecords([{ a: 1, b: 2.5 }]) };
  };

  it('rejects unknown variables, missing next values and next values with other columns', () => {
    const { env, t } = setup();
    expect(() => env.iterate({ variables: {}, body: () => ({ next: {} }) })).toThrow(/at least one loop variable/);
    expect(() => env.iterate({ variables: { x: t }, body: (v) => ({ next: { x: v.x, y: v.x } as never }) })).toThrow(/next value for "y", which is not a loop variable; variables: x/);
    expect(() => env.iterate({ variables: { x: t, z: t }, body: (v) => ({ next: { x: v.x } as never }) })).toThrow(/no next value for variable "z"/);
    expect(() => env.iterate({ variables: { x: t }, body: (v) => ({ next: { x: v.x.select('a') } }) })).toThrow(/next value of "x" has columns \(a INTEGER\), but the variable has \(a INTEGER, b DOUBLE\)/);
    expect(() => env.iterate({ variables: { x: t }, body: () => undefined as never })).toThrow(/body must return \{ next/);
  });

  it('rejects unknown replay names, keys and options that do not fit the mode', () => {
    const { env, t } = setup();
    expect(() => env.iterate({ variables: { x: t }, data: { d: t }, replay: ['e' as 'd'], body: (v) => ({ next: { x: v.x } }) })).toThrow(/replay names "e", which is not a data table; data tables: d/);
    expect(() => env.iterate({ variables: { x: t }, mode: 'accumulate', keys: { x: ['c'] }, body: (v) => ({ next: { x: v.x } }) })).toThrow(/key column "c" of variable "x" does not exist; its columns: a, b/);
    expect(() => env.iterate({ variables: { x: t }, keys: { x: ['a'] }, body: (v) => ({ next: { x: v.x } }) })).toThrow(/needs mode: 'accumulate'/);
    expect(() => env.iterate({ variables: { x: t }, distinct: true, body: (v) => ({ next: { x: v.x } }) })).toThrow(/accumulate/);
    expect(() => env.iterate({ variables: { x: t }, maxRounds: 1.5, body: (v) => ({ next: { x: v.x } }) })).toThrow(/maxRounds must be a non-negative integer/);
    const other = TableEnvironment.create();
    envs.push(other);
    expect(() => env.iterate({ variables: { x: other.fromRecords([{ a: 1 }]) }, body: (v) => ({ next: { x: v.x } }) })).toThrow(/different TableEnvironment/);
  });
});
