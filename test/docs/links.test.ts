/**
 * Relative links between the Markdown docs resolve: every `[text](path)` and `[text](path#anchor)`
 * in README.md, docs/*.md and bench/README.md names a file that exists and, for a Markdown file,
 * a heading it has (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, `-1`,
 * `-2` for repeats). Sections move between files (docs/multi-core.md's session logs went to
 * docs/multi-core-history.md), and a dead anchor fails silently in a browser.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** GitHub's anchor of a heading's text. */
function headingAnchor(text: string): string {
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (outside fenced code). */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) { fenced = !fenced; continue; }
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (m === null) continue;
    const a = headingAnchor(m[1]!);
    const n = seen.get(a) ?? 0;
    seen.set(a, n + 1);
    out.add(n === 0 ? a : `${a}-${n}`);
  }
  return out;
}

/** The relative link targets of a Markdown text (not in fenced code; no URLs). */
function linksOf(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

const files = ['README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('links between the docs', () => {
  it('anchors follow GitHub: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect(headingAnchor("Reading EXPLAIN's Worker Stages")).toBe('reading-explains-worker-stages');
    expect(headingAnchor('The `parallelism` default')).toBe('the-parallelism-default');
    expect(headingAnchor('When a stage is not shipped (the cost model)')).toBe('when-a-stage-is-not-shipped-the-cost-model');
    expect([...anchorsOf('# A\n## A\n```\n# B\n```\n')]).toEqual(['a', 'a-1']);
  });

  for (const file of files) {
    it(`${file}: every relative link names an existing file and heading`, () => {
      const broken: string[] = [];
      for (const target of linksOf(readFileSync(join(ROOT, file), 'utf8'))) {
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const resolved = path === '' ? join(ROOT, file) : normalize(join(ROOT, dirname(file), path));
        if (!existsSync(resolved)) { broken.push(`${target} (no such file)`); continue; }
        if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${target} (no such heading)`);
      }
      expect(broken).toEqual([]);
    });
  }
});
