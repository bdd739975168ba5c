/**
 * How a failing operator's error reaches the caller (runtime/run-options.ts wrapFailure): eddy's
 * own errors about the data or the query say what went wrong first and name the operator after
 * it; exceptions of user code and internal errors lead with the operator. Cancellations pass
 * through as they are.
 */
import { describe, expect, it } from 'vitest';
import '../../../src/sql/index.js';
import { TableEnvironment } from '../../../src/api/environment.js';
import { wrapFailure } from '../../../src/exec/runtime/run-options.js';
import { CancelledError, ExecutionError, InternalError } from '../../../src/relnode/errors.js';

const op = { name: 'Project#1[0]' };
const errorOf = (e: unknown): Error => wrapFailure(op, 'processBatch', e).error;

describe('operator failures', () => {
  it("eddy's user-facing errors first, the operator after", () => {
    const e = errorOf(new ExecutionError("could not convert string 'x' to INTEGER in CAST('x' AS INTEGER)"));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("could not convert string 'x' to INTEGER in CAST('x' AS INTEGER) (in operator Project#1[0], processBatch)");
  });

  it('user code and internal errors: the operator first', () => {
    expect(errorOf(new TypeError('bad')).message).toBe('operator Project#1[0] failed in processBatch: TypeError: bad');
    expect(errorOf(new InternalError('broken')).message).toMatch(/^operator Project#1\[0\] failed in processBatch: /);
  });

  it('a cancellation passes through unchanged', () => {
    const c = new CancelledError('query cancelled');
    expect(errorOf(c)).toBe(c);
  });

  it('through SQL: a failed CAST reads as the CAST', async () => {
    const env = TableEnvironment.create();
    try {
      await expect(env.sql("SELECT CAST(s AS INTEGER) FROM (VALUES ('1'), ('x')) AS t(s)").collect())
        .rejects.toThrow(/^could not convert string 'x' to INTEGER in CAST\(s AS INTEGER\) \(in operator \w+#\d+\[0\], processBatch\)$/);
    } finally {
      await env.close();
    }
  });

  it('VALUES columns renamed by AS t(a, b) keep their names in plans and results', async () => {
    const env = TableEnvironment.create();
    try {
      const q = "SELECT a + 1 AS x, upper(b) AS y FROM (VALUES (1, 'p'), (2, NULL)) AS t(a, b) WHERE a > 1";
      expect((await env.sql(q).collect()).toArray().map((r) => ({ ...r.toJSON() }))).toEqual([{ x: 3, y: null }]);
      expect(await env.sql(q).explain()).toMatch(/\(a \+ 1\)/);
      // Fewer aliases than columns rename the first ones.
      expect((await env.sql('SELECT * FROM (VALUES (1, 2)) AS t(a)').collect()).schema.fields.map((f) => f.name)).toEqual(['a', 'col1']);
    } finally {
      await env.close();
    }
  });
});
