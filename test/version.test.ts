import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../src/index.js';
import { EDDY_VERSION } from '../src/relnode/version.js';

describe('version', () => {
  it('EDDY_VERSION is package.json version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(EDDY_VERSION).toBe(pkg.version);
  });

  it('SQL version() answers it, as DuckDB does with a leading v', async () => {
    const env = TableEnvironment.create();
    const t = await env.sql('SELECT version() AS v, typeof(version()) AS t').collect();
    expect(t.toArray().map((r) => r.toJSON())).toEqual([{ v: `v${EDDY_VERSION}`, t: 'VARCHAR' }]);
    expect(() => env.sql('SELECT version(1)')).toThrow(/version takes 0 arguments, got 1/);
  });
});
