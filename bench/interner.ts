/**
 * String interner micro-benchmark (kernels/hash-interner.ts): CPU ns per
 * string interned, for the shapes TPC-H Q10's GROUP BY feeds it — customer
 * names (18 bytes), phones (15), addresses (10–40) and comments (29–116),
 * each distinct string seen about 1.5 times (57K build rows over 38K
 * customers), plus lookups of absent strings. Median of 7 rounds, each on a
 * fresh interner (its growth included). Then the hash alone (hashUtf8) per
 * string length, over 1,000 strings that stay in cache: the interner's
 * figures above are mostly memory misses on a busy machine; this one is not.
 *
 *   npx tsx bench/interner.ts [strings]      (ROOT=<checkout> to measure another build)
 */
const ROOT = process.env.ROOT ?? new URL('..', import.meta.url).pathname;
const { StringInterner, hashUtf8 } = (await import(`${ROOT}/src/exec/kernels/hash-interner.ts`)) as typeof import('../src/exec/kernels/hash-interner.js');

const N = Number(process.argv[2] ?? 228_000);
let seed = 0x2545f491;
const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };
const enc = new TextEncoder();
const distinct = Math.ceil(N / 1.5);
const shapes: [string, (i: number) => string][] = [
  ['name 18 B', (i) => `Customer#${String(i).padStart(9, '0')}`],
  ['phone 15 B', (i) => `${10 + (i % 25)}-${String(i % 1000).padStart(3, '0')}-${String((i * 7) % 1000).padStart(3, '0')}-${String(i % 10000).padStart(4, '0')}`],
  ['address 10-40 B', (i) => `addr${i}`.padEnd(10 + (i % 31), 'x')],
  ['comment 29-116 B', (i) => `comment ${i} furiously regular deposits`.padEnd(29 + (i % 88), ' abc')],
];

for (const [name, make] of shapes) {
  const order = Array.from({ length: N }, () => Math.floor(rnd() * distinct));
  const parts = order.map((i) => enc.encode(make(i)));
  const offs = new Int32Array(N + 1);
  for (let i = 0; i < N; i++) offs[i + 1] = offs[i]! + parts[i]!.length;
  const bytes = new Uint8Array(offs[N]!);
  parts.forEach((p, i) => bytes.set(p, offs[i]!));
  const times: number[] = [];
  let size = 0;
  for (let r = 0; r < 7; r++) {
    const t = new StringInterner();
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) t.intern(bytes, offs[i]!, offs[i + 1]!, true);
    for (let i = 0; i < N; i++) t.intern(bytes, offs[i]!, offs[i + 1]!, false);
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) * 1000 / (2 * N));
    size = t.size;
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(18)} ${times[3]!.toFixed(0).padStart(5)} ns/string  (${N} interned + ${N} looked up, ${size} distinct)`);
}

for (const len of [15, 18, 40, 73, 116]) {
  const strs = Array.from({ length: 1000 }, (_, i) => enc.encode(`comment ${i} furiously regular deposits`.padEnd(len, ' abc').slice(0, len)));
  const offs = new Int32Array(1001);
  strs.forEach((b, i) => { offs[i + 1] = offs[i]! + b.length; });
  const bytes = new Uint8Array(offs[1000]!);
  strs.forEach((b, i) => bytes.set(b, offs[i]!));
  const times: number[] = [];
  let x = 0;
  for (let r = 0; r < 9; r++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < 200; k++) for (let i = 0; i < 1000; i++) x ^= hashUtf8(bytes, offs[i]!, offs[i + 1]!);
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) * 1000 / 200_000);
  }
  times.sort((a, b) => a - b);
  console.log(`hash ${String(len).padStart(3)} B         ${times[4]!.toFixed(1).padStart(5)} ns/string${x === 0.5 ? ' ' : ''}`);
}
