import { describe, expect, it } from 'vitest';
import { canonicalRex, digest, digestHash, isDeterministic } from '../../src/relnode/digest.js';
import { structurallyEqual } from '../../src/relnode/equal.js';
import * as rel from '../../src/relnode/rel.js';
import { call, inputRef, literal } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const schema = schemaOf([field('a', 'INTEGER'), field('b', 'DOUBLE'), field('s', 'VARCHAR')]);
const table = (version: number, id = 'table:t'): rel.TableRef => ({ id, name: 't', version, schema, handle: {} });
const a = inputRef(0, 'INTEGER', 'a');
const b = inputRef(1, 'DOUBLE', 'b');
const five = literal(5, 'INTEGER');

describe('canonical expressions', () => {
  it('sorts commutative operands', () => {
    expect(canonicalRex(call('plus', [a, five], 'INTEGER'))).toBe(canonicalRex(call('plus', [five, a], 'INTEGER')));
    expect(canonicalRex(call('eq', [a, five], 'BOOLEAN'))).toBe(canonicalRex(call('eq', [five, a], 'BOOLEAN')));
    expect(canonicalRex(call('minus', [a, five], 'INTEGER'))).not.toBe(canonicalRex(call('minus', [five, a], 'INTEGER')));
  });

  it('orients comparisons: a > 5 equals 5 < a', () => {
    expect(canonicalRex(call('gt', [a, five], 'BOOLEAN'))).toBe(canonicalRex(call('lt', [five, a], 'BOOLEAN')));
    expect(canonicalRex(call('ge', [a, five], 'BOOLEAN'))).toBe(canonicalRex(call('le', [five, a], 'BOOLEAN')));
    expect(canonicalRex(call('gt', [a, five], 'BOOLEAN'))).not.toBe(canonicalRex(call('lt', [a, five], 'BOOLEAN')));
  });

  it('flattens and sorts AND/OR conjuncts', () => {
    const p = call('gt', [a, five], 'BOOLEAN');
    const q = call('lt', [b, literal(1.5, 'DOUBLE')], 'BOOLEAN');
    const r = call('is_null', [inputRef(2, 'VARCHAR')], 'BOOLEAN');
    const left = call('and', [call('and', [p, q], 'BOOLEAN'), r], 'BOOLEAN');
    const right = call('and', [r, call('and', [q, p], 'BOOLEAN')], 'BOOLEAN');
    expect(canonicalRex(left)).toBe(canonicalRex(right));
  });

  it('distinguishes literal types', () => {
    expect(canonicalRex(literal(1, 'INTEGER'))).not.toBe(canonicalRex(literal(1, 'DOUBLE')));
  });
});

describe('plan digests', () => {
  it('equal trees built separately have equal digests', () => {
    const t1 = rel.filter(rel.scan(table(1)), call('gt', [a, five], 'BOOLEAN'));
    const t2 = rel.filter(rel.scan(table(1)), call('lt', [five, a], 'BOOLEAN'));
    expect(digest(t1)).toBe(digest(t2));
    expect(structurallyEqual(t1, t2)).toBe(true);
    expect(digestHash(t1)).toBe(digestHash(t2));
  });

  it('scans carry source identity and version', () => {
    expect(digest(rel.scan(table(1)))).not.toBe(digest(rel.scan(table(2))));
    expect(digest(rel.scan(table(1)))).not.toBe(digest(rel.scan(table(1, 'table:u'))));
  });

  it('a different child changes the parent digest', () => {
    const p1 = rel.limit(rel.scan(table(1)), 10);
    const p2 = rel.limit(rel.scan(table(2)), 10);
    expect(digest(p1)).not.toBe(digest(p2));
  });

  it('non-deterministic expressions make a subtree ineligible', () => {
    const scan = rel.scan(table(1));
    expect(isDeterministic(rel.filter(scan, call('gt', [a, five], 'BOOLEAN')))).toBe(true);
    const rnd = rel.project(scan, [call('random', [], 'DOUBLE')], ['r']);
    expect(isDeterministic(rnd)).toBe(false);
    expect(isDeterministic(rel.limit(rnd, 3))).toBe(false);
  });
});

describe('checking constructors', () => {
  it('derive schemas and reject bad references', () => {
    const scan = rel.scan(table(1));
    expect(rel.project(scan, [b, a], ['x', 'y']).schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['x:DOUBLE', 'y:INTEGER']);
    expect(() => rel.filter(scan, inputRef(7, 'BOOLEAN'))).toThrow(/\$7/);
    expect(() => rel.filter(scan, a)).toThrow(/BOOLEAN/);
    expect(() => rel.limit(scan, -1)).toThrow(/non-negative/);
  });

  it('outer joins make the other side nullable; semi joins keep the left', () => {
    const l = rel.scan(table(1));
    const r = rel.scan({ ...table(1, 'table:u'), schema: schemaOf([field('k', 'INTEGER', false)]) });
    const cond = call('eq', [inputRef(0, 'INTEGER'), inputRef(3, 'INTEGER')], 'BOOLEAN');
    expect(rel.join(l, r, 'left', cond).schema.fields[3]!.nullable).toBe(true);
    expect(rel.join(l, r, 'semi', cond).schema.fields).toHaveLength(3);
  });

  it('withInputs re-derives and keeps identity when nothing changed', () => {
    const scan = rel.scan(table(1));
    const f = rel.filter(scan, call('gt', [a, five], 'BOOLEAN'));
    expect(rel.withInputs(f, [scan])).toBe(f);
    const f2 = rel.withInputs(f, [rel.scan(table(2))]);
    expect(f2).not.toBe(f);
    expect(f2.kind).toBe('Filter');
  });
});
