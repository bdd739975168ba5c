/**
 * The REPL's persistent history: `~/.eddy_history` (or `$EDDY_HISTORY`),
 * one entry per line, oldest first, at most HISTORY_SIZE entries, readable
 * only by the user. Failing to read or write it never stops the shell.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Entries kept. */
export const HISTORY_SIZE = 1000;

/** Where history is kept unless `$EDDY_HISTORY` says otherwise. */
export function defaultHistoryFile(): string {
  return process.env['EDDY_HISTORY'] || join(homedir(), '.eddy_history');
}

/** The saved history, newest first (readline's order); empty if there is none. */
export function loadHistory(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Saves `history` (newest first); returns an error message instead of throwing. */
export function saveHistory(path: string, history: readonly string[]): string | undefined {
  try {
    const lines = history.slice(0, HISTORY_SIZE).filter((l) => !l.includes('\n')).reverse();
    writeFileSync(path, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
    return undefined;
  } catch (e) {
    return `cannot save history to ${path}: ${e instanceof Error ? e.message : String(e)}`;
  }
}
