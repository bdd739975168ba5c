/**
 * Fused aggregates over one dictionary key read in place (FusedAggregates.addCoded via
 * HashAggregate): the same groups, in the same first-seen order, with bit-identical sums as the
 * group-id path over the same keys as plain Utf8 — across batches with different dictionaries,
 * dictionaries of more than 256 and 65,536 entries, unused dictionary entries, NULL arguments
 * (that batch takes the group-id path) and NULL keys (likewise), with sums that need compensation.
 */
import { Dictionary, Int32, Utf8, makeData, makeVector, type Data, type Vector } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { batchFromColumns, utf8FromStrings } from '../../../src/exec/batch.js';
import { hashAggregate } from '../../../src/exec/operators/hash-aggregate.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { Harness, column, schema } from '../helpers/fake-context.js';

const IN = schema('k:VARCHAR', 'x:DOUBLE', 'y:DOUBLE');
const call = (fn: string, args: number[], type: string): AggCall => ({ fn, args, distinct: false, type, name: `${fn}${args.join('')}` } as never);
const CALLS = [call('sum', [1], 'DOUBLE'), call('count_star', [], 'BIGINT'), call('avg', [2], 'DOUBLE'), call('count', [2], 'BIGINT')];

interface Batch { dict: string[]; codes: (number | null)[]; x: number[]; y: (number | null)[] }

/** One dictionary vector per string list: built once (70k strings), shared by the batches that use it, as a scan's batches share theirs. */
const DICTS = new Map<string[], Vector<Utf8>>();

function dictColumn(dict: string[], codes: (number | null)[]): Data {
  const n = codes.length;
  const nulls = codes.filter((c) => c === null).length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  codes.forEach((c, i) => { if (c !== null) bitmap[i >> 3]! |= 1 << (i & 7); });
  return makeData({ type: new Dictionary(new Utf8(), new Int32()), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bitmap : undefined, data: Int32Array.from(codes, (c) => c ?? 0), dictionary: DICTS.get(dict) ?? DICTS.set(dict, makeVector(utf8FromStrings(dict))).get(dict)! });
}

function run(batches: Batch[], asDictionary: boolean): string[] {
  const schemaOut = schemaOf([field('k', 'VARCHAR'), ...CALLS.map((c) => field(c.name, c.type))]);
  const h = new Harness(hashAggregate({ groupKeys: [0], aggCalls: CALLS }), schemaOut, [IN], 1 << 20);
  for (const b of batches) {
    const k = asDictionary ? dictColumn(b.dict, b.codes) : column('VARCHAR', b.codes.map((c) => (c === null ? null : b.dict[c]!)));
    h.push(0, batchFromColumns(IN, [k, column('DOUBLE', b.x), column('DOUBLE', b.y)], b.codes.length));
  }
  h.finish();
  // One string per row, read straight from the buffers (valueAt decodes each string on its own: slow for 70k groups).
  const out: string[] = [];
  const dec = new TextDecoder();
  for (const { batch } of h.ctx.emitted) {
    const [k, ...aggs] = batch.data.children;
    const offs = k!.valueOffsets as Int32Array;
    const text = dec.decode(k!.values as Uint8Array);
    for (let i = 0; i < batch.numRows; i++) {
      const valid = (d: Data): boolean => d.nullCount === 0 || ((d.nullBitmap![(d.offset + i) >> 3]! >> ((d.offset + i) & 7)) & 1) === 1;
      // Keys are ASCII here: byte offsets are string offsets.
      const key = valid(k!) ? text.slice(offs[i]!, offs[i + 1]!) : 'NULL';
      out.push([key, ...aggs.map((d) => (valid(d) ? String((d.values as Float64Array | BigInt64Array)[i]) : 'NULL'))].join('|'));
    }
  }
  return out;
}

let seed = 11;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };
const names = (n: number, tag: string): string[] => Array.from({ length: n }, (_, i) => `${tag}${i}`);

/** n rows over codes [0, used); with `all`, every one of them occurs. */
function batch(dict: string[], n: number, used: number, opts: { nullY?: boolean; nullKey?: boolean; all?: boolean } = {}): Batch {
  const codes: (number | null)[] = Array.from({ length: n }, (_, i) => (opts.all ? (i * 7919) % used : rnd(used)));
  if (opts.nullKey) codes[n >> 1] = null;
  // Large and small magnitudes: a plain running sum would lose the small ones.
  const x = Array.from({ length: n }, (_, i) => (i % 97 === 0 ? 1e16 * (i % 2 ? 1 : -1) : rnd(1000) / 8));
  const y: (number | null)[] = Array.from({ length: n }, () => rnd(100) / 3);
  if (opts.nullY) y[3] = null;
  return { dict, codes, x, y };
}

describe('fused aggregates over a dictionary key read in place', () => {
  it('agree with the group-id path over plain strings: order, counts and bit-identical sums', () => {
    const small = ['MAIL', 'SHIP', 'AIR', 'RAIL', 'TRUCK', 'FOB', 'REG AIR', 'unused'];
    const other = ['TRUCK', 'MAIL', 'BOAT'];
    const batches = [
      batch(small, 3000, 7),
      batch(other, 500, 3),
      batch(small, 40, 8, { nullY: true }),
      batch(other, 100, 3, { nullKey: true }),
      batch(small, 2000, 8),
    ];
    const coded = run(batches, true);
    expect(coded).toEqual(run(batches, false));
    expect(coded.length).toBe(10); // 8 + BOAT + NULL
  });

  it('dictionaries of more than 256 and more than 65,536 entries, over several batches', () => {
    const d300 = names(300, 'k');
    const big = names(66_000, 'k'); // shares its first 300 strings with d300
    const batches = [batch(d300, 4000, 300), batch(big, 66_000, 66_000, { all: true }), batch(d300, 500, 300), batch(big, 1000, 65_900)];
    const coded = run(batches, true);
    const plain = run(batches, false);
    expect(coded.length).toBe(66_000);
    expect(coded.join('\n') === plain.join('\n')).toBe(true);
  });
});
