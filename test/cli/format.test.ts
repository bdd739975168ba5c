import { DateDay, Field, Int32, Int64, makeData, RecordBatch, Schema, Struct, Table, tableFromArrays, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { formatTable } from '../../src/cli/format.js';
import { renderResult } from '../../src/cli/modes.js';
import { cutToWidth, displayWidth } from '../../src/cli/text-width.js';

const render = (t: Table, mode: 'csv' | 'json' | 'markdown'): string => [...renderResult(t, mode)].join('');

function typed(): Table {
  const fields = [new Field('id', new Int32(), true), new Field('name', new Utf8(), true), new Field('day', new DateDay(), true), new Field('big', new Int64(), true)];
  const children = [
    vectorFromArray([1, null, 3], new Int32()).data[0]!,
    vectorFromArray(['a,b', null, 'say "hi"\nbye'], new Utf8()).data[0]!,
    vectorFromArray([new Date('1998-09-02'), null, new Date('2024-02-29')], new DateDay()).data[0]!,
    vectorFromArray([9007199254740993n, null, -1n], new Int64()).data[0]!,
  ];
  const schema = new Schema(fields);
  return new Table([new RecordBatch(schema, makeData({ type: new Struct(fields), length: 3, children }))]);
}

describe('formatTable', () => {
  it('shows names and types in the header, NULL, right-aligned numbers and multi-line cells', () => {
    const text = formatTable(typed());
    expect(text.split('\n').slice(0, 4)).toEqual([
      '┌─────────┬──────────┬────────────┬──────────────────┐',
      '│      id │ name     │ day        │              big │',
      '│ integer │ varchar  │ date       │           bigint │',
      '├─────────┼──────────┼────────────┼──────────────────┤',
    ]);
    expect(text).toContain('│       1 │ a,b      │ 1998-09-02 │ 9007199254740993 │');
    expect(text).toContain('│    NULL │ NULL     │ NULL       │             NULL │');
    expect(text).toContain('│       3 │ say "hi" │ 2024-02-29 │               -1 │\n│         │ bye      │            │                  │');
    expect(text.endsWith('└─────────┴──────────┴────────────┴──────────────────┘\n3 rows')).toBe(true);
  });

  it('keeps a header on one line when a column name holds a newline or a tab', () => {
    const t = tableFromArrays({ 'a\nb\tc': Int32Array.from([1]) });
    const lines = formatTable(t).split('\n');
    expect(lines[1]).toBe('│ a\\nb\\tc │');
    expect(lines).toHaveLength(7) // rules, header, types, one row, the count;
  });

  it('keeps the first and last rows of long results and says how many were shown', () => {
    const t = tableFromArrays({ n: Int32Array.from({ length: 100 }, (_, i) => i) });
    const text = formatTable(t, { maxRows: 10 });
    const cells = text.split('\n').filter((l) => l.startsWith('│')).slice(2).map((l) => l.slice(1, -1).trim());
    expect(cells).toEqual(['0', '1', '2', '3', '4', '·', '95', '96', '97', '98', '99']);
    expect(text.split('\n').at(-1)).toBe('100 rows (10 shown)');
  });

  it('cuts long cells and leaves out middle columns to fit the terminal', () => {
    const cols = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`column_${i}`, Int32Array.of(i)]));
    const text = formatTable(tableFromArrays({ ...cols, s: ['x'.repeat(100)] }), { maxTotalWidth: 60, maxWidth: 20 });
    for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(text).toContain('column_0');
    expect(text).toContain('│ s ');
    expect(text).toContain('xxxxxxxxxxxxxxxxxxx…');
    expect(text).toMatch(/│ … │/);
    expect(text.split('\n').at(-1)).toMatch(/^1 row, 13 columns \(\d+ shown\)$/);
  });

  it('measures wide characters', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(cutToWidth('日本語です', 5)).toBe('日本…');
    const text = formatTable(tableFromArrays({ s: ['日本', 'ab'] }));
    const widths = new Set(text.split('\n').slice(0, -1).map(displayWidth));
    expect(widths.size).toBe(1);
  });
});

describe('output modes', () => {
  it('csv quotes what needs quoting and leaves NULL empty', () => {
    expect(render(typed(), 'csv')).toBe('id,name,day,big\n1,"a,b",1998-09-02,9007199254740993\n,,,\n3,"say ""hi""\nbye",2024-02-29,-1\n');
  });

  it('json writes one object per line, exact bigints and ISO dates', () => {
    const text = render(typed(), 'json');
    expect(text).toBe('[{"id":1,"name":"a,b","day":"1998-09-02","big":9007199254740993},\n{"id":null,"name":null,"day":null,"big":null},\n{"id":3,"name":"say \\"hi\\"\\nbye","day":"2024-02-29","big":-1}]\n');
    expect(render(tableFromArrays({ a: Int32Array.of() }), 'json')).toBe('[]\n');
  });

  it('markdown right-aligns numbers and escapes pipes and newlines', () => {
    const t = tableFromArrays({ n: Int32Array.of(1), s: ['a|b\nc'] });
    expect(render(t, 'markdown')).toBe('| n | s |\n|---:|---|\n| 1 | a\\|b<br>c |\n');
  });
});

describe('formatTable in a terminal', () => {
  it('lets cells grow past 40 columns while the table fits the terminal', () => {
    const long = 'y'.repeat(70);
    expect(formatTable(tableFromArrays({ s: [long] }), { maxTotalWidth: 100 })).toContain(`│ ${long} │`);
    expect(formatTable(tableFromArrays({ s: [long] }), { maxTotalWidth: 50 })).toContain(`│ ${'y'.repeat(45)}… │`);
    expect(formatTable(tableFromArrays({ s: [long] }))).toContain(`│ ${'y'.repeat(39)}… │`);
  });
});

describe('dates and timestamps outside years 1-9999 print as CAST(... AS VARCHAR) writes them (DuckDB\'s form)', () => {
  it('no ISO "+275760-…" or "-000001-…": the year as is, BC with "(BC)"', async () => {
    const { TableEnvironment } = await import('../../src/api/environment.js');
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      const t = await env.sql("SELECT TIMESTAMP '275760-09-13 00:00:00' AS a, DATE '0001-01-01' - 1 AS b, DATE '5881580-07-10' AS c, TIMESTAMP '9999-12-31 23:59:59.5' AS d").collect();
      const text = formatTable(t);
      expect(text).toContain('│ 275760-09-13 00:00:00 │ 0001-12-31 (BC) │ 5881580-07-10 │ 9999-12-31 23:59:59.5 │');
      const v = await env.sql("SELECT CAST(TIMESTAMP '275760-09-13 00:00:00' AS VARCHAR) AS a, CAST(DATE '0001-01-01' - 1 AS VARCHAR) AS b").collect();
      expect(formatTable(v)).toContain('│ 275760-09-13 00:00:00 │ 0001-12-31 (BC) │');
    } finally {
      await env.close();
    }
  });
});
