import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startProgress } from '../../src/cli/progress.js';

describe('progress line', () => {
  it('appears after a second with the rows read, says when cancelling, and is cleared at the end', async () => {
    const err = Object.assign(new PassThrough(), { isTTY: true, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let text = '';
    err.on('data', (d: Buffer) => { text += d.toString(); });
    const p = startProgress(err);
    p.update(1_234_567);
    await new Promise((r) => setTimeout(r, 400));
    expect(text).toBe(''); // quick statements show nothing
    await new Promise((r) => setTimeout(r, 900));
    expect(text).toMatch(/running… 1,234,567 rows read · 1\.\d s · Ctrl-C to cancel/);
    p.cancelling();
    await new Promise((r) => setTimeout(r, 250));
    expect(text).toMatch(/cancelling… 1,234,567 rows read/);
    p.stop();
  });
});

describe('progress line of iterations', () => {
  it('shows the round and the rows of a table iteration', async () => {
    const err = Object.assign(new PassThrough(), { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let text = '';
    err.on('data', (d: Buffer) => { text += d.toString(); });
    const p = startProgress(err);
    p.iteration(11, 3480);
    await new Promise((r) => setTimeout(r, 1300));
    expect(text).toMatch(/running… iteration round 12 · 3,480 rows · 1\.\d s/);
    p.stop();
  });
});
