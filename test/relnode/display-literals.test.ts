/** Literal display text (EXPLAIN, operator details): dates and timestamps as SQL literals, never raw numbers. */
import { describe, expect, it } from 'vitest';
import { civilTimestampText } from '../../src/relnode/civil-date.js';
import { TableEnvironment } from '../../src/api/environment.js';

describe('literal display', () => {
  it('formats TIMESTAMP values as YYYY-MM-DD HH:MM:SS[.mmm] in UTC, also before 1970', () => {
    expect(civilTimestampText(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02 03:04:05');
    expect(civilTimestampText(Date.UTC(2024, 0, 2, 3, 4, 5, 67))).toBe('2024-01-02 03:04:05.067');
    expect(civilTimestampText(Date.UTC(1969, 11, 31, 23, 59, 59, 500))).toBe('1969-12-31 23:59:59.500');
    expect(civilTimestampText(0)).toBe('1970-01-01 00:00:00');
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
