// One-off: re-renders the expected output of every EXPLAIN query in an slt file (statements replayed in order).
import { readFileSync, writeFileSync } from 'node:fs';
import { TableEnvironment } from '../src/api/index.js';
import '../src/sql/index.js';
const path = process.argv[2]!;
const lines = readFileSync(path, 'utf8').split('\n');
const env = TableEnvironment.create();
const out: string[] = [];
let i = 0;
while (i < lines.length) {
  const l = lines[i]!;
  if (l.startsWith('statement') || l.startsWith('query')) {
    const head = l;
    out.push(head); i++;
    const sql: string[] = [];
    while (i < lines.length && lines[i] !== '----' && lines[i] !== '') { sql.push(lines[i]!); out.push(lines[i]!); i++; }
    const text = sql.join('\n');
    if (head.startsWith('statement')) { try { await env.executeSql(text); } catch { /* expected error */ } continue; }
    if (lines[i] === '----') {
      out.push('----'); i++;
      const old: string[] = [];
      while (i < lines.length && lines[i] !== '') { old.push(lines[i]!); i++; }
      if (/^\s*EXPLAIN/i.test(text)) {
        const r = await env.executeSql(text);
        const t = (r as { table: { getChildAt(i: number): { get(i: number): unknown; length: number } } }).table;
        const col = t.getChildAt(0)!;
        const rendered: string[] = [];
        for (let k = 0; k < col.length; k++) rendered.push(...String(col.get(k)).split('\n').filter((x) => x.trim() !== ''));
        out.push(...rendered);
      } else out.push(...old);
    }
    continue;
  }
  out.push(l); i++;
}
writeFileSync(path, out.join('\n'));
await env.close();
