import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:'); const c = await db.connect();
const show = async (q: string) => { const r = await c.runAndReadAll(q); console.log(r.columnNames().join('|')); console.log(r.columnTypes().map(String).join('|')); for (const row of r.getRowsJS()) console.log(JSON.stringify(row, (_k, v) => typeof v === 'bigint' ? v.toString() : v)); };
await c.run("CREATE TABLE t AS SELECT i::INTEGER AS i, (i*1.5)::DOUBLE AS d, 'x'||(i%7) AS s, DATE '2020-01-01' + i::INTEGER AS dt, i%2=0 AS b, CASE WHEN i%3=0 THEN NULL ELSE i::BIGINT END AS n, TIMESTAMP '2020-01-01 10:00:00' + INTERVAL (i) SECOND AS ts FROM range(100) r(i)");
await show("SUMMARIZE t");
await show("DESCRIBE t");
await show("DESCRIBE SELECT 1 AS x");
await show("UPDATE t SET i = i + 1 WHERE i < 10");
await show("DELETE FROM t WHERE i > 90");
