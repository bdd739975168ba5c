/**
 * Start-up of the shell: `-c "SELECT 1" --no-demo` through bin/eddy.js (the esbuild bundle,
 * scripts/cli-bundle.mjs) and through tsx, in alternating processes; CPU time (user + system of the
 * child, which load from other processes barely changes) and wall time, medians.
 *
 *   node scripts/bench-start.mjs [runs=5]
 */
import { spawnSync } from 'node:child_process';
import { ensureCliBundle, ROOT } from './cli-bundle.mjs';

const runs = Number(process.argv[2] ?? 5);
await ensureCliBundle();
const ways = {
  bundle: ['bin/eddy.js'],
  tsx: ['--import', 'tsx', 'src/cli/main.ts'],
};
const times = Object.fromEntries(Object.keys(ways).map((k) => [k, { cpu: [], wall: [] }]));
for (let i = 0; i < runs; i++) {
  for (const [name, args] of Object.entries(ways)) {
    // /usr/bin/time-free: the child reports its own CPU time at exit.
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', 'data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("CPU "+((u.user+u.system)/1000)+"\\n")})', ...args, '--no-demo', '-c', 'SELECT 1'], { cwd: ROOT, encoding: 'utf8' });
    const wall = performance.now() - t0;
    const cpu = Number(/CPU ([\d.]+)/.exec(r.stderr)?.[1]);
    if (r.status !== 0 || !Number.isFinite(cpu)) throw new Error(`${name} failed: ${r.stderr}`);
    times[name].cpu.push(cpu);
    times[name].wall.push(wall);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, t] of Object.entries(times)) console.log(`${name.padEnd(7)} CPU ${median(t.cpu).toFixed(0)} ms, wall ${median(t.wall).toFixed(0)} ms (medians of ${runs})`);
