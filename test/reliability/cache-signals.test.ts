/**
 * Terminating signals release spill files (issue 11), in library use and in
 * the shell, and the process still ends as the signal asks: a library user
 * without handlers dies of the signal (as without eddy), an application with
 * its own handler keeps control, the shell exits with 128 + n. A process
 * killed with SIGKILL leaves its directory, which the next process that
 * starts an environment removes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { bundleScript } from '../helpers/bundle-script.js';
import { fileTempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The library-user child, bundled once (test/helpers/bundle-script.ts): five processes start from it.
let CHILD = '';
const bundles = fileTempDir('eddy-signal-bundle-');
beforeAll(async () => { CHILD = await bundleScript(fileURLToPath(new URL('./fixtures/cache-spill-child.ts', import.meta.url)), bundles); });

let parent: string | undefined;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (parent !== undefined) rmSync(parent, { recursive: true, force: true });
  parent = undefined;
});

interface Ended { code: number | null; signal: NodeJS.Signals | null; out: string }

/** Starts `node ...args` (plain JavaScript: the bundled child or bin/eddy.js). */
function start(args: string[], env: NodeJS.ProcessEnv = process.env): { child: ChildProcess; output: () => string; ended: Promise<Ended>; waitFor: (re: RegExp) => Promise<RegExpMatchArray> } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const onData = (d: Buffer): void => {
    out += d.toString();
    for (const w of [...waiters]) { const m = out.match(w.re); if (m) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m); } }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const ended = new Promise<Ended>((r) => child.on('exit', (code, signal) => r({ code, signal, out })));
  const waitFor = (re: RegExp): Promise<RegExpMatchArray> => new Promise((resolve, reject) => {
    const m = out.match(re);
    if (m) { resolve(m); return; }
    waiters.push({ re, resolve });
    void ended.then((e) => reject(new Error(`child ended (${e.code ?? e.signal}) before printing ${re}:\n${out}`)));
  });
  return { child, output: () => out, ended, waitFor };
}

const spillDirs = (dir: string): string[] => readdirSync(dir).filter((n) => n.startsWith('eddy-cache-'));

describe('signals in library use', () => {
  it('SIGTERM, SIGINT, SIGHUP: the spill directory is removed and the process dies of the signal', async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-signal-'));
    const p = parent;
    await Promise.all((['SIGTERM', 'SIGINT', 'SIGHUP'] as const).map(async (sig) => {
      const c = start([CHILD, p, 'plain']);
      const [, dir] = await c.waitFor(/spilled (\S+) 2000/);
      expect(existsSync(dir!)).toBe(true);
      c.child.kill(sig);
      const e = await c.ended;
      expect(e, e.out).toMatchObject({ code: null, signal: sig });
      expect(existsSync(dir!)).toBe(false);
    }));
    expect(spillDirs(p)).toEqual([]);
  }, 120_000);

  it("an application's own SIGTERM handler keeps control: it exits, and the exit hook cleans up", async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-signal-'));
    const c = start([CHILD, parent, 'app-exits']);
    await c.waitFor(/spilled (\S+) 2000/);
    c.child.kill('SIGTERM');
    expect(await c.ended).toMatchObject({ code: 7, signal: null });
    expect(spillDirs(parent)).toEqual([]);
  }, 120_000);

  it('an application that ignores SIGTERM keeps running with its cache; after SIGKILL, the next process removes the directory', async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-signal-'));
    const c = start([CHILD, parent, 'app-stays']);
    const [, dir] = await c.waitFor(/spilled (\S+) 2000/);
    c.child.kill('SIGTERM');
    await c.waitFor(/app got SIGTERM/);
    expect(c.child.exitCode).toBeNull();
    expect(existsSync(dir!)).toBe(true); // still in use
    c.child.kill('SIGKILL');
    expect(await c.ended).toMatchObject({ signal: 'SIGKILL' });
    expect(existsSync(dir!)).toBe(true); // nobody could clean up
    const env = TableEnvironment.create({ batchSize: 100, cache: { instances: 1, memoryBudgetBytes: 1024, spillDir: parent } });
    try {
      env.registerTable('nums', env.fromRecords(Array.from({ length: 500 }, (_, k) => ({ k })), { k: 'INTEGER' }));
      expect(await env.from('nums').filter(col('k').ge(0)).cache().count()).toBe(500);
      expect(existsSync(dir!)).toBe(false);
      expect(spillDirs(parent)).toHaveLength(1); // only the new process's own
    } finally {
      await env.close();
    }
  }, 120_000);
});

describe('signals in the shell', () => {
  it('SIGTERM while the shell holds spilled cache data: exit status 143, no spill directory left', async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-shell-signal-'));
    // A small V8 heap gives a small default cache budget (a quarter of it), so the cached table spills.
    const c = start(['--max-old-space-size=48', 'bin/eddy.js', '--sf', '0.05', '--format', 'csv'], { ...process.env, TMPDIR: parent });
    c.child.stdin!.write('CACHE TABLE li AS SELECT * FROM lineitem;\n.caches\n'); // stdin stays open: the shell waits for more
    await c.waitFor(/materialized,299516,\d+,\d+,[1-9]\d*,memory\+disk/);
    expect(spillDirs(parent)).toHaveLength(1);
    c.child.kill('SIGTERM');
    const e = await c.ended;
    expect(e, e.out).toMatchObject({ code: 143, signal: null });
    expect(spillDirs(parent)).toEqual([]);
  }, 180_000);
});
