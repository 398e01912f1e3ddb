/**
 * CLI start-up (issue 28: ≤ 300 ms median for `delivery-lab --list` and a one-preset run): per
 * command, the median over N runs of the child process's wall time and of its CPU time (user +
 * system, from the shell's `times`: what the process itself cost, whatever else the machine
 * runs), for the bundled executable (dist-cli/delivery-lab.mjs, as `npx delivery-lab` runs it)
 * beside `npm run sim` (tsx) and a bare `node -e ''` (the floor this machine sets). The machine's
 * load average is printed with them: on a shared machine wall time follows the load, CPU time
 * much less. Without bash (Windows) only wall time is measured.
 *
 * BENCH_STARTUP_RUNS sets N (default 9). BENCH_STARTUP_BEFORE=<a dist-cli directory> (a copy of
 * an earlier build) adds its rows, each run alternating with this build's, for a before/after.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 9);
const before = process.env.BENCH_STARTUP_BEFORE;
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const sim = join(root, 'src', 'cli', 'bin.ts');
const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p));

/**
 * One run of `node …args`, output discarded: wall and CPU milliseconds. Under bash, both are taken
 * around node alone ($EPOCHREALTIME, then `times`: the children's user and system time).
 */
function once(args: string[]): { wall: number; cpu: number | null } {
  if (bash) {
    const script =
      's=$EPOCHREALTIME; "$@" >/dev/null 2>&1; c=$?; e=$EPOCHREALTIME; echo "$c $s $e"; times';
    const r = spawnSync(bash, ['-c', script, 'bash', process.execPath, ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    const [status, start, end, , , user, system] = r.stdout.trim().split(/\s+/);
    if (status !== '0') throw new Error(`node ${args.join(' ')} exited ${status}`);
    const seconds = (t = '') => {
      const m = /^(\d+)m([\d.]+)s$/.exec(t);
      if (!m) throw new Error(`unexpected output of times: ${r.stdout}`);
      return Number(m[1]) * 60 + Number(m[2]);
    };
    return {
      wall: (Number(end!.replace(',', '.')) - Number(start!.replace(',', '.'))) * 1000,
      cpu: (seconds(user) + seconds(system)) * 1000,
    };
  }
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  return { wall: performance.now() - t0, cpu: null };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  what: string;
  args: string[];
  wall: number[];
  cpu: number[];
}

/** Every row's runs, interleaved (row 1, row 2, …, row 1, …) so a change of load hits all alike. */
function measure(rows: Row[]): void {
  for (let i = 0; i < runs; i++)
    for (const row of rows) {
      const t = once(row.args);
      row.wall.push(t.wall);
      if (t.cpu !== null) row.cpu.push(t.cpu);
    }
}

const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.cli.config.ts'],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);
const preset = 'lost-ack-retry/acks-1';
const row = (what: string, args: string[]): Row => ({ what, args, wall: [], cpu: [] });
const bundled = (dir: string, label: string) => [
  row(`delivery-lab --list${label}`, [join(dir, 'delivery-lab.mjs'), '--list']),
  row(`delivery-lab ${preset}${label}`, [join(dir, 'delivery-lab.mjs'), preset]),
];
const rows = [
  row("node -e '' (floor)", ['-e', '']),
  ...bundled(join(root, 'dist-cli'), ''),
  ...(before ? bundled(before, ' (before)') : []),
  row('npm run sim -- --list (tsx)', [tsx, sim, '--list']),
  row(`npm run sim -- ${preset} (tsx)`, [tsx, sim, preset]),
];
const load = loadavg()[0]!;
measure(rows);
console.log(
  `start-up, median of ${runs} runs of the child process, interleaved (target ≤ 300 ms for delivery-lab); load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores:`,
);
console.log(`  ${''.padEnd(50)} ${'wall'.padStart(7)} ${'CPU'.padStart(7)}`);
for (const r of rows) {
  const cpu = r.cpu.length > 0 ? `${median(r.cpu).toFixed(0)} ms` : '–';
  console.log(
    `  ${r.what.padEnd(50)} ${`${median(r.wall).toFixed(0)} ms`.padStart(7)} ${cpu.padStart(7)}`,
  );
}
