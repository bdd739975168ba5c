import { TableEnvironment } from '../src/api/index.js';
import '../src/sql/index.js';
import { TPCH_SQL } from '../test/sql/tpch-sql.js';
const env = TableEnvironment.create();
env.registerTpch(Number(process.argv[3] ?? '0.1'));
const q = TPCH_SQL.find((x) => x.n === Number(process.argv[2]))!;
console.log(await env.sql(q.sql).explain({ analyze: true }));
await env.close();
