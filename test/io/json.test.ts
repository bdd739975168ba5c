import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonSource } from '../../src/io/json.js';
import { timestampText, dateText } from '../../src/io/write.js';
import { CancelledError, ExecutionError, ValidationError } from '../../src/relnode/errors.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { ALL_TYPES, ALL_TYPES_ROWS, collect, errorOf, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('json');
afterAll(() => tmp.cleanup());

function jsonFile(name: string, lines: readonly (string | object)[]): string {
  const p = tmp.path(name);
  writeFileSync(p, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return p;
}

/** The all-types sample as JSON objects: dates and timestamps as ISO strings, BIGINT as safe numbers. */
function allTypesJson(): object[] {
  return ALL_TYPES_ROWS.map((r) => ({
    ...r,
    g: r.g === null ? null : Number(BigInt.asIntN(52, r.g as bigint)),
    dt: r.dt === null ? null : dateText(r.dt as number),
    ts: r.ts === null ? null : timestampText(Number(r.ts)),
  }));
}

describe('jsonSource', () => {
  it('round-trips every type with NULLs and infers the types', async () => {
    const objs = allTypesJson();
    const p = jsonFile('all.ndjson', objs);
    const src = await jsonSource(p);
    expect(src.schema.fields.map((f) => [f.name, f.type])).toEqual(ALL_TYPES);
    const expected = ALL_TYPES_ROWS.map((r, i) => ({ ...r, g: r.g === null ? null : BigInt((objs[i] as { g: number }).g) }));
    expect(rowsOf(await collect(src))).toEqual(expected);
  });

  it('infers keys in first-seen order and types from mixed values', async () => {
    const p = jsonFile('infer.ndjson', [
      { a: 1, b: 1, c: 'x', d: true },
      { a: 2.5, b: 2 ** 40, e: { nested: [1, 2] } },
      { a: null, c: 3, f: '2024-02-29' },
      '',
      { f: '2024-02-29T12:00:00Z', g: 7 },
    ]);
    const src = await jsonSource(p);
    expect(src.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(
      ['a:DOUBLE', 'b:BIGINT', 'c:VARCHAR', 'd:BOOLEAN', 'e:VARCHAR', 'f:TIMESTAMP', 'g:INTEGER'],
    );
    const rows = rowsOf(await collect(src));
    expect(rows[1]).toMatchObject({ a: 2.5, b: 2n ** 40n, c: null, e: '{"nested":[1,2]}' });
    expect(rows[2]).toMatchObject({ c: '3', f: 1709164800000n });
    expect(rows[3]).toMatchObject({ a: null, f: 1709208000000n, g: 7 });
  });

  it('uses a given Schema or per-name overrides', async () => {
    const p = jsonFile('given.ndjson', [{ x: 1, y: '2020-01-01' }, { x: 2, y: '2020-01-02', z: 'extra' }]);
    const full = await jsonSource(p, { schema: schemaOf([field('y', 'DATE'), field('x', 'DOUBLE')]) });
    expect(rowsOf(await collect(full))).toEqual([{ y: 18262, x: 1 }, { y: 18263, x: 2 }]);
    const some = await jsonSource(p, { schema: { y: 'varchar', x: 'bigint' } });
    expect(some.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['x:BIGINT', 'y:VARCHAR', 'z:VARCHAR']);
    await expect(jsonSource(p, { schema: { nope: 'INTEGER' } })).rejects.toBeInstanceOf(ValidationError);
  });

  it('projects, respects batchSize and streams a 200k-line file', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 200_000; i++) lines.push(`{"id":${i},"v":${i % 100 / 4},"s":"k${i % 9}"}`);
    const src = await jsonSource(jsonFile('big.ndjson', lines), { sampleRows: 1000 });
    expect(src.schema.fields.map((f) => f.type)).toEqual(['INTEGER', 'DOUBLE', 'VARCHAR']);
    let rows = 0, sum = 0;
    const sizes: number[] = [];
    for await (const b of src.scan({ partition: 0, batchSize: 50_000, columns: [2, 0] })) {
      expect(b.schema.fields.map((f) => f.name)).toEqual(['s', 'id']);
      sizes.push(b.numRows);
      rows += b.numRows;
      const id = b.data.children[1]!.values as Int32Array;
      for (let i = 0; i < b.numRows; i++) sum += id[i]!;
    }
    expect(sizes).toEqual([50_000, 50_000, 50_000, 50_000]);
    expect(rows).toBe(200_000);
    expect(sum).toBe((199_999 * 200_000) / 2);
  });

  it('reports malformed lines and values that do not fit, with file, line and column', async () => {
    const lines: object[] = [];
    for (let i = 0; i < 20; i++) lines.push({ id: i, n: i });
    const p = jsonFile('late.ndjson', [...lines, { id: 20, n: 3.5 }]);
    const src = await jsonSource(p, { sampleRows: 10 });
    const err = await errorOf(() => collect(src));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toContain(`json ${p}: line 21, column 2 ("n"): cannot read 3.5 as INTEGER; expected a whole number`);
    expect(err.message).toContain('pass a schema or a larger sampleRows');
    expect(err.message).toContain("'DOUBLE'");

    const bad = jsonFile('bad.ndjson', ['{"a":1}', '{"a":', '{"a":2}']);
    const e2 = await errorOf(async () => collect(await jsonSource(bad, { schema: { a: 'INTEGER' } })));
    expect(e2.message).toMatch(/bad\.ndjson: line 2: malformed JSON/);
    const arr = jsonFile('arr.ndjson', ['{"a":1}', '[1,2]']);
    await expect(jsonSource(arr)).rejects.toThrow(/arr\.ndjson: line 2: expected a JSON object, found an array/);
    const str = jsonFile('str.ndjson', [{ a: 'x' }]);
    const e3 = await errorOf(async () => collect(await jsonSource(str, { schema: { a: 'DATE' } })));
    expect(e3.message).toMatch(/line 1, column 1 \("a"\): cannot read "x" as DATE; expected a date YYYY-MM-DD/);
  });

  it('stops when the signal is aborted', async () => {
    const lines: object[] = [];
    for (let i = 0; i < 5000; i++) lines.push({ i });
    const src = await jsonSource(jsonFile('abort.ndjson', lines));
    await expect(collect(src, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    const ctrl = new AbortController();
    let seen = 0;
    const err = await errorOf(async () => {
      for await (const b of src.scan({ partition: 0, batchSize: 1000, signal: ctrl.signal })) { seen += b.numRows; ctrl.abort(); }
    });
    expect(err).toBeInstanceOf(CancelledError);
    expect(seen).toBe(1000);
    expect(rowsOf(await collect(src, { batchSize: 10_000 }))).toHaveLength(5000);
  });
});
