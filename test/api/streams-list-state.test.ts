/** `ctx.getListState` in a plain stream job of a TableEnvironment (not only inside iterations). */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';

let env: TableEnvironment | undefined;
afterEach(async () => { await env?.close(); env = undefined; });

describe('list state outside iterations', () => {
  it('a user operator keeps rows in list state and reads them at the end', async () => {
    env = TableEnvironment.create({ parallelism: 1 }); // one subtask: one list state sees every row
    const rows = await env.streams.fromRows([{ v: 1 }, { v: 2 }, { v: 3 }]).process(() => ({
      processElement(row, ctx) { ctx.getListState('seen').add(row); },
      finish(ctx, out) {
        const st = ctx.getListState('seen');
        let sum = 0;
        for (const r of st.rows()) sum += r['v'] as number;
        out.collect({ n: st.size, sum });
      },
    }), { schema: { n: 'INTEGER', sum: 'INTEGER' } }).collect();
    expect(rows).toEqual([{ n: 3, sum: 6 }]);
  });
});
