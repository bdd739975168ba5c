import { describe, expect, it } from 'vitest';
import { digest } from '../../src/relnode/digest.js';
import { structurallyEqual } from '../../src/relnode/equal.js';
import { explainTree } from '../../src/relnode/explain.js';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const vs = schemaOf([field('node', 'INTEGER'), field('rank', 'DOUBLE')]);
const es = schemaOf([field('src', 'INTEGER'), field('dst', 'INTEGER')]);
const table = (id: string, schema: typeof vs): rel.TableRef => ({ id, name: id, version: 1, schema, handle: {} });
const init = rel.scan(table('ranks', vs));
const edges = rel.scan(table('edges', es));

/** next = project(join(ranks, edges on node = src)) → (dst, rank) */
function body(e: rel.RelNode): rel.RelNode {
  const fb = rel.feedbackRef(0, vs);
  const j = rel.join(fb, e, 'inner', call('eq', [inputRef(0, 'INTEGER'), inputRef(2, 'INTEGER')], 'BOOLEAN'));
  return rel.project(j, [inputRef(3, 'INTEGER'), inputRef(1, 'DOUBLE')], ['node', 'rank']);
}

describe('Iterate node', () => {
  it('lifts tables the body reads into data inputs and shows the body under the node', () => {
    const data: rel.RelNode[] = [];
    const next = rel.liftDataInputs(body(edges), data, rel.withInputs);
    expect(data).toEqual([edges]);
    const it1 = rel.iterate({ variables: [init], data, next: [next], maxRounds: 3 });
    expect(rel.inputs(it1)).toHaveLength(3);
    const text = explainTree(it1);
    expect(text.split('\n')[0]).toContain('Iterate(mode=[replace]');
    expect(text).toMatch(/\n {6}FeedbackRef\(variable=\[0\], view=\[current\]\)/);
    expect(text).toMatch(/\n {6}DataRef\(index=\[0\]\)/);
    expect(rel.hasFreeIterationRefs(it1)).toBe(false);
    expect(rel.hasFreeIterationRefs(next)).toBe(true);
  });

  it('digests canonically: same iteration built twice is equal, other rounds or output differ', () => {
    const mk = (maxRounds: number): rel.RelNode => {
      const data: rel.RelNode[] = [];
      const next = rel.liftDataInputs(body(edges), data, rel.withInputs);
      return rel.iterate({ variables: [init], data, next: [next], maxRounds });
    };
    expect(digest(mk(3))).toBe(digest(mk(3)));
    expect(structurallyEqual(mk(3), mk(3))).toBe(true);
    expect(digest(mk(3))).not.toBe(digest(mk(4)));
    const it2 = mk(3) as rel.Iterate;
    const withInputsSame = rel.withInputs(it2, rel.inputs(it2).map((c) => c));
    expect(withInputsSame).toBe(it2);
  });

  it('rejects bodies that do not fit the variables', () => {
    const wrong = rel.project(rel.feedbackRef(0, vs), [inputRef(0, 'INTEGER')], ['node']);
    expect(() => rel.iterate({ variables: [init], next: [wrong] })).toThrow(/columns \(INTEGER\), but the variable has \(INTEGER, DOUBLE\)/);
    expect(() => rel.iterate({ variables: [init], next: [rel.feedbackRef(1, vs)] })).toThrow(/loop variable 1, but the iteration has 1/);
    expect(() => rel.iterate({ variables: [init], next: [rel.feedbackRef(0, vs, 'recurring')], mode: 'accumulate' })).toThrow(/USING KEY/);
    expect(() => rel.iterate({ variables: [init], next: [rel.feedbackRef(0, vs)], keys: [[0]] })).toThrow(/accumulating/);
    const inner = rel.iterate({ variables: [init], next: [rel.feedbackRef(0, vs)] });
    const nested = rel.union([rel.feedbackRef(0, vs), inner], true);
    expect(() => rel.iterate({ variables: [init], next: [nested] })).toThrow(/inside the body of another iteration/);
    expect(() => rel.iterate({ variables: [init], next: [rel.filter(rel.feedbackRef(0, vs), literal(true, 'BOOLEAN'))], maxRounds: -1 })).toThrow(/maxRounds/);
  });
});
