/**
 * An aggregate whose scan gets a runtime filter from a join above it stays off the workers:
 * a stage below the join would aggregate the whole scan (TPC-H Q17 at p2 was 6× slower than p1).
 */
import { describe, expect, it } from 'vitest';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { runtimeFilteredFromAbove } from '../../src/planner/ship-stages.js';

const table = (name: string): rel.TableRef => ({ id: name, name, version: 1, schema: schemaOf([field('k', 'INTEGER'), field('v', 'DOUBLE')]), handle: {} });
const big = rel.scan(table('big'));
const small = rel.scan(table('small'));
const agg = rel.aggregate(big, [0], [{ fn: 'sum', args: [1], distinct: false, name: 's', type: 'DOUBLE' } as rel.AggCall]);
const rows = (n: rel.RelNode): number => (n === small || (n.kind === 'Filter' && n.input === small) ? 10 : 1_000_000);

describe('runtimeFilteredFromAbove', () => {
  it('is true under an inner join on the grouped key whose other side is smaller', () => {
    const j = rel.join(rel.filter(small, call('gt', [inputRef(1, 'DOUBLE'), literal(1, 'DOUBLE')], 'BOOLEAN')), agg, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(2, 'INTEGER')], 'BOOLEAN'));
    expect(runtimeFilteredFromAbove(j, agg, big, rows)).toBe(true);
  });

  it('is false when the join key is not the grouped column, the other side is larger, or the join keeps unmatched rows', () => {
    const onSum = rel.join(small, agg, 'inner', call('eq', [inputRef(1, 'DOUBLE'), inputRef(3, 'DOUBLE')], 'BOOLEAN'));
    expect(runtimeFilteredFromAbove(onSum, agg, big, rows)).toBe(false);
    const j = rel.join(small, agg, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(2, 'INTEGER')], 'BOOLEAN'));
    expect(runtimeFilteredFromAbove(j, agg, big, () => 5)).toBe(false);
    const left = rel.join(agg, small, 'left', call('eq', [inputRef(0, 'INTEGER'), inputRef(2, 'INTEGER')], 'BOOLEAN'));
    expect(runtimeFilteredFromAbove(left, agg, big, rows)).toBe(false);
    expect(runtimeFilteredFromAbove(agg, agg, big, rows)).toBe(false);
  });
});
