/**
 * Hand-written SVG bar charts on a log scale (no chart library): grouped
 * horizontal bars growing from the 1× line, decade grid lines, a legend, and
 * a text note instead of a bar where a value is missing (WRONG, timeout...).
 * Plain SVG 1.1 with inline attributes only, so GitHub's image sanitizer
 * and every browser render it the same.
 */

/** One group (a query): its label and one value or note per series. */
export interface BarGroup {
  readonly label: string;
  readonly values: readonly (number | string | undefined)[];
}

/** A chart's content. */
export interface LogBarChart {
  readonly title: string;
  readonly subtitle: string;
  /** Axis caption, e.g. "eddy time / DuckDB time (log scale; < 1: eddy faster)". */
  readonly axis: string;
  readonly series: readonly { readonly name: string; readonly color: string }[];
  readonly groups: readonly BarGroup[];
}

/** Escapes text for SVG content and attribute values. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const tick = (e: number): string => (e >= 0 ? `${10 ** e}×` : `${(10 ** e).toFixed(-e)}×`);

/** Renders the chart as an SVG document. */
export function logBarChart(c: LogBarChart): string {
  const nums = c.groups.flatMap((g) => g.values.filter((v): v is number => typeof v === 'number' && v > 0));
  const lo = Math.min(-1, Math.floor(Math.log10(Math.min(...nums, 1))));
  const hi = Math.max(1, Math.ceil(Math.log10(Math.max(...nums, 1))));
  const left = 70;
  const plotW = 560;
  const right = 80;
  const bar = 12;
  const gap = 10;
  const groupH = c.series.length * bar + gap;
  const top = 70;
  const height = top + c.groups.length * groupH + 50;
  const width = left + plotW + right;
  const x = (v: number): number => left + ((Math.log10(v) - lo) / (hi - lo)) * plotW;
  const x1 = x(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="20" font-size="15" font-weight="bold">${esc(c.title)}</text>`,
    `<text x="${left}" y="38" fill="#555555">${esc(c.subtitle)}</text>`,
  ];
  c.series.forEach((s, i) => {
    const lx = left + i * 190;
    out.push(`<rect x="${lx}" y="48" width="10" height="10" fill="${s.color}"/>`, `<text x="${lx + 14}" y="57">${esc(s.name)}</text>`);
  });
  const bottom = top + c.groups.length * groupH;
  for (let e = lo; e <= hi; e++) {
    const gx = x(10 ** e).toFixed(1);
    out.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${bottom}" stroke="${e === 0 ? '#333333' : '#dddddd'}" stroke-width="${e === 0 ? 1.5 : 1}"/>`);
    out.push(`<text x="${gx}" y="${bottom + 14}" text-anchor="middle" fill="#555555">${tick(e)}</text>`);
  }
  out.push(`<text x="${(left + plotW / 2).toFixed(0)}" y="${bottom + 32}" text-anchor="middle" fill="#333333">${esc(c.axis)}</text>`);
  c.groups.forEach((g, gi) => {
    const gy = top + gi * groupH;
    out.push(`<text x="${left - 8}" y="${(gy + (c.series.length * bar) / 2 + 4).toFixed(1)}" text-anchor="end">${esc(g.label)}</text>`);
    g.values.forEach((v, si) => {
      const y = gy + si * bar;
      if (typeof v === 'number' && v > 0) {
        const xv = x(v);
        const [a, b] = xv >= x1 ? [x1, xv] : [xv, x1];
        out.push(`<rect x="${a.toFixed(1)}" y="${y}" width="${Math.max(1, b - a).toFixed(1)}" height="${bar - 2}" fill="${c.series[si]!.color}"><title>${esc(`${g.label} ${c.series[si]!.name}: ${fmt(v)}×`)}</title></rect>`);
        out.push(`<text x="${(Math.max(xv, x1) + 4).toFixed(1)}" y="${y + bar - 3}" font-size="9" fill="#333333">${fmt(v)}×</text>`);
      } else if (typeof v === 'string') {
        out.push(`<text x="${(x1 + 4).toFixed(1)}" y="${y + bar - 3}" font-size="9" fill="#b00020">${esc(v)}</text>`);
      }
    });
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
