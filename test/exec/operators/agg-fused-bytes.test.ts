/**
 * Fused aggregates over one or two one-byte VARCHAR keys read in place (TPC-H Q1's flags:
 * KeyTable.keyRows 'pair' / 'byte', FusedAggregates.addCoded): the same groups, in the same
 * first-seen order, with bit-identical sums as the general group-id path over the same keys made
 * two bytes long — with and without a filter's selection, across batches that take the byte path
 * and batches that cannot (a longer string, a NULL key, a NULL argument, too few rows).
 */
import { describe, expect, it } from 'vitest';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { compileStage } from '../../../src/exec/kernels/fused-stage.js';
import { BYTE_KEYS_MIN_ROWS } from '../../../src/exec/kernels/hash-byte-keys.js';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { call as rexCall, inputRef, literal } from '../../../src/relnode/rex.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { Harness, column, schema, valueAt } from '../helpers/fake-context.js';

const call = (fn: string, args: number[], type: string): AggCall => ({ fn, args, distinct: false, type, name: `${fn}${args.join('')}` } as never);
const CALLS = [call('sum', [2], 'DOUBLE'), call('count_star', [], 'BIGINT'), call('avg', [3], 'DOUBLE'), call('count', [3], 'BIGINT')];
const N = BYTE_KEYS_MIN_ROWS + 700;

let seed = 7;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };

interface Batch { a: (string | null)[]; b: string[]; x: number[]; y: (number | null)[] }

function batch(n: number, as: string, bs: string, opts: { nullY?: boolean; nullKey?: boolean; long?: boolean } = {}): Batch {
  const a: (string | null)[] = Array.from({ length: n }, () => as[rnd(as.length)]!);
  const b = Array.from({ length: n }, () => bs[rnd(bs.length)]!);
  if (opts.nullKey) a[n >> 1] = null;
  if (opts.long) a[n - 1] = 'LONG';
  // Large and small magnitudes: a plain running sum would lose the small ones.
  const x = Array.from({ length: n }, (_, i) => (i % 97 === 0 ? 1e16 * (i % 2 ? 1 : -1) : rnd(1000) / 8));
  const y: (number | null)[] = Array.from({ length: n }, () => rnd(100) / 3);
  if (opts.nullY) y[3] = null;
  return { a, b, x, y };
}

/** One line per output group; `prefix` makes every key two bytes (the general path). */
function run(batches: Batch[], keys: 1 | 2, prefix: string, filtered: boolean): string[] {
  const IN = schema('a:VARCHAR', 'b:VARCHAR', 'x:DOUBLE', 'y:DOUBLE', 'i:INTEGER');
  const groupKeys = keys === 2 ? [0, 1] : [1];
  const cond = rexCall('ne', [rexCall('mod', [inputRef(4, 'INTEGER'), literal(5, 'INTEGER')], 'INTEGER'), literal(0, 'INTEGER')], 'BOOLEAN');
  const out = schemaOf([...groupKeys.map((k) => field(`k${k}`, 'VARCHAR')), ...CALLS.map((c) => field(c.name, c.type))]);
  const agg = hashAggregate({ groupKeys, aggCalls: CALLS, ...(filtered ? { input: { stage: compileStage(cond, undefined, IN), schema: IN } } : {}) });
  const h = new Harness(agg, out, [IN], 1 << 24);
  for (const b of batches) {
    const p = (s: string | null): string | null => (s === null ? null : prefix + s);
    const cols = [column('VARCHAR', b.a.map(p)), column('VARCHAR', b.b.map(p)), column('DOUBLE', b.x), column('DOUBLE', b.y), column('INTEGER', b.x.map((_, i) => i))];
    h.push(0, batchFromColumns(IN, cols, b.a.length));
  }
  h.finish();
  const lines: string[] = [];
  for (const { batch: ob } of h.ctx.emitted) {
    for (let i = 0; i < ob.numRows; i++) {
      lines.push(ob.data.children.map((d, c) => {
        const v = valueAt(d, i);
        return c < groupKeys.length && typeof v === 'string' ? v.slice(prefix.length) : String(v);
      }).join('|'));
    }
  }
  return lines;
}

describe('fused aggregates over one-byte VARCHAR keys read in place', () => {
  const batches = [
    batch(N, 'NRA', 'OF'),
    batch(N, 'NRAX', 'OFP', { long: true }), // a longer string: the group-id path
    batch(N, 'NR', 'O'),
    batch(100, 'NRAY', 'OF'), // too few rows
    batch(N, 'NRA', 'OF', { nullY: true }),
    batch(N, 'NRA', 'OF', { nullKey: true }),
    batch(N, 'ZNRA', 'QOF'),
  ];
  for (const keys of [2, 1] as const) {
    for (const filtered of [false, true]) {
      it(`${keys} key(s)${filtered ? ', through a filter\'s selection' : ''}: order, counts and bit-identical sums as the general path`, () => {
        const bytes = run(batches, keys, '', filtered);
        expect(bytes).toEqual(run(batches, keys, '~', filtered));
        expect(bytes.length).toBeGreaterThan(keys === 2 ? 12 : 3);
      });
    }
  }
});
