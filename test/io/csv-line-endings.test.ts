/**
 * CSV line endings and encoding (issue 11): a file with bare-CR line endings
 * read as 0 rows, and invalid UTF-8 was read as U+FFFD silently. DuckDB
 * (probed) reads LF, CRLF and bare CR alike, and fails on invalid UTF-8
 * naming the line.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { csvSource } from '../../src/io/csv.js';
import { collect, errorOf, rowsOf, tempDir } from './file-source-helpers.js';

const tmp = tempDir('csv-endings');
afterAll(() => tmp.cleanup());

function file(name: string, text: string | Buffer): string {
  const p = tmp.path(name);
  writeFileSync(p, text);
  return p;
}

const ROWS = [{ a: 1, b: 'x' }, { a: 2, b: 'y, z' }, { a: 3, b: '' }];

describe('CSV line endings', () => {
  for (const [name, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['bare CR', '\r']] as const) {
    it(`reads ${name} line endings, quoted fields and blank lines included`, async () => {
      const text = ['a,b', '1,x', '2,"y, z"', '', '3,""'].join(eol) + eol;
      const src = await csvSource(file(`${name}.csv`, text));
      expect(src.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['a:INTEGER', 'b:VARCHAR']);
      expect(rowsOf(await collect(src))).toEqual(ROWS);
    });
  }

  it('reads bare-CR records across buffer boundaries', async () => {
    const n = 150_000;
    const text = 'k,v\r' + Array.from({ length: n }, (_, i) => `${i},"v${i}"`).join('\r');
    const src = await csvSource(file('many.csv', text));
    const rows = rowsOf(await collect(src, { batchSize: 50_000 }));
    expect(rows).toHaveLength(n);
    expect(rows[n - 1]).toEqual({ k: n - 1, v: `v${n - 1}` });
  });

  it('invalid UTF-8 fails naming the line and column', async () => {
    const p = file('bad.csv', Buffer.concat([Buffer.from('a,b\nok,1\nü,2\n'), Buffer.from([0x78, 0xff, 0xfe]), Buffer.from(',3\n')]));
    const err = await errorOf(async () => collect(await csvSource(p)));
    expect(err.message).toBe(`csv ${p}: line 4: column 1: invalid UTF-8; the file must be UTF-8 encoded (convert it, e.g. with iconv)`);
  });
});
