/**
 * LIKE / ILIKE / ESCAPE against DuckDB: a seeded corpus of random patterns
 * (`%`, `_`, escapes, multibyte and case-varying characters) × random strings,
 * checked through the matcher directly and end to end through SQL (constant
 * patterns, per-row patterns, dictionary columns, NOT LIKE), plus the error
 * cases DuckDB rejects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { col, TableEnvironment } from '../../../src/index.js';
import { likeMatcher } from '../../../src/exec/kernels/like-match.js';
import { loadRows, openDuck, type Duck } from '../../helpers/duckdb.js';
import { rng } from '../../helpers/rng.js';

const STRING_CHARS = ['a', 'b', 'e', 'A', 'E', '#', '%', '_', 'é', 'É', '日', '😀', 'σ', 'Σ', ' '];
const PATTERN_TOKENS = ['a', 'b', 'e', 'A', 'E', 'é', 'É', '日', '😀', 'σ', 'Σ', '%', '%', '_', '_', '#%', '#_', '##', '#a'];


type Case = { readonly id: number; readonly s: string; readonly p: string };

function corpus(seed: number, n: number): Case[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: Case[] = [];
  for (let id = 0; id < n; id++) {
    const len = Math.floor(r() * 9);
    let p = '';
    for (let k = 0, m = Math.floor(r() * 6); k < m; k++) p += pick(PATTERN_TOKENS);
    // Half of the strings are built from the pattern so that matches are common.
    let s = '';
    if (r() < 0.5) {
      for (const ch of p) s += ch === '%' ? Array.from({ length: Math.floor(r() * 3) }, () => pick(STRING_CHARS)).join('') : ch === '_' ? pick(STRING_CHARS) : r() < 0.2 ? ch.toUpperCase() : ch;
    } else {
      for (let k = 0; k < len; k++) s += pick(STRING_CHARS);
    }
    out.push({ id, s, p });
  }
  return out;
}

const CASES = corpus(20261201, 3000);
const enc = new TextEncoder();
const run = (s: string, p: string, o: { caseInsensitive?: boolean; escape?: string }): boolean => {
  const b = enc.encode(`xx${s}yy`); // a window inside a larger buffer, as in an Arrow column
  return likeMatcher(p, o)(b, 2, b.length - 2);
};

let duck: Duck;
/** DuckDB's answers by case id: [LIKE, ILIKE, LIKE ESCAPE '#', ILIKE ESCAPE '#']. */
const expected = new Map<number, readonly (boolean | null)[]>();

beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 'c', { id: 'INTEGER', s: 'VARCHAR', p: 'VARCHAR' }, CASES);
  const r = await duck.query(`SELECT id, s LIKE p, s ILIKE p,
    CASE WHEN regexp_matches(p, '(^|[^#])(##)*#$') THEN NULL ELSE s LIKE p ESCAPE '#' END,
    CASE WHEN regexp_matches(p, '(^|[^#])(##)*#$') THEN NULL ELSE s ILIKE p ESCAPE '#' END FROM c`);
  for (const row of r.rows) expected.set(row[0] as number, row.slice(1) as (boolean | null)[]);
}, 60_000);
afterAll(() => duck.close());

describe('LIKE matcher vs DuckDB', () => {
  it('agrees on LIKE, ILIKE and ESCAPE over a random corpus', () => {
    const wrong: string[] = [];
    for (const c of CASES) {
      const [like, ilike, likeEsc, ilikeEsc] = expected.get(c.id)!;
      const got = [run(c.s, c.p, {}), run(c.s, c.p, { caseInsensitive: true })];
      if (likeEsc !== null) got.push(run(c.s, c.p, { escape: '#' }), run(c.s, c.p, { caseInsensitive: true, escape: '#' }));
      const want = likeEsc === null ? [like, ilike] : [like, ilike, likeEsc, ilikeEsc];
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${JSON.stringify(c.s)} / ${JSON.stringify(c.p)}: got ${got}, want ${want}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('rejects what DuckDB rejects: a trailing escape, a long escape string', () => {
    expect(() => likeMatcher('ab#', { escape: '#' })).toThrow(/must not end with the escape character/);
    expect(() => likeMatcher('ab', { escape: '##' })).toThrow(/must be empty or one character/);
    expect(run('ab', 'ab', { escape: '' })).toBe(true);
  });
});

describe('LIKE through SQL vs DuckDB', () => {
  it('agrees for per-row patterns, constant patterns, ILIKE, ESCAPE and NOT', async () => {
    const env = TableEnvironment.create();
    try {
      env.registerTable('c', env.fromRecords(CASES.slice(0, 600), { id: 'INTEGER', s: 'VARCHAR', p: 'VARCHAR' }));
      const sql = `SELECT id, s LIKE p AS a, s NOT ILIKE p AS b, s LIKE 'a%_é' AS c, s ILIKE '%e_%' AS d,
        s LIKE '%#%%' ESCAPE '#' AS e, s ILIKE '%Σ' AS f, s NOT LIKE '%\\_%' ESCAPE '\\' AS g FROM c ORDER BY id`;
      const got = (await env.sql(sql).toArray()) as Record<string, unknown>[];
      const want = await duck.query(sql.replace(/FROM c/, 'FROM c WHERE id < 600'));
      expect(got.map((r) => [r.id, r.a, r.b, r.c, r.d, r.e, r.f, r.g])).toEqual(want.rows);
      // Per-row patterns with an escape character (patterns ending in a lone escape left out: an error).
      const escRows = CASES.slice(0, 600).filter((c) => !/(^|[^#])(##)*#$/.test(c.p));
      env.registerTable('c2', env.fromRecords(escRows, { id: 'INTEGER', s: 'VARCHAR', p: 'VARCHAR' }));
      await loadRows(duck, 'c2', { id: 'INTEGER', s: 'VARCHAR', p: 'VARCHAR' }, escRows);
      const sql2 = "SELECT id, s LIKE p ESCAPE '#' AS a, s ILIKE p ESCAPE '#' AS b FROM c2 ORDER BY id";
      const got2 = (await env.sql(sql2).toArray()) as Record<string, unknown>[];
      expect(got2.map((r) => [r.id, r.a, r.b])).toEqual((await duck.query(sql2)).rows);
    } finally {
      await env.close();
    }
  });

  it('ESCAPE errors name the problem; a NULL escape gives NULL', async () => {
    const env = TableEnvironment.create();
    try {
      await expect(env.sql("SELECT 'ab' LIKE 'a#' ESCAPE '#' AS x").toArray()).rejects.toThrow(/must not end with the escape character/);
      await expect(env.sql("SELECT 'ab' LIKE 'ab' ESCAPE '##' AS x").toArray()).rejects.toThrow(/must be empty or one character/);
      expect(await env.sql("SELECT 'a' LIKE 'a' ESCAPE NULL AS x").toArray()).toEqual([{ x: null }]);
      const t = env.fromRecords([{ s: 'ABc' }, { s: 'xbc' }, { s: 'Äbc' }], { s: 'VARCHAR' });
      expect(await t.filter(col('s').ilike('a%')).toArray()).toEqual([{ s: 'ABc' }]);
      expect(await t.filter(col('s').ilike('ä__')).toArray()).toEqual([{ s: 'Äbc' }]);
      expect(await env.sql("SELECT 'İx' ILIKE 'i_' AS x, 'ΣA' ILIKE 'σa' AS y, 'ß' ILIKE 'SS' AS z").toArray()).toEqual([{ x: true, y: true, z: false }]);
    } finally {
      await env.close();
    }
  });
});
