/**
 * Iteration feedback queues spill into the cache's spill area: checksummed,
 * inside the disk budget, removed when read back or when the run ends.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Int32, makeData, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../src/exec/batch.js';
import { feedbackSpill } from '../../src/cache/feedback-spill.js';
import { SpillArea } from '../../src/cache/spill.js';

function ints(n: number): RecordBatch {
  return batchFromColumns(['v'], [makeData({ type: new Int32(), length: n, nullCount: 0, data: Int32Array.from({ length: n }, (_, i) => i) })]);
}
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...filesUnder(join(dir, e.name)));
    else if (e.name.endsWith('.arrow')) out.push(join(dir, e.name));
  }
  return out;
}

let parent: string | undefined;
afterEach(() => { if (parent) rmSync(parent, { recursive: true, force: true }); parent = undefined; });

describe('feedback spill store', () => {
  it('round-trips batches, removes files, and refuses a corrupted file', async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-fb-test-'));
    const area = new SpillArea(parent, 10 * 1024 * 1024);
    const store = feedbackSpill(area);
    const h1 = store.write(ints(1000));
    const h2 = store.write(ints(500));
    expect(typeof h1).toBe('object');
    expect(filesUnder(parent).length).toBe(2);
    const back = store.read(h1 as object);
    expect(back.numRows).toBe(1000);
    expect(Array.from(back.getChildAt(0)!.toArray() as Int32Array).slice(0, 3)).toEqual([0, 1, 2]);
    store.remove(h1 as object);
    expect(filesUnder(parent).length).toBe(1);
    // Flip one byte of the value buffer: the checksum catches it.
    const [f] = filesUnder(parent);
    const bytes = readFileSync(f!);
    bytes[bytes.length - 200] ^= 0xff;
    writeFileSync(f!, bytes);
    expect(() => store.read(h2 as object)).toThrow(/spilled feedback batch could not be read back: .*corrupt/);
    store.remove(h2 as object);
    expect(area.usedBytes).toBe(0);
    await area.close();
  });

  it('says why when the disk budget is full (the queue then keeps the batch in memory)', async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-fb-test-'));
    const area = new SpillArea(parent, 1000);
    const r = feedbackSpill(area).write(ints(1000));
    expect(r).toMatch(/disk budget of 1000 bytes/);
    await area.close();
  });
});
