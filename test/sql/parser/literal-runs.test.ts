/**
 * Long literal lists are lexed by hand into one token (src/sql/literal-runs.ts, issue #11: a
 * 100k-item IN list planned in under a second). The AST must be exactly what the ordinary lexer and
 * parser give, positions included; lists inside strings and comments stay text; and the work grows
 * linearly with the list (the regression: ~18 s for 100k items when it did not).
 */
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/sql/lexer.js';
import { MIN_RUN_ITEMS } from '../../../src/sql/literal-runs.js';
import { parseQuery } from '../../../src/sql/parse.js';
import { TableEnvironment } from '../../../src/index.js';

const items = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join(', ');

describe('long literal lists', () => {
  it('give the same AST (positions included) as the ordinary path', () => {
    const n = MIN_RUN_ITEMS + 5;
    const long = `SELECT a\nFROM t\nWHERE a IN (${items(n, (i) => (i % 3 === 0 ? `-${i}` : i % 3 === 1 ? `'s,''${i}'` : `${i}.5e1`))}\n ) AND b = 1`;
    const toks = tokenize(long);
    expect(toks.some((t) => t.tokenType.name === 'LiteralList')).toBe(true);
    // The same items in a list one short of a run, plus the rest, parse the ordinary way: compare item by item.
    const q = parseQuery(long);
    const where = (q as { where?: { left: { list: { pos: unknown; kind: string }[] } } }).where!;
    const list = where.left.list;
    expect(list).toHaveLength(n);
    // The same items followed by a column reference are not a run: the ordinary lexer and parser take them.
    const ordinaryText = long.replace(/\n \) AND b = 1$/, ', zzz\n ) AND b = 1');
    expect(tokenize(ordinaryText).some((t) => t.tokenType.name === 'LiteralList')).toBe(false);
    const olist = (parseQuery(ordinaryText) as unknown as { where: { left: { list: unknown[] } } }).where.left.list;
    expect(olist).toHaveLength(n + 1);
    expect(list).toEqual(olist.slice(0, n));
  });

  it('leaves lists inside strings and comments alone', () => {
    const inner = `(${items(MIN_RUN_ITEMS + 1, (i) => String(i))})`;
    expect(tokenize(`SELECT '${inner}' AS s`).map((t) => t.tokenType.name)).toEqual(['SELECT', 'StringLit', 'AS', 'Identifier']);
    expect(tokenize(`SELECT 1 /* ${inner} */`).map((t) => t.tokenType.name)).toEqual(['SELECT', 'NumberLit']);
    expect(tokenize(`SELECT 1 -- ${inner}\n`).map((t) => t.tokenType.name)).toEqual(['SELECT', 'NumberLit']);
    // Dollar quotes and escape strings (where \' does not end the string) are strings too.
    for (const str of [`$$${inner}$$`, `$t$ $$ ${inner} $t$`, `E'\\' ${inner}'`]) {
      expect(tokenize(`SELECT ${str} AS s`).map((t) => t.tokenType.name)).toEqual(['SELECT', 'StringLit', 'AS', 'Identifier']);
    }
  });

  it('lists with dollar-quoted or escape-string items take the ordinary path, with the same values', () => {
    const n = MIN_RUN_ITEMS + 3;
    const text = `SELECT a FROM t WHERE a IN (${items(n, (i) => (i === 7 ? "$$it's$$" : i === 9 ? "E'a\\tb'" : `'v${i}'`))})`;
    expect(tokenize(text).some((t) => t.tokenType.name === 'LiteralList')).toBe(false);
    const list = (parseQuery(text) as unknown as { where: { list: { value: string }[] } }).where.list;
    expect(list).toHaveLength(n);
    expect([list[6]!.value, list[7]!.value, list[9]!.value, list[n - 1]!.value]).toEqual(['v6', "it's", 'a\tb', `v${n - 1}`]);
  });

  it('plans and runs a 100k-item IN list with work linear in its length', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('t', env.fromRecords(Array.from({ length: 1000 }, (_, i) => ({ x: i * 7 }))));
    const run = async (n: number): Promise<{ ms: number; c: unknown }> => {
      const text = `SELECT count(*) AS c FROM t WHERE x IN (${Array.from({ length: n }, (_, i) => i + 1).join(',')})`;
      // CPU time of this process: a loaded machine stretches wall time unevenly between the runs.
      const start = process.cpuUsage();
      const rows = await env.sql(text).toArray();
      const cpu = process.cpuUsage(start);
      return { ms: (cpu.user + cpu.system) / 1000, c: rows[0]!['c'] };
    };
    await run(1000); // warm up the code paths
    const small = Math.min((await run(10_000)).ms, (await run(10_000)).ms);
    const big = await run(100_000);
    expect(big.c).toBe(999n); // x = 7, 14, ..., 6993 are in 1..100000; 0 is not
    // Linear: 10× the items ≈ 10× the time (quadratic work would be ~100×). Generous for a loaded machine.
    expect(big.ms / Math.max(small, 5)).toBeLessThan(40);
    expect(big.ms).toBeLessThan(10_000);
    await env.close();
  });
});
