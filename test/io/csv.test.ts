import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { csvSource } from '../../src/io/csv.js';
import { writeCsv } from '../../src/io/write.js';
import { CancelledError, ExecutionError, ValidationError } from '../../src/relnode/errors.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { ALL_TYPES, ALL_TYPES_ROWS, allTypesBatch, collect, errorOf, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('csv');
afterAll(() => tmp.cleanup());

function csvFile(name: string, text: string): string {
  const p = tmp.path(name);
  writeFileSync(p, text);
  return p;
}

describe('csvSource', () => {
  it('round-trips every type with NULLs (writeCsv → infer → scan)', async () => {
    const p = tmp.path('all.csv');
    await writeCsv(p, [allTypesBatch()]);
    const src = await csvSource(p);
    expect(src.schema.fields.map((f) => [f.name, f.type])).toEqual(ALL_TYPES);
    expect(src.partitions).toBe(1);
    expect(src.description).toBe(`csv ${p}`);
    expect(rowsOf(await collect(src))).toEqual(ALL_TYPES_ROWS);
  });

  it('infers each type from the sample', async () => {
    const p = csvFile('infer.csv', [
      'bool,int,big,dbl,mixed,date,ts,dts,text,empty,zip',
      'true,1,1,1,1,2020-01-01,2020-01-01T10:00:00Z,2020-01-01,a,,1',
      'FALSE,-7,5000000000,2.5,x,1999-12-31,2020-01-01 10:00:00.5,2020-01-01 00:00:01,b,,0',
      ',,,1e3,,,,,,,3',
    ].join('\n'));
    const src = await csvSource(p);
    expect(src.schema.fields.map((f) => f.type)).toEqual(
      ['BOOLEAN', 'INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'DATE', 'TIMESTAMP', 'TIMESTAMP', 'VARCHAR', 'VARCHAR', 'INTEGER'],
    );
    expect(src.schema.fields.every((f) => f.nullable)).toBe(true);
    const rows = rowsOf(await collect(src));
    expect(rows[1]).toMatchObject({ bool: false, int: -7, big: 5000000000n, dbl: 2.5, mixed: 'x', date: 10956, ts: 1577872800500n, dts: 1577836801000n });
    expect(rows[2]).toMatchObject({ bool: null, int: null, dbl: 1000, empty: null });
  });

  it('uses a given Schema (header skipped) and per-name type overrides', async () => {
    const p = csvFile('given.csv', 'a,b,c\n1,2020-01-02,x\n2,2020-01-03,y\n');
    const full = await csvSource(p, { schema: schemaOf([field('x', 'BIGINT'), field('y', 'VARCHAR'), field('z', 'VARCHAR', false)]) });
    expect(full.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['x:BIGINT', 'y:VARCHAR', 'z:VARCHAR']);
    expect(rowsOf(await collect(full))).toEqual([{ x: 1n, y: '2020-01-02', z: 'x' }, { x: 2n, y: '2020-01-03', z: 'y' }]);

    const some = await csvSource(p, { schema: { a: 'double', b: 'varchar' } });
    expect(some.schema.fields.map((f) => f.type)).toEqual(['DOUBLE', 'VARCHAR', 'VARCHAR']);
    expect(rowsOf(await collect(some))[0]).toEqual({ a: 1, b: '2020-01-02', c: 'x' });

    const unknown = await errorOf(() => csvSource(p, { schema: { nope: 'INTEGER' } }));
    expect(unknown).toBeInstanceOf(ValidationError);
    expect(unknown.message).toContain('"nope"');
    expect(unknown.message).toContain('"a", "b", "c"');
    const badType = await errorOf(() => csvSource(p, { schema: { a: 'blob' } }));
    expect(badType.message).toContain('unknown type "blob"');
    const width = await errorOf(() => csvSource(p, { schema: schemaOf([field('x', 'BIGINT')]) }));
    expect(width.message).toMatch(/schema has 1 columns but line 1 has 3 fields/);
  });

  it('projects exactly the requested columns, in order', async () => {
    const p = tmp.path('proj.csv');
    await writeCsv(p, [allTypesBatch()]);
    const src = await csvSource(p);
    const batches = await collect(src, { columns: [4, 0, 4] });
    expect(batches[0]!.schema.fields.map((f) => f.name)).toEqual(['s', 'b', 's']);
    expect(rowsOf(batches).map((r) => r.b)).toEqual([true, null, false, true, false]);
    const none = await collect(src, { columns: [] });
    expect(none.reduce((n, b) => n + b.numRows, 0)).toBe(5);
    expect(none[0]!.numCols).toBe(0);
  });

  it('respects batchSize and never emits empty batches', async () => {
    const lines = ['n'];
    for (let i = 0; i < 10_005; i++) lines.push(String(i));
    const src = await csvSource(csvFile('batches.csv', lines.join('\n') + '\n'));
    const batches = await collect(src, { batchSize: 1000 });
    expect(batches.map((b) => b.numRows)).toEqual([...Array(10).fill(1000), 5]);
    expect(rowsOf(batches).map((r) => r.n)).toEqual(Array.from({ length: 10_005 }, (_, i) => i));
  });

  it('streams a 200k-row file in many batches', async () => {
    const parts = ['id,qty,price,name,day\n'];
    for (let i = 0; i < 200_000; i++) parts.push(`${i},${i % 7},${(i % 1000) / 8},n${i % 13},2024-01-${String(1 + (i % 28)).padStart(2, '0')}\n`);
    const p = csvFile('big.csv', parts.join(''));
    const src = await csvSource(p, { sampleRows: 500 });
    expect(src.schema.fields.map((f) => f.type)).toEqual(['INTEGER', 'INTEGER', 'DOUBLE', 'VARCHAR', 'DATE']);
    let rows = 0, sumId = 0, sumPrice = 0, batches = 0;
    for await (const b of src.scan({ partition: 0, batchSize: 16_384 })) {
      batches++;
      rows += b.numRows;
      const id = b.data.children[0]!.values as Int32Array, price = b.data.children[2]!.values as Float64Array;
      for (let i = 0; i < b.numRows; i++) { sumId += id[i]!; sumPrice += price[i]!; }
    }
    expect(rows).toBe(200_000);
    expect(batches).toBe(Math.ceil(200_000 / 16_384));
    expect(sumId).toBe((199_999 * 200_000) / 2);
    expect(sumPrice).toBeCloseTo((200 * (999 * 1000) / 2) / 8, 6);
  });

  it('reports a value that does not fit the inferred type with file, line, column and advice', async () => {
    const lines = ['id,amount'];
    for (let i = 1; i <= 150; i++) lines.push(`${i},${i * 10}`);
    lines.push('151,3.5');
    const p = csvFile('late.csv', lines.join('\n') + '\n');
    const src = await csvSource(p, { sampleRows: 100 });
    expect(src.schema.fields[1]!.type).toBe('INTEGER');
    const err = await errorOf(() => collect(src));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toContain(p);
    expect(err.message).toContain('line 152');
    expect(err.message).toContain('column 2 ("amount")');
    expect(err.message).toContain("'3.5'");
    expect(err.message).toContain('expected a whole number');
    expect(err.message).toContain('pass a schema or a larger sampleRows');
    expect(err.message).toContain("'DOUBLE'");
    // Not requesting the bad column skips decoding it.
    expect(rowsOf(await collect(src, { columns: [0] }))).toHaveLength(151);
    // A given type that does not fit.
    const given = await csvSource(p, { schema: { amount: 'BOOLEAN' } });
    const err2 = await errorOf(() => collect(given));
    expect(err2.message).toMatch(/line 2, column 2 \("amount"\): cannot read '10' as BOOLEAN; expected true or false\. The type BOOLEAN comes from the given schema/);
  });

  it('reports malformed CSV with line and column', async () => {
    const unterminated = await errorOf(async () => collect(await csvSource(csvFile('q.csv', 'a,b\n1,"x\n2,y\n'), { schema: { a: 'INTEGER', b: 'VARCHAR' } })));
    expect(unterminated).toBeInstanceOf(ExecutionError);
    expect(unterminated.message).toMatch(/q\.csv: line 2: unterminated quoted field in column 2/);

    const wide = await errorOf(async () => collect(await csvSource(csvFile('wide.csv', 'a,b\n1,2\n3,4,5\n'), { sampleRows: 1 })));
    expect(wide.message).toMatch(/wide\.csv: line 3: found 3 fields but expected 2 \(from the header\); column 3 is extra/);
    const narrow = await errorOf(async () => csvSource(csvFile('narrow.csv', 'a,b,c\n1,2\n')));
    expect(narrow.message).toMatch(/narrow\.csv: line 2: found 2 fields but expected 3 .*column 3 is missing/);

    const after = await errorOf(async () => csvSource(csvFile('after.csv', 'a,b\n"x"y,2\n')));
    expect(after.message).toMatch(/after\.csv: line 2: unexpected character 'y' after the closing quote of column 1/);

    // Line numbers count the lines inside quoted fields.
    const multi = csvFile('multi.csv', 'a,b\n"two\nlines",1\n"x",oops\n');
    const err = await errorOf(async () => collect(await csvSource(multi, { schema: { b: 'INTEGER' } })));
    expect(err.message).toContain('line 4, column 2 ("b")');
  });

  it('handles dialect options, CRLF, BOM, blank lines and a missing final newline', async () => {
    const p = csvFile('dialect.csv', '\ufeffx|y|z\r\n1|NA|\'a|b\'\r\n\r\nNA|2.5|\'\'\r\n3|NA|NA');
    const src = await csvSource(p, { delimiter: '|', quote: "'", nullValue: 'NA' });
    expect(src.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['x:INTEGER', 'y:DOUBLE', 'z:VARCHAR']);
    expect(rowsOf(await collect(src))).toEqual([
      { x: 1, y: null, z: 'a|b' },
      { x: null, y: 2.5, z: '' },
      { x: 3, y: null, z: null },
    ]);
    const noHeader = await csvSource(csvFile('nh.csv', '1\tx\n2\ty\n'), { header: false, delimiter: '\t' });
    expect(noHeader.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['column0:INTEGER', 'column1:VARCHAR']);
    expect(rowsOf(await collect(noHeader))).toHaveLength(2);
    const dupes = await csvSource(csvFile('dupes.csv', 'a,a,\n1,2,3\n'));
    expect(dupes.schema.fields.map((f) => f.name)).toEqual(['a', 'a_1', 'column2']);
    const headerOnly = await csvSource(csvFile('header.csv', 'a,b\n'));
    expect(headerOnly.schema.fields.map((f) => f.type)).toEqual(['VARCHAR', 'VARCHAR']);
    expect(await collect(headerOnly)).toEqual([]);
    await expect(csvSource(csvFile('empty.csv', ''))).rejects.toThrow(/empty; pass a schema/);
    await expect(csvSource(p, { delimiter: '||' })).rejects.toThrow(ValidationError);
  });

  it('reads records across buffer boundaries, including a field larger than the buffer', async () => {
    const big = 'x'.repeat(3 * (1 << 20));
    const rows = ['k,v'];
    for (let i = 0; i < 30_000; i++) rows.push(`${i},"v${i}, with ""quotes"""`);
    rows.push(`30000,${big}`);
    rows.push('30001,end');
    const src = await csvSource(csvFile('boundary.csv', rows.join('\n')));
    const out = rowsOf(await collect(src, { batchSize: 7000 }));
    expect(out).toHaveLength(30_002);
    expect(out[12_345]).toEqual({ k: 12_345, v: 'v12345, with "quotes"' });
    expect((out[30_000]!.v as string).length).toBe(big.length);
    expect(out[30_001]).toEqual({ k: 30_001, v: 'end' });
  });

  it('stops and closes the file when the signal is aborted', async () => {
    const lines = ['n'];
    for (let i = 0; i < 50_000; i++) lines.push(String(i));
    const src = await csvSource(csvFile('abort.csv', lines.join('\n')));
    const ctrl = new AbortController();
    let seen = 0;
    const err = await errorOf(async () => {
      for await (const b of src.scan({ partition: 0, batchSize: 1000, signal: ctrl.signal })) {
        seen += b.numRows;
        ctrl.abort();
      }
    });
    expect(err).toBeInstanceOf(CancelledError);
    expect(seen).toBe(1000);
    const pre = AbortSignal.abort();
    await expect(collect(src, { signal: pre })).rejects.toBeInstanceOf(CancelledError);
    // The source is still usable.
    expect(rowsOf(await collect(src, { batchSize: 100_000 }))).toHaveLength(50_000);
  });
});
