/** Literal display text (EXPLAIN, operator details): dates and timestamps as SQL literals, never raw numbers. */
import { describe, expect, it } from 'vitest';
import { civilDateText, civilTimestampText } from '../../src/relnode/civil-date.js';
import { TableEnvironment } from '../../src/api/environment.js';

describe('literal display', () => {
  it('formats TIMESTAMP values as YYYY-MM-DD HH:MM:SS[.mmm] in UTC, also before 1970', () => {
    expect(civilTimestampText(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05');
    expect(civilTimestampText(Date.UTC(2024, 0, 2, 3, 4, 5, 67))).toBe('2024-01-02 03:04:05.067');
    expect(civilTimestampText(Date.UTC(1969, 11, 31, 23, 59, 59, 500))).toBe('1969-12-31 23:59:59.500');
    expect(civilTimestampText(0)).toBe('1970-01-01 00:00:00');
  });

  it('writes years before 1 as DuckDB does and DATE literals read them (year 0 is 1 BC)', async () => {
    // Date.UTC maps years 0–99 to 1900–1999: astronomical years through setUTCFullYear (-43 is 44 BC).
    const at = (y: number, m: number, d: number): Date => { const t = new Date(0); t.setUTCFullYear(y, m - 1, d); return t; };
    const day = (t: Date): number => Math.round(t.getTime() / 86_400_000);
    const bc44 = at(-43, 3, 15);
    expect(civilDateText(day(bc44))).toBe('0044-03-15 (BC)');
    expect(civilDateText(day(at(0, 1, 1)))).toBe('0001-01-01 (BC)');
    expect(civilDateText(day(at(1, 1, 1)))).toBe('0001-01-01');
    expect(civilTimestampText(bc44.getTime() + 36_000_000)).toBe('0044-03-15 (BC) 10:00:00');
    // EXPLAIN's text is SQL that reads back to the same value.
    const env = TableEnvironment.create();
    try {
      const plan = await env.sql("SELECT DATE '2020-01-01' - 800000 AS d, TIMESTAMP '0044-03-15 10:00:00 (BC)' AS t").explain();
      expect(plan).toContain("DATE '0172-09-04 (BC)'");
      expect(plan).toContain("TIMESTAMP '0044-03-15 (BC) 10:00:00'");
      const back = (await env.sql("SELECT DATE '0172-09-04 (BC)' = DATE '2020-01-01' - 800000 AS a, TIMESTAMP '0044-03-15 (BC) 10:00:00' = TIMESTAMP '0044-03-15 10:00:00 (BC)' AS b").toArray())[0]!;
      expect(back).toEqual({ a: true, b: true });
    } finally {
      await env.close();
    }
  });

  it('EXPLAIN shows TIMESTAMP and DATE literals as SQL literals', async () => {
    const env = TableEnvironment.create();
    const r = await env.executeSql("EXPLAIN SELECT TIMESTAMP '2024-01-02 03:04:05' AS t, DATE '2024-01-02' AS d");
    if (r.kind !== 'rows') throw new Error(r.kind);
    const text = String(r.table.toArray()[0]!['explain']);
    expect(text).toContain("TIMESTAMP '2024-01-02 03:04:05'");
    expect(text).toContain("DATE '2024-01-02'");
    expect(text).not.toContain('1704164645000');
  });
});
