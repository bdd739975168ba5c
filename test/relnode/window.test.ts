/**
 * The Window node: its checking constructor, and explainTerms feeding
 * EXPLAIN, the digest and structural equality (a frame, a direction or a
 * call that differs makes a different digest; equal windows are equal).
 */
import { describe, expect, it } from 'vitest';
import { digest } from '../../src/relnode/digest.js';
import { structurallyEqual } from '../../src/relnode/equal.js';
import { explainNode } from '../../src/relnode/explain.js';
import { values } from '../../src/relnode/rel.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { DEFAULT_ORDERED_FRAME, window, type WindowCall } from '../../src/relnode/window.js';

const input = values([[1, 2, 3]], schemaOf([field('g', 'INTEGER'), field('o', 'INTEGER'), field('v', 'INTEGER')]));
const sumCall = (frame = DEFAULT_ORDERED_FRAME): WindowCall => ({ fn: 'sum', args: [2], frame, type: 'BIGINT', name: 's' });
const asc = [{ index: 1, desc: false, nullsFirst: false }];

describe('Window node', () => {
  it('appends one column per call and explains its terms', () => {
    const w = window(input, [0], asc, [sumCall(), { fn: 'row_number', args: [], frame: DEFAULT_ORDERED_FRAME, type: 'BIGINT', name: 'rn' }]);
    expect(w.schema.fields.map((f) => `${f.name}:${f.type}:${f.nullable}`)).toEqual(['g:INTEGER:true', 'o:INTEGER:true', 'v:INTEGER:true', 's:BIGINT:true', 'rn:BIGINT:false']);
    expect(explainNode(w)).toBe('Window(partition=[g], order=[o ASC NULLS LAST], calls=[sum(v) RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW AS s, row_number() AS rn])');
  });

  it('digests and compares by partition, order, frame and call', () => {
    const a = window(input, [0], asc, [sumCall()]);
    const same = window(input, [0], asc, [{ ...sumCall(), name: 'renamed' }]);
    expect(digest(a)).toBe(digest(same));
    expect(structurallyEqual(a, same)).toBe(true);
    const others = [
      window(input, [], asc, [sumCall()]),
      window(input, [0], [{ index: 1, desc: true, nullsFirst: false }], [sumCall()]),
      window(input, [0], asc, [sumCall({ mode: 'rows', start: { kind: 'preceding', offset: 1 }, end: { kind: 'currentRow' } })]),
      window(input, [0], asc, [{ ...sumCall(), fn: 'max', type: 'INTEGER' }]),
    ];
    for (const o of others) {
      expect(digest(o)).not.toBe(digest(a));
      expect(structurallyEqual(o, a)).toBe(false);
    }
  });

  it('checks its arguments and frames', () => {
    expect(() => window(input, [5], asc, [sumCall()])).toThrow(/out of range/);
    expect(() => window(input, [], [...asc, { index: 2, desc: false, nullsFirst: false }], [sumCall({ mode: 'range', start: { kind: 'preceding', offset: 1 }, end: { kind: 'currentRow' } })])).toThrow(/exactly one ORDER BY key/);
    expect(() => window(input, [], asc, [sumCall({ mode: 'rows', start: { kind: 'unboundedFollowing' }, end: { kind: 'unboundedFollowing' } })])).toThrow(/cannot start at UNBOUNDED FOLLOWING/);
    expect(() => window(input, [], asc, [sumCall({ mode: 'rows', start: { kind: 'preceding', offset: 1.5 }, end: { kind: 'currentRow' } })])).toThrow(/integer/);
  });
});
