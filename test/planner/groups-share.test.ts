/**
 * LowerOptions.groupsShare: a worker that computes 1/W of an aggregate's groups (a partitioned or
 * one-round co-partitioned stage, ship-run.ts) sizes its group table for its share, while the
 * table statistics it carries count every group. TPC-H Q18's stage 1 reserved slots for all
 * 1.5M orders in each worker, twice what it inserts.
 */
import { describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { batchFromRows } from '../../src/exec/operators/values.js';
import { lower } from '../../src/planner/lower.js';
import { aggregate, scan } from '../../src/relnode/rel.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const SCHEMA = schemaOf([field('k', 'INTEGER'), field('v', 'DOUBLE')]);
const SOURCE = memorySource([batchFromRows(Array.from({ length: 4000 }, (_, i) => [i, i / 7]), SCHEMA)]);
const plan = aggregate(scan({ id: 't', name: 't', version: 1, schema: SOURCE.schema, handle: SOURCE }), [0], [{ fn: 'sum', args: [1], distinct: false, type: 'DOUBLE', name: 's' }]);

/** The expectedGroups the lowered HashAggregate was configured with. */
function expectedGroups(options: Parameters<typeof lower>[1]): number | undefined {
  const graph = lower(plan, options);
  const v = graph.vertices.find((x) => x.name === 'HashAggregate');
  if (v === undefined || v.kind !== 'operator') throw new Error('no HashAggregate vertex');
  return (v.factory(0) as unknown as { config: { expectedGroups?: number } }).config.expectedGroups;
}

describe('LowerOptions.groupsShare', () => {
  it('scales the group estimate that sizes a keyed aggregate', () => {
    const whole = expectedGroups({ parallelism: 1 });
    expect(whole).toBeGreaterThan(3000);
    expect(expectedGroups({ parallelism: 1, groupsShare: 0.5 })).toBe(Math.ceil(whole! / 2));
    expect(expectedGroups({ parallelism: 1, groupsShare: 1 })).toBe(whole);
  });
});
