/**
 * Digests name nothing (issue 7, bug 1): for every node kind that refers to
 * columns, two plans that differ only in which of two same-named columns
 * they use get different digests, are not structurally equal, and EXPLAIN
 * tells them apart. Output names are display only: a rename keeps the digest
 * and structural equality (DESIGN.md "Digests name nothing"; explain.ts).
 */
import { describe, expect, it } from 'vitest';
import { digest, digestHash } from '../../src/relnode/digest.js';
import { structurallyEqual } from '../../src/relnode/equal.js';
import { explainNode, explainTree } from '../../src/relnode/explain.js';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal, type RexNode } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const idk = schemaOf([field('id', 'INTEGER'), field('k', 'INTEGER')]);
const tref = (id: string, name: string, schema = idk): rel.TableRef => ({ id, name, version: 1, schema, handle: {} });
const L = rel.scan(tref('table:p', 'p'));
const R = rel.scan(tref('table:q', 'q'));
const ref = (i: number): RexNode => inputRef(i, 'INTEGER', 'id');
const gt = (a: RexNode, b: RexNode): RexNode => call('gt', [a, b], 'BOOLEAN');
const eq = (a: RexNode, b: RexNode): RexNode => call('eq', [a, b], 'BOOLEAN');
const one = literal(1, 'INTEGER');
/** id, k, id, k: columns 0 and 2 are both called `id`. */
const J = rel.join(L, R, 'inner', eq(inputRef(1, 'INTEGER'), inputRef(3, 'INTEGER')));
const sum = (i: number): rel.AggCall => ({ fn: 'sum', args: [i], distinct: false, type: 'BIGINT', name: 's' });
const asc = (index: number): rel.SortKey => ({ index, desc: false, nullsFirst: false });
/** A table whose two columns share the name `id`. */
const twin = tref('table:twin', 'twin', schemaOf([field('id', 'INTEGER'), field('id', 'INTEGER')]));
const proj = (i: number): rel.RelNode => rel.project(J, [ref(i)], ['id']);
const pair2 = (i: number, j: number): rel.RelNode => rel.project(J, [ref(i), ref(j)], ['id', 'id']);

/** Pairs of plans that differ only in which same-named column they use. */
const CASES: readonly { name: string; a: rel.RelNode; b: rel.RelNode }[] = [
  { name: 'Filter condition', a: rel.filter(J, gt(ref(0), one)), b: rel.filter(J, gt(ref(2), one)) },
  { name: 'Project expressions', a: proj(0), b: proj(2) },
  { name: 'Aggregate group keys', a: rel.aggregate(J, [0], []), b: rel.aggregate(J, [2], []) },
  { name: 'Aggregate arguments', a: rel.aggregate(J, [1], [sum(0)]), b: rel.aggregate(J, [1], [sum(2)]) },
  { name: 'Aggregate DISTINCT', a: rel.aggregate(J, [], [sum(0)]), b: rel.aggregate(J, [], [{ ...sum(0), distinct: true }]) },
  { name: 'Join condition', a: rel.join(L, L, 'inner', gt(ref(0), ref(2))), b: rel.join(L, L, 'inner', gt(ref(2), ref(0))) },
  { name: 'Sort keys (order)', a: rel.sort(J, [asc(0), asc(2)]), b: rel.sort(J, [asc(2), asc(0)]) },
  { name: 'Sort keys (column)', a: rel.sort(J, [asc(0)]), b: rel.sort(J, [asc(2)]) },
  { name: 'Sort direction', a: rel.sort(J, [asc(0)]), b: rel.sort(J, [{ index: 0, desc: true, nullsFirst: false }]) },
  { name: 'Scan projection', a: rel.scan(twin, [0]), b: rel.scan(twin, [1]) },
  { name: 'Scan pushed filters', a: rel.scan(twin, undefined, [gt(ref(0), one)]), b: rel.scan(twin, undefined, [gt(ref(1), one)]) },
  { name: 'CacheSource projection', a: rel.cacheSource('c1', J, [0]), b: rel.cacheSource('c1', J, [2]) },
  { name: 'CacheSource filters', a: rel.cacheSource('c1', J, undefined, [gt(ref(0), one)]), b: rel.cacheSource('c1', J, undefined, [gt(ref(2), one)]) },
  { name: 'Distinct over same-named columns', a: rel.distinct(pair2(0, 2)), b: rel.distinct(pair2(2, 0)) },
  { name: 'Union of same-named columns', a: rel.union([proj(0), proj(2)], true), b: rel.union([proj(2), proj(0)], true) },
  { name: 'SetOp of same-named columns', a: rel.setOp('except', proj(0), proj(2), false), b: rel.setOp('except', proj(2), proj(0), false) },
  { name: 'Limit over a sort by same-named columns', a: rel.limit(rel.sort(J, [asc(0)]), 3), b: rel.limit(rel.sort(J, [asc(2)]), 3) },
];

describe('same-named columns: different queries, different digests', () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect(digest(c.a)).not.toBe(digest(c.b));
      expect(digestHash(c.a)).not.toBe(digestHash(c.b));
      expect(structurallyEqual(c.a, c.b)).toBe(false);
      expect(explainTree(c.a)).not.toBe(explainTree(c.b));
      // Control: the same plan built twice is equal.
      expect(structurallyEqual(c.a, { ...c.a } as rel.RelNode)).toBe(true);
    });
  }

  it('digests hold ordinals, never the shared name', () => {
    for (const c of CASES) for (const n of [c.a, c.b]) expect(digest(n)).not.toMatch(/\bid\b/);
  });
});

describe('EXPLAIN qualifies names where they are ambiguous', () => {
  it('a self-join condition and keys over a join name each column', () => {
    expect(explainNode(rel.join(L, L, 'inner', eq(ref(0), ref(2))))).toBe('Join(type=[inner], condition=[(id#0 = id#2)])');
    expect(explainNode(rel.sort(J, [asc(2), asc(0)]))).toBe('Sort(keys=[id#2 ASC NULLS LAST, id#0 ASC NULLS LAST])');
    expect(explainNode(rel.aggregate(J, [2], [sum(0)]))).toBe('Aggregate(group=[id#2], aggs=[sum(id#0) AS s])');
    expect(explainNode(rel.scan(twin, [1]))).toBe('Scan(table=[twin], version=[table:twin#1], columns=[id#1])');
  });

  it('a qualifier that tells them apart is used instead of the ordinal', () => {
    const q = schemaOf([field('id', 'INTEGER', true, 'a'), field('id', 'INTEGER', true, 'b')]);
    const s = rel.scan(tref('table:ab', 'ab', q));
    expect(explainNode(rel.filter(s, eq(ref(0), ref(1))))).toBe('Filter(condition=[(a.id = b.id)])');
  });

  it('unambiguous names print as before', () => {
    expect(explainNode(rel.sort(J, [asc(1)]))).toBe('Sort(keys=[k#1 ASC NULLS LAST])');
    expect(explainNode(rel.sort(L, [asc(1)]))).toBe('Sort(keys=[k ASC NULLS LAST])');
  });
});

describe('output names are display only', () => {
  it('renaming a projected column keeps the digest and structural equality; EXPLAIN shows the new name', () => {
    const x = rel.project(J, [ref(0)], ['x']);
    const y = rel.project(J, [ref(0)], ['y']);
    expect(digest(x)).toBe(digest(y));
    expect(structurallyEqual(x, y)).toBe(true);
    expect(explainNode(x)).not.toBe(explainNode(y));
  });

  it('renaming an aggregate keeps the digest; changing its type does not', () => {
    const a = rel.aggregate(J, [1], [sum(0)]);
    const b = rel.aggregate(J, [1], [{ ...sum(0), name: 'total' }]);
    expect(digest(a)).toBe(digest(b));
    expect(structurallyEqual(a, b)).toBe(true);
    const c = rel.aggregate(J, [1], [{ ...sum(0), type: 'DOUBLE' }]);
    expect(digest(a)).not.toBe(digest(c));
    expect(structurallyEqual(a, c)).toBe(false);
  });

  it('Values with other column names are equal; other types or values are not', () => {
    const v = (name: string, value: number | bigint, type: 'INTEGER' | 'BIGINT') => rel.values([[value]], schemaOf([field(name, type)]));
    expect(structurallyEqual(v('a', 1, 'INTEGER'), v('b', 1, 'INTEGER'))).toBe(true);
    expect(digest(v('a', 1, 'INTEGER'))).toBe(digest(v('b', 1, 'INTEGER')));
    expect(structurallyEqual(v('a', 1, 'INTEGER'), v('a', 2, 'INTEGER'))).toBe(false);
    expect(structurallyEqual(v('a', 1n, 'BIGINT'), v('a', 1, 'INTEGER'))).toBe(false);
    expect(digest(v('a', 1n, 'BIGINT'))).not.toBe(digest(v('a', 1, 'INTEGER')));
  });
});

describe('every other attribute enters the digest and equality', () => {
  const pairs: readonly [string, rel.RelNode, rel.RelNode][] = [
    ['join type', rel.join(L, R, 'inner', eq(ref(0), ref(2))), rel.join(L, R, 'left', eq(ref(0), ref(2)))],
    ['sort fetch', rel.sort(J, [asc(0)], 3), rel.sort(J, [asc(0)], 4)],
    ['sort offset', rel.sort(J, [asc(0)], 3, 1), rel.sort(J, [asc(0)], 3)],
    ['limit offset', rel.limit(J, 3, 1), rel.limit(J, 3)],
    ['union all', rel.union([L, R], true), rel.union([L, R], false)],
    ['set op', rel.setOp('except', L, R, false), rel.setOp('intersect', L, R, false)],
    ['scan version', rel.scan(tref('table:p', 'p')), rel.scan({ ...tref('table:p', 'p'), version: 2 })],
    ['scan identity', rel.scan(tref('table:p', 'p')), rel.scan(tref('table:q', 'p'))],
    ['cache entry', rel.cacheSource('c1', J), rel.cacheSource('c2', J)],
    ['cache sink entry', rel.cacheSink(J, 'c1'), rel.cacheSink(J, 'c2')],
    ['literal -0', rel.filter(L, eq(ref(0), literal(-0, 'INTEGER'))), rel.filter(L, eq(ref(0), literal(0, 'INTEGER')))],
  ];
  for (const [name, a, b] of pairs) {
    it(name, () => {
      expect(digest(a)).not.toBe(digest(b));
      expect(structurallyEqual(a, b)).toBe(false);
    });
  }

  it('canonically equal expressions are structurally equal (a > 1 is 1 < a; AND order)', () => {
    expect(structurallyEqual(rel.filter(J, gt(ref(0), one)), rel.filter(J, call('lt', [one, ref(0)], 'BOOLEAN')))).toBe(true);
    const p = gt(ref(0), one), q = gt(ref(2), one);
    expect(structurallyEqual(rel.filter(J, call('and', [p, q], 'BOOLEAN')), rel.filter(J, call('and', [q, p], 'BOOLEAN')))).toBe(true);
  });
});

describe('a hit is confirmed by structure, not by the digest text', () => {
  it('two plans whose digest strings collide are still told apart', () => {
    const one = rel.values([[1]], schemaOf([field('v', 'INTEGER')]));
    // An entry id that happens to spell the other node's projection term.
    const a = rel.cacheSource('e;columns=[$0]', one);
    const b = rel.cacheSource('e', one, [0]);
    expect(digest(a)).toBe(digest(b));
    expect(structurallyEqual(a, b)).toBe(false);
  });
});
