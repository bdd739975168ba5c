/**
 * Rewrites the allow-list after a run (`--update-allowlist`): every record
 * entry of a file that ran gets the failure mode the run observed, and
 * stale entries (the record no longer fails) are removed. Comments, order
 * and reasons are kept; whole-file entries and files that did not run are
 * left alone. Failures with no entry are not added: they need a reason
 * written by a person (triage.ts proposes them).
 */
import type { FileSummary } from './summary.js';

/** What an update changed. */
export interface AllowlistUpdate {
  readonly text: string;
  /** `file:line` of entries whose mode was set or changed. */
  readonly recorded: readonly string[];
  /** `file:line` of stale entries removed. */
  readonly removed: readonly string[];
  /** `file:line` of failures with no entry (to triage by hand). */
  readonly unlisted: readonly string[];
}

/** Applies a run's observations to the allow-list text. */
export function updateAllowlist(text: string, files: readonly FileSummary[]): AllowlistUpdate {
  const mode = new Map<string, string>();
  const drop = new Set<string>();
  const unlisted: string[] = [];
  for (const f of files) {
    for (const x of f.failures) {
      if ((x.allowed || x.changed) && x.mode !== undefined) mode.set(`${f.file}:${x.line}`, x.mode);
    }
    for (const p of f.nowPassing) drop.add(`${f.file}:${p.line}`);
    for (const u of f.unexpected) if (!u.changed) unlisted.push(`${f.file}:${u.line}`);
  }
  const recorded: string[] = [];
  const removed: string[] = [];
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const cols = raw.split('\t');
    if (raw.startsWith('#') || cols.length < 4 || cols[1] === '*') {
      out.push(raw);
      continue;
    }
    const key = `${cols[0]}:${cols[1]}`;
    if (drop.has(key)) {
      removed.push(key);
      continue;
    }
    const m = mode.get(key);
    if (m !== undefined) {
      if ((cols[4] ?? '').trim() !== m) recorded.push(key);
      out.push([...cols.slice(0, 4), m].join('\t'));
    } else out.push(raw);
  }
  return { text: out.join('\n'), recorded, removed, unlisted };
}
