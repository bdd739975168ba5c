/**
 * Shared subexpressions across a stage's projection outputs (stage-shared.ts, fused-stage.ts): the
 * rewrite (which outputs read which), and the stage's columns equal — bit for bit, NULLs included —
 * each expression computed on its own, on the dense, sparse and unfiltered paths; errors still come
 * only from rows the filter keeps.
 */
import type { Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { compileStage } from '../../../src/exec/kernels/fused-stage.js';
import { shareOutputs } from '../../../src/exec/kernels/stage-shared.js';
import { ExecutionError } from '../../../src/relnode/errors.js';
import { call, cast, inputRef, literal, type RexNode } from '../../../src/relnode/rex.js';
import { batchOf, schema, valueAt } from '../helpers/fake-context.js';

const S = schema('k:INTEGER', 'p:DOUBLE', 'd:DOUBLE', 't:DOUBLE');
const [k, p, d, t] = [inputRef(0, 'INTEGER'), inputRef(1, 'DOUBLE'), inputRef(2, 'DOUBLE'), inputRef(3, 'DOUBLE')];
const one = cast(literal(1, 'INTEGER'), 'DOUBLE');
const times = (x: RexNode, y: RexNode): RexNode => call('times', [x, y], 'DOUBLE');
/** TPC-H Q1's projection: disc_price = p * (1 - d), charge = p * (1 - d) * (1 + t). */
const discPrice = (): RexNode => times(p, call('minus', [one, d], 'DOUBLE'));
const charge = (): RexNode => times(discPrice(), call('plus', [one, t], 'DOUBLE'));
const Q1: RexNode[] = [k, p, discPrice(), charge(), d];

let seed = 5;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const rows = (n: number): (number | null)[][] => Array.from({ length: n }, (_, i) => [
  i, i % 7 === 0 ? null : Math.round(rnd() * 1e7) / 100, i % 11 === 0 ? null : Math.round(rnd() * 10) / 100, Math.round(rnd() * 8) / 100,
]);
const lt = (n: number): RexNode => call('lt', [k, literal(n, 'INTEGER')], 'BOOLEAN');

/** The stage's selected rows, each value as Object.is-comparable text (bits of doubles, NULL). */
function selected(cols: readonly Data[], sel: Int32Array | null, m: number): string[] {
  const out: string[] = [];
  for (let j = 0; j < m; j++) out.push(cols.map((c) => { const v = valueAt(c, sel === null ? j : sel[j]!); return v === null ? 'NULL' : Object.is(v, -0) ? '-0' : String(v); }).join('|'));
  return out;
}

describe('shareOutputs', () => {
  it('rewrites charge to read disc_price; no sharing without a common subtree', () => {
    const sh = shareOutputs(Q1, S)!;
    expect(sh.shared).toEqual([2]);
    expect(sh.schema.fields.length).toBe(5);
    const c = sh.exprs[3]!;
    expect(c.kind === 'Call' && c.args[0]!.kind === 'InputRef' && c.args[0]!.index === 4).toBe(true);
    expect(sh.exprs[2]).toBe(Q1[2]);
    expect(shareOutputs([k, discPrice(), times(p, t)], S)).toBeNull();
  });

  it('an identical output is an alias, unless it would keep a transient buffer', () => {
    expect(shareOutputs([discPrice(), discPrice()], S)!.alias).toEqual([-1, 0]);
    expect(shareOutputs([discPrice(), discPrice()], S, new Set([0, 1]))!.alias).toEqual([-1, 0]);
    expect(shareOutputs([discPrice(), discPrice()], S, new Set([0]))).toBeNull();
  });

  it('never shares a non-deterministic expression', () => {
    const r = (): RexNode => call('times', [call('random', [], 'DOUBLE'), p], 'DOUBLE');
    expect(shareOutputs([r(), r(), call('plus', [r(), one], 'DOUBLE')], S)).toBeNull();
  });
});

describe('compileStage with shared outputs', () => {
  const alone = (n: number, cond: RexNode | undefined, b: ReturnType<typeof batchOf>): string[] => {
    const cols = Q1.map((e) => compileStage(cond, [e], S)(b)!);
    const s = cols[0]!;
    return selected(cols.map((c) => c.columns[0]!), s.sel, s.length);
  };

  it('equals each output computed alone: dense, sparse and unfiltered, with NULLs', () => {
    for (const [n, cond] of [[300, lt(250)], [300, lt(20)], [300, undefined]] as const) {
      const b = batchOf(S, rows(n));
      for (const transient of [undefined, new Set([2, 3])]) {
        const s = compileStage(cond, Q1, S, transient)(b)!;
        expect(selected(s.columns, s.sel, s.length)).toEqual(alone(n, cond, b));
      }
    }
  });

  it('an overflow in a shared INTEGER output is raised only for kept rows', () => {
    const big = call('times', [k, literal(1_000_000_000, 'INTEGER')], 'INTEGER');
    const exprs = [big, call('plus', [big, literal(1, 'INTEGER')], 'INTEGER')];
    expect(shareOutputs(exprs, S)!.shared).toEqual([0]);
    for (const n of [4, 40]) {
      const b = batchOf(S, rows(n));
      const s = compileStage(lt(3), exprs, S)(b)!;
      expect(selected(s.columns, s.sel, s.length)).toEqual(['0|1', '1000000000|1000000001', '2000000000|2000000001']);
      expect(() => compileStage(lt(4), exprs, S)(b)).toThrow(ExecutionError);
    }
  });
});
