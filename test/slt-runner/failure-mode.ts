/**
 * How an allow-listed record fails (its "failure mode"), so that a record
 * failing in a *new* way is an unexpected failure, not an allowed difference.
 *
 * Two kinds, written in the allow-list's fifth column:
 * - `rows:<md5>`: the query returned rows, the wrong ones; md5 of the actual
 *   rows rendered as the runner shows them (tab-joined), sorted unless the
 *   record's order is meaningful (nosort with a top-level ORDER BY). Any
 *   other wrong answer hashes differently and is caught.
 * - `error:<regex>`: the failure message (an error, "expected an error, but
 *   the statement succeeded", a column-count mismatch...) matches the regular
 *   expression. Recorded messages are escaped whole and anchored; the only
 *   normalisations are timings (`\d+ ms`), error positions (`line \d+,
 *   column \d+`: a reworded query or parser moves them without changing
 *   what fails), absolute paths up to the suite's `slt/` folder (they differ
 *   per checkout) and the "too slow" family (timeout, hung, not run: which one
 *   happens depends on the machine's load).
 * A bare regex (the older format) reads as `error:<regex>`.
 */
import { byCodeUnits, md5Values } from './compare.js';

/** A recorded way of failing. */
export type FailureMode =
  | { readonly kind: 'rows'; readonly hash: string }
  | { readonly kind: 'error'; readonly pattern: RegExp };

/** What a failed record left behind: its message, and the hash of its rows when it returned any. */
export interface ObservedFailure {
  readonly reason?: string;
  readonly resultHash?: string;
}

/** The "too slow" messages: which of them a slow record gets depends on the machine's load. */
export const SLOW_PATTERN = '^(unexpected error: )?(timeout after|hung:|not run:)';

/** md5 of a result's rendered rows; rows are sorted first unless their order is meaningful. */
export function resultHash(shownRows: readonly string[], ordered: boolean): string {
  return md5Values(ordered ? shownRows : [...shownRows].sort(byCodeUnits));
}

/** An absolute path up to the suite's `slt/` folder, in a failure message. */
const SUITE_PATH = /(?:\/[^\s'"():/]+)*\/slt\//g;
/** What such a path becomes in a recorded mode: any path ending in `/slt/`. */
const SUITE_PATH_PATTERN = "[^\\s'\"]*\\/slt\\/";

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** The mode that covers exactly this failure, as allow-list text. */
export function modeTextOf(f: ObservedFailure): string {
  if (f.resultHash !== undefined) return `rows:${f.resultHash}`;
  const reason = f.reason ?? 'failed';
  if (new RegExp(SLOW_PATTERN).test(reason)) return `error:${SLOW_PATTERN}`;
  if (reason.startsWith('crashed:')) return 'error:^crashed:';
  // Absolute paths into the suite differ per checkout (a CI clone lays shared/ elsewhere): keep only the part after `/slt/`.
  const pattern = escapeRegex(reason.replace(SUITE_PATH, '\u0000'))
    .replace(/\d+ ms\b/g, '\\d+ ms')
    .replace(/\bline \d+, column \d+/g, 'line \\d+, column \\d+')
    .replace(/\u0000/g, SUITE_PATH_PATTERN);
  return `error:^${pattern}$`;
}

/** Parses the allow-list's mode column; throws on a bad regex or hash. */
export function parseMode(text: string): FailureMode {
  const t = text.trim();
  if (t.startsWith('rows:')) {
    const hash = t.slice(5);
    if (!/^[0-9a-f]{32}$/.test(hash)) throw new Error(`bad result hash "${hash}" (expected 32 lowercase hex digits)`);
    return { kind: 'rows', hash };
  }
  return { kind: 'error', pattern: new RegExp(t.startsWith('error:') ? t.slice(6) : t) };
}

/** The mode as allow-list text. */
export function formatMode(m: FailureMode): string {
  return m.kind === 'rows' ? `rows:${m.hash}` : `error:${m.pattern.source}`;
}

/** True if the failure is the recorded one. */
export function modeCovers(m: FailureMode, f: ObservedFailure): boolean {
  if (m.kind === 'rows') return f.resultHash === m.hash;
  return f.reason !== undefined && m.pattern.test(f.reason);
}
