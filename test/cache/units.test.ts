/**
 * Unit tests of the cache layer's parts: per-batch statistics and the pruning
 * test over every type, the spill file round trip, and one instance's LRU,
 * spilling, kill and delete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dictionary, Int32, Utf8, makeData, makeVector, type RecordBatch } from 'apache-arrow';
import { batchFromColumns, utf8FromStrings } from '../../src/exec/batch.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { call, cast, inputRef, literal, type RexNode } from '../../src/relnode/rex.js';
import { blockStats, canSkipBlock, provablyFalse, provablyTrue, type BlockStats } from '../../src/cache/stats.js';
import { SpillArea } from '../../src/cache/spill.js';
import { encodeBlock } from '../../src/cache/spill-format.js';
import { crc32 } from '../../src/cache/checksum.js';
import { CacheServiceInstance, batchBytes } from '../../src/cache/instance.js';
import { dictsTable } from '../diff/harness.js';
import { expectSameRows } from './helpers.js';

let env: TableEnvironment;
let mixed: RecordBatch;
let dir: string;

beforeAll(async () => {
  env = TableEnvironment.create();
  const t = await env.fromRecords([
    { i: 3, b: 10n, d: 2.5, s: 'a', dt: new Date('2020-01-02'), ts: new Date(1_000), f: true, z: null },
    { i: null, b: -5n, d: null, s: 'é', dt: null, ts: new Date(5_000), f: null, z: null },
    { i: -7, b: null, d: -1, s: 'Z', dt: new Date('2019-12-31'), ts: null, f: true, z: null },
    { i: 12, b: 9007199254740993n, d: 0, s: '😀', dt: new Date('2021-06-01'), ts: new Date(2_000), f: true, z: null },
  ], { i: 'INTEGER', b: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR', dt: 'DATE', ts: 'TIMESTAMP', f: 'BOOLEAN', z: 'VARCHAR' }).collect();
  mixed = t.batches[0]!;
  dir = mkdtempSync(join(tmpdir(), 'eddy-cache-test-'));
});
afterAll(async () => { await env.close(); rmSync(dir, { recursive: true, force: true }); });

const ref = (i: number, t: RexNode['type']) => inputRef(i, t);
const cmp = (op: string, a: RexNode, b: RexNode) => call(op, [a, b], 'BOOLEAN');

describe('per-batch statistics', () => {
  it('min, max and null count of every type (strings by UTF-8 bytes, TIMESTAMP in ms, DATE in days)', () => {
    const s = blockStats(mixed);
    expect(s.rows).toBe(4);
    expect(s.columns[0]).toEqual({ nullCount: 1, min: -7, max: 12 });
    expect(s.columns[1]).toEqual({ nullCount: 1, min: -5n, max: 9007199254740993n });
    expect(s.columns[2]).toEqual({ nullCount: 1, min: -1, max: 2.5 });
    expect(s.columns[3]).toEqual({ nullCount: 0, min: 'Z', max: '😀' });
    expect(s.columns[4]).toEqual({ nullCount: 1, min: 18261, max: 18779 });
    expect(s.columns[5]).toEqual({ nullCount: 1, min: 1000, max: 5000 });
    expect(s.columns[6]).toEqual({ nullCount: 1, min: true, max: true });
    expect(s.columns[7]).toEqual({ nullCount: 4 });
  });

  it('NaN leaves min/max unknown; dictionary columns use the entries their rows reference', async () => {
    const nan = (await env.fromRecords([{ d: 1 }, { d: Number.NaN }, { d: 3 }], { d: 'DOUBLE' }).collect()).batches[0]!;
    expect(blockStats(nan).columns[0]).toEqual({ nullCount: 0 });
    for (const b of dictsTable().batches) {
      const st = blockStats(b).columns[1]!;
      const plainSt = blockStats(b).columns[2]!; // the same strings, not dictionary-encoded
      expect(st).toEqual(plainSt);
    }
  });

  it('dictionary columns: the scan stops once every entry was seen, and an entry first used in the last row still counts', () => {
    const dict = makeVector(utf8FromStrings(['m', 'b', 'z', 'a']));
    const type = new Dictionary(new Utf8(), new Int32());
    const statsOf = (codes: number[], valid?: boolean[]) => {
      const n = codes.length;
      const nullBitmap = valid ? Uint8Array.from({ length: (n + 7) >> 3 }, (_, k) => valid.slice(k * 8, k * 8 + 8).reduce((m, v, j) => m | (v ? 1 << j : 0), 0)) : undefined;
      const d = makeData({ type, length: n, data: Int32Array.from(codes), dictionary: dict as never, ...(nullBitmap ? { nullBitmap, nullCount: valid!.filter((v) => !v).length } : {}) });
      return blockStats(batchFromColumns(['c'], [d], n)).columns[0];
    };
    const many = Array.from({ length: 1000 }, (_, i) => i % 2); // 'm' and 'b' only
    expect(statsOf([3, 2, 1, 0, ...many])).toEqual({ nullCount: 0, min: 'a', max: 'z' }); // all four at once: the rest is not needed
    expect(statsOf([...many, 2])).toEqual({ nullCount: 0, min: 'b', max: 'z' }); // 'z' only in the last row; 'a' never
    expect(statsOf([...many, 3, 2])).toEqual({ nullCount: 0, min: 'a', max: 'z' });
    // A NULL row's code is not a value: 'a' behind a NULL does not count.
    expect(statsOf([0, 3, 1], [true, false, true])).toEqual({ nullCount: 1, min: 'b', max: 'm' });
  });

  it('the pruning test: comparisons either way round, IN, IS [NOT] NULL, AND/OR, NULL literals, widening casts', () => {
    const s: BlockStats = blockStats(mixed);
    const i = ref(0, 'INTEGER');
    expect(provablyFalse(cmp('gt', i, literal(12, 'INTEGER')), s)).toBe(true);
    expect(provablyFalse(cmp('ge', i, literal(12, 'INTEGER')), s)).toBe(false);
    expect(provablyFalse(cmp('lt', literal(12, 'INTEGER'), i), s)).toBe(true); // 12 < i  ⇔  i > 12
    expect(provablyFalse(cmp('eq', i, literal(0, 'INTEGER')), s)).toBe(false);
    expect(provablyFalse(cmp('eq', i, literal(13, 'INTEGER')), s)).toBe(true);
    expect(provablyFalse(cmp('lt', i, literal(-7, 'INTEGER')), s)).toBe(true);
    expect(provablyFalse(cmp('le', i, literal(-7, 'INTEGER')), s)).toBe(false);
    expect(provablyFalse(cmp('gt', cast(i, 'DOUBLE'), literal(12.5, 'DOUBLE')), s)).toBe(true);
    expect(provablyFalse(cmp('gt', cast(i, 'VARCHAR'), literal('x', 'VARCHAR')), s)).toBe(false); // not a widening cast
    expect(provablyFalse(cmp('eq', i, literal(null, 'INTEGER')), s)).toBe(true);
    expect(provablyFalse(call('in', [i, literal(20, 'INTEGER'), literal(-8, 'INTEGER')], 'BOOLEAN'), s)).toBe(true);
    expect(provablyFalse(call('in', [i, literal(20, 'INTEGER'), literal(3, 'INTEGER')], 'BOOLEAN'), s)).toBe(false);
    expect(provablyFalse(call('is_null', [ref(3, 'VARCHAR')], 'BOOLEAN'), s)).toBe(true);
    expect(provablyFalse(call('is_not_null', [ref(7, 'VARCHAR')], 'BOOLEAN'), s)).toBe(true);
    expect(provablyFalse(cmp('eq', ref(7, 'VARCHAR'), literal('a', 'VARCHAR')), s)).toBe(true); // all NULL
    expect(provablyFalse(cmp('gt', ref(1, 'BIGINT'), literal(9007199254740992n, 'BIGINT')), s)).toBe(false);
    expect(provablyFalse(cmp('gt', ref(1, 'BIGINT'), literal(9007199254740993n, 'BIGINT')), s)).toBe(true);
    expect(provablyFalse(cmp('gt', ref(3, 'VARCHAR'), literal('😀', 'VARCHAR')), s)).toBe(true);
    expect(provablyFalse(cmp('lt', ref(3, 'VARCHAR'), literal('a', 'VARCHAR')), s)).toBe(false); // 'Z' < 'a'
    expect(provablyFalse(cmp('lt', ref(3, 'VARCHAR'), literal('Z', 'VARCHAR')), s)).toBe(true);
    expect(provablyFalse(cmp('ne', ref(6, 'BOOLEAN'), literal(true, 'BOOLEAN')), s)).toBe(true);
    expect(provablyFalse(cmp('lt', ref(5, 'TIMESTAMP'), literal(1000, 'TIMESTAMP')), s)).toBe(true);
    expect(provablyFalse(cmp('ge', ref(4, 'DATE'), literal(18780, 'DATE')), s)).toBe(true);
    const or = call('or', [cmp('gt', i, literal(100, 'INTEGER')), cmp('lt', i, literal(-100, 'INTEGER'))], 'BOOLEAN');
    expect(provablyFalse(or, s)).toBe(true);
    expect(canSkipBlock(s, [cmp('gt', i, literal(0, 'INTEGER')), cmp('gt', i, literal(99, 'INTEGER'))])).toBe(true);
    expect(canSkipBlock(s, [call('plus', [i, i], 'INTEGER')])).toBe(false);
    expect(provablyFalse(literal(false, 'BOOLEAN'), s)).toBe(true);
  });

  it('provablyTrue: every row passes only on a NULL-free column whose bounds satisfy the comparison', () => {
    const s: BlockStats = blockStats(mixed);
    const str = ref(3, 'VARCHAR'); // no NULLs: 'Z' .. '😀'
    expect(provablyTrue(cmp('ge', str, literal('Z', 'VARCHAR')), s)).toBe(true);
    expect(provablyTrue(cmp('gt', str, literal('Z', 'VARCHAR')), s)).toBe(false);
    expect(provablyTrue(cmp('lt', literal('A', 'VARCHAR'), str), s)).toBe(true); // 'A' < str  ⇔  str > 'A'
    expect(provablyTrue(cmp('le', str, literal('😀', 'VARCHAR')), s)).toBe(true);
    expect(provablyTrue(cmp('ne', str, literal('b', 'VARCHAR')), s)).toBe(false); // 'b' lies within the bounds
    expect(provablyTrue(cmp('ne', str, literal('~', 'VARCHAR')), s)).toBe(false);
    expect(provablyTrue(cmp('ne', str, literal('A', 'VARCHAR')), s)).toBe(true);
    // A column with a NULL is never all TRUE (NULL rows fail any comparison); nor is a NULL literal.
    expect(provablyTrue(cmp('gt', ref(0, 'INTEGER'), literal(-100, 'INTEGER')), s)).toBe(false);
    expect(provablyTrue(cmp('ge', str, literal(null, 'VARCHAR')), s)).toBe(false);
    const and = call('and', [cmp('ge', str, literal('Z', 'VARCHAR')), literal(true, 'BOOLEAN')], 'BOOLEAN');
    expect(provablyTrue(and, s)).toBe(true);
    const or = call('or', [cmp('gt', ref(0, 'INTEGER'), literal(0, 'INTEGER')), cmp('lt', str, literal('zz', 'VARCHAR'))], 'BOOLEAN');
    expect(provablyTrue(or, s)).toBe(false); // '😀' > 'zz'
    expect(provablyTrue(call('plus', [str, str], 'BOOLEAN'), s)).toBe(false);
  });

  it('provablyTrue on doubles: a NaN literal is above every bound; a block holding a NaN has no bounds', async () => {
    const plain = (await env.fromRecords([{ d: 1 }, { d: -0 }, { d: 3 }], { d: 'DOUBLE' }).collect()).batches[0]!;
    const s = blockStats(plain);
    const d = ref(0, 'DOUBLE');
    expect(provablyTrue(cmp('lt', d, literal(Number.NaN, 'DOUBLE')), s)).toBe(true);
    expect(provablyTrue(cmp('ge', d, literal(0, 'DOUBLE')), s)).toBe(true); // -0 = 0
    expect(provablyTrue(cmp('gt', d, literal(0, 'DOUBLE')), s)).toBe(false);
    const nan = (await env.fromRecords([{ d: 1 }, { d: Number.NaN }], { d: 'DOUBLE' }).collect()).batches[0]!;
    expect(provablyTrue(cmp('lt', d, literal(Number.NaN, 'DOUBLE')), blockStats(nan))).toBe(false);
  });
});

describe('spill files', () => {
  it('round-trip every type, dictionaries and slices through Arrow IPC', async () => {
    const area = new SpillArea(dir);
    const batches = [mixed, ...dictsTable().batches, mixed.slice(1, 3)];
    const files = batches.map((b, k) => {
      const f = area.write(0, `e.1/0/${k}`, b);
      if (typeof f === 'string') throw new Error(f);
      return f;
    });
    const back = files.map((f) => area.read(f));
    const { Table } = await import('apache-arrow');
    for (let k = 0; k < batches.length; k++) await expectSameRows(new Table([back[k]!]), new Table([batches[k]!]));
    expect(back[0]!.data.children[1]!.values).toBeInstanceOf(BigInt64Array);
    const d = area.directory!;
    await area.close();
    expect(area.directory).toBeUndefined();
    expect(files[0]!.path).toBe(join(d, 'instance-0', 'e.1-0-0.arrow'));
    expect(() => area.read(files[0]!)).toThrow();
  });

  it('a wide block (more pieces than one writev takes) round-trips', async () => {
    const cols = Array.from({ length: 80 }, (_, c) => mixed.data.children[c % mixed.numCols]!);
    const wide = batchFromColumns(cols.map((_, c) => `c${c}`), cols, mixed.numRows);
    expect(encodeBlock(wide).parts.length).toBeGreaterThan(512);
    const area = new SpillArea(dir);
    const f = area.write(0, 'w.1/0/0', wide);
    if (typeof f === 'string') throw new Error(f);
    const { Table } = await import('apache-arrow');
    await expectSameRows(new Table([area.read(f)]), new Table([wide]));
    await area.close();
  });

  it('a file is its columns as whole Arrow IPC files, byte for byte what tableToIPC writes, each with the CRC-32 of its bytes', async () => {
    const { Table, tableToIPC } = await import('apache-arrow');
    for (const b of [mixed, ...dictsTable().batches, mixed.slice(1, 3)]) {
      const enc = encodeBlock(b);
      const file = Buffer.concat(enc.parts);
      expect(file.byteLength).toBe(enc.bytes);
      expect(enc.parts.length).toBeGreaterThan(b.numCols); // the writer's pieces, not one joined copy per column
      b.data.children.forEach((col, i) => {
        const whole = tableToIPC(new Table([batchFromColumns([b.schema.fields[i]!.name], [col], b.numRows)]), 'file');
        const seg = enc.segments[i]!;
        expect(seg.length).toBe(whole.byteLength);
        expect(file.subarray(seg.offset, seg.offset + seg.length).equals(whole)).toBe(true);
        expect(seg.crc).toBe(crc32(whole));
      });
    }
  });
});

describe('a cache service instance', () => {
  it('evicts the least recently used block to disk, loads it back, and keeps the budget', () => {
    const bytes = batchBytes(mixed);
    const area = new SpillArea(dir);
    const inst = new CacheServiceInstance(0, 2 * bytes, area);
    inst.put('s.1/0/0', 's.1', mixed, bytes, 'MEMORY_AND_DISK');
    inst.put('s.1/0/1', 's.1', mixed, bytes, 'MEMORY_AND_DISK');
    expect(inst.get('s.1/0/0', 's.1')).toBe(mixed); // 0 is now more recent than 1
    inst.put('s.1/0/2', 's.1', mixed, bytes, 'MEMORY_AND_DISK');
    expect([inst.tierOf('s.1/0/0'), inst.tierOf('s.1/0/1'), inst.tierOf('s.1/0/2')]).toEqual(['memory', 'disk', 'memory']);
    expect(inst.memoryBytes()).toBe(2 * bytes);
    expect(inst.fileCount()).toBe(1);
    // Loading it back would evict a block of its own entry (a scan larger than the budget would
    // thrash): it is served from disk and stays there.
    const loaded = inst.get('s.1/0/1', 's.1')!;
    expect(loaded.numRows).toBe(4);
    expect(inst.tierOf('s.1/0/1')).toBe('disk');
    const cols = inst.getColumns('s.1/0/1', 's.1', [3, 0])!;
    expect(cols.rows).toBe(4);
    expect(cols.columns.map((c) => c.type.toString())).toEqual([mixed.data.children[3]!.type.toString(), mixed.data.children[0]!.type.toString()]);
    expect([...(cols.columns[1]!.values as Int32Array)]).toEqual([...(mixed.data.children[0]!.values as Int32Array)]);
    expect(cols.columns[1]!.nullCount).toBe(1);
    expect(inst.diskReads).toBe(2);
    expect(inst.evictions).toBe(1);
    // A block of another entry takes the least recently used memory; reading this entry's spilled
    // blocks back then evicts the other entry's block first.
    inst.put('t.2/0/0', 't.2', mixed, bytes, 'MEMORY_AND_DISK');
    expect([inst.tierOf('s.1/0/0'), inst.tierOf('s.1/0/2'), inst.tierOf('t.2/0/0')]).toEqual(['disk', 'memory', 'memory']);
    inst.get('t.2/0/0', 't.2'); // s.1/0/2 is now the least recently used
    expect(inst.get('s.1/0/0', 's.1')!.numRows).toBe(4); // would evict s.1/0/2, its own entry's block: not admitted
    expect(inst.tierOf('s.1/0/0')).toBe('disk');
    inst.get('s.1/0/2', 's.1'); // t.2/0/0 is now the least recently used
    expect(inst.get('s.1/0/0', 's.1')!.numRows).toBe(4);
    expect([inst.tierOf('s.1/0/0'), inst.tierOf('s.1/0/2'), inst.tierOf('t.2/0/0')]).toEqual(['memory', 'memory', 'disk']);
    expect(inst.memoryBytes()).toBeLessThanOrEqual(2 * bytes);
    expect(inst.fileCount()).toBe(3); // the reloaded block keeps its file; the newly evicted one got one
    expect(inst.entryCount()).toBe(2);
    expect(inst.blockCount()).toBe(4);
  });

  it('MEMORY_ONLY blocks are dropped on eviction; kill() loses everything; deleteStore frees memory and files', async () => {
    const bytes = batchBytes(mixed);
    const area = new SpillArea(dir);
    const inst = new CacheServiceInstance(1, bytes, area);
    inst.put('a.1/0/0', 'a.1', mixed, bytes, 'MEMORY_ONLY');
    inst.put('b.2/0/0', 'b.2', mixed, bytes, 'MEMORY_AND_DISK');
    expect(inst.has('a.1/0/0', 'a.1')).toBe(false);
    expect(inst.get('a.1/0/0', 'a.1')).toBeUndefined();
    inst.put('b.2/0/1', 'b.2', mixed, bytes, 'MEMORY_AND_DISK');
    expect(inst.diskBytes()).toBeGreaterThan(0);
    await inst.deleteStore('b.2');
    expect([inst.memoryBytes(), inst.diskBytes(), inst.fileCount(), inst.blockCount()]).toEqual([0, 0, 0, 0]);
    inst.put('c.3/0/0', 'c.3', mixed, bytes, 'MEMORY_AND_DISK');
    inst.put('c.3/0/1', 'c.3', mixed, bytes, 'MEMORY_AND_DISK');
    inst.kill();
    expect([inst.memoryBytes(), inst.diskBytes(), inst.blockCount(), inst.kills]).toEqual([0, 0, 0, 1]);
    expect(inst.has('c.3/0/1', 'c.3')).toBe(false);
    inst.put('c.3/0/0', 'c.3', mixed, bytes, 'MEMORY_AND_DISK'); // usable again after a kill
    expect(inst.has('c.3/0/0', 'c.3')).toBe(true);
  });
});
