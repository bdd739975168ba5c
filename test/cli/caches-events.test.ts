/**
 * The shell's `.caches` showed SHOW CACHES only: a block dropped instead of
 * spilled (disk budget) left no trace there — the write was silently not
 * committed. Now the mark's note says why, and `.caches` lists the recent
 * cache events that were not commits (dropped, lost, invalidated).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { runText } from '../../src/cli/script.js';
import { Session } from '../../src/cli/session.js';

let dir: string | undefined;
let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function run(script: string): Promise<string> {
  const out = new PassThrough();
  const err = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => { text += d.toString(); });
  err.on('data', (d: Buffer) => { text += d.toString(); });
  await runText(new Session(env!, { out, err }), script);
  return text;
}

describe('.caches and dropped blocks', () => {
  it('shows why a write was not committed and the dropped event', async () => {
    dir = mkdtempSync(join(tmpdir(), 'eddy-caches-events-'));
    env = TableEnvironment.create({ batchSize: 100, cache: { instances: 2, memoryBudgetBytes: 2048, spillDir: dir, diskBudgetBytes: 6000 } });
    env.registerTable('nums', env.fromRecords(Array.from({ length: 4000 }, (_, k) => ({ k, s: `row ${k}` })), { k: 'INTEGER', s: 'VARCHAR' }));
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(4000);
    const list = env.cacheManager.list();
    expect(list).toHaveLength(1);
    expect(list[0]!.reason).toMatch(/^not committed: a block was dropped instead of spilled: the disk budget of 6000 bytes/);
    const text = await run('.caches\n');
    expect(text).toContain('not committed: a block was dropped');
    expect(text).toMatch(/dropped c[0-9a-f]+ .*dropped instead of spilled: the disk budget of 6000 bytes would be exceeded/);
  }, 60_000);

  it('lists invalidations too, and nothing when there were no events', async () => {
    env = TableEnvironment.create();
    env.registerTable('t', env.fromRecords([{ a: 1 }], { a: 'INTEGER' }));
    expect(await run('.caches\n')).not.toContain('recent cache events');
    await env.executeSql('CACHE TABLE t');
    await env.executeSql('UNCACHE TABLE t');
    expect(await run('.caches\n')).toMatch(/recent cache events[\s\S]*invalidated c[0-9a-f]+/);
  }, 60_000);
});
