/**
 * Tables stored by CREATE TABLE AS from a CSV file dictionary-encode their low-cardinality VARCHAR
 * columns (io/dictionary-store.ts); queries over them must answer as DuckDB does over the same file:
 * GROUP BY, joins on the text column (dictionary against plain, dictionary against dictionary), LIKE,
 * ORDER BY, string aggregates, and UPDATE / DELETE / INSERT afterwards. At parallelism 1 and at 2 with
 * every aggregate on worker threads (the stored dictionary columns are shipped), in batches of 700 rows.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as arrow from 'apache-arrow';
import { storedBatches } from '../../src/io/memory.js';
import { fileTempDir } from '../helpers/temp-dir.js';
import { useHarness, type Harness } from './harness.js';

const MODES = ['AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'REG AIR', 'FOB'];
const CITIES = ['Zürich', 'São Paulo', 'München', '東京', 'Kraków', 'Reykjavík', 'Oslo', 'Lima', 'Québec', 'İzmir', 'Åre', 'Paris', 'Ürümqi', 'Łódź', 'Niš', 'Ærø', 'Córdoba', 'Bogotá', 'Malmö', '😀ville'];
const ROWS = 5000;

/** The CSV of table `t`: id, mode (7 values and NULLs), city (20 multi-byte values), note (unique), amount. */
function tCsv(): string {
  const lines = ['id,mode,city,note,amount'];
  for (let i = 0; i < ROWS; i++) {
    const mode = i % 13 === 0 ? '' : MODES[(i * 7 + (i >> 4)) % MODES.length]!;
    const city = CITIES[(i * 31 + (i >> 3)) % CITIES.length]!;
    lines.push(`${i},${mode},${city},note ${i} of ${(i * 2654435761) % 1000003},${((i * 37) % 1000) / 4}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The CSV of table `m`: one row per mode (plain strings when stored: 7 distinct values in 7 rows), and one matching nothing. */
function mCsv(): string {
  return `${['mode,weight', ...MODES.map((m, i) => `${m},${i + 1}`), 'BARGE,99'].join('\n')}\n`;
}

const dir = fileTempDir('eddy-stored-dict-');
const T_CSV = join(dir, 't.csv');
const M_CSV = join(dir, 'm.csv');
writeFileSync(T_CSV, tCsv());
writeFileSync(M_CSV, mCsv());

const DUCK_T = `read_csv('${T_CSV}', header = true, columns = {'id': 'INTEGER', 'mode': 'VARCHAR', 'city': 'VARCHAR', 'note': 'VARCHAR', 'amount': 'DOUBLE'})`;
const DUCK_M = `read_csv('${M_CSV}', header = true, columns = {'mode': 'VARCHAR', 'weight': 'INTEGER'})`;

const QUERIES: readonly [string, string][] = [
  ['every row', 'SELECT * FROM t ORDER BY id'],
  ['GROUP BY the text column', 'SELECT mode, count(*) AS n, sum(amount) AS s FROM t GROUP BY mode'],
  ['GROUP BY two text columns', 'SELECT mode, city, count(*) AS n FROM t GROUP BY mode, city'],
  ['a join of a dictionary column with a plain one', 'SELECT m.mode, m.weight, count(*) AS n FROM t JOIN m ON t.mode = m.mode GROUP BY m.mode, m.weight'],
  ['a LEFT JOIN on the text column', 'SELECT m.mode, count(t.id) AS n FROM m LEFT JOIN t ON t.mode = m.mode GROUP BY m.mode'],
  ['a self-join on the text column (dictionary with dictionary)',
    'SELECT a.city, count(*) AS n FROM t a JOIN (SELECT city, min(id) AS first FROM t WHERE id % 3 = 0 GROUP BY city) b ON a.city = b.city WHERE a.id < b.first + 500 GROUP BY a.city'],
  ['LIKE on the text columns', "SELECT id, mode, city FROM t WHERE city LIKE '%ö%' OR city LIKE 'Z%' OR mode LIKE '%AIR' ORDER BY id"],
  ['equality and IN filters', "SELECT count(*) AS n, sum(amount) AS s FROM t WHERE mode = 'AIR' OR city IN ('Oslo', '東京')"],
  ['ORDER BY the text columns', 'SELECT mode, city, id FROM t ORDER BY mode NULLS FIRST, city DESC, id LIMIT 200'],
  ['string aggregates', 'SELECT mode, min(city) AS lo, max(city) AS hi, count(DISTINCT city) AS d FROM t GROUP BY mode'],
  ['text expressions', "SELECT upper(city) AS u, length(mode) AS l, count(*) AS n FROM t WHERE mode <> 'SHIP' GROUP BY upper(city), length(mode)"],
];

/** The stored batches' column `c` of table `name`. */
function storedColumn(h: Harness, name: string, c: string): arrow.Data[] {
  const source = h.env.catalog.get(name).source;
  const stored = storedBatches(source);
  const at = source.schema.fields.findIndex((f) => f.name === c);
  return Array.from({ length: stored.count }, (_, i) => stored.batch(i).data.children[at]!);
}

/** Asserts the column is stored Dictionary-encoded over one dictionary shared by every batch. */
function expectOneDictionary(h: Harness, name: string, c: string): void {
  const parts = storedColumn(h, name, c);
  expect(parts.length).toBeGreaterThan(0);
  for (const p of parts) {
    expect(String(p.type)).toBe('Dictionary<Int32, Utf8>');
    expect(p.dictionary).toBe(parts[0]!.dictionary);
  }
}

function expectPlain(h: Harness, name: string, c: string): void {
  for (const p of storedColumn(h, name, c)) expect(String(p.type)).toBe('Utf8');
}

function suite(h: Harness): void {
  let loaded = false;
  async function load(): Promise<void> {
    if (loaded) return;
    await h.env.executeSql(`CREATE OR REPLACE TABLE t AS SELECT * FROM read_csv('${T_CSV}'); CREATE OR REPLACE TABLE m AS SELECT * FROM read_csv('${M_CSV}')`);
    await h.duck.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM ${DUCK_T}`);
    await h.duck.run(`CREATE OR REPLACE TABLE m AS SELECT * FROM ${DUCK_M}`);
    loaded = true;
  }

  it('stores the low-cardinality columns dictionary-encoded and the unique one plain', async () => {
    await load();
    expect(storedBatches(h.env.catalog.get('t').source).count).toBeGreaterThan(1);
    expectOneDictionary(h, 't', 'mode');
    expectOneDictionary(h, 't', 'city');
    expectPlain(h, 't', 'note');
    expectPlain(h, 'm', 'mode');
  });

  for (const [name, sql] of QUERIES) {
    it(name, async () => {
      await load();
      await h.check(h.env.sql(sql), sql);
    });
  }

  it('UPDATE, DELETE and INSERT afterwards', async () => {
    await load();
    const both = async (sql: string): Promise<void> => { await h.env.executeSql(sql); await h.duck.run(sql); };
    await both('CREATE OR REPLACE TABLE u AS SELECT * FROM t');
    expectOneDictionary(h, 'u', 'mode');
    const check = async (): Promise<void> => {
      for (const sql of ['SELECT * FROM u ORDER BY id', 'SELECT mode, city, count(*) AS n, sum(amount) AS s FROM u GROUP BY mode, city']) await h.check(h.env.sql(sql), sql);
    };
    await both("UPDATE u SET mode = 'RAIL' WHERE mode = 'AIR'");
    await both("UPDATE u SET city = '' WHERE id % 17 = 0");
    expectOneDictionary(h, 'u', 'mode');
    expectOneDictionary(h, 'u', 'city');
    await check();
    await both("DELETE FROM u WHERE city LIKE 'M%' OR mode IS NULL");
    expectOneDictionary(h, 'u', 'city');
    await check();
    // Appended rows: values the dictionary has and new ones extend the one stored dictionary.
    await both("INSERT INTO u SELECT id + 10000, CASE WHEN id % 2 = 0 THEN mode ELSE 'CANOE' END, city || '!', note, amount FROM t WHERE id < 400");
    expectOneDictionary(h, 'u', 'mode');
    expectOneDictionary(h, 'u', 'city');
    await check();
    // High-cardinality appended rows stay plain; the column then mixes encodings.
    await both("INSERT INTO u SELECT id + 20000, mode, note, note, amount FROM t");
    expect(storedColumn(h, 'u', 'city').some((p) => String(p.type) === 'Utf8')).toBe(true);
    await check();
    const sql = "SELECT a.city, count(*) AS n FROM u a JOIN t b ON a.city = b.city WHERE a.mode LIKE '%A%' GROUP BY a.city";
    await h.check(h.env.sql(sql), sql);
    await both('DROP TABLE u');
  });

  it('INSERT into an empty table encodes the first rows', async () => {
    await load();
    const both = async (sql: string): Promise<void> => { await h.env.executeSql(sql); await h.duck.run(sql); };
    await both('CREATE OR REPLACE TABLE e (id INTEGER, mode VARCHAR)');
    await both('INSERT INTO e SELECT id, mode FROM t');
    expectOneDictionary(h, 'e', 'mode');
    const sql = 'SELECT mode, count(*) AS n FROM e GROUP BY mode';
    await h.check(h.env.sql(sql), sql);
    await both('DROP TABLE e');
  });
}

describe('stored dictionary columns at parallelism 1', () => {
  suite(useHarness({ tpch: false, env: { parallelism: 1, batchSize: 700 } }));
});

describe('stored dictionary columns at parallelism 2 (worker threads)', () => {
  suite(useHarness({ tpch: false, env: { parallelism: 2, batchSize: 700, workers: 'always' } }));
});

describe('the dictionaryStore option', () => {
  const h = useHarness({ tpch: false, env: { parallelism: 1, batchSize: 700, dictionaryStore: false } });
  it('off: CREATE TABLE AS stores plain strings', async () => {
    await h.env.executeSql(`CREATE TABLE t AS SELECT * FROM read_csv('${T_CSV}')`);
    expectPlain(h, 't', 'mode');
    const sql = 'SELECT mode, count(*) AS n FROM t GROUP BY mode';
    await h.duck.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM ${DUCK_T}`);
    await h.check(h.env.sql(sql), sql);
  });
});
