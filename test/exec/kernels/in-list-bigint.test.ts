/** BIGINT IN lists: values beyond 2^53 compare exactly (the bigint set is built only for such batches). */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/environment.js';

describe('BIGINT IN (literals)', () => {
  it('matches exactly beyond 2^53 and by double below it, short and long lists', async () => {
    const env = TableEnvironment.create();
    await env.executeSql('CREATE TABLE t(x BIGINT)');
    await env.executeSql('INSERT INTO t VALUES (9007199254740993), (9007199254740992), (5), (NULL)');
    const count = async (items: string): Promise<string> => {
      const r = await env.executeSql(`SELECT count(*) AS n FROM t WHERE x IN (${items})`);
      if (r.kind !== 'rows') throw new Error(r.kind);
      return String(r.table.toArray()[0]!['n']);
    };
    expect(await count('9007199254740993')).toBe('1');
    expect(await count('9007199254740993, 7')).toBe('1');
    const long = Array.from({ length: 20 }, (_, i) => String(100 + i));
    expect(await count([...long, '9007199254740993'].join(', '))).toBe('1');
    expect(await count([...long, '5'].join(', '))).toBe('1');
    await env.executeSql('DELETE FROM t WHERE x > 100');
    expect(await count([...long, '5'].join(', '))).toBe('1');
    expect(await count([...long, '6'].join(', '))).toBe('0');
  });
});
