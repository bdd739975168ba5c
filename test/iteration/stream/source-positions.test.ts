/**
 * The stream sources' checkpoint positions (SourceInstance.snapshot) and
 * resuming from them (SourceContext.restored): a restored source goes on
 * after the events it had already produced.
 */
import { describe, expect, it } from 'vitest';
import type { RecordBatch } from 'apache-arrow';
import type { SourceContext, SourceInstance } from '../../../src/exec/operator.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { batchOfRows } from '../../../src/iteration/stream/rows.js';
import { iterableSource, rowsSource } from '../../../src/iteration/stream/sources.js';

const V = schemaOf([field('v', 'INTEGER')]);
const values = (b: RecordBatch): number[] => Array.from((b.data.children[0]!.values as Int32Array).subarray(0, b.numRows));

function contextOf(restored?: unknown): SourceContext {
  const shared = new Map<string, unknown>();
  return {
    name: 'Src#0[0]', subtaskIndex: 0, parallelism: 1, batchSize: 3, signal: new AbortController().signal,
    shared: <T>(k: string, create: () => T): T => { if (!shared.has(k)) shared.set(k, create()); return shared.get(k) as T; },
    ...(restored !== undefined ? { restored } : {}),
  } as SourceContext;
}

async function drain(s: SourceInstance): Promise<number[]> {
  const out: number[] = [];
  for (let e = await s.next(); e !== null; e = await s.next()) out.push(...values(e as RecordBatch));
  return out;
}

describe('source positions', () => {
  it('fromRows resumes at the next row', async () => {
    const factory = rowsSource(batchOfRows(Array.from({ length: 8 }, (_, i) => ({ v: i })), V, 't'));
    const first = (await factory(contextOf())) as SourceInstance & { snapshot(): unknown };
    expect(values((await first.next()) as RecordBatch)).toEqual([0, 1, 2]);
    const pos = first.snapshot();
    expect(pos).toBe(3);
    expect(await drain(await factory(contextOf(pos)))).toEqual([3, 4, 5, 6, 7]);
  });

  it('an async iterable resumes after the items already handed out', async () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ v: i }));
    const iterable = { async *[Symbol.asyncIterator]() { yield* items; } };
    const factory = iterableSource(iterable, V);
    const first = (await factory(contextOf())) as SourceInstance & { snapshot(): unknown };
    expect(values((await first.next()) as RecordBatch)).toEqual([0, 1, 2]);
    const pos = first.snapshot();
    expect(pos).toBe(3);
    void first.close();
    expect(await drain(await factory(contextOf(pos)))).toEqual([3, 4, 5, 6]);
  });
});
