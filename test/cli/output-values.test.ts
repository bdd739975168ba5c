/**
 * Values in every output mode (bug 11 and the JSON half of bug 8): CSV,
 * JSON and Markdown write doubles exactly, the table view shortens them
 * without changing their magnitude; BIGINT digits, dates, timestamps, NULL
 * and awkward strings; JSON keys of columns that share a name.
 */
import { DataType, Field, Float32, Float64, Int32, Int64, makeData, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Utf8, DateDay, vectorFromArray } from 'apache-arrow';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { formatTable } from '../../src/cli/format.js';
import { renderResult } from '../../src/cli/modes.js';
import { uniqueRowKeys as uniqueKeys } from '../../src/api/result.js';

const render = (t: Table, mode: 'csv' | 'json' | 'markdown'): string => [...renderResult(t, mode)].join('');

/** A table from columns of (name, Arrow type, values); names may repeat. */
function table(columns: readonly [string, DataType, readonly unknown[]][]): Table {
  const fields = columns.map(([name, type]) => new Field(name, type, true));
  const length = columns[0]![2].length;
  const children = columns.map(([, type, values]) => vectorFromArray(values as unknown[], type).data[0]!);
  return new Table([new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length, children }))]);
}

const DOUBLES = [1 / 3, 1e-10, -0, 1e300, 5e-324, NaN, Infinity, -Infinity, 100, null];

describe('doubles in each output mode', () => {
  const t = table([['x', new Float64(), DOUBLES]]);

  it('csv writes the shortest text that reads back as the same double', () => {
    expect(render(t, 'csv')).toBe('x\n0.3333333333333333\n1e-10\n-0.0\n1e+300\n5e-324\nnan\ninf\n-inf\n100.0\n\n');
  });

  it('json writes exact numbers, NaN and infinities as strings', () => {
    const text = render(t, 'json');
    expect(text).toBe('[{"x":0.3333333333333333},\n{"x":1e-10},\n{"x":-0.0},\n{"x":1e+300},\n{"x":5e-324},\n{"x":"NaN"},\n{"x":"Infinity"},\n{"x":"-Infinity"},\n{"x":100.0},\n{"x":null}]\n');
    const back = (JSON.parse(text) as { x: unknown }[]).map((r) => r.x);
    expect(back.slice(0, 5)).toEqual([1 / 3, 1e-10, -0, 1e300, 5e-324]);
    expect(Object.is(back[2], -0)).toBe(true);
  });

  it('markdown writes them exactly too', () => {
    expect(render(t, 'markdown')).toBe('| x |\n|---:|\n| 0.3333333333333333 |\n| 1e-10 |\n| -0.0 |\n| 1e+300 |\n| 5e-324 |\n| nan |\n| inf |\n| -inf |\n| 100.0 |\n| NULL |\n');
  });

  it('the table view shortens to about 10 digits but never to a wrong value', () => {
    const cells = formatTable(table([['x', new Float64(), [...DOUBLES, 1.2e30, 229577310901.2]]])).split('\n').slice(4, -2).map((l) => l.slice(1, -1).trim());
    expect(cells).toEqual(['0.3333333333', '1e-10', '-0.0', '1e+300', '5e-324', 'nan', 'inf', '-inf', '100.0', 'NULL', '1.2e+30', '229577310901.2']);
  });

  it('eddy reads its own CSV back as the very same doubles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eddy-csv-back-'));
    try {
      const values = [1 / 3, 1e-10, -0, 1e300, 5e-324, NaN, Infinity, -Infinity, 100, 0.1 + 0.2, ...Array.from({ length: 500 }, (_, i) => Math.sin(i + 1) * 10 ** ((i % 40) - 20))];
      const file = join(dir, 'x.csv');
      writeFileSync(file, render(table([['i', new Int32(), values.map((_, i) => i)], ['x', new Float64(), values]]), 'csv'));
      const env = TableEnvironment.create();
      const back = (await (await env.fromCsv(file)).toArray()).map((r) => (r as { x: number }).x);
      expect(back.length).toBe(values.length);
      for (const [k, x] of values.entries()) expect(Object.is(back[k], x) || [back[k], k]).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('FLOAT columns print the shortest text of the 32-bit value', () => {
    const f = table([['f', new Float32(), [0.1, 1 / 3]]]);
    expect(render(f, 'csv')).toBe('f\n0.1\n0.33333334\n');
    expect(render(f, 'json')).toBe('[{"f":0.1},\n{"f":0.33333334}]\n');
  });
});

describe('other values', () => {
  const t = table([
    ['big', new Int64(), [2n ** 53n + 1n, -(2n ** 63n), null]],
    ['day', new DateDay(), [new Date('2024-02-29'), new Date('1969-12-31'), null]],
    ['ts', new TimestampMillisecond(), [Date.UTC(2024, 1, 29, 12, 34, 56, 780), Date.UTC(1998, 8, 2), null]],
    ['s', new Utf8(), ['a,b', 'say "hi"\nbye', '']],
    ['n', new Int32(), [1, null, -7]],
  ]);

  it('csv: exact BIGINT digits, ISO dates, timestamps without trailing zeros, quoted strings, NULL empty', () => {
    expect(render(t, 'csv')).toBe([
      'big,day,ts,s,n',
      '9007199254740993,2024-02-29,2024-02-29 12:34:56.78,"a,b",1',
      '-9223372036854775808,1969-12-31,1998-09-02 00:00:00,"say ""hi""\nbye",',
      ',,,"",-7', '',
    ].join('\n'));
  });

  it('json: BIGINT as exact numbers, dates and timestamps as strings', () => {
    expect(render(t, 'json').split('\n')[0]).toBe('[{"big":9007199254740993,"day":"2024-02-29","ts":"2024-02-29 12:34:56.78","s":"a,b","n":1},');
  });

  it('table: the same text, NULL shown', () => {
    const text = formatTable(t);
    expect(text).toContain('│     9007199254740993 │ 2024-02-29 │ 2024-02-29 12:34:56.78 │ a,b      │       1 │');
    expect(text).toContain('│                 NULL │ NULL       │ NULL                   │          │      -7 │');
  });
});

describe('columns that share a name', () => {
  it('uniqueKeys: the first keeps its name, later ones get _1, _2, ... skipping taken names', () => {
    expect(uniqueKeys(['name', 'name'])).toEqual(['name', 'name_1']);
    expect(uniqueKeys(['a', 'a', 'a'])).toEqual(['a', 'a_1', 'a_2']);
    expect(uniqueKeys(['name', 'name', 'name_1'])).toEqual(['name', 'name_2', 'name_1']);
    expect(uniqueKeys(['a_1', 'a', 'a', 'a_1'])).toEqual(['a_1', 'a', 'a_2', 'a_1_1']);
    expect(uniqueKeys(['x', 'X', 'x'])).toEqual(['x', 'X', 'x_1']);
    expect(uniqueKeys(['id', 'name'])).toEqual(['id', 'name']);
  });

  it('json keeps every column, with distinct keys; csv keeps the header as it is', () => {
    const t = table([['name', new Utf8(), ['ann']], ['name', new Utf8(), ['bob']], ['name_1', new Utf8(), ['cy']]]);
    const json = render(t, 'json');
    expect(json).toBe('[{"name":"ann","name_2":"bob","name_1":"cy"}]\n');
    expect(JSON.parse(json)).toEqual([{ name: 'ann', name_2: 'bob', name_1: 'cy' }]);
    expect(render(t, 'csv')).toBe('name,name,name_1\nann,bob,cy\n');
  });
});
