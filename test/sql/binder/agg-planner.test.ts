/**
 * The aggregate planner's markers are AggRefs, a RexNode kind of their own:
 * no input ordinal can be mistaken for an aggregate result (they used to be
 * InputRefs at 2^24 + call, so a column at that ordinal read as the first
 * aggregate).
 */
import { describe, expect, it } from 'vitest';
import * as rel from '../../../src/relnode/rel.js';
import { inputRef, type RexNode } from '../../../src/relnode/rex.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { AggPlanner } from '../../../src/sql/binder/aggregate.js';
import { colsOf } from '../../../src/sql/binder/scope.js';

describe('AggPlanner markers', () => {
  const input = rel.values([[1, 2.5]], schemaOf([field('k', 'INTEGER'), field('v', 'DOUBLE')]));
  const bound = { plan: input, cols: colsOf(input) };

  it('returns one AggRef per distinct call and rewrites it to the aggregate column after the keys', () => {
    const p = new AggPlanner(bound, [inputRef(0, 'INTEGER')], ['k']);
    const a = p.onAggregate('sum', inputRef(1, 'DOUBLE'), false);
    const b = p.onAggregate('sum', inputRef(1, 'DOUBLE'), false);
    const c = p.onAggregate('count_star', undefined, false);
    expect(a).toEqual({ kind: 'AggRef', call: 0, type: 'DOUBLE', name: 'sum(v)' });
    expect(b).toEqual(a);
    expect(c.kind).toBe('AggRef');
    const never = (i: number): never => { throw new Error(`stray ${i}`); };
    expect(p.rewrite(a, never)).toEqual(inputRef(1, 'DOUBLE', 'sum(v)'));
    expect(p.rewrite(c, never)).toEqual(inputRef(2, 'BIGINT', 'count_star()'));
    expect(p.rewrite(inputRef(0, 'INTEGER'), never)).toEqual(inputRef(0, 'INTEGER', 'k'));
  });

  it('treats any input column that is not a key as stray, whatever its ordinal', () => {
    const p = new AggPlanner(bound, [inputRef(0, 'INTEGER')], ['k']);
    p.onAggregate('sum', inputRef(1, 'DOUBLE'), false);
    const strays: number[] = [];
    const stray = (i: number): never => { strays.push(i); throw new Error('stray'); };
    for (const e of [inputRef(1, 'DOUBLE'), inputRef(1 << 24, 'DOUBLE')] as RexNode[]) expect(() => p.rewrite(e, stray)).toThrow('stray');
    expect(strays).toEqual([1, 1 << 24]);
  });
});
