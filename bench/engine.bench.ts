/**
 * Engine benchmark (issue 2 and 3 targets): 1,000,000 business events through producer →
 * 8 partitions → consumer → upsert sink, with 1 % of produce acknowledgements lost at random and a
 * consumer crash every 100,000 events; and the checkpointed two-phase-commit path (Flink,
 * KafkaSink EXACTLY_ONCE, checkpoint every 10,000 events, a crash every 100,000).
 *
 * Prints, for each: the median events/s over 5 runs (after one warm-up), the peak memory (the JS
 * heap, and apart the typed arrays — trace, logs, tables — which live outside it), the bytes
 * of retained trace per event, and the ratio to the baseline loop (bench/baseline.ts). Targets:
 * ≥ 1,000,000 events/s, ≤ 150 bytes of trace per event, ratio ≤ 8. Figures on a shared machine
 * vary: read the medians and ratios, not a single run. The baseline's runs come right before
 * the engine's, so the ratio compares runs made seconds apart; the CPU time (user + system,
 * the collector's helper threads included) says how much of the wall time the process had.
 * The system part is mostly the kernel handing the run fresh pages (minor page faults, printed
 * as MB of fresh pages): a run writes ~300 MB of typed arrays, and on a virtual machine a fault
 * can cost several µs. As in the page's run worker, each run gives its arrays back to the next
 * through a BufferPool, so the measured runs reuse memory; the first run (the warm-up, JIT cold
 * and every page new) is printed apart.
 */
import { BufferPool, parseScenario, simulate, type ScenarioInput, type Run } from '../src/engine';
import { baseline } from './baseline';

const N = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KEYS = 10_000;

/** The consumer path: idempotent producer, 1 % random ack loss, a consumer crash every 100k. */
export function consumerScenario(n = N): ScenarioInput {
  return {
    version: 1,
    name: `bench: ${n} events, 8 partitions, consumer → upsert`,
    seed: 1,
    workload: { generate: { count: n, intervalMs: 0.01, keys: KEYS } },
    producer: { 'request.timeout.ms': 1000, app: { onFailure: 'resend' } },
    broker: { partitions: 8 },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'max.poll.records': 500,
      processing: { perRecordMs: 0 },
    },
    sink: { type: 'table', statement: 'on-conflict-do-update', statementPer: 'batch' },
    faults: [
      { kind: 'random', link: 'produce', what: 'drop-response', probability: 0.01 },
      { kind: 'periodic-crash', target: 'consumer-0', everyRecords: 100_000, restartAfterMs: 1000 },
    ],
  };
}

/** The checkpointed 2PC path: Flink with KafkaSink EXACTLY_ONCE read by a read_committed reader. */
export function flinkScenario(n = N): ScenarioInput {
  return {
    version: 1,
    name: `bench: ${n} events, Flink 2PC`,
    seed: 1,
    // 10,000 events per 100 ms of virtual time; checkpoints every 100 ms ≈ every 10,000 events.
    workload: { generate: { count: n, intervalMs: 0.01, keys: KEYS } },
    producer: { 'request.timeout.ms': 1000 },
    broker: { partitions: 8 },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 100,
      processing: { perRecordMs: 0.01 },
    },
    sink: {
      type: 'kafka',
      topic: 'out',
      partitions: 8,
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 'bench',
      // Within a default broker's transaction.max.timeout.ms (KafkaSink's own 1 h is refused).
      'transaction.timeout.ms': 900_000,
      'linger.ms': 5,
    },
    readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
    faults: [
      { kind: 'periodic-crash', target: 'flink', everyRecords: 100_000, restartAfterMs: 1000 },
    ],
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Figures {
  name: string;
  eventsPerSec: number;
  medianMs: number;
  /** Median CPU time of the engine runs (ms). */
  cpuMs: number;
  /** Median system part of that CPU time (ms). */
  sysMs: number;
  /** Median fresh memory the kernel mapped in during a run (minor page faults × 4 KiB, MB). */
  faultMB: number;
  /** The first (warm-up) run: JIT still cold, every page fresh (ms, MB of fresh pages). */
  firstMs: number;
  firstFaultMB: number;
  /** Median of the baseline runs interleaved with them (ms). */
  baselineMs: number;
  peakHeapMB: number;
  /** Peak of the typed arrays' backing stores (process.memoryUsage().arrayBuffers). */
  peakBuffersMB: number;
  traceBytesPerEvent: number;
  ratio: number;
  check: string;
}

function measure(name: string, input: ScenarioInput): Figures {
  const parsed = parseScenario(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  // Peak heap: sampled from the engine's own progress callback (every 65,536 steps) and at the
  // end of each run — a timer could not fire while the synchronous run holds the thread.
  let peak = 0;
  let peakBuffers = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed);
    peakBuffers = Math.max(peakBuffers, m.arrayBuffers);
  };
  let last: Run | undefined;
  // As the page's run worker does: each run gives its typed arrays back to the next (BufferPool).
  const pool = new BufferPool();
  let firstMs = 0;
  let firstFaultMB = 0;
  const times: number[] = [];
  const cpu: number[] = [];
  const sys: number[] = [];
  const faults: number[] = [];
  const base: number[] = [];
  // The baseline's runs first, then the engine's. Interleaved, the baseline's garbage (a
  // million-entry Map, freed just before each engine run) left the heap in a state that slowed
  // the engine run after it by half (Flink 2PC: 1.45-1.6 s after a baseline run, 0.87-1.1 s
  // without) — a cost of the harness, not of the engine, which runs alone in the page's worker.
  for (let i = 0; i <= RUNS; i++) {
    const b0 = performance.now();
    baseline(N, KEYS, 8);
    if (i > 0) base.push(performance.now() - b0);
  }
  for (let i = 0; i <= RUNS; i++) {
    // Each run alone: the previous one and the baseline's garbage are collected first, so neither
    // the time (the collector's work) nor the peak heap includes a second million-event run kept
    // alive by this loop. `npm run bench` runs node with --expose-gc for this.
    if (last) pool.reclaim(last);
    last = undefined;
    global.gc?.();
    const f0 = process.resourceUsage().minorPageFault;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = simulate(parsed.scenario, { onProgress: sample, pool });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const f = process.resourceUsage().minorPageFault - f0;
    sample();
    // Run 0 warms the JIT up, and its memory is all new (the pool is empty).
    if (i === 0) {
      firstMs = ms;
      firstFaultMB = (f * 4096) / 1e6;
    } else {
      times.push(ms);
      cpu.push((c.user + c.system) / 1000);
      sys.push(c.system / 1000);
      faults.push((f * 4096) / 1e6);
    }
  }
  const run = last!;
  const p = run.verdict.points.find((x) => x.name === run.verdict.primary)!;
  const ms = median(times);
  const baselineMs = median(base);
  return {
    name,
    eventsPerSec: Math.round((N / ms) * 1000),
    medianMs: Math.round(ms),
    cpuMs: Math.round(median(cpu)),
    sysMs: Math.round(median(sys)),
    faultMB: Math.round(median(faults)),
    baselineMs: Math.round(baselineMs),
    firstMs: Math.round(firstMs),
    firstFaultMB: Math.round(firstFaultMB),
    peakHeapMB: Math.round(peak / 1e6),
    peakBuffersMB: Math.round(peakBuffers / 1e6),
    traceBytesPerEvent: Math.round((run.trace.byteLength() / N) * 10) / 10,
    ratio: Math.round((ms / baselineMs) * 10) / 10,
    check: `${p.totals.rows} rows, ${p.totals.duplicates} duplicates, ${p.totals.lost} lost, observed ${run.verdict.observed}`,
  };
}

export function runEngineBench(): Figures[] {
  if (!global.gc)
    console.log('note: run with --expose-gc (npm run bench does) to collect between runs');
  console.log(
    `baseline loop (${N} events: route, append, upsert into a Map): its runs right before the engine's`,
  );
  const out = [
    measure('consumer → upsert', consumerScenario()),
    measure('Flink 2PC → read_committed', flinkScenario()),
  ];
  for (const f of out) {
    console.log(
      `${f.name}: ${f.eventsPerSec.toLocaleString('en-US')} events/s (median ${f.medianMs} ms over ${RUNS}, CPU ${f.cpuMs} ms, of which system ${f.sysMs} ms; ${f.faultMB} MB of fresh pages; first run ${f.firstMs} ms with ${f.firstFaultMB} MB) · peak heap ${f.peakHeapMB} MB + ${f.peakBuffersMB} MB typed arrays · trace ${f.traceBytesPerEvent} B/event · ${f.ratio}× baseline (median ${f.baselineMs} ms) · ${f.check}`,
    );
  }
  return out;
}

if (process.argv[1] && /engine\.bench\.[cm]?[tj]s$/.test(process.argv[1])) runEngineBench();
