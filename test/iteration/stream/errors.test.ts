/**
 * Clear errors of the stream API: a failing user function names its
 * operator; rows that do not fit the schema say which column and why; bad
 * arguments fail when the stream is built.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment, ValidationError, ExecutionError } from '../../../src/index.js';
import { StreamEnvironment } from '../../../src/iteration/stream/environment.js';

const envs: TableEnvironment[] = [];
function streams(parallelism = 1) {
  const e = TableEnvironment.create({ parallelism });
  envs.push(e);
  return e.streams;
}
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

describe('run-time errors name the operator', () => {
  it('a map function that throws', async () => {
    const s = streams().fromRows([{ v: 1 }]).map(() => { throw new Error('boom'); });
    await expect(s.collect()).rejects.toThrow(/operator Map#1\[0\] failed in processBatch: Error: boom/);
    await expect(s.collect()).rejects.toBeInstanceOf(ExecutionError);
  });

  it('a user-named operator', async () => {
    const s = streams().fromRows([{ v: 1 }]).map(() => { throw new TypeError('bad'); }, { name: 'Parse' });
    await expect(s.collect()).rejects.toThrow(/operator Parse#1\[0\] failed in processBatch: TypeError: bad/);
  });

  it('a row missing a schema column', async () => {
    const s = streams().fromRows([{ v: 1 }]).map(() => ({ w: 1 }));
    await expect(s.collect()).rejects.toThrow(/has no column "v" \(columns: v\).*Map#1\[0\]/);
  });

  it('a row with a column the schema does not have', async () => {
    const s = streams().fromRows([{ v: 1 }]).map((r) => ({ v: r.v, w: 2 }));
    await expect(s.collect()).rejects.toThrow(/column "w" that is not in the schema \(v\); pass \{ schema \}/);
  });

  it('a value of the wrong type', async () => {
    const s = streams().fromRows([{ v: 1 }]).map(() => ({ v: 'one' }));
    await expect(s.collect()).rejects.toThrow(/column "v" is INTEGER and needs a 32-bit integer number, but got "one".*Map#1\[0\]/);
    const f = streams().fromRows([{ v: 1 }]).flatMap(() => 3 as unknown as Iterable<{ v: number }>);
    await expect(f.collect()).rejects.toThrow(/must return an iterable of rows.*FlatMap#1\[0\]/);
  });

  it('a bad item of an async iterable names the source', async () => {
    async function* gen(): AsyncGenerator<{ v: unknown }> { yield { v: 1 }; yield { v: 1.5 }; }
    await expect(streams().fromAsyncIterable(gen(), { schema: { v: 'INTEGER' } }).collect()).rejects.toThrow(/source FromAsyncIterable#0\[0\] failed: FromAsyncIterable#0: row 1: column "v" is INTEGER/);
  });

  it('a failing producer names the source', async () => {
    async function* gen(): AsyncGenerator<{ v: number }> { yield { v: 1 }; throw new Error('disk gone'); }
    await expect(streams().fromAsyncIterable(gen(), { schema: { v: 'INTEGER' } }).collect()).rejects.toThrow(/source FromAsyncIterable#0\[0\] failed: Error: disk gone/);
  });
});

describe('user operators that misbehave', () => {
  it('a factory that returns no operator, a throwing finish, a batch of other columns', async () => {
    const env = TableEnvironment.create();
    envs.push(env);
    const src = env.streams.fromRows([{ v: 1 }]);
    await expect(src.process(() => undefined as never).collect()).rejects.toThrow(/the Process factory must return an operator object, got undefined/);
    await expect(src.process(() => ({ finish() { throw new RangeError('late'); } })).collect()).rejects.toThrow(/operator Process#\d+\[0\] failed in finish: RangeError: late/);
    const strings = (await env.streams.fromRows([{ s: 'a' }]).batches().next()).value!;
    await expect(src.process(() => ({ processBatch(_b, _ctx, out) { out.collectBatch(strings); } })).collect())
      .rejects.toThrow(/Process: collectBatch: column 0 \("v"\) of the batch is of Arrow type Utf8, but the stream's column is INTEGER/);
  });
});

describe('build-time errors', () => {
  it('fromRows checks its rows at the call', () => {
    expect(() => streams().fromRows([{ v: 1 }, { v: 'x' }])).toThrow(/fromRows: column "v" mixes INTEGER and VARCHAR values; pass a schema/);
    expect(() => streams().fromRows([{ v: 1 }, { v: 'x' }], { schema: { v: 'INTEGER' } })).toThrow(/fromRows: row 1: column "v" is INTEGER/);
    expect(() => streams().fromRows([{ v: 1 }, {}], { schema: { v: 'INTEGER' } })).toThrow(/fromRows: row 1: the row \{\} has no column "v"/);
    expect(() => streams().fromRows([])).toThrow(/cannot infer a schema from no rows/);
    expect(() => streams().fromRows([{ v: 1 }], { schema: { v: 'INTEGR' } })).toThrow(/unknown type "INTEGR" for column "v"/);
    expect(() => streams().fromRows([{ v: 1 }], { parallelism: 0 })).toThrow(/parallelism must be an integer from 1 to 64, got 0/);
  });

  it('transformations check their arguments', () => {
    const s = streams().fromRows([{ v: 1 }]);
    expect(() => s.keyBy('w')).toThrow(/keyBy: the stream has no column "w" \(columns: v\)/);
    expect(() => s.union(s.map((r) => ({ v: String(r.v) }), { schema: { v: 'VARCHAR' } }))).toThrow(/union: the streams' columns differ: \(v INTEGER\) and \(v VARCHAR\)/);
    expect(() => s.map(3 as never)).toThrow(ValidationError);
    expect(() => s.process(undefined as never)).toThrow(/process needs a factory function/);
    expect(() => s.setParallelism(1.5)).toThrow(/setParallelism: parallelism must be an integer/);
    expect(() => streams().fromAsyncIterable([], undefined as never)).toThrow(/fromAsyncIterable needs \{ schema \}/);
    const other = streams().fromRows([{ v: 1 }]);
    expect(() => s.union(other)).toThrow(/another stream environment/);
  });

  it('getListState without storage says so (a bare StreamEnvironment; a TableEnvironment\'s has cache-backed storage)', async () => {
    const s = new StreamEnvironment({}).fromRows([{ v: 1 }]).process(() => ({ processElement(_r, ctx) { ctx.getListState('x'); } }));
    await expect(s.collect()).rejects.toThrow(/getListState\("x"\) needs list state storage/);
  });
});
