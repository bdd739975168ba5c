/** The error a query raises, for tests of error messages (parse, bind, or at run time on any thread). */
import type { TableEnvironment } from '../../src/index.js';

/** The error `sql` fails with in `env` (binding or running it); fails the test when it succeeds. */
export async function failure(env: TableEnvironment, sql: string): Promise<Error> {
  const e = await Promise.resolve().then(() => env.sql(sql).collect()).then(() => undefined, (x: unknown) => x);
  if (!(e instanceof Error)) throw new Error(`expected an error from ${sql}`);
  return e;
}

/** The first line of an error's message (without the caret lines under the SQL). */
export const firstLine = (e: Error): string => e.message.split('\n')[0]!;
