/**
 * `identical` (relnode/identical.ts): structural equality plus everything displayed. Trees built
 * twice alike are identical; a renamed output, a renamed table, a reordered commutative operand,
 * another literal or another table version is not (while `structurallyEqual` accepts the first
 * three: same rows).
 */
import { describe, expect, it } from 'vitest';
import { structurallyEqual } from '../../src/relnode/equal.js';
import { identical } from '../../src/relnode/identical.js';
import * as rel from '../../src/relnode/rel.js';
import { digest } from '../../src/relnode/digest.js';
import { call, inputRef, literal, withSpan } from '../../src/relnode/rex.js';
import { sourceSpan } from '../../src/relnode/source-span.js';
import { field, schemaOf } from '../../src/relnode/types.js';

const schema = schemaOf([field('a', 'INTEGER'), field('b', 'DOUBLE')]);
const table = (version: number, name = 't'): rel.TableRef => ({ id: 'table:t', name, version, schema, handle: {} });
const a = inputRef(0, 'INTEGER', 'a');
const five = literal(5, 'INTEGER');

function build(o: { names?: string[]; flip?: boolean; k?: number; version?: number; tableName?: string } = {}): rel.RelNode {
  const scan = rel.scan(table(o.version ?? 1, o.tableName));
  const sum = call('plus', o.flip ? [literal(o.k ?? 5, 'INTEGER'), a] : [a, literal(o.k ?? 5, 'INTEGER')], 'INTEGER');
  return rel.project(rel.filter(scan, call('gt', [a, five], 'BOOLEAN')), [sum, inputRef(1, 'DOUBLE', 'b')], o.names ?? ['x', 'b']);
}

describe('identical plan trees', () => {
  it('two trees built alike are identical', () => {
    expect(identical(build(), build())).toBe(true);
  });

  it('another output name, table name or operand order: same rows, not identical', () => {
    for (const other of [build({ names: ['y', 'b'] }), build({ tableName: 'u' }), build({ flip: true })]) {
      expect(structurallyEqual(build(), other)).toBe(true);
      expect(identical(build(), other)).toBe(false);
    }
  });

  it('another literal or table version: neither equal nor identical', () => {
    for (const other of [build({ k: 6 }), build({ version: 2 })]) {
      expect(structurallyEqual(build(), other)).toBe(false);
      expect(identical(build(), other)).toBe(false);
    }
  });

  it('a column reference displayed under another name is not identical', () => {
    const scan = rel.scan(table(1));
    const p1 = rel.filter(scan, call('gt', [inputRef(0, 'INTEGER', 'a'), five], 'BOOLEAN'));
    const p2 = rel.filter(scan, call('gt', [inputRef(0, 'INTEGER', 'a2'), five], 'BOOLEAN'));
    expect(structurallyEqual(p1, p2)).toBe(true);
    expect(identical(p1, p2)).toBe(false);
  });

  it('another SQL position of an expression: same digest and rows, not identical (a runtime error quotes its own statement)', () => {
    const at = (column: number) => sourceSpan(`SELECT ${' '.repeat(column - 8)}a + 5`, { line: 1, column, offset: column - 1, length: 5 });
    const plan = (column: number): rel.RelNode => rel.project(rel.scan(table(1)), [withSpan(call('plus', [a, five], 'INTEGER'), at(column))], ['x']);
    expect(identical(plan(8), plan(8))).toBe(true);
    expect(structurallyEqual(plan(8), plan(10))).toBe(true);
    expect(digest(plan(8))).toBe(digest(plan(10)));
    expect(identical(plan(8), plan(10))).toBe(false);
  });
});

