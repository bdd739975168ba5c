import { writeFileSync } from 'node:fs';
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { arrowFileSource } from '../../src/io/arrow-file.js';
import { writeArrowFile } from '../../src/io/write.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { ALL_TYPES, ALL_TYPES_ROWS, allTypesBatch, batchOf, collect, errorOf, nonCanonicalBatch, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('arrow');
afterAll(() => tmp.cleanup());

function numbered(sizes: readonly number[]): arrow.RecordBatch[] {
  let next = 0;
  return sizes.map((n) => batchOf([['n', 'BIGINT'], ['s', 'VARCHAR']], Array.from({ length: n }, () => ({ n: BigInt(next), s: `v${next++}` }))));
}

describe('arrowFileSource', () => {
  for (const format of ['file', 'stream'] as const) {
    it(`round-trips every type with NULLs (${format} format)`, async () => {
      const p = tmp.path(`all.${format}`);
      await writeArrowFile(p, [allTypesBatch()], { format });
      const src = await arrowFileSource(p);
      expect(src.schema.fields.map((f) => [f.name, f.type])).toEqual(ALL_TYPES);
      expect(src.description).toBe(`arrow ${p}`);
      expect(rowsOf(await collect(src))).toEqual(ALL_TYPES_ROWS);
    });
  }

  it('normalizes non-canonical types', async () => {
    const { batch, rows, types } = nonCanonicalBatch();
    const p = tmp.path('noncanonical.arrow');
    await writeArrowFile(p, [batch]);
    const src = await arrowFileSource(p);
    expect(Object.fromEntries(src.schema.fields.map((f) => [f.name, f.type]))).toEqual(types);
    expect(rowsOf(await collect(src))).toEqual(rows);
  });

  // At parallelism > 1 a plan without a worker stage runs at parallelism 1 (api/query-execution.ts):
  // the subtasks of a parallel file scan would interleave their batches as their reads complete.
  for (const parallelism of [1, 2, 3]) {
    it(`a file of more batches than partitions, read through SQL and collect() at parallelism ${parallelism}: the file's row order`, async () => {
      const p = tmp.path(`many-${parallelism}.arrow`);
      await writeArrowFile(p, numbered(Array.from({ length: 70 }, (_, i) => 1 + (i % 5))));
      const { TableEnvironment } = await import('../../src/api/environment.js');
      const env = TableEnvironment.create({ parallelism });
      try {
        for (let run = 0; run < 3; run++) {
          const t = await (await env.fromArrowFile(p)).collect();
          expect(t.getChild('n')!.toArray()).toEqual(BigInt64Array.from({ length: 210 }, (_, k) => BigInt(k)));
          expect(t.batches.map((b) => b.numRows)).toEqual(Array.from({ length: 70 }, (_, i) => 1 + (i % 5)));
          env.registerTable('many', t);
          expect((await env.sql('SELECT n FROM many LIMIT 7').toArray()).map((r) => r.n)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n]);
        }
      } finally {
        await env.close();
      }
    });
  }

  it('gives the file format one partition per record batch; the stream format one', async () => {
    const batches = numbered([100, 200, 300, 400, 500]);
    const file = tmp.path('multi.arrow'), stream = tmp.path('multi.arrows');
    await writeArrowFile(file, batches);
    await writeArrowFile(stream, batches, { format: 'stream' });
    const f = await arrowFileSource(file);
    expect(f.partitions).toBe(5);
    const sizes = await Promise.all([0, 1, 2, 3, 4].map(async (p) => (await collect(f, { partition: p })).map((b) => b.numRows)));
    expect(sizes).toEqual([[100], [200], [300], [400], [500]]);
    const s = await arrowFileSource(stream);
    expect(s.partitions).toBe(1);
    const all = rowsOf(await collect(s));
    expect(all.map((r) => r.n)).toEqual(Array.from({ length: 1500 }, (_, i) => BigInt(i)));
  });

  it('projects columns and splits large batches to batchSize', async () => {
    const p = tmp.path('big.arrow');
    await writeArrowFile(p, numbered([200_000]));
    const src = await arrowFileSource(p);
    const out = await collect(src, { batchSize: 16_384, columns: [1] });
    expect(out[0]!.schema.fields.map((f) => f.name)).toEqual(['s']);
    expect(out.map((b) => b.numRows)).toEqual([...Array(12).fill(16_384), 200_000 - 12 * 16_384]);
    const last = rowsOf(out.slice(-1));
    expect(last.at(-1)).toEqual({ s: 'v199999' });
  });

  it('reports a file that is not Arrow IPC, naming it', async () => {
    const p = tmp.path('junk.arrow');
    writeFileSync(p, 'definitely not arrow, but long enough to look like something');
    const err = await errorOf(() => arrowFileSource(p));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toContain(`arrow ${p}`);
    await expect(arrowFileSource(tmp.path('missing.arrow'))).rejects.toThrow(/cannot open arrow file/);
  });

  it('stops when the signal is aborted', async () => {
    const p = tmp.path('abort.arrows');
    await writeArrowFile(p, numbered([1000, 1000, 1000]), { format: 'stream' });
    const src = await arrowFileSource(p);
    const ctrl = new AbortController();
    let seen = 0;
    const err = await errorOf(async () => {
      for await (const b of src.scan({ partition: 0, batchSize: 1000, signal: ctrl.signal })) { seen += b.numRows; ctrl.abort(); }
    });
    expect(err).toBeInstanceOf(CancelledError);
    expect(seen).toBe(1000);
  });
});
