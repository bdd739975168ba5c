/**
 * How a failing operator's error reaches the caller (runtime/run-options.ts wrapFailure): eddy's
 * own errors about the data or the query say what went wrong and, with the SQL position of the
 * failing expression, where (a caret); the operator instance is on the error's `operator`, never
 * in the message. Exceptions of user code and internal errors lead with the operator.
 * Cancellations pass through as they are. (test/sql/runtime-errors.test.ts: the same through SQL.)
 */
import { describe, expect, it } from 'vitest';
import '../../../src/sql/index.js';
import { TableEnvironment } from '../../../src/api/environment.js';
import { wrapFailure } from '../../../src/exec/runtime/run-options.js';
import { CancelledError, ExecutionError, InternalError } from '../../../src/relnode/errors.js';
import { sourceSpan } from '../../../src/relnode/source-span.js';

const op = { name: 'Project#1[0]' };
const errorOf = (e: unknown): Error => wrapFailure(op, 'processBatch', e).error;

describe('operator failures', () => {
  it("eddy's user-facing errors: the message alone, the operator and the original error kept on the error", () => {
    const original = new ExecutionError("could not convert string 'x' to INTEGER in CAST('x' AS INTEGER)");
    const e = errorOf(original) as ExecutionError;
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("could not convert string 'x' to INTEGER in CAST('x' AS INTEGER)");
    expect(e.operator).toBe('Project#1[0], processBatch');
    expect(e.cause).toBe(original);
  });

  it('an error with a SQL position renders it with a caret, once', () => {
    const original = new ExecutionError('cannot take square root of a negative number: sqrt(-2)');
    original.at = sourceSpan('SELECT 1,\n  sqrt(x) FROM t', { line: 2, column: 3, offset: 12, length: 7 });
    const e = errorOf(original);
    expect(e.message).toBe('line 2, column 3: cannot take square root of a negative number: sqrt(-2)\n  2 |   sqrt(x) FROM t\n    |   ^^^^^^^');
    // Wrapped again (a worker's error met on the calling thread): the text and the first operator stay.
    const again = errorOf(e) as ExecutionError;
    expect(again.message).toBe(e.message);
    expect(again.operator).toBe('Project#1[0], processBatch');
  });

  it('an operator the user built and named (the DataStream API) is named in the message', () => {
    const e = wrapFailure({ name: 'Parse#2[0]', vertex: { namedByUser: true } }, 'processBatch', new ExecutionError('row 3: column "v" is INTEGER')).error as ExecutionError;
    expect(e.message).toBe('row 3: column "v" is INTEGER (in operator Parse#2[0], processBatch)');
    expect(e.operator).toBe('Parse#2[0], processBatch');
  });

  it('user code and internal errors: the operator first', () => {
    expect(errorOf(new TypeError('bad')).message).toBe('operator Project#1[0] failed in processBatch: TypeError: bad');
    expect(errorOf(new InternalError('broken')).message).toMatch(/^operator Project#1\[0\] failed in processBatch: /);
  });

  it('a cancellation passes through unchanged', () => {
    const c = new CancelledError('query cancelled');
    expect(errorOf(c)).toBe(c);
  });

  it('through SQL: a failed CAST reads as the CAST, with a caret under it', async () => {
    const env = TableEnvironment.create();
    try {
      await expect(env.sql("SELECT CAST(s AS INTEGER) FROM (VALUES ('1'), ('x')) AS t(s)").collect())
        .rejects.toThrow(/^line 1, column 8: could not convert string 'x' to INTEGER in CAST\(s AS INTEGER\)\n  1 \| SELECT CAST/);
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
