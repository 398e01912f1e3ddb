/**
 * `simulate(scenario) → run`: assemble the pipeline the scenario describes, schedule its faults,
 * run the virtual clock until nothing is left to happen (or `stopAtMs`), and check the outcome.
 * A pure function of the scenario: same scenario and seed, same trace, byte for byte.
 */
import { World, Actor } from './world';
import { Faults } from './faults';
import { Cluster, type Topic } from './broker/cluster';
import { SourceApp } from './producer';
import { ConsumerGroup } from './processors/group';
import { ConsumerInstance, type LoopConfig, type Output } from './processors/consumer';
import { EffectOutput, KafkaOutput, ReaderOutput, TableOutput } from './processors/outputs';
import { RowStore, SinkActor } from './sinks/table';
import { ServiceActor } from './sinks/effects';
import { buildEvents, type Events } from './scenario/workload';
import type { ConsumerProcessorConfig, Scenario } from './scenario/schema';
import { outputTransactionTimeoutMs } from './scenario/transactionTimeouts';
import { LIMITS } from './scenario/limits';
import type { Trace } from './trace';
import { END_STOP, END_TRACE_LIMIT, K } from './trace';
import { verdictOf, type Verdict } from './checker';
import type { JobManager } from './processors/flinkJobManager';
import type { SparkQuery } from './processors/spark';
import type { ProcessorJobs } from './processors/jobs';
import { withPool, type BufferPool } from './core/pool';
import { Opportunities } from './opportunities';
import { findStuck, type Stuck } from './stuck';
import { scheduleTimedFaults, type FaultTargets } from './timedFaults';
import { SqlRecorder } from './sql/recorder';

/** The environment: faults, the controller and the end of the run are attributed to it. */
class Lab extends Actor {
  protected override onRestart(): void {}
}

/** What a run leaves behind for the checker and the views. */
export interface RunState {
  cluster: Cluster;
  input: Topic;
  output: Topic | null;
  producer: SourceApp;
  sink: SinkActor | null;
  service: ServiceActor | null;
  /** Reader name → its table. */
  readers: Map<string, RowStore>;
  /** Flink: which events the keyed state counts (the 'state' observation point). */
  state: { count: Float64Array; sum: Float64Array; contributions: Int32Array } | null;
  /** Flink: the JobManager (checkpoint history). */
  jobManager: JobManager | null;
  /** Spark: the query (offset log, commit log). */
  spark: SparkQuery | null;
}

/** The result of {@link simulate}. */
export interface Run {
  scenario: Scenario;
  events: Events;
  trace: Trace;
  /** Virtual time at which the run ended (ms). */
  endTime: number;
  /**
   * True when the run stopped with work still pending: at `stopAtMs` (or its default), at the
   * trace limit, or with nothing left to happen while a component still waits (stuck).
   */
  cutOff: boolean;
  /**
   * Why it was cut off: `stop` (stopAtMs or its default), `trace-limit` (the trace reached
   * LIMITS.traceEntries entries: a scenario that keeps the run busy without end), `stuck`
   * (nothing was left to happen, but a component waits forever: see {@link stuck}), or null.
   */
  cutOffBy: 'stop' | 'trace-limit' | 'stuck' | null;
  /**
   * The components still waiting when the run ended, with what for and since when (see
   * src/engine/stuck.ts): what is stuck when `cutOffBy` is `stuck`, what was still pending at a
   * cut-off, empty for a run that drained.
   */
  stuck: Stuck[];
  state: RunState;
  verdict: Verdict;
  /** Where faults had their chance (see {@link SimulateOptions.opportunities}), or null. */
  opportunities: Opportunities | null;
}

/** Options of {@link simulate}. */
export interface SimulateOptions {
  /** Abort with an Error after this many engine steps (default 200 million). */
  maxSteps?: number;
  /** Cut the run off when its trace holds this many entries (default LIMITS.traceEntries). */
  maxTraceEntries?: number;
  /**
   * Called every 65,536 engine steps with the virtual time reached (ms) and the time the run
   * will stop at (ms), e.g. to drive a progress bar from a Worker.
   */
  onProgress?: (now: number, stopAtMs: number) => void;
  /**
   * Take the run's typed arrays from this pool (memory an earlier run gave back with
   * {@link BufferPool.reclaim}) instead of new memory. The run is the same byte for byte.
   */
  pool?: BufferPool;
  /**
   * Record, beside the trace, each message sent and each crash point reached, with the rank a
   * fault added to the scenario would match it by (the fault atlas). The trace is unchanged.
   */
  opportunities?: boolean;
  /** False: the verdict without its explanations (`explanations` empty), for callers that count. */
  explain?: boolean;
  /**
   * Record, beside the trace, the table sink's session — every statement sent, attempt by
   * attempt, and its outcome (`state.sink.sql`, src/engine/sql/recorder.ts). The trace is unchanged.
   */
  sql?: boolean;
  /**
   * The scenario's event columns when the caller built them already, with
   * `buildEvents(scenario.workload, scenario.seed)` outside any pool: runs of one workload (the
   * fault atlas's thousands) share them, read-only — no component writes to them.
   */
  events?: Events;
  /**
   * Called once the pipeline is built, just before the clock starts, with the world and the
   * state the run will leave behind: a test or tool that looks at (or snapshots) a run mid-way
   * schedules its look there (src/engine/atlas/fork.ts).
   */
  onAssembled?: (world: World, state: RunState) => void;
  /**
   * Arm only the scenario's first `armFaults` faults at the start (default: all): the fault atlas
   * arms the others part way through, at their moment (src/engine/atlas/continuation.ts).
   */
  armFaults?: number;
  /**
   * The Flink and Spark builders (./processors/jobs.ts), needed to assemble a Flink or Spark
   * scenario: ./simulate.ts passes them, a caller of this module imports them when its scenario
   * has such a processor (the embed's first run of a consumer preset loads none, issue 31).
   */
  jobs?: ProcessorJobs;
  /**
   * Leave the trace's first `traceShift` entries blank (default 0): every entry id of the run is
   * then that much higher and nothing else changes — the fault atlas's rejoin test runs such a
   * twin of the scenario's own run to find where its state holds entry ids
   * (src/engine/atlas/rejoin.ts).
   */
  traceShift?: number;
}

/**
 * A pipeline built and not run yet, or run part way ({@link advanceRun}): what {@link simulate}
 * runs, and what the fault atlas advances, copies and arms more faults in.
 */
export interface AssembledRun {
  world: World;
  state: RunState;
  /** What a timed fault armed later is queued with ({@link armTimedFault}). */
  timed: FaultTargets;
  /** The queue's sequence number right after the set-up queued the armed timed faults. */
  timedFaultsSeq: number;
}

/**
 * The default end of a run: one hour of virtual time after the last event or fault (plus its
 * downtime), so a pipeline stuck in a retry loop still ends.
 */
export function defaultStopAt(s: Scenario, events: Events): number {
  let last = events.count > 0 ? events.at[events.count - 1]! : 0;
  for (const f of s.faults) {
    let t = f.at;
    if ('restartAfterMs' in f && f.restartAfterMs !== null) t += f.restartAfterMs;
    if (f.kind === 'zombie') t += f.pauseMs;
    if (f.kind === 'delay-response') t += f.delayMs;
    last = Math.max(last, t);
  }
  return Math.min(LIMITS.timeMs, last + 3_600_000);
}

/**
 * Run a validated scenario, its verdict without explanations (`explanations` empty, whatever
 * `opts.explain` says): ./simulate.ts's `simulate` adds them. A caller that may do without them
 * imports this module, which holds none of ./explain (the embed's first run, issue 31). Throws
 * only on an internal error (a bug), never on a valid scenario.
 * @returns the run: the trace, the final state and the checker's verdict.
 */
export function simulateUnexplained(scenario: Scenario, opts: SimulateOptions = {}): Run {
  const pool = opts.pool;
  if (!pool) return simulateWith(scenario, opts);
  const { result, taken } = withPool(pool, () => simulateWith(scenario, opts));
  pool.own(result, taken);
  return result;
}

function simulateWith(scenario: Scenario, opts: SimulateOptions): Run {
  const run = assembleRun(scenario, opts);
  opts.onAssembled?.(run.world, run.state);
  return finishRunUnexplained(run, opts);
}

/** Build the pipeline `scenario` describes, its faults armed and queued, its clock at 0. */
export function assembleRun(scenario: Scenario, opts: SimulateOptions = {}): AssembledRun {
  const events = opts.events ?? buildEvents(scenario.workload, scenario.seed);
  const w = new World(scenario, events);
  if (opts.traceShift) w.trace.skip(opts.traceShift);
  const lab = new Lab(w, 'lab');
  const armed = opts.armFaults ?? scenario.faults.length;
  w.faults = new Faults(
    w,
    lab,
    armed < scenario.faults.length ? scenario.faults.slice(0, armed) : scenario.faults,
  );
  const opportunities = opts.opportunities === true ? new Opportunities() : null;
  w.faults.opportunities = opportunities;
  const cluster = new Cluster(w, lab);
  const input = cluster.createTopic(scenario.workload.topic, scenario.broker.partitions);
  const sinkCfg = scenario.sink;
  const output =
    sinkCfg.type === 'kafka' ? cluster.createTopic(sinkCfg.topic, sinkCfg.partitions) : null;
  const producer = new SourceApp(w, cluster, input);
  const proc = scenario.processor;
  const sideEffect = proc.sideEffect;
  const service =
    sinkCfg.type === 'effect'
      ? new ServiceActor(w, sinkCfg.service, sinkCfg.retentionMs)
      : sideEffect
        ? new ServiceActor(w, sideEffect.service, sideEffect.retentionMs)
        : null;
  const sink =
    sinkCfg.type === 'table' || sinkCfg.type === 'delta' || sinkCfg.type === 'file'
      ? new SinkActor(w, sinkCfg)
      : null;
  if (sink && sinkCfg.type === 'table' && opts.sql === true) sink.sql = new SqlRecorder(w.trace);
  const state: RunState = {
    cluster,
    input,
    output,
    producer,
    sink,
    service,
    readers: new Map(),
    state: null,
    jobManager: null,
    spark: null,
  };

  const consumers: ConsumerInstance[] = [];
  let group: ConsumerGroup | null = null;
  if (proc.type === 'consumer') {
    group = new ConsumerGroup(
      w,
      cluster.coordinator,
      proc['group.id'],
      input,
      proc['partition.assignment.strategy'],
      proc['max.poll.interval.ms'],
    );
    w.faults.rebalancer = group;
    const out = consumerOutput(scenario, proc, cluster, input, output, sink, service);
    for (let i = 0; i < proc.instances; i++) {
      const c = new ConsumerInstance(
        w,
        `consumer-${i}`,
        `consumer-${i}`,
        cluster,
        input,
        group,
        loopConfig(proc),
        out,
      );
      consumers.push(c);
    }
  } else {
    const jobs = opts.jobs;
    if (jobs === undefined)
      throw new Error(`a ${proc.type} run needs the job builders (src/engine/processors/jobs.ts)`);
    if (proc.type === 'flink')
      jobs.buildFlink(w, scenario, proc, cluster, input, output, sink, service, state);
    else state.spark = jobs.buildSpark(w, scenario, proc, cluster, input, sink, service, output);
  }

  // Downstream readers: a consumer each, copying what it sees into its own table.
  const readers: ConsumerInstance[] = [];
  scenario.readers.forEach((r, i) => {
    const topic = cluster.topics.get(r.topic)!;
    const store = new RowStore(events.identities);
    state.readers.set(r.name, store);
    const g = new ConsumerGroup(w, cluster.coordinator, `reader-${r.name}`, topic);
    const cfg: LoopConfig = {
      autoCommit: false,
      autoCommitIntervalMs: 5000,
      commit: 'after-processing',
      maxPollRecords: 500,
      readCommitted: r['isolation.level'] === 'read_committed',
      earliest: true,
      sessionTimeoutMs: 45_000,
      maxPollIntervalMs: 300_000,
      perRecordMs: 0,
      mode: 'sync',
      concurrency: 1,
      durationsMs: undefined,
      onStatementError: 'halt',
      startAtMs: r.startAtMs,
      traceProcessing: false,
    };
    readers.push(
      new ConsumerInstance(
        w,
        `reader-${i}`,
        `reader-${i}`,
        cluster,
        topic,
        g,
        cfg,
        new ReaderOutput(store, topic),
      ),
    );
  });

  const timed: FaultTargets = {
    cluster,
    input,
    producer,
    consumers,
    group,
    spark: state.spark,
  };
  scheduleTimedFaults(w, scenario, timed, 0, armed);
  const timedFaultsSeq = w.queuedSequence;

  producer.start();
  for (const c of consumers) c.start();
  for (const r of readers) r.start();
  return { world: w, state, timed, timedFaultsSeq };
}

/** When the run of the world's scenario stops at the latest (ms). */
function stopAtOf(w: World): number {
  return w.scenario.stopAtMs ?? defaultStopAt(w.scenario, w.events);
}

/**
 * Run `run` up to `beforeMs`: every task queued before that time, none at it or later (nothing
 * written for the pause). @returns false when the run ended before (then {@link finishRun}).
 */
export function advanceRun(
  run: AssembledRun,
  beforeMs: number,
  opts: SimulateOptions = {},
): boolean {
  const w = run.world;
  if (runEnded(w)) return false;
  return w.run(
    stopAtOf(w),
    opts.maxSteps ?? 200_000_000,
    undefined,
    opts.maxTraceEntries,
    beforeMs,
  );
}

/** Whether the run wrote its 'end' entry. */
function runEnded(w: World): boolean {
  const t = w.trace;
  return t.length > 0 && t.kind[t.length - 1] === K.end;
}

/**
 * Queue timed fault `index` of `s` (a crash `now`, a rebalance…) in a run paused before its
 * time, where the set-up would have queued it: at its time counted from 0, and before every
 * task queued after the set-up's timed faults (`timedFaultsSeq`, moved on by `earlier`: the
 * timed faults of a smaller index armed so far). A fault of another kind queues nothing.
 * @returns whether it queued a task.
 */
export function armTimedFault(
  run: AssembledRun,
  s: Scenario,
  index: number,
  earlier: number,
): boolean {
  const w = run.world;
  const from = w.queuedSequence;
  const now = w.now;
  w.now = 0;
  try {
    scheduleTimedFaults(w, s, run.timed, index, index + 1);
  } finally {
    w.now = now;
  }
  if (w.queuedSequence === from) return false;
  w.backdateQueued(from, run.timedFaultsSeq + earlier);
  return true;
}

/** Run `run` to its end (the world's scenario's stop) and check it (no explanations). */
export function finishRunUnexplained(paused: AssembledRun, opts: SimulateOptions = {}): Run {
  const { world: w, state } = paused;
  const scenario = w.scenario;
  const events = w.events;
  const opportunities = w.faults.opportunities;
  if (!runEnded(w)) {
    const stopAt = stopAtOf(w);
    const progress = opts.onProgress;
    w.run(
      stopAt,
      opts.maxSteps ?? 200_000_000,
      progress ? (now) => progress(now, stopAt) : undefined,
      opts.maxTraceEntries,
    );
  }
  const end = w.trace.aux[w.trace.length - 1];
  const stuck = findStuck(w);
  const cutOffBy =
    end === END_STOP
      ? 'stop'
      : end === END_TRACE_LIMIT
        ? 'trace-limit'
        : stuck.length > 0
          ? 'stuck'
          : null;
  const run: Run = {
    scenario,
    events,
    trace: w.trace,
    endTime: w.now,
    cutOff: cutOffBy !== null,
    cutOffBy,
    stuck,
    state,
    verdict: undefined as unknown as Verdict,
    opportunities,
  };
  run.verdict = verdictOf(run);
  return run;
}

function loopConfig(p: ConsumerProcessorConfig): LoopConfig {
  return {
    autoCommit: p['enable.auto.commit'],
    autoCommitIntervalMs: p['auto.commit.interval.ms'],
    commit: p.commit,
    maxPollRecords: p['max.poll.records'],
    readCommitted: p['isolation.level'] === 'read_committed',
    earliest: p['auto.offset.reset'] === 'earliest',
    sessionTimeoutMs: p['session.timeout.ms'],
    maxPollIntervalMs: p['max.poll.interval.ms'],
    perRecordMs: p.processing.perRecordMs,
    mode: p.processing.mode,
    concurrency: p.processing.concurrency,
    durationsMs: p.processing.durationsMs,
    onStatementError: p.onStatementError,
    startAtMs: p.startAtMs,
    traceProcessing: true,
  };
}

function consumerOutput(
  s: Scenario,
  p: ConsumerProcessorConfig,
  cluster: Cluster,
  input: Topic,
  output: Topic | null,
  sink: SinkActor | null,
  service: ServiceActor | null,
): Output {
  const c = s.sink;
  switch (c.type) {
    case 'table':
      return new TableOutput(sink!, c, input, service, p.sideEffect);
    case 'kafka':
      return new KafkaOutput(
        cluster,
        output!,
        c['transactional.id'] ?? null,
        outputTransactionTimeoutMs(s),
        c['linger.ms'],
        input.index,
        service,
        p.sideEffect,
      );
    case 'effect':
      return new EffectOutput(service!, c, input.index);
    default:
      throw new Error(`a consumer loop cannot write a ${c.type} sink`);
  }
}
