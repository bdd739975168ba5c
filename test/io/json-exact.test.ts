/**
 * JSON input read exactly (issue 11): integers beyond 2^53, keys first seen
 * after the inference sample, invalid UTF-8. Expected answers are DuckDB's
 * read_json (probed): BIGINT exact; beyond int64 not an integer column
 * (DuckDB: HUGEINT, eddy: DOUBLE); a late key is an error naming the line;
 * invalid UTF-8 is an error naming the line.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonSource } from '../../src/io/json.js';
import { parseJsonExact, stringifyExact } from '../../src/io/json-exact.js';
import { collect, errorOf, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('json-exact');
afterAll(() => tmp.cleanup());

function file(name: string, text: string | Buffer): string {
  const p = tmp.path(name);
  writeFileSync(p, text);
  return p;
}

describe('exact JSON integers', () => {
  it('reads integers beyond 2^53 exactly as BIGINT, mixed with small ones', async () => {
    const p = file('big.ndjson', '{"a": 9007199254740993, "s": "9007199254740993"}\n{"a": 1, "s": "x"}\n{"a": -9223372036854775808, "s": null}\n{"a": 9223372036854775807}\n');
    const src = await jsonSource(p);
    expect(src.schema.fields.map((f) => [f.name, f.type])).toEqual([['a', 'BIGINT'], ['s', 'VARCHAR']]);
    expect(rowsOf(await collect(src)).map((r) => r.a)).toEqual([9007199254740993n, 1n, -9223372036854775808n, 9223372036854775807n]);
  });

  it('reads integers beyond int64 as DOUBLE (DuckDB: HUGEINT)', async () => {
    const p = file('huge.ndjson', '{"a": 9223372036854775808}\n{"a": 1}\n');
    const src = await jsonSource(p);
    expect(src.schema.fields[0]!.type).toBe('DOUBLE');
    expect(rowsOf(await collect(src)).map((r) => r.a)).toEqual([9223372036854775808, 1]);
  });

  it('a column of integers and fractions is DOUBLE', async () => {
    const src = await jsonSource(file('mixed.ndjson', '{"a": 1.5}\n{"a": 9007199254740993}\n'));
    expect(src.schema.fields[0]!.type).toBe('DOUBLE');
  });

  it('keeps digits inside strings and nested values', () => {
    expect(parseJsonExact('{"a": "12345678901234567890", "b": [12345678901234567890, 1.5e300, -0], "c": {"d": -98765432109876543210}}')).toEqual({
      a: '12345678901234567890', b: [12345678901234567890n, 1.5e300, -0], c: { d: -98765432109876543210n },
    });
    expect(stringifyExact({ b: [12345678901234567890n, 2] })).toBe('{"b":[12345678901234567890,2]}');
    expect(parseJsonExact('{"a": "\\"9007199254740993", "n": 9007199254740993}')).toEqual({ a: '"9007199254740993', n: 9007199254740993n });
  });

  it('a VARCHAR column shows a nested big integer exactly', async () => {
    const src = await jsonSource(file('nested.ndjson', '{"o": {"x": 9007199254740993}}\n'));
    expect(rowsOf(await collect(src)).map((r) => r.o)).toEqual(['{"x":9007199254740993}']);
  });
});

describe('JSON keys after the sample and invalid UTF-8', () => {
  it('a key first seen after the sample fails naming the line (DuckDB: unknown key)', async () => {
    const lines = Array.from({ length: 30 }, () => '{"a": 1}');
    lines.push('{"a": 2, "late": "x"}');
    const p = file('late.ndjson', lines.join('\n') + '\n');
    const src = await jsonSource(p, { sampleRows: 10 });
    const err = await errorOf(() => collect(src));
    expect(err.message).toContain(`json ${p}: line 31: key "late" is not a column`);
    expect(err.message).toContain('sampleRows');
    const wide = await jsonSource(p, { sampleRows: 100 });
    expect(wide.schema.fields.map((f) => f.name)).toEqual(['a', 'late']);
  });

  it('invalid UTF-8 fails naming the line (DuckDB: invalid UTF-8 encoding)', async () => {
    const p = file('bad.ndjson', Buffer.concat([Buffer.from('{"a": "ok"}\n{"a": "ü"}\n{"a": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
    const err = await errorOf(() => jsonSource(p));
    expect(err.message).toBe(`json ${p}: line 3: invalid UTF-8; the file must be UTF-8 encoded (convert it, e.g. with iconv)`);
  });
});
