/**
 * Ownership of spill directories. Every environment that spills makes its own
 * `eddy-cache-*` directory with an `owner.json` naming the process (pid, host).
 *
 * - A process that dies without cleaning up (kill -9, a crash, power loss)
 *   leaves its directory behind; the next eddy process that creates an
 *   environment (or spills) with the same parent directory removes every
 *   directory whose owner process is gone (same host, pid no longer running),
 *   once per parent and process.
 * - A process that exits normally, or calls `process.exit`, removes its
 *   directories synchronously in an `exit` hook.
 * - SIGTERM, SIGINT and SIGHUP kill a Node process without running `exit`
 *   hooks. While spill directories exist, a handler removes them and then
 *   re-raises the signal with the default action, so the process still dies
 *   of that signal (exit status 128 + n) as it would without eddy. When the
 *   application has its own listener for the signal, the handler does nothing:
 *   the application decides whether to exit, and if it does, the `exit` hook
 *   cleans up. (Signal handlers are only installed on the main thread: worker
 *   threads receive no signals.)
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** Name prefix of spill directories. */
export const SPILL_DIR_PREFIX = 'eddy-cache-';
/** The ownership file inside a spill directory. */
export const OWNER_FILE = 'owner.json';
/** A directory without an owner file (being created, or made by an old eddy) is only removed when older than this. */
const ORPHAN_AGE_MS = 10 * 60 * 1000;

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Something to release synchronously at exit. */
export interface SyncReleasable {
  closeSync(): void;
}

const live = new Set<SyncReleasable>();
const swept = new Set<string>();
let exitHook = false;
let signalsHooked = false;

/** True when process `pid` exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the spill directories under `parent` whose owner process is gone; returns the removed paths. */
export function sweepStaleSpillDirs(parent: string): string[] {
  let names: string[];
  try { names = readdirSync(parent); } catch { return []; }
  const removed: string[] = [];
  const host = hostname();
  for (const name of names) {
    if (!name.startsWith(SPILL_DIR_PREFIX)) continue;
    const dir = join(parent, name);
    let owner: { pid?: unknown; host?: unknown } | undefined;
    try { owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as typeof owner; } catch { owner = undefined; }
    let stale: boolean;
    if (owner !== undefined && typeof owner.pid === 'number') {
      if (owner.host !== host) continue; // another machine's process (a shared volume): cannot tell
      stale = owner.pid !== process.pid && !processAlive(owner.pid);
    } else {
      try { stale = statSync(dir).isDirectory() && Date.now() - statSync(dir).mtimeMs > ORPHAN_AGE_MS; } catch { stale = false; }
    }
    if (!stale) continue;
    try { rmSync(dir, { recursive: true, force: true }); removed.push(dir); } catch { /* someone else removed it, or no permission */ }
  }
  return removed;
}

/** Sweeps `parent` (sweepStaleSpillDirs) unless this process already did. */
export function sweepStaleSpillDirsOnce(parent: string): void {
  if (swept.has(parent)) return;
  swept.add(parent);
  sweepStaleSpillDirs(parent);
}

/** Creates a fresh spill directory under `parent`, owned by this process (sweeping stale ones first, once per parent). */
export function createSpillDir(parent: string): string {
  mkdirSync(parent, { recursive: true });
  sweepStaleSpillDirsOnce(parent);
  const dir = mkdtempSync(join(parent, SPILL_DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, host: hostname(), createdAt: new Date().toISOString() }));
  return dir;
}

/** Releases every tracked area now (exit hooks; also for applications that handle signals themselves). */
export function releaseAllSpillAreasSync(): void {
  for (const a of [...live]) {
    try { a.closeSync(); } catch { /* best effort at exit */ }
  }
  live.clear();
}

function onSignal(sig: NodeJS.Signals): void {
  if (process.listenerCount(sig) > 1) return; // the application handles it; the exit hook cleans up if it exits
  releaseAllSpillAreasSync();
  unhookSignals();
  process.kill(process.pid, sig); // the default action now: die of the signal, as without eddy
}

const handlers = new Map<NodeJS.Signals, () => void>(SIGNALS.map((s) => [s, () => onSignal(s)]));

function hookSignals(): void {
  if (signalsHooked || !isMainThread) return;
  signalsHooked = true;
  for (const [s, h] of handlers) process.on(s, h);
}

function unhookSignals(): void {
  if (!signalsHooked) return;
  signalsHooked = false;
  for (const [s, h] of handlers) process.removeListener(s, h);
}

/** Tracks an area with a directory on disk: it is removed at exit or on a terminating signal unless released before. */
export function trackSpillArea(a: SyncReleasable): void {
  live.add(a);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', releaseAllSpillAreasSync);
  }
  hookSignals();
}

/** Stops tracking an area (its directory was removed); the signal handlers go when no area is left. */
export function untrackSpillArea(a: SyncReleasable): void {
  live.delete(a);
  if (live.size === 0) unhookSignals();
}
