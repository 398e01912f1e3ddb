/**
 * The CLI's peak memory on the largest documented workloads (docs/format.md, limits: 2,000,000
 * generated events; a run cut off at 10,000,000 trace entries), which must stay within 1 GB.
 * Run by bench/run.ts in a child process of its own, one workload per process:
 *
 *   node --import tsx bench/cli-rss.ts <flink|consumer|trace-limit>
 *
 * It writes the workload as a scenario file, runs the CLI's `main` on it with `--format json`
 * (the report written to /dev/null, chunk by chunk, as to a pipe), then prints one line of JSON:
 * the exit code, the report's size and the process's peak resident set size
 * (`process.resourceUsage().maxRSS`, KiB) — the figure `/usr/bin/time -v` calls "Maximum resident
 * set size".
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main';
import { loadOptionalParts } from '../src/cli/optionalParts';
import { consumerScenario, flinkScenario } from './engine.bench';

/** The documented maximum of generated events (LIMITS.generatedEvents); BENCH_CLI_EVENTS for a quick try. */
const N = Number(process.env.BENCH_CLI_EVENTS ?? 2_000_000);

export const WORKLOADS = {
  /** Flink, KafkaSink EXACTLY_ONCE, read_committed reader: the engine bench's 2PC path. */
  flink: () => flinkScenario(N),
  /** The batched consumer loop with random ack loss and crashes: the engine bench's consumer path. */
  consumer: () => consumerScenario(N),
  /**
   * The Flink path with its events 1 ms apart, each sent alone: about 13 entries per event, so
   * the run is cut off at the trace limit (10,000,000 entries) — the largest trace a run keeps.
   */
  'trace-limit': () => {
    const s = flinkScenario(N);
    return {
      ...s,
      name: `bench: ${N} events 1 ms apart, Flink 2PC, cut at the trace limit`,
      workload: { generate: { count: N, intervalMs: 1, keys: 10_000 } },
    };
  },
} as const;

if (process.argv[1] && /cli-rss\.[cm]?[tj]s$/.test(process.argv[1])) {
  const which = process.argv[2] as keyof typeof WORKLOADS;
  if (!Object.hasOwn(WORKLOADS, which)) {
    process.stderr.write(`usage: cli-rss.ts ${Object.keys(WORKLOADS).join('|')}\n`);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-rss-'));
  const file = join(dir, `${which}.json`);
  writeFileSync(file, JSON.stringify(WORKLOADS[which]()));
  const sink = openSync('/dev/null', 'w');
  let chars = 0;
  // A scenario file is checked by zod, an optional part the runner imports first (runCli does).
  await loadOptionalParts(['validate']);
  const started = performance.now();
  const code = main(
    [file, '--format', 'json'],
    (s) => {
      chars += s.length;
      writeSync(sink, s);
    },
    (s) => process.stderr.write(`${s}\n`),
  );
  closeSync(sink);
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({
      workload: which,
      code,
      reportMB: Math.round(chars / 1e6),
      seconds: Math.round((performance.now() - started) / 1000),
      // maxRSS is in KiB.
      maxRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
    })}\n`,
  );
}
