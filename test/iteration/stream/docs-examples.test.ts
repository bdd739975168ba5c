/** The examples of docs/streams.md, run as written. */
import { describe, expect, it } from 'vitest';
import { OutputTag, TableEnvironment } from '../../../src/index.js';

describe('docs/streams.md', () => {
  it('the opening example', async () => {
    const env = TableEnvironment.create({ parallelism: 2 });
    try {
      const orders = env.streams.fromRows([
        { customer: 'ann', amount: 30 },
        { customer: 'bob', amount: 5 },
        { customer: 'ann', amount: 12 },
      ]);
      const big = orders.filter((r) => (r.amount as number) >= 10);
      const totals = big.keyBy('customer').process(() => {
        const sums = new Map<unknown, number>();
        return {
          processElement(row) { sums.set(row.customer, (sums.get(row.customer) ?? 0) + (row.amount as number)); },
          finish(_ctx, out) { for (const [customer, total] of sums) out.collect({ customer, total }); },
        };
      }, { schema: { customer: 'VARCHAR', total: 'INTEGER' } });
      expect((await totals.collect()).map((r) => ({ ...r }))).toEqual([{ customer: 'ann', total: 42 }]);
    } finally { await env.close(); }
  });

  it('the side-output example', async () => {
    const env = TableEnvironment.create();
    try {
      const lines = env.streams.fromRows([{ line: '1' }, { line: 'x' }, { line: '3' }]);
      const errors = new OutputTag('errors', { fields: [{ name: 'line', type: 'VARCHAR', nullable: true }] });
      const parsed = lines.process(() => ({
        processElement(row, ctx, out) {
          const n = Number(row.line);
          if (Number.isInteger(n)) out.collect({ n }); else ctx.output(errors, { line: row.line });
        },
      }), { schema: { n: 'INTEGER' } });
      const bad = await parsed.getSideOutput(errors).collect();
      expect(bad.map((r) => r.line)).toEqual(['x']);
      expect((await parsed.collect()).map((r) => r.n)).toEqual([1, 3]);
    } finally { await env.close(); }
  });
});
