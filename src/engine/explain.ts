/**
 * Causal chains: for each event lost or duplicated at the end of the pipeline, one plain sentence
 * built from the trace ("ack of e3 lost → the producer retried the same batch → with
 * enable.idempotence=false the broker appended it again"), with the trace entries it cites.
 * Events with the same story are grouped into one explanation.
 */
import type { Run } from './simulate';
import type { Verdict } from './checker';
import {
  failoverCause,
  ENTRY_KINDS,
  KIND_CODE,
  ERROR_CODES,
  MESSAGE_TYPES,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_STATES,
  type EntryKind,
} from './trace';
import type { FaultSpec, FlinkProcessorConfig } from './scenario/schema';
import {
  flinkRestartStrategy,
  flinkRestartsAfter,
  outputTransactionTimeoutMs,
} from './scenario/schema';
import { REC_CONTROL } from './broker/partition';
import { effectiveIdempotence, normalizeAcks } from './scenario/validate';
import { describeFault } from './faultWords';
import { traceLimitWords } from './cutoff';
import { stuckWords } from './stuck';
import { DEFAULT_API_TIMEOUT_MS } from './processors/consumer';
import { FETCH_REQUEST_TIMEOUT_MS } from './processors/fetch';

/** One explanation: a sentence shared by one or more events. */
export interface Explanation {
  fate: 'lost' | 'duplicated';
  /** Business ids it applies to (sorted as in the workload). */
  events: string[];
  /** The sentence, about the first event (`{id}` already filled in). */
  sentence: string;
  /** The same sentence with `{id}` where the business id goes (one sentence per event). */
  template: string;
  /**
   * Which output it is about: the end of the pipeline, the processor's side effects, or a
   * downstream reader's own table (with `by`).
   */
  point: string;
  /**
   * Set when the copies are not the pipeline's doing: the downstream reader whose own replay made
   * them (it read again from its last committed offset after a crash before its commit). Such an
   * explanation leaves the verdict as it is: the reader's point counts each record read once.
   */
  by?: string;
  /** Trace entries the sentence rests on (for the first event). */
  entries: number[];
}

const MAX_EXPLAINED = 2000;

/** Why a sink skipped a row, in words (the Delta and file-sink cases have their own sentences). */
const SKIP_WORDS: Record<(typeof SKIP_REASONS)[number], string> = {
  'on-conflict': 'a row with its key was already there (ON CONFLICT DO NOTHING)',
  'merge-matched': 'MERGE matched an existing row with its key and left it as it was',
  'dedupe-table': 'its id was already in the dedupe table',
  'txn-version':
    'the Delta table had already recorded a txnVersion ≥ this batch id for the txnAppId',
  'idempotency-key': 'the service had already seen its idempotency key',
  'file-sink-log': "the file sink's log already listed its batch",
  'same-value': 'the row already held the same value',
};

/**
 * A duration in words: hours from 1 h up, seconds from 1 s up (one decimal at most), else ms —
 * a key kept 60 s is not "kept 0 h".
 */
function span(ms: number): string {
  if (ms >= 3_600_000) return `${Number((ms / 3_600_000).toFixed(1))} h`;
  if (ms >= 1_000) return `${Number((ms / 1_000).toFixed(1)).toLocaleString('en-US')} s`;
  return `${ms} ms`;
}

/** Why a Flink job with restart strategy none is not restarted: set so, or Flink's default. */
function noneWhy(p: {
  'restart-strategy.type'?: 'exponential-delay' | 'fixed-delay' | 'none';
}): string {
  return p['restart-strategy.type'] === 'none'
    ? 'restart-strategy.type=none'
    : 'no restart strategy set and checkpointing disabled: Flink’s default is none';
}

/**
 * Why a Flink job was not restarted after its `failures`-th failure, as a clause: "the job failed
 * for good (…)", naming the restart strategy none or fixed-delay's used-up attempts.
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/
 */
function gaveUpWhy(p: FlinkProcessorConfig, failures: number): string {
  if (flinkRestartStrategy(p) === 'none') return `the job failed for good (${noneWhy(p)})`;
  const n = p['restart-strategy.fixed-delay.attempts'];
  const allows = n === 0 ? 'no restart' : n === 1 ? 'one restart' : `${n} restarts`;
  return `the job failed for good: restart-strategy.fixed-delay.attempts=${n}${n === 1 ? ' (Flink’s default)' : ''} allows ${allows}, and this was failure ${failures}`;
}

/**
 * What made an actor crash, as a parenthesis after "crashed": the fault's name, or what kind of
 * fault it was — nothing for a plain scheduled crash ("flink crashed (a crash of flink)" says
 * nothing twice).
 */
function crashCause(f: FaultSpec | undefined): string {
  if (f?.id) return ` (fault "${f.id}")`;
  if (!f || f.kind === 'crash') return '';
  return ` (${describeFault(f)})`;
}

/** Build the explanations of a run's anomalies at the primary point. */
export function explain(run: Run, v: Verdict): Explanation[] {
  const n = run.events.identities;
  const anomalies: number[] = [];
  for (let j = 0; j < n && anomalies.length < MAX_EXPLAINED; j++)
    if (v.fate[j] !== 1) anomalies.push(j);
  // Side effects of the processor, when they are not the end of the pipeline themselves.
  const effects = v.sideEffects ? v.points.find((p) => p.name === 'effects')! : null;
  const effectDups: number[] = [];
  if (effects)
    for (let j = 0; j < n && effectDups.length < MAX_EXPLAINED; j++)
      if (effects.rows[j]! >= 2) effectDups.push(j);
  const rereads = readerRereads(run, v);
  if (anomalies.length === 0 && effectDups.length === 0 && rereads.length === 0) return [];
  const ctx = new Ctx(
    run,
    v,
    new Set([...anomalies, ...effectDups, ...rereads.flatMap((r) => r.identities)]),
  );
  const groups = new Map<string, Explanation>();
  const add = (
    j: number,
    fate: 'lost' | 'duplicated',
    point: string,
    story: Story,
    by?: string,
  ) => {
    const id = run.events.identityId(j);
    const key = `${point}|${fate}|${story.template}`;
    const g = groups.get(key);
    if (g) g.events.push(id);
    else
      groups.set(key, {
        fate,
        events: [id],
        sentence: story.template.replaceAll('{id}', id),
        template: story.template,
        point,
        entries: story.entries,
        ...(by === undefined ? {} : { by }),
      });
  };
  for (const j of anomalies) {
    const fate = v.fate[j] === 0 ? 'lost' : 'duplicated';
    add(j, fate, v.primary, fate === 'lost' ? ctx.whyLost(j) : ctx.whyDuplicated(j));
  }
  for (const j of effectDups) add(j, 'duplicated', 'effects', ctx.whyEffectRepeated(j));
  for (const r of rereads)
    for (const j of r.identities)
      add(j, 'duplicated', `reader:${r.name}`, ctx.readerReplay(j, r.actor, r.index), r.name);
  return [...groups.values()];
}

/**
 * The downstream readers that copied records again (`row-insert` with count 0, see
 * processors/outputs.ts ReaderOutput) and the identities they did it for (the first 2,000).
 */
function readerRereads(
  run: Run,
  v: Verdict,
): { name: string; index: number; actor: number; identities: number[] }[] {
  const out: { name: string; index: number; actor: number; identities: number[] }[] = [];
  const t = run.trace;
  run.scenario.readers.forEach((r, index) => {
    if (!v.points.find((p) => p.name === `reader:${r.name}`)?.rereads) return;
    const actor = t.actors.indexOf(`reader-${index}`);
    const seen = new Set<number>();
    const ROW = KIND_CODE['row-insert'];
    for (let i = 0; i < t.length && seen.size < MAX_EXPLAINED; i++)
      if (t.kind[i] === ROW && t.actor[i] === actor && t.count[i] === 0)
        seen.add(run.events.identity[t.event[i]!]!);
    out.push({ name: r.name, index, actor, identities: [...seen].sort((a, b) => a - b) });
  });
  return out;
}

interface Story {
  template: string;
  entries: number[];
}

class Ctx {
  private readonly t: Run['trace'];
  /** identity → trace entries carrying one of its events (in order). */
  private readonly byIdentity = new Map<number, number[]>();
  private children: Map<number, number[]> | null = null;
  private readonly primaryActors: Set<number>;

  constructor(
    private readonly run: Run,
    private readonly v: Verdict,
    ids: Set<number>,
  ) {
    const t = (this.t = run.trace);
    const ident = run.events.identity;
    for (let i = 0; i < t.length; i++) {
      const e = t.event[i]!;
      if (e < 0) continue;
      const j = ident[e]!;
      if (!ids.has(j)) continue;
      let l = this.byIdentity.get(j);
      if (!l) this.byIdentity.set(j, (l = []));
      l.push(i);
    }
    this.primaryActors = new Set();
    const p = v.primary;
    const actors = t.actors;
    if (p === 'sink') this.primaryActors.add(actors.indexOf('sink'));
    else if (p === 'effects') this.primaryActors.add(actors.indexOf('service'));
    else if (p.startsWith('reader:'))
      this.primaryActors.add(
        actors.indexOf(`reader-${run.scenario.readers.findIndex((r) => `reader:${r.name}` === p)}`),
      );
  }

  /**
   * Why downstream reader `index` (actor `actor`) copied {id} twice: it copied the record, went
   * back before committing its offset (a crash, in the cases the lab can make) and read it again
   * from where its group's committed offset put it — a consumer that processes before it saves
   * its position is at-least-once (https://kafka.apache.org/documentation/#semantics), the
   * reader's own replay. The copies the topic holds at the reader's isolation level are named, so
   * the sentence never hides a duplicate the pipeline made as well (explained on its own).
   */
  readerReplay(j: number, actor: number, index: number): Story {
    const t = this.t;
    const reader = this.run.scenario.readers[index]!;
    const ROW = KIND_CODE['row-insert'];
    const rows = (this.byIdentity.get(j) ?? []).filter(
      (i) => t.kind[i] === ROW && t.actor[i] === actor,
    );
    const b = rows.find((i) => t.count[i] === 0)!;
    const a =
      rows.find((i) => i < b && t.partition[i] === t.partition[b] && t.offset[i] === t.offset[b]) ??
      rows[0]!;
    let crash = -1;
    let assign = -1;
    for (let i = a + 1; i < b; i++) {
      if (t.actor[i] !== actor) continue;
      const k = this.kind(i);
      if (k === 'crash') crash = i;
      else if (k === 'assign' && crash >= 0 && t.partition[i] === t.partition[b]) assign = i;
    }
    const who = `reader ${reader.name}`;
    const went =
      crash >= 0
        ? `${who} crashed${crashCause(this.faultOfCrash(crash))} after copying {id} and before committing its offset`
        : `${who} copied {id} and started over before committing its offset`;
    const from = assign >= 0 ? this.startText(assign) : 'from its last committed offset';
    const committed = reader['isolation.level'] === 'read_committed';
    const log =
      this.v.points.find(
        (p) => p.name === `log:${reader.topic}${committed ? ':read_committed' : ''}`,
      ) ?? this.v.points.find((p) => p.name === `log:${reader.topic}`);
    const n = log ? log.rows[j]! : 1;
    const copies = `${n === 1 ? 'one' : n} ${committed ? 'committed ' : ''}cop${n === 1 ? 'y' : 'ies'}`;
    return {
      template: `${went} → it restarted ${from} → it read {id} again and copied it into its table a second time: the reader’s own replay (a consumer that processes before it commits is at-least-once), not the pipeline’s — topic ${reader.topic} holds ${copies} of {id}`,
      entries: crash >= 0 ? [a, crash, b] : [a, b],
    };
  }

  private isProcessor(i: number): boolean {
    const a = this.t.actors[this.t.actor[i]!]!;
    return a.startsWith('consumer-') || a === 'flink' || a === 'spark';
  }

  private kind(i: number): EntryKind {
    return this.t.kindOf(i);
  }

  /** Entries by kind code, in trace order (built on first use, in one pass). */
  private byKind: Int32Array[] | null = null;

  /**
   * The entries of one kind, in order. The stories ask the whole trace questions ("the first
   * commit past offset o", "a truncation that cut it") for up to 2,000 events each: through this
   * index a question costs the entries of that kind, not the whole trace of a long run.
   */
  private ofKind(k: EntryKind): Int32Array {
    if (!this.byKind) {
      const t = this.t;
      const counts = new Int32Array(ENTRY_KINDS.length);
      for (let i = 0; i < t.length; i++) counts[t.kind[i]!]!++;
      const lists = Array.from(counts, (c) => new Int32Array(c));
      const fill = new Int32Array(ENTRY_KINDS.length);
      for (let i = 0; i < t.length; i++) {
        const c = t.kind[i]!;
        lists[c]![fill[c]!++] = i;
      }
      this.byKind = lists;
    }
    return this.byKind[KIND_CODE[k]]!;
  }

  /** Index of the first element of the ascending `list` that is ≥ `x`. */
  private static from(list: Int32Array, x: number): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The last entry of kind `k` by actor `a` before entry `before`, or -1. */
  private prevOf(k: EntryKind, before: number, a: number): number {
    const list = this.ofKind(k);
    for (let x = Ctx.from(list, before) - 1; x >= 0; x--)
      if (this.t.actor[list[x]!] === a) return list[x]!;
    return -1;
  }

  /** The first entry of kind `k` by actor `a` at or after entry `after`, or -1. */
  private nextOf(k: EntryKind, after: number, actor: (a: number) => boolean): number {
    const list = this.ofKind(k);
    for (let x = Ctx.from(list, after); x < list.length; x++)
      if (actor(this.t.actor[list[x]!]!)) return list[x]!;
    return -1;
  }

  private entriesOf(j: number): number[] {
    return this.byIdentity.get(j) ?? [];
  }

  private childrenOf(i: number): number[] {
    if (!this.children) {
      const m = new Map<number, number[]>();
      const t = this.t;
      for (let k = 0; k < t.length; k++) {
        const c = t.cause[k]!;
        if (c < 0) continue;
        let l = m.get(c);
        if (!l) m.set(c, (l = []));
        l.push(k);
      }
      this.children = m;
    }
    return this.children.get(i) ?? [];
  }

  /** The first 'fault' entry up the cause chain of `i`, or -1. */
  private rootFault(i: number): number {
    let k = i;
    for (let step = 0; k >= 0 && step < 64; step++) {
      if (this.kind(k) === 'fault') return k;
      k = this.t.cause[k]!;
    }
    return -1;
  }

  /**
   * Up the cause chain of a batch failure: the last 'reject' of the batch — the broker's error,
   * or the client's own REQUEST_TIMED_OUT — or -1 when no attempt was answered.
   */
  private lastReject(failed: number): number {
    let k = this.t.cause[failed]!;
    for (let step = 0; k >= 0 && step < 64; step++) {
      if (this.kind(k) === 'reject') return k;
      k = this.t.cause[k]!;
    }
    return -1;
  }

  /** The fault, named by its label when it has one (`fault "lost ack"`), else described. */
  /**
   * A processor that crashed again and again before a cut-off run's stop, in words (" — meanwhile
   * consumer-0 crashed 598,220 times, …"), or '' (fewer than 10 crashes: not a loop). A run kept
   * busy by a crash loop would otherwise be explained by its stop alone.
   */
  private crashLoop(): string {
    const t = this.t;
    const counts = new Map<number, number>();
    for (const i of this.ofKind('crash'))
      if (this.isProcessor(i)) counts.set(t.actor[i]!, (counts.get(t.actor[i]!) ?? 0) + 1);
    let who = -1;
    let most = 0;
    for (const [a, n] of counts)
      if (n > most) {
        who = a;
        most = n;
      }
    if (most < 10) return '';
    const type = this.run.scenario.processor.type;
    const again =
      type === 'flink'
        ? 'restoring its last completed checkpoint each time'
        : type === 'spark'
          ? 'running its uncommitted batch again each time'
          : 'starting again from its last committed offset each time';
    return ` — meanwhile ${t.actors[who]} crashed ${most.toLocaleString('en-US')} times, ${again}`;
  }

  /** Why the run was cut off, in words (for a parenthesis). */
  private cutOffWhy(): string {
    return this.run.cutOffBy === 'trace-limit'
      ? traceLimitWords(this.run, true)
      : this.run.cutOffBy === 'stuck'
        ? stuckWords(this.run)
        : 'stopAtMs, or the default: the last event or fault + 1 h';
  }

  private faultText(faultEntry: number): string {
    if (faultEntry < 0) return '';
    const f = this.run.scenario.faults[this.t.aux[faultEntry]!];
    return f?.id ? `fault "${f.id}"` : describeFault(f);
  }

  private actorName(i: number): string {
    return this.t.actors[this.t.actor[i]!] ?? '?';
  }

  private sinkStatement(): string {
    const s = this.run.scenario.sink;
    switch (s.type) {
      case 'table':
        if (s.dedupe) return 'the dedupe table';
        if (s.key === 'uuid-per-attempt')
          return `a key generated per attempt (the replay got a new key, so ${sqlName(s.statement)} found no conflict)`;
        return sqlName(s.statement);
      case 'delta':
        return s.txnAppId === null ? 'a Delta append without txnAppId' : 'the Delta write';
      case 'file':
        return 'the file sink';
      case 'kafka':
        return 'the Kafka sink';
      case 'effect':
        return s.idempotencyKey === 'none'
          ? 'a call without an idempotency key'
          : s.idempotencyKey === 'per-attempt'
            ? 'a new idempotency key per attempt'
            : 'the idempotency key';
    }
  }

  /** Per topic: its records grouped by identity (partition and offset), built on first use. */
  private readonly recordIndex = new Map<
    string,
    { start: Int32Array; part: Int32Array; offset: Int32Array }
  >();

  /** Records of identity j in a topic: partition, offset, send entry, txn. */
  private records(
    j: number,
    topicName: string,
  ): { p: number; o: number; send: number; txn: number; append: number }[] {
    const topic = this.run.state.cluster.topics.get(topicName);
    if (!topic) return [];
    let idx = this.recordIndex.get(topicName);
    if (!idx) {
      // One pass to count records per identity, one to place them (partition order, then offset).
      const ident = this.run.events.identity;
      const start = new Int32Array(this.run.events.identities + 1);
      for (const part of topic.partitions)
        for (let o = 0; o < part.leo; o++)
          if ((part.flags.get(o) & REC_CONTROL) === 0) start[ident[part.event.get(o)]! + 1]!++;
      for (let k = 1; k < start.length; k++) start[k]! += start[k - 1]!;
      const fill = start.slice(0, -1);
      const n = start[start.length - 1]!;
      const partOf = new Int32Array(n);
      const offsetOf = new Int32Array(n);
      for (const part of topic.partitions)
        for (let o = 0; o < part.leo; o++) {
          if ((part.flags.get(o) & REC_CONTROL) !== 0) continue;
          const at = fill[ident[part.event.get(o)]!]!++;
          partOf[at] = part.index;
          offsetOf[at] = o;
        }
      this.recordIndex.set(topicName, (idx = { start, part: partOf, offset: offsetOf }));
    }
    const out: { p: number; o: number; send: number; txn: number; append: number }[] = [];
    for (let k = idx.start[j]!; k < idx.start[j + 1]!; k++) {
      const part = topic.partitions[idx.part[k]!]!;
      const o = idx.offset[k]!;
      out.push({
        p: part.index,
        o,
        send: part.sendEntry.get(o),
        txn: part.txn.get(o),
        append: part.appendEntry.get(o),
      });
    }
    return out;
  }

  // ------------------------------------------------------------------ duplicates

  whyDuplicated(j: number): Story {
    const s = this.run.scenario;
    const input = this.records(j, s.workload.topic);
    const steps: string[] = [];
    const cites: number[] = [];
    // 1. More than one record in the input log: where did the extra copies come from?
    if (input.length > 1) {
      const first = input[0]!;
      for (const r of input.slice(1)) {
        if (r.send === first.send) {
          const why = this.whyRetried(first.append, r.append);
          cites.push(first.append, r.append, ...why.entries);
          steps.push(
            `${why.text} → the producer retried the same batch → ${this.retryAppendedTwice()}`,
          );
        } else if (r.send >= 0) {
          steps.push(this.whySentAgain(r.send, cites));
        }
      }
    }
    // 2. One record, several effects: replay or a retried statement.
    const rows = this.entriesOf(j).filter(
      (i) =>
        (this.kind(i) === 'row-insert' ||
          this.kind(i) === 'effect' ||
          this.kind(i) === 'row-update') &&
        this.primaryActors.has(this.t.actor[i]!),
    );
    if (steps.length === 0 || rows.length > input.length) {
      const story = this.whyReplayed(j, rows);
      if (story) {
        steps.push(story.text);
        cites.push(...story.entries);
      }
    }
    // 3. A read_uncommitted reader also saw an aborted copy.
    const reader = this.readerOf();
    if (reader && reader['isolation.level'] === 'read_uncommitted') {
      const outTopic = s.sink.type === 'kafka' ? s.sink.topic : s.workload.topic;
      const outs = this.records(j, reader.topic === outTopic ? outTopic : reader.topic);
      const aborted = outs.filter(
        (r) => r.txn >= 0 && this.outcome(reader.topic, r.p, r.txn) === 'aborted',
      );
      if (aborted.length > 0) {
        const a = aborted[0]!;
        steps.push(
          `${this.abortReason(a.txn)}, but its copy of {id} stays in the log → ${reader.name.startsWith('the ') ? reader.name : `reader ${reader.name}`} reads with isolation.level=read_uncommitted, so it saw the aborted copy as well as the committed one`,
        );
        cites.push(a.append);
      }
    }
    // 4. The point is every record of a transactional output topic: copies that never committed
    // count there too, though a read_committed consumer never sees them.
    const uncommitted = this.uncommittedCopies(j);
    if (uncommitted) {
      steps.push(uncommitted.text);
      cites.push(...uncommitted.entries);
    }
    if (steps.length === 0) steps.push(`{id} took effect more than once at ${this.v.primary}`);
    const collapse = this.whyNotCollapsed();
    return {
      template: countRepeats(steps).join('; ') + (collapse ? ` → ${collapse}` : ''),
      entries: cites.filter((x) => x >= 0).slice(0, 12),
    };
  }

  /**
   * When the primary point is every record of the Kafka sink's topic (no reader declared): which
   * of `j`'s copies there were in a transaction that aborted or never committed, in words — a
   * read_committed consumer, as Kafka's and Flink's exactly-once docs require downstream, skips
   * them (https://kafka.apache.org/documentation/#consumerconfigs_isolation.level). Null when
   * every copy committed or was written without a transaction.
   */
  private uncommittedCopies(j: number): { text: string; entries: number[] } | null {
    const s = this.run.scenario;
    if (s.sink.type !== 'kafka' || this.v.primary !== `log:${s.sink.topic}`) return null;
    const topic = s.sink.topic;
    const outs = this.records(j, topic);
    const notCommitted = outs.filter(
      (r) => r.txn >= 0 && this.outcome(topic, r.p, r.txn) !== 'committed',
    );
    if (notCommitted.length === 0) return null;
    const first = notCommitted[0]!;
    const ended =
      this.outcome(topic, first.p, first.txn) === 'aborted'
        ? this.abortReason(first.txn)
        : `transaction ${first.txn} never committed (still open when the run ended)`;
    const more = notCommitted.length > 1 ? ` (and ${notCommitted.length - 1} more)` : '';
    const seen = outs.length - notCommitted.length;
    return {
      text: `${ended}, and it held a copy of {id}${more} → an uncommitted copy stays in the log, and topic ${topic} is judged here by every record in its log; a read_committed consumer sees {id} ${seen === 1 ? 'once' : `${seen} times`}`,
      entries: [first.append],
    };
  }

  /**
   * Why the broker appended a retried batch again. With idempotence on (the producer's effective
   * setting, never the words "idempotence off"), only a batch numbered anew in a bumped epoch
   * escapes the broker's duplicate check (KIP-360: the retry carries a new epoch and sequence).
   * https://cwiki.apache.org/confluence/display/KAFKA/KIP-360%3A+Improve+reliability+of+idempotent%2Ftransactional+producer
   */
  private retryAppendedTwice(): string {
    if (effectiveIdempotence(this.run.scenario.producer))
      return 'the producer had bumped its epoch and numbered the batch from 0 again, so the broker did not recognise the retry as a duplicate and appended {id} a second time';
    return `with idempotence off (enable.idempotence=false${this.idemNote()}) the broker appended {id} a second time`;
  }

  private idemNote(): string {
    const p = this.run.scenario.producer;
    if (p['enable.idempotence'] === undefined && !effectiveIdempotence(p)) {
      if (normalizeAcks(p.acks) !== 'all') return `, implied by acks=${normalizeAcks(p.acks)}`;
      if (p.retries === 0) return ', implied by retries=0';
    }
    return '';
  }

  /**
   * Why the producer retried the batch appended by `append` (and appended again by `again`): its
   * response was lost or late, or the broker crashed under it.
   */
  private whyRetried(append: number, again = -1): { text: string; entries: number[] } {
    // The response leaves with the append as its cause; a fault that hit it sits in between.
    const responses = this.childrenOf(append).flatMap((c) =>
      this.kind(c) === 'fault' ? this.childrenOf(c) : [c],
    );
    for (const c of responses) {
      const k = this.kind(c);
      if ((k !== 'msg-lost' && k !== 'msg') || MESSAGE_TYPES[this.t.aux[c]!] !== 'produce-response')
        continue;
      const f = this.rootFault(c);
      if (k === 'msg-lost')
        return {
          text: `the acknowledgement of {id} was lost${f >= 0 ? ` (${this.faultText(f)})` : ''}`,
          entries: [c, f],
        };
      if (f >= 0)
        return {
          text: `the acknowledgement of {id} came after request.timeout.ms (${this.faultText(f)})`,
          entries: [c, f],
        };
    }
    // acks=all: the ISR shrank below min.insync.replicas while the batch waited for it.
    const t = this.t;
    const afterAppend = ERROR_CODES.indexOf('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    const rejects = this.ofKind('reject');
    for (let x = Ctx.from(rejects, append); x < rejects.length; x++) {
      const r = rejects[x]!;
      if (
        t.aux[r] === afterAppend &&
        t.event[r] === t.event[append] &&
        t.topic[r] === t.topic[append] &&
        t.partition[r] === t.partition[append]
      )
        return {
          text: `the in-sync replicas of partition ${t.partition[r]} fell below min.insync.replicas=${this.run.scenario.broker['min.insync.replicas']} before {id} was copied, so the leader answered NOT_ENOUGH_REPLICAS_AFTER_APPEND although {id} was in its log`,
          entries: [r],
        };
    }
    // The request timed out. Its own, or one sent before it on the same connection: the producer
    // then closes the connection, which fails every request in flight on it — {id}'s answer,
    // queued behind the missing one, is never read (NetworkClient; "the client will resend the
    // request if necessary", https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms).
    const retries = this.ofKind('retry');
    for (let x = Ctx.from(retries, append); x < retries.length; x++) {
      const r = retries[x]!;
      if (
        t.event[r] !== t.event[append] ||
        t.topic[r] !== t.topic[append] ||
        t.partition[r] !== t.partition[append]
      )
        continue;
      const timedOut = t.cause[r]!;
      if (timedOut >= 0 && this.kind(timedOut) === 'reject' && t.peer[timedOut]! >= 0) {
        const reset = this.connectionReset(timedOut, append, again);
        if (reset) return reset;
      }
      if (
        timedOut < 0 ||
        this.kind(timedOut) !== 'reject' ||
        ERROR_CODES[t.aux[timedOut]!] !== 'REQUEST_TIMED_OUT'
      )
        break;
      const request = t.cause[timedOut]!;
      const f = request >= 0 ? this.rootFault(request) : -1;
      const lost =
        request >= 0 && this.kind(request) === 'msg-lost'
          ? ` (the request was lost${f >= 0 ? `: ${this.faultText(f)}` : ''})`
          : f >= 0
            ? ` (${this.faultText(f)})`
            : '';
      const cites = [timedOut, ...(f >= 0 ? [f] : [])];
      if (t.event[timedOut] === t.event[append])
        return {
          text: `no answer to the request of {id} arrived within request.timeout.ms${lost}`,
          entries: cites,
        };
      const other = this.run.events.identityId(this.run.events.identity[t.event[timedOut]!]!);
      return {
        text: `no answer to the request of ${other} arrived within request.timeout.ms${lost} → the producer closed the connection, which failed the request of {id} in flight on it too`,
        entries: cites,
      };
    }
    return { text: 'no acknowledgement of {id} arrived within request.timeout.ms', entries: [] };
  }

  /**
   * A producer request failed with NETWORK_EXCEPTION because its broker's process crashed and
   * closed the connection (`reject`: the client's entry, peer = the broker): in words, with the
   * fault behind the crash, and — when the retry was appended again (`again`) — why the record
   * was still there: the broker came back with it in its log, or the new leader had a copy.
   * Sender.handleProduceResponse (`wasDisconnected()` → NETWORK_EXCEPTION, retried):
   * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java
   */
  private connectionReset(
    reject: number,
    append: number,
    again: number,
  ): { text: string; entries: number[] } | null {
    const t = this.t;
    if (ERROR_CODES[t.aux[reject]!] !== 'NETWORK_EXCEPTION') return null;
    const broker = t.peer[reject]!;
    const name = t.actors[broker] ?? 'the broker';
    const crash = this.prevOf('crash', reject, broker);
    const f = crash >= 0 ? this.rootFault(crash) : -1;
    const why = crash >= 0 ? crashCause(this.faultOfCrash(crash)) : '';
    let kept = '';
    if (again >= 0 && t.actor[again] === t.actor[append])
      kept = `, and ${name} came back with {id} still in its log`;
    else if (again >= 0)
      kept = `, and the new leader ${t.actors[t.actor[again]!]} had a copy of {id}`;
    return {
      text: `${name} crashed${why} before it answered: the connection closed and the request of {id} failed with NETWORK_EXCEPTION${kept}`,
      entries: [reject, ...(crash >= 0 ? [crash] : []), ...(f >= 0 ? [f] : [])],
    };
  }

  /** Why the application called send() for the business event again (entry `send`). */
  private whySentAgain(send: number, cites: number[]): string {
    const why = SEND_CAUSES[this.t.aux[send]!];
    cites.push(send);
    const cause = this.t.cause[send]!;
    switch (why) {
      case 'source-duplicate': {
        // Name the fault behind it when it has a label (its description would repeat the sentence).
        let f = cause >= 0 ? this.rootFault(cause) : -1;
        if (f >= 0 && !this.run.scenario.faults[this.t.aux[f]!]?.id) f = -1;
        if (f >= 0) cites.push(f);
        return `the upstream source emitted {id} twice${f >= 0 ? ` (${this.faultText(f)})` : ''} → two separate records in the log`;
      }
      case 'txn-resend': {
        return 'the transaction holding {id} did not commit → the application sent {id} again in a later transaction';
      }
      case 'app-resend': {
        let reason = 'the application sent {id} again';
        if (cause >= 0 && this.kind(cause) === 'app-send-failed') {
          const code = ERROR_CODES[this.t.aux[cause]!];
          cites.push(cause);
          if (code === 'APP_GET_TIMEOUT')
            reason = `the application's send().get() gave up waiting for the acknowledgement of {id} after ${this.run.scenario.producer.app['get.timeout.ms']} ms (its own timeout, not a Kafka setting) and sent it again`;
          else reason = `the send of {id} failed (${code}) and the application sent it again`;
          const f = this.rootFault(cause);
          if (f >= 0) reason = `${this.faultText(f)} → ${reason}`;
        } else if (cause >= 0 && this.kind(cause) === 'restart') {
          reason =
            'the producer crashed before it saw {id} acknowledged → after the restart the application sent it again from a new producer session';
        } else if (cause >= 0 && this.kind(cause) === 'fault') {
          // A random re-send names no event: say which one it copied.
          reason =
            this.run.scenario.faults[this.t.aux[cause]!]?.kind === 'random'
              ? `the application sent {id} again (${this.faultText(cause)})`
              : this.faultText(cause);
        }
        return effectiveIdempotence(this.run.scenario.producer)
          ? `${reason} → it is a new record (a new sequence number), which idempotence does not recognise ("application level re-sends cannot be de-duplicated")`
          : `${reason} → a second record of {id} in the log`;
      }
      default:
        return 'a second record of {id} was written';
    }
  }

  /** Several effects from one record: a replay after a crash/rebalance, or a retried statement. */
  private whyReplayed(j: number, rows: number[]): { text: string; entries: number[] } | null {
    const t = this.t;
    const s = this.run.scenario;
    if (rows.length < 2) {
      if (rows.length === 1 && this.kind(rows[0]!) === 'row-insert') return null;
    }
    // Processing attempts of this identity (by the processor, not by downstream readers).
    const processes = this.entriesOf(j).filter(
      (i) => this.kind(i) === 'process' && this.isProcessor(i),
    );
    if (
      s.sink.type === 'table' &&
      s.sink.statement === 'on-conflict-do-update' &&
      s.sink.set === 'add-excluded' &&
      processes.length > 1
    ) {
      const story = this.replayStory(processes);
      return {
        text: `${story.text} → DO UPDATE SET amount = amount + EXCLUDED.amount added {id}'s amount a second time (one row, counted twice)`,
        entries: story.entries,
      };
    }
    // A second effect made before the record was processed again came from the first attempt (a
    // retried call), not from the replay (which may well have been answered as a no-op).
    const beforeReplay = rows.length >= 2 && processes.length > 1 && rows[1]! < processes[1]!;
    if (processes.length > 1 && !beforeReplay) return this.replayStory(processes);
    // Same processing attempt, two writes: the statement was retried after a lost answer.
    const retried = this.entriesOf(j).find(
      (i) => this.kind(i) === 'reject' && ERROR_CODES[t.aux[i]!] === 'STATEMENT_TIMEOUT',
    );
    const lostResp = this.entriesOf(j).find(
      (i) =>
        this.kind(i) === 'msg-lost' &&
        (MESSAGE_TYPES[t.aux[i]!] === 'sink-response' ||
          MESSAGE_TYPES[t.aux[i]!] === 'effect-response'),
    );
    if (lostResp !== undefined || retried !== undefined) {
      const f = lostResp !== undefined ? this.rootFault(lostResp) : -1;
      const what = s.sink.type === 'effect' ? 'call' : 'statement';
      let tail = 'it had been applied';
      const effects = this.entriesOf(j).filter((i) => this.kind(i) === 'effect');
      const sink = s.sink;
      if (sink.type === 'effect' && sink.idempotencyKey === 'business-id' && effects.length > 1) {
        const gap = t.time[effects[1]!]! - t.time[effects[0]!]!;
        if (gap >= sink.retentionMs)
          tail = `it had been applied, and the retry came ${span(gap)} later, after the service had pruned the idempotency key (kept ${span(sink.retentionMs)}), so the same key ${sink.service === 'email' ? 'sent a new email' : 'made a new charge'}`;
      }
      return {
        text: `${f >= 0 ? this.faultText(f) : 'no answer'} → the writer could not tell whether the ${what} for {id} had been applied and retried it after its timeout; ${tail}`,
        entries: [lostResp ?? -1, retried ?? -1, f],
      };
    }
    const effects = this.entriesOf(j).filter((i) => this.kind(i) === 'effect');
    if (effects.length > 1)
      return { text: 'the call for {id} was made more than once', entries: effects.slice(0, 3) };
    return null;
  }

  /** Explain why a record was processed again between two processing attempts. */
  private replayStory(processes: number[]): { text: string; entries: number[] } {
    const t = this.t;
    // The same record read again, not the next copy of the event: with two copies in the log
    // (a producer retry) the second attempt is that other record's first, which no replay made —
    // and the copy read again may be the second one (a crash after the retry's copy was read).
    let a = processes[0]!;
    let again: number | undefined;
    for (const x of processes) {
      again = processes.find(
        (i) =>
          i > x &&
          t.offset[i] === t.offset[x] &&
          t.partition[i] === t.partition[x] &&
          t.topic[i] === t.topic[x],
      );
      if (again !== undefined) {
        a = x;
        break;
      }
    }
    const b = again ?? processes[1]!;
    const actorA = t.actor[a]!;
    // A consumer that had left its group at its poll timeout earlier in the same batch (before
    // this record's turn came): look back from the attempt to the poll that started the batch.
    for (let i = a - 1; i >= 0; i--) {
      if (t.actor[i] !== actorA) continue;
      const k = this.kind(i);
      if (k === 'poll' || k === 'crash' || k === 'restart') break;
      if (k === 'leave-group') return this.pollTimeoutStory(actorA, a, i, b);
    }
    // Look between the two attempts for what made the pipeline start over.
    for (let i = a + 1; i < b; i++) {
      const k = this.kind(i);
      if (
        k === 'crash' &&
        (t.actor[i] === actorA ||
          t.actors[t.actor[i]!] === 'flink' ||
          t.actors[t.actor[i]!] === 'spark')
      ) {
        const fault = this.faultOfCrash(i);
        const proc = this.run.scenario.processor;
        // Not a crash between a write and its commit-log entry: the checkpoint itself is gone,
        // so the query starts over — offsets from startingOffsets, batch ids from 0.
        if (fault?.kind === 'checkpoint-reset' && proc.type === 'spark')
          return {
            text: `the checkpoint location was deleted${fault.id ? ` (fault "${fault.id}")` : ''} → the query started again with no offset log or commit log, from startingOffsets=${proc.startingOffsets} with batch ids from 0 → {id} was processed again`,
            entries: [a, i, b],
          };
        const f = crashCause(fault);
        const who = t.actors[t.actor[i]!]!;
        const resume = this.resumeText(who, i, b);
        const failover = this.checkpointFailover(i) ?? this.sinkFailure(i);
        if (failover)
          return {
            text: `${failover.text} → ${resume} → {id} was processed again`,
            entries: [a, ...failover.entries, i, b],
          };
        const before =
          who === 'spark'
            ? this.sparkCrashWhen(a, i, fault)
            : who === 'flink'
              ? this.run.scenario.processor.type === 'flink' &&
                this.run.scenario.processor['execution.checkpointing.interval'] === null
                ? 'after processing {id}, with no checkpoint to restore (checkpointing is off)'
                : 'after processing {id} and before the next checkpoint completed'
              : 'after processing {id} and before its offset was committed';
        return {
          text: `${who} crashed${f} ${before} → ${resume} → {id} was processed again`,
          entries: [a, i, b],
        };
      }
      if (k === 'stall' && t.actor[i] === actorA) {
        // Written before it paused: not a late write of the zombie's, but a record whose offset it
        // never committed, read again by the member that replaced it.
        if (this.writtenBetween(a, i))
          return {
            text: `${t.actors[actorA]} wrote {id}, then paused longer than session.timeout.ms before its offset was committed → the group gave its partition to ${t.actors[t.actor[b]!]}, which started from the committed offset and processed {id} again`,
            entries: [a, i, b],
          };
        return { text: this.zombieText(actorA, t.actor[b]!), entries: [a, i, b] };
      }
      if (k === 'leave-group' && t.actor[i] === actorA)
        return this.pollTimeoutStory(actorA, a, i, b);
      if (k === 'commit-failed' && t.actor[i] === actorA && this.isCommitTimeout(i)) {
        const story = this.commitTimeoutText(i);
        return {
          text: `${story.text} → ${this.rejoinText(i)} → {id} was processed again`,
          entries: [a, ...story.entries, i, b],
        };
      }
      if (k === 'revoke' && t.actor[i] === actorA) {
        if (t.partition[i] === t.partition[a] && t.actor[b] === actorA && this.keptThroughEager(i))
          return {
            text: `before {id}'s offset was committed, ${this.eagerRevokeText(i, t.actors[actorA]!)} → ${t.actors[actorA]} got it back, started from the committed offset and processed {id} again`,
            entries: [a, i, b],
          };
        return {
          text: `a rebalance took ${t.actors[actorA]}'s partition while {id} was done but not yet covered by a committed offset → the new owner started from the committed offset and processed {id} again`,
          entries: [a, i, b],
        };
      }
      if (k === 'fault') {
        const f = this.run.scenario.faults[t.aux[i]!];
        if (f?.kind === 'rebalance' || (f?.kind === 'random' && f.what === 'rebalance')) {
          // The partition of {id} did not move: its owner gave it up only because the eager
          // protocol revokes everything, and was assigned it again.
          const kept = t.actor[b] === actorA ? this.eagerRevokeOf(actorA, a, i, b) : -1;
          if (kept >= 0)
            return {
              text: `before {id}'s offset was committed, ${this.eagerRevokeText(kept, t.actors[actorA]!)} → ${t.actors[actorA]} got it back, started from the committed offset and processed {id} again`,
              entries: [a, i, kept, b],
            };
          return {
            text: `a rebalance moved the partition of {id} before its offset was committed → the new owner started from the committed offset and processed {id} again`,
            entries: [a, i, b],
          };
        }
      }
    }
    // The later attempt by a member that had given the partition up meanwhile: its task was
    // already running when the partition was revoked, and a revoke does not stop it.
    const actorB = t.actor[b]!;
    // The same member, when the eager protocol made it give up a partition it kept: its task from
    // before the revoke (started by the poll that caused `b`) finished after the attempt made
    // once the partition was assigned to it again.
    if (actorB === actorA) {
      const kept = this.eagerRevokeOf(actorA, b, t.cause[b]!, a);
      if (kept >= 0)
        return {
          text: `${t.actors[actorA]} was still processing {id} when ${this.eagerRevokeText(kept, 'it')} → it got the partition back, started from the committed offset and processed {id} again, and its task from before the revoke, which the revoke does not stop, finished and wrote its copy too`,
          entries: [b, kept, a],
        };
    }
    if (actorB !== actorA)
      for (let i = b - 1; i >= 0; i--) {
        if (t.actor[i] !== actorB) continue;
        const k = this.kind(i);
        // A zombie: it paused with {id} in hand, the group replaced it, and it woke up.
        if (k === 'stall') return { text: this.zombieText(actorB, actorA), entries: [i, a, b] };
        if (t.partition[i] !== t.partition[b]) continue;
        if (k === 'assign') break;
        if (k === 'revoke')
          return {
            text: `${t.actors[actorB]} was still processing {id} when a rebalance gave its partition to ${t.actors[actorA]} → the new owner started from the committed offset and processed {id}, and the old owner's task, which the revoke does not stop, finished and wrote its copy too`,
            entries: [a, i, b],
          };
      }
    return {
      text: `{id} was processed twice (by ${this.actorName(a)} and ${this.actorName(b)})`,
      entries: [a, b],
    };
  }

  /**
   * Whether `revoke` (a consumer giving a partition up) was the eager protocol's revocation of a
   * partition the member kept: `partition.assignment.strategy=range` uses the EAGER protocol,
   * which "requires a consumer to always revoke all its owned partitions before participating in
   * a rebalance event"
   * (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/ConsumerPartitionAssignor.RebalanceProtocol.html),
   * and the partition's next assignment went back to the same member.
   */
  private keptThroughEager(revoke: number): boolean {
    const p = this.run.scenario.processor;
    if (p.type !== 'consumer' || p['partition.assignment.strategy'] !== 'range') return false;
    const t = this.t;
    const assigns = this.ofKind('assign');
    for (let x = Ctx.from(assigns, revoke); x < assigns.length; x++) {
      const i = assigns[x]!;
      if (t.topic[i] === t.topic[revoke] && t.partition[i] === t.partition[revoke])
        return t.actor[i] === t.actor[revoke];
    }
    return false;
  }

  /**
   * The eager revocation (see {@link keptThroughEager}) by `actor` of the partition of processing
   * entry `rec`, between entries `from` and `to`, or -1.
   */
  private eagerRevokeOf(actor: number, rec: number, from: number, to: number): number {
    const t = this.t;
    const revokes = this.ofKind('revoke');
    for (let x = Ctx.from(revokes, from + 1); x < revokes.length && revokes[x]! < to; x++) {
      const i = revokes[x]!;
      if (
        t.actor[i] === actor &&
        t.topic[i] === t.topic[rec] &&
        t.partition[i] === t.partition[rec] &&
        this.keptThroughEager(i)
      )
        return i;
    }
    return -1;
  }

  /**
   * The sentence part naming an eager revocation (entry `revoke`) of a partition that stayed,
   * its member called `who`.
   */
  private eagerRevokeText(revoke: number, who: string): string {
    return `a rebalance made ${who} revoke partition ${this.t.partition[revoke]} although the new assignment kept it there (partition.assignment.strategy=range: the eager protocol gives up every owned partition at each rebalance)`;
  }

  /** Whether the record of processing entry `a` reached the sink (a row or an effect) before entry `until`. */
  /**
   * Where in its micro-batch the Spark query was when it crashed (`crash`), for the batch that
   * held the record processed at `a`: before the batch's write was sent, while it was being
   * written, or after it was written (the after-sink-write point) — the commit-log entry missing
   * in every case, so the restart runs the batch again (MicroBatchExecution).
   */
  private sparkCrashWhen(a: number, crash: number, fault: FaultSpec | undefined): string {
    const t = this.t;
    const spark = t.actor[a]!;
    const effectSink = this.run.scenario.sink.type === 'effect';
    let writing = false;
    for (let x = a + 1; x < crash && !writing; x++) {
      const k = this.kind(x);
      if (t.actor[x] !== spark || (k !== 'msg' && k !== 'msg-lost')) continue;
      const m = MESSAGE_TYPES[t.aux[x]!];
      writing = m === 'sink-write' || m === 'produce' || (effectSink && m === 'effect-call');
    }
    const point = fault && 'point' in fault ? fault.point : undefined;
    if (!writing)
      return 'during its micro-batch holding {id}, before the batch was written and recorded in the commit log';
    if (point === 'after-sink-write')
      return 'after its micro-batch holding {id} was written and before the batch was recorded in the commit log';
    return 'while its micro-batch holding {id} was being written, before the batch was recorded in the commit log';
  }

  private writtenBetween(a: number, until: number): boolean {
    const t = this.t;
    const ident = this.run.events.identity;
    const j = ident[t.event[a]!];
    for (let x = a + 1; x < until; x++) {
      const k = this.kind(x);
      if ((k === 'row-insert' || k === 'row-update' || k === 'effect') && t.event[x]! >= 0)
        if (ident[t.event[x]!] === j) return true;
    }
    return false;
  }

  /**
   * A zombie's duplicate: `paused` stalled past session.timeout.ms holding the record, the group
   * gave its partition to `other`, which read it again from the committed offset, and the paused
   * instance still wrote its copy when it woke up (docs/semantics/consumer.md#zombie-consumer; the KafkaConsumer javadoc,
   * "Detecting Consumer Failures").
   */
  private zombieText(paused: number, other: number): string {
    const t = this.t;
    return `${t.actors[paused]} paused longer than session.timeout.ms while it held {id} → the group gave its partition to ${t.actors[other]}, which started from the committed offset and processed {id}, while the paused instance still wrote its own copy when it woke up`;
  }

  /**
   * Where the consumer whose commitSync gave up ('commit-failed' entry `failed`) read from next:
   * it dropped its batch and joined the group again, starting from the committed offset.
   */
  private rejoinText(failed: number): string {
    const t = this.t;
    const who = t.actor[failed]!;
    const assign = this.nextOf('assign', failed, (a) => a === who);
    const name = t.actors[who]!;
    if (assign < 0) return `${name} dropped the batch and joined its group again`;
    const from = this.committedBefore(assign)
      ? `the committed offset ${t.offset[assign]}`
      : `offset ${t.offset[assign]} (nothing committed yet: auto.offset.reset)`;
    return `${name} dropped the batch and joined its group again, reading from ${from}`;
  }

  /** Whether 'commit-failed' entry `i` is a commitSync that gave up (COMMIT_TIMEOUT). */
  private isCommitTimeout(i: number): boolean {
    return ERROR_CODES[this.t.aux[i]!] === 'COMMIT_TIMEOUT';
  }

  /**
   * The offset commit that timed out at 'commit-failed' entry `failed`, in words: what became of
   * each attempt (its request or its answer lost, and to which fault), the request timeout that
   * made the consumer send it again and the `default.api.timeout.ms` after which commitSync threw
   * (KafkaConsumer#commitSync: "TimeoutException if the timeout specified by
   * default.api.timeout.ms expires before successful completion of the offset commit",
   * https://kafka.apache.org/documentation/#consumerconfigs_default.api.timeout.ms).
   */
  private commitTimeoutText(
    failed: number,
    what = 'for the batch holding {id}',
  ): { text: string; entries: number[] } {
    const t = this.t;
    const who = t.actor[failed]!;
    // The cause, skipping the 'fault' entry a dropped message hangs from.
    const up = (i: number) => {
      const c = t.cause[i]!;
      return c >= 0 && this.kind(c) === 'fault' ? t.cause[c]! : c;
    };
    const below = (i: number) =>
      this.childrenOf(i).flatMap((c) => (this.kind(c) === 'fault' ? this.childrenOf(c) : [c]));
    const isRequest = (i: number) =>
      (this.kind(i) === 'msg' || this.kind(i) === 'msg-lost') &&
      MESSAGE_TYPES[t.aux[i]!] === 'commit' &&
      t.actor[i] === who;
    // The attempts: each retry follows from the previous attempt's request timeout ('reject'),
    // whose cause is that attempt's request; the failure follows from the last timeout.
    const timeouts: number[] = [];
    const attempts: number[] = [];
    for (let r = t.cause[failed]!; r >= 0 && this.kind(r) === 'reject' && t.actor[r] === who;) {
      const req = t.cause[r]!;
      if (req < 0 || !isRequest(req)) break;
      timeouts.unshift(r);
      attempts.unshift(req);
      r = up(req);
    }
    // The last attempt, sent after the last timeout: the deadline came before its own timeout.
    const lastTimeout = timeouts[timeouts.length - 1];
    const last = lastTimeout === undefined ? undefined : below(lastTimeout).find(isRequest);
    if (last !== undefined) attempts.push(last);
    const cites: number[] = [];
    const parts = attempts.map((req, n) => {
      const whose = n === 0 ? 'its' : "the retry's";
      let lost = this.kind(req) === 'msg-lost' ? req : -1;
      const what = lost >= 0 ? 'request' : 'answer';
      if (lost < 0)
        lost =
          below(req).find(
            (c) => this.kind(c) === 'msg-lost' && MESSAGE_TYPES[t.aux[c]!] === 'commit-response',
          ) ?? -1;
      if (lost < 0) return `${whose} answer did not come in time`;
      cites.push(lost);
      const f = this.rootFault(lost);
      return `${whose} ${what} was lost${f >= 0 ? ` (${this.faultText(f)})` : ''}`;
    });
    const name = t.actors[who]!;
    const story = parts.length > 0 ? parts.join(', then ') : 'no answer came';
    return {
      text: `${name}'s offset commit ${what} got no answer — ${story} — so ${name} sent it again after request.timeout.ms (${FETCH_REQUEST_TIMEOUT_MS} ms) and commitSync gave up after default.api.timeout.ms (${DEFAULT_API_TIMEOUT_MS} ms) with TimeoutException`,
      entries: [...cites, ...timeouts],
    };
  }

  /** The replay of a batch whose consumer left its group at its poll timeout (entry `leave`). */
  private pollTimeoutStory(
    actor: number,
    a: number,
    leave: number,
    b: number,
  ): { text: string; entries: number[] } {
    const p = this.run.scenario.processor;
    const max = p.type === 'consumer' ? ` (${p['max.poll.interval.ms']} ms)` : '';
    // The refused commit of that batch: the first after the leave, before the second attempt.
    const failed = this.ofKind('commit-failed');
    const k = Ctx.from(failed, leave);
    const refused = k < failed.length && failed[k]! < b ? failed[k]! : -1;
    // CommitFailedException is what commitSync() throws; with enable.auto.commit there is no
    // such call, and the batch's position is simply never committed
    // (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/CommitFailedException.html).
    const lost =
      refused >= 0
        ? 'its offset commit for the batch failed (CommitFailedException)'
        : p.type === 'consumer' && p['enable.auto.commit']
          ? 'the position after the batch was never auto-committed'
          : 'the offset of the batch was never committed';
    return {
      text: `${this.t.actors[actor]} spent longer than max.poll.interval.ms${max} on the batch holding {id} without calling poll() → it left the group and ${lost} → the batch was read again from the committed offset and {id} was processed again`,
      entries: refused >= 0 ? [a, leave, refused, b] : [a, leave, b],
    };
  }

  /**
   * A crash that is the JobManager failing the job over after an expired checkpoint (more failed
   * checkpoints in a row than `execution.checkpointing.tolerable-failed-checkpoints`): the sentence
   * part naming the checkpoint, what was lost on its way (barrier or acknowledgement), the
   * timeout and the threshold; null for any other crash.
   */
  private checkpointFailover(crash: number): { text: string; entries: number[] } | null {
    const t = this.t;
    const p = this.run.scenario.processor;
    const expired = failoverCause(t, crash);
    if (p.type !== 'flink' || expired < 0) return null;
    const id = t.ckpt[expired]!;
    let lost = -1;
    for (let i = t.cause[expired]! + 1; i < expired && lost < 0; i++) {
      if (this.kind(i) !== 'msg-lost') continue;
      const type = MESSAGE_TYPES[t.aux[i]!];
      if (type === 'barrier' || type === 'checkpoint-ack') lost = i;
    }
    const why =
      lost < 0
        ? ''
        : ` (its ${MESSAGE_TYPES[t.aux[lost]!] === 'barrier' ? 'barrier' : 'acknowledgement'} was lost${
            this.rootFault(lost) >= 0 ? `: ${this.faultText(this.rootFault(lost))}` : ''
          })`;
    return {
      text: `checkpoint ${id} did not complete${why} and expired after execution.checkpointing.timeout (${p['execution.checkpointing.timeout']} ms) → with execution.checkpointing.tolerable-failed-checkpoints=${p['execution.checkpointing.tolerable-failed-checkpoints']} the job failed over`,
      entries: lost >= 0 ? [lost, expired] : [expired],
    };
  }

  /**
   * A crash that is a Flink task failing on its table sink: a statement (a write, or an XA call)
   * unanswered within `statement.timeout.ms` with its retries spent, so the sink threw and the
   * task failed (see the task's `sinkFailed`). The sentence part naming the lost message and the
   * timeout; null for any other crash.
   */
  private sinkFailure(crash: number): { text: string; cause: string; entries: number[] } | null {
    const t = this.t;
    const { processor: p, sink: s } = this.run.scenario;
    const r = t.cause[crash]!;
    if (p.type !== 'flink' || s.type !== 'table' || r < 0) return null;
    if (this.kind(r) !== 'reject' || ERROR_CODES[t.aux[r]!] !== 'STATEMENT_TIMEOUT') return null;
    // The message lost on the way: the last sink request or answer lost within the timeout.
    let lost = -1;
    const from = t.time[r]! - s['statement.timeout.ms'];
    for (let i = r - 1; i >= 0 && t.time[i]! >= from && lost < 0; i--) {
      if (this.kind(i) !== 'msg-lost') continue;
      const type = MESSAGE_TYPES[t.aux[i]!];
      if (type === 'sink-write' || type === 'sink-response') lost = i;
    }
    const fault = lost >= 0 ? this.rootFault(lost) : -1;
    const why =
      lost < 0
        ? ''
        : ` (its ${MESSAGE_TYPES[t.aux[lost]!] === 'sink-write' ? 'request' : 'answer'} was lost${
            fault >= 0 ? `: ${this.faultText(fault)}` : ''
          })`;
    const retries = s.xa ? 0 : s.retries;
    const noAnswer = `got no answer within statement.timeout.ms (${s['statement.timeout.ms']} ms)${why}${retries > 0 ? `, nor did its ${retries} retries` : ''}`;
    return {
      text: `a statement of flink's sink ${noAnswer} → the sink threw and the task failed`,
      cause: ` because a statement of its sink ${noAnswer}`,
      entries: lost >= 0 ? [lost, r] : [r],
    };
  }

  /** Why flink crashed, for "flink crashed…": the fault, or its sink's unanswered statement. */
  private flinkCrashCause(crash: number): string {
    return this.sinkFailure(crash)?.cause ?? crashCause(this.faultOfCrash(crash));
  }

  private resumeText(who: string, crash: number, next: number): string {
    const t = this.t;
    for (let i = crash + 1; i <= next; i++) {
      const k = this.kind(i);
      if (k === 'assign' && t.actors[t.actor[i]!] === who)
        return `it restarted ${this.startText(i)}`;
      // Another member read the record again: the crashed one was still down when the group
      // moved its partition (its session expired), so no restart of its own is in this story.
      if (
        k === 'assign' &&
        t.actor[i] === t.actor[next] &&
        t.topic[i] === t.topic[next] &&
        t.partition[i] === t.partition[next]
      )
        return this.takeoverText(who, crash, i);
      if (k === 'restore' && t.actors[t.actor[i]!] === 'spark')
        return `on restart the offset log's batch ${t.ckpt[i]} had no commit-log entry, so the query ran batch ${t.ckpt[i]} again with the same batch id and offsets`;
      if (k === 'restore')
        return t.ckpt[i]! >= 0
          ? `the job restored checkpoint ${t.ckpt[i]} and rewound the source to offset ${t.offset[i]}`
          : 'the job restarted without a checkpoint and rewound the source';
      if (k === 'batch-planned') return `the query re-ran batch ${t.ckpt[i]} with the same offsets`;
    }
    return 'it restarted from its last committed position';
  }

  /**
   * A crashed member's partition given to another member of the group: when the crash's session
   * expired (session.timeout.ms after its last heartbeat, https://kafka.apache.org/documentation/#consumerconfigs_session.timeout.ms),
   * or at a rebalance. `assign` is the other member's 'assign' entry, caused by the `crash` entry
   * when the session expiry moved it.
   */
  private takeoverText(who: string, crash: number, assign: number): string {
    const t = this.t;
    const p = this.run.scenario.processor;
    const other = t.actors[t.actor[assign]!]!;
    const why =
      p.type === 'consumer' && t.cause[assign] === crash
        ? `${who}'s session expired (session.timeout.ms = ${p['session.timeout.ms']} ms) and the group gave`
        : 'the group gave';
    return `${why} partition ${t.partition[assign]} to ${other}, which started ${this.startText(assign)}`;
  }

  /**
   * Where the consumer of 'assign' entry `assign` started: the group's committed offset, or —
   * when the group had none — the position auto.offset.reset gave it
   * (https://kafka.apache.org/documentation/#consumerconfigs_auto.offset.reset: "What to do when
   * there is no initial offset in Kafka").
   */
  private startText(assign: number): string {
    const t = this.t;
    const offset = t.offset[assign]!;
    if (this.hadCommittedOffset(assign)) return `from the last committed offset ${offset}`;
    const p = this.run.scenario.processor;
    // Downstream readers start from the earliest offset; the processor as configured.
    const reset =
      p.type === 'consumer' && t.topic[assign] === this.run.state.input.index
        ? p['auto.offset.reset']
        : 'earliest';
    return `from offset ${offset}: the group had no committed offset, so auto.offset.reset=${reset} applied`;
  }

  /** Whether the group had an offset committed for the partition of 'assign' entry `assign`. */
  private hadCommittedOffset(assign: number): boolean {
    if (this.committedBefore(assign)) return true;
    const t = this.t;
    const p = this.run.scenario.processor;
    // A transaction's offsets are traced as a 'commit' when its producer learns of the commit;
    // one that crashed after the commit decision never does, yet the coordinator completed it
    // and stored them (initTransactions "awaits its completion").
    if (
      p.type !== 'consumer' ||
      p.commit !== 'with-transaction' ||
      t.topic[assign] !== this.run.state.input.index
    )
      return false;
    // From earliest, offset 0 is where a group without a committed offset starts.
    if (p['auto.offset.reset'] === 'earliest' && t.offset[assign] === 0) return false;
    const complete = TXN_STATES.indexOf('CompleteCommit');
    for (let i = 0; i < assign; i++)
      if (this.kind(i) === 'txn' && t.aux[i] === complete) return true;
    return false;
  }

  /** Whether a commit of the assigned partition happened before entry `assign`. */
  private committedBefore(assign: number): boolean {
    const t = this.t;
    for (let i = 0; i < assign; i++)
      if (
        this.kind(i) === 'commit' &&
        t.topic[i] === t.topic[assign] &&
        t.partition[i] === t.partition[assign]
      )
        return true;
    return false;
  }

  private whyNotCollapsed(): string {
    const s = this.run.scenario.sink;
    if (s.type === 'table') {
      if (s.key === 'uuid-per-attempt')
        return `${this.sinkStatement()} — nothing collapsed the copies`;
      if (s.statement === 'insert' && !s.dedupe)
        return 'a plain INSERT has no key to collapse the copies';
      // Both copies inserted through a dedupe table keyed on the business id: the first one's
      // entry had expired when the second came
      // (docs/semantics/sinks.md#dedupe-table: a copy that comes later than the retention is a new row).
      if (s.dedupe && s.key === 'business-id')
        return `the dedupe table keeps an id for ${s.dedupe.retentionMs.toLocaleString('en-US')} ms (dedupe.retentionMs): the copy came after the first one's entry had expired, so it was taken as new`;
      if (s.statement === 'merge')
        return 'both copies were in one MERGE: a key new to the table is NOT MATCHED for each copy, so each was inserted';
      return '';
    }
    if (s.type === 'effect' && s.idempotencyKey !== 'business-id')
      return `${this.sinkStatement()}: nothing recognised the repeat`;
    // Delta MERGE (WHEN NOT MATCHED THEN INSERT): two copies in one batch are two source rows for
    // a key the table lacks, both inserted; txnAppId, which skips a repeated batch, cannot help.
    // https://docs.delta.io/latest/delta-update.html#upsert-into-a-table-using-merge
    if (s.type === 'delta' && s.mode === 'merge')
      return 'both copies were in one Delta MERGE: a key new to the table is NOT MATCHED for each copy, so each was inserted';
    if (s.type === 'delta' && s.txnAppId === null)
      return 'a Delta append without txnAppId/txnVersion writes every attempt';
    return '';
  }

  /** Why transaction `no` ended aborted: the 'txn' PrepareAbort entry's reason. */
  /**
   * A transaction that has ended (its EndTxn decision logged) whose marker on `topicName`-`p` still
   * waits for a partition leader — the coordinator writes it once the partition has a live leader
   * again (TransactionMarkerChannelManager) — in words, with the decision and the leader's loss;
   * null when it is simply open.
   */
  private markerWaiting(
    topicName: string,
    p: number,
    no: number,
  ): { text: string; entries: number[] } | null {
    const cluster = this.run.state.cluster;
    const part = cluster.topics.get(topicName)?.partitions[p];
    if (!part || !cluster.markerPending(part, no)) return null;
    const t = this.t;
    const decision = this.ofKind('txn').find(
      (i) => t.txn[i] === no && (t.aux[i] === 1 || t.aux[i] === 2),
    );
    const commit = decision !== undefined && t.aux[decision] === 1;
    const ended = commit
      ? `transaction ${no} was committed`
      : decision !== undefined
        ? this.abortReason(no)
        : `transaction ${no} ended`;
    // The partition's leader: gone for good (none elected), or crashed and not replaced yet.
    const topic = t.topics.indexOf(topicName);
    const leaders = this.ofKind('leader').filter(
      (i) => t.topic[i] === topic && t.partition[i] === p,
    );
    const last = leaders[leaders.length - 1];
    const gone =
      last !== undefined && t.aux[last]! < 0
        ? `partition ${p} has had no leader since ${t.time[last]} ms`
        : `the leader of partition ${p} is down`;
    return {
      text: `${ended}${decision !== undefined ? ` at ${t.time[decision]} ms` : ''}, but its ${commit ? 'commit' : 'abort'} marker is not written: ${gone}, and the coordinator writes it only to a live leader (the transaction stays ${commit ? 'PrepareCommit' : 'PrepareAbort'} until then)`,
      entries: [decision ?? -1, last ?? -1].filter((x) => x >= 0),
    };
  }

  private abortReason(no: number): string {
    const t = this.t;
    for (const i of this.ofKind('txn')) {
      if (t.txn[i] !== no || t.aux[i] !== 2) continue;
      switch (t.count[i]) {
        case 1:
          return `transaction ${no} stayed open longer than transaction.timeout.ms and the coordinator aborted it`;
        case 2:
          return `transaction ${no} was aborted when a new instance with the same transactional.id called initTransactions`;
        default:
          return `transaction ${no} was aborted`;
      }
    }
    return `transaction ${no} was aborted`;
  }

  /**
   * Who reads the topic whose records end up at the primary point, with which isolation level:
   * the primary reader itself, or the consumer loop that writes the sink.
   */
  private readerOf():
    | { name: string; topic: string; 'isolation.level': 'read_committed' | 'read_uncommitted' }
    | undefined {
    const p = this.v.primary;
    const s = this.run.scenario;
    if (p.startsWith('reader:')) return s.readers.find((r) => `reader:${r.name}` === p);
    if (p === 'sink' && s.processor.type === 'consumer')
      return {
        name: 'the consumer',
        topic: s.workload.topic,
        'isolation.level': s.processor['isolation.level'],
      };
    return undefined;
  }

  /** The 'data-loss' entry about transaction `no`, or -1. */
  private dataLossFor(no: number): number {
    const t = this.t;
    for (const i of this.ofKind('data-loss')) if (t.txn[i] === no) return i;
    return -1;
  }

  private outcome(topicName: string, partition: number, txn: number): string | undefined {
    return this.run.state.cluster.topics.get(topicName)?.partitions[partition]?.txnOutcome.get(txn);
  }

  /** Why a side effect of the processor happened more than once for one event. */
  whyEffectRepeated(j: number): Story {
    const processes = this.entriesOf(j).filter(
      (i) => this.kind(i) === 'process' && this.isProcessor(i),
    );
    const fx = this.run.scenario.processor.sideEffect;
    const svc = fx?.service === 'email' ? 'the email' : 'the card charge';
    const replay = processes.length > 1 ? this.replayStory(processes) : null;
    const why = replay
      ? `${replay.text}, so ${svc} for {id} was made again`
      : `${svc} for {id} was made more than once`;
    // What the call's idempotency key did: none to recognise the repeat, a new one per attempt,
    // or one from the event id that the service had pruned — it answers a key it still holds
    // from the saved result (https://docs.stripe.com/api/idempotent_requests).
    let key = 'it needs its own idempotency key';
    if (fx?.idempotencyKey === 'per-attempt')
      key =
        'its idempotency key was new on each attempt, so the service saw a new request: it needs a key derived from the event';
    else if (fx?.idempotencyKey === 'business-id') {
      const effects = this.entriesOf(j).filter((i) => this.kind(i) === 'effect');
      const gap = effects.length > 1 ? this.t.time[effects[1]!]! - this.t.time[effects[0]!]! : 0;
      key = `its idempotency key, from the event id, had been pruned: the service keeps a key ${span(fx.retentionMs)} and the repeat came ${span(gap)} later`;
    }
    return {
      template: `${why} → a side effect happens once per processing attempt: it is outside the exactly-once guarantee of the job's state and sink (${key})`,
      entries: replay?.entries ?? [],
    };
  }

  // ------------------------------------------------------------------ losses

  whyLost(j: number): Story {
    const s = this.run.scenario;
    const t = this.t;
    const entries = this.entriesOf(j);
    const sends = entries.filter((i) => this.kind(i) === 'app-send');
    const input = this.records(j, s.workload.topic);
    if (sends.length === 0) {
      const refused = this.initRefused('producer');
      if (refused)
        return {
          template: `the application never sent {id}: ${refused.text} → initTransactions threw and the application stopped`,
          entries: [refused.entry],
        };
      // The run, not the application, stopped first: say so (the event was simply not due yet).
      if (this.run.cutOff)
        return {
          template: `the run was cut off at ${this.run.endTime} ms (${this.cutOffWhy()}) before {id} was sent`,
          entries: [],
        };
      return {
        template: 'the application never sent {id} (it had stopped before {id} was due)',
        entries: [],
      };
    }
    if (input.length === 0) {
      const trunc = this.truncation(j);
      if (trunc) return trunc;
      const lostReq = entries.find(
        (i) => this.kind(i) === 'msg-lost' && MESSAGE_TYPES[t.aux[i]!] === 'produce',
      );
      if (lostReq !== undefined && normalizeAcks(s.producer.acks) === '0') {
        const f = this.rootFault(lostReq);
        return {
          template: `the request carrying {id} was lost${f >= 0 ? ` (${this.faultText(f)})` : ''} → with acks=0 the producer considers a record sent as soon as it is on the socket and never retries`,
          entries: [lostReq, f],
        };
      }
      const failed = entries.find(
        (i) => this.kind(i) === 'app-send-failed' || this.kind(i) === 'batch-failed',
      );
      if (failed !== undefined) {
        const code = ERROR_CODES[t.aux[failed]!];
        const then = `the application ${s.producer.app.onFailure === 'halt' ? 'stopped' : 'moved on without it (app.onFailure=skip)'}`;
        if (code === 'DELIVERY_TIMEOUT') {
          const reject = this.lastReject(failed);
          const code = reject >= 0 ? ERROR_CODES[t.aux[reject]!] : undefined;
          // A connection the broker's crash closed: name the broker, not just the code.
          const peer = reject >= 0 && code === 'NETWORK_EXCEPTION' ? t.peer[reject]! : -1;
          const kept =
            peer >= 0
              ? `while the producer kept retrying after ${t.actors[peer]} crashed${crashCause(this.faultOfCrash(this.prevOf('crash', reject, peer)))} and closed the connection (NETWORK_EXCEPTION)`
              : reject >= 0
                ? `while the producer kept retrying ${code}`
                : 'before the batch was acknowledged';
          return {
            template: `the send of {id} failed with DELIVERY_TIMEOUT: delivery.timeout.ms (${s.producer['delivery.timeout.ms']} ms) passed ${kept}, and ${then}`,
            entries: reject >= 0 ? [failed, reject] : [failed],
          };
        }
        return { template: `the send of {id} failed (${code}) and ${then}`, entries: [failed] };
      }
      const crash = this.findCrash('producer', sends[sends.length - 1]!);
      if (crash >= 0)
        return {
          template: `the producer crashed with {id} still buffered or in flight, and nobody sent it again (app.onFailure=${s.producer.app.onFailure})`,
          entries: [sends[0]!, crash],
        };
      return { template: '{id} never reached the broker', entries: [sends[0]!] };
    }
    // In the log, but not at the end of the pipeline.
    const reader = this.readerOf();
    const skip = entries.find(
      (i) => this.kind(i) === 'row-skip' && this.primaryActors.has(t.actor[i]!),
    );
    if (skip !== undefined) {
      const r = SKIP_REASONS[t.aux[skip]!];
      if (r === 'txn-version')
        return {
          template: `the write of {id}'s batch was skipped: the Delta table already had txnVersion ≥ this batch id for txnAppId "${s.sink.type === 'delta' ? s.sink.txnAppId : ''}" (the checkpoint was reset and batch ids started again from 0)`,
          entries: [skip],
        };
      if (r === 'file-sink-log')
        return {
          template: `the write of {id}'s batch was skipped: the file sink's log (_spark_metadata) already listed that batch id as written (the checkpoint was reset and batch ids started again from 0)`,
          entries: [skip],
        };
      return { template: `the write of {id} was skipped: ${SKIP_WORDS[r!]}`, entries: [skip] };
    }
    const stmtErr = this.stmtErrorFor(j) ?? this.unansweredStatementSkipped(j);
    if (stmtErr) return stmtErr;
    const loss = entries.find((i) => this.kind(i) === 'data-loss');
    if (loss !== undefined)
      return {
        template: `{id} was in a transaction that expired before the recovered job could commit it (transaction.timeout.ms) → data loss`,
        entries: [loss],
      };
    if (reader && reader['isolation.level'] === 'read_committed') {
      const outs = this.records(j, reader.topic);
      const open = outs.find(
        (r) => r.txn >= 0 && this.outcome(reader.topic, r.p, r.txn) === 'open',
      );
      if (open) {
        const waiting = this.markerWaiting(reader.topic, open.p, open.txn);
        if (waiting)
          return {
            template: `{id} is in transaction ${open.txn}: ${waiting.text} → read_committed readers stop at the last stable offset, so ${reader.name} has not seen it (nor anything after it)`,
            entries: [open.append, ...waiting.entries],
          };
        return {
          template: `{id} is in transaction ${open.txn}, which is still open → read_committed readers stop at the last stable offset, so ${reader.name} has not seen it (nor anything after it)`,
          entries: [open.append],
        };
      }
      const aborted = outs.find(
        (r) => r.txn >= 0 && this.outcome(reader.topic, r.p, r.txn) === 'aborted',
      );
      if (
        aborted &&
        outs.every((r) => r.txn >= 0 && this.outcome(reader.topic, r.p, r.txn) === 'aborted')
      ) {
        // Written again and again, each time into a transaction that never committed: the story
        // is why no checkpoint covering it completed, not the first abort.
        const firstProcess = entries.find((i) => this.kind(i) === 'process');
        if (outs.length > 1 && s.processor.type === 'flink' && firstProcess !== undefined) {
          const story = this.flinkNeverCommitted(firstProcess);
          if (story) return story;
        }
        const loss = this.dataLossFor(aborted.txn);
        // A sink on the legacy TwoPhaseCommitSinkFunction whose recovery commit throws, without
        // ignoreFailuresAfterTransactionTimeout(), rethrows when it finds the transaction
        // aborted: the job fails at every restore.
        const sink = s.sink;
        const failing =
          s.processor.type === 'flink' &&
          sink.type === 'kafka' &&
          sink.deliveryGuarantee === 'EXACTLY_ONCE' &&
          !sink.ignoreFailuresAfterTransactionTimeout
            ? this.restartsOf('flink')
            : 0;
        const tail =
          loss >= 0
            ? ' → the recovered job could no longer commit it: data loss'
            : failing > 1
              ? ` → on recovery its commit failed and, without ignoreFailuresAfterTransactionTimeout, the job failed at every restore (${failing} restarts): {id} was never written again`
              : outs.length > 1
                ? `, and each of its ${outs.length} writes ended in an aborted transaction`
                : ', and {id} was never written again';
        return {
          template: `${this.abortReason(aborted.txn)}${tail}`,
          entries: [aborted.append, loss],
        };
      }
      if (outs.length > 0) {
        const lso = this.blockedByLso(reader.topic, outs[0]!.p, outs[0]!.o);
        if (lso) return lso;
      }
    }
    const processed = entries.filter((i) => this.kind(i) === 'process');
    if (processed.length === 0) {
      const latest = this.startedAtLatest(input[0]!);
      if (latest) return latest;
      const reset = this.checkpointReset();
      if (reset >= 0 && s.processor.type === 'spark' && s.processor.startingOffsets === 'latest')
        return {
          template: `the checkpoint location was deleted before {id} was read → the query started again with startingOffsets=latest, after {id}`,
          entries: [reset, input[0]!.append],
        };
      const ahead = this.committedAhead(j, input[0]!);
      if (ahead) return ahead;
      const skipped = this.resetPast(input[0]!);
      if (skipped) return skipped;
      const refused = this.initRefused(null);
      if (refused)
        return {
          template: `{id} is in the log but was never processed: ${refused.text} → ${
            refused.actor === 'flink'
              ? 'the sink writer could not start, so the job failed at every start'
              : `initTransactions threw and ${refused.actor} stopped`
          }`,
          entries: [refused.entry, input[0]!.append],
        };
      const blocked = this.blockedByFailedStatement();
      if (blocked) return blocked;
      const failed = this.flinkFailedForGood();
      if (failed)
        return {
          template: `{id} is in the log but was never processed: flink crashed${failed.cause} and ${failed.why}`,
          entries: [failed.crash, input[0]!.append],
        };
      if (this.run.cutOff)
        return {
          template: `{id} is in the log but had not been processed when the run was cut off at ${this.run.endTime} ms with work still pending (${this.cutOffWhy()})${this.crashLoop()}`,
          entries: [input[0]!.append],
        };
      return {
        template: '{id} is in the log but was never processed',
        entries: [input[0]!.append],
      };
    }
    if (s.processor.type === 'flink') {
      const story = this.flinkNeverCommitted(processed[0]!);
      if (story) return story;
    }
    const crash = this.findCrash(this.actorName(processed[0]!), processed[0]!);
    if (crash >= 0)
      return {
        template: `{id} was processed, but ${this.actorName(processed[0]!)} crashed before its write was durable, and its offset had already been committed`,
        entries: [processed[0]!, crash],
      };
    return { template: `{id} never reached ${this.v.primary}`, entries: [input[0]!.append] };
  }

  /**
   * The first InitProducerId the coordinator refused with INVALID_TRANSACTION_TIMEOUT (of
   * `actor`'s producer, or of any pipeline producer when null), worded with the two settings.
   */
  private initRefused(actor: string | null): { entry: number; actor: string; text: string } | null {
    const t = this.t;
    const s = this.run.scenario;
    for (const i of this.ofKind('reject')) {
      if (ERROR_CODES[t.aux[i]!] !== 'INVALID_TRANSACTION_TIMEOUT') continue;
      const req = t.cause[i]!;
      const who = req >= 0 ? this.actorName(req) : '?';
      if (actor !== null ? who !== actor : who === 'producer') continue;
      const timeout =
        who === 'producer' ? s.producer['transaction.timeout.ms'] : outputTransactionTimeoutMs(s);
      const unset =
        who === 'flink' && s.sink.type === 'kafka' && s.sink['transaction.timeout.ms'] === undefined
          ? " (KafkaSink's default when it is not set)"
          : '';
      return {
        entry: i,
        actor: who,
        text: `the transaction coordinator refused ${who}'s InitProducerId with INVALID_TRANSACTION_TIMEOUT: its transaction.timeout.ms, ${timeout} ms${unset}, is above the broker's transaction.max.timeout.ms, ${s.broker['transaction.max.timeout.ms']} ms`,
      };
    }
    return null;
  }

  private checkpointReset(): number {
    const t = this.t;
    for (const i of this.ofKind('fault'))
      if (this.run.scenario.faults[t.aux[i]!]?.kind === 'checkpoint-reset') return i;
    return -1;
  }

  private truncation(j: number): Story | null {
    const t = this.t;
    const sends = this.entriesOf(j).filter((i) => this.kind(i) === 'app-send');
    // An append of one of its batches later cut by a leader change.
    for (const i of this.ofKind('truncate')) {
      const from = t.offset[i]!;
      const count = t.count[i]!;
      for (const s of sends) {
        for (const c of this.childrenOfSend(s)) {
          if (
            this.kind(c) === 'append' &&
            t.partition[c] === t.partition[i] &&
            t.offset[c]! + t.count[c]! > from &&
            t.offset[c]! < from + count
          ) {
            const sc = this.run.scenario;
            const acks = normalizeAcks(sc.producer.acks);
            // The leader that appended it, its crash (the fault behind it, when one did), and
            // the broker elected in its place (the truncation's cause is that election).
            const oldLeader = t.actor[c]!;
            const crash = this.prevOf('crash', i, oldLeader);
            const f = this.rootFault(crash >= 0 ? crash : i);
            const le = t.cause[i]!;
            const next = le >= 0 && this.kind(le) === 'leader' ? `broker-${t.aux[le]}` : null;
            // Records below the old high watermark were cut: only an unclean election does that.
            const unclean = this.childrenOf(i).some((x) => this.kind(x) === 'data-loss');
            // A plain scheduled crash of that broker needs no parenthesis ("broker-1 failed").
            const spec = f >= 0 ? sc.faults[t.aux[f]!] : undefined;
            const why = spec && (spec.id || spec.kind !== 'crash') ? ` (${this.faultText(f)})` : '';
            const failed = `${t.actors[oldLeader]} failed${why}`;
            const written = `{id} was written to the leader ${t.actors[oldLeader]} (offset ${t.offset[c]})`;
            return {
              template: unclean
                ? `${written} while no follower was in sync (min.insync.replicas=${sc.broker['min.insync.replicas']}), so it was ${acks === '0' ? 'sent' : 'acknowledged'} without a copy → ${failed}, and with unclean.leader.election.enable=true the out-of-sync ${next ?? 'follower'} was elected leader although it never had {id}: {id} was cut from the log`
                : `${written}${acks === '1' ? ' and acknowledged with acks=1' : ''} but not yet copied to a follower → ${failed} and the new leader${next ? ` ${next}` : ''}, which never had it, became the reference: {id} was cut from the log`,
              entries: [c, ...(f >= 0 ? [f] : []), ...(crash >= 0 ? [crash] : []), i],
            };
          }
        }
      }
    }
    return null;
  }

  /** Appends descending from an 'app-send' entry (through batches, messages, retries). */
  private childrenOfSend(send: number): number[] {
    const out: number[] = [];
    const queue = [send];
    const seen = new Set<number>();
    while (queue.length > 0 && out.length < 50) {
      const x = queue.shift()!;
      for (const c of this.childrenOf(x)) {
        if (seen.has(c)) continue;
        seen.add(c);
        const k = this.kind(c);
        if (k === 'append') out.push(c);
        if (k === 'msg' || k === 'retry' || k === 'reject') queue.push(c);
      }
    }
    return out;
  }

  /**
   * A Flink job processed an event whose output (an XA or Kafka transaction) no checkpoint ever
   * committed: the job kept failing over on expired checkpoints, crashed for good, or the run
   * stopped first. Null when none of these is the case.
   */
  private flinkNeverCommitted(processed: number): Story | null {
    const t = this.t;
    const p = this.run.scenario.processor;
    if (p.type !== 'flink') return null;
    const flink = t.actors.indexOf('flink');
    let failovers = 0;
    let firstExpired = -1;
    let lastCrash = -1;
    let restartedAfter = false;
    // flink's crashes and restarts after `processed`, merged in trace order.
    const crashes = this.ofKind('crash');
    const restarts = this.ofKind('restart');
    let x = Ctx.from(crashes, processed);
    let y = Ctx.from(restarts, processed);
    while (x < crashes.length || y < restarts.length) {
      const fromCrash = y >= restarts.length || (x < crashes.length && crashes[x]! < restarts[y]!);
      const i = fromCrash ? crashes[x++]! : restarts[y++]!;
      if (t.actor[i] !== flink) continue;
      if (!fromCrash) {
        restartedAfter = true;
        continue;
      }
      lastCrash = i;
      restartedAfter = false;
      const c = failoverCause(t, i);
      if (c >= 0) {
        failovers++;
        if (firstExpired < 0) firstExpired = c;
      }
    }
    const stop = this.run.cutOff ? `, until the run was cut off at ${this.run.endTime} ms` : '';
    if (failovers > 0)
      return {
        template: `{id} was processed, but no checkpoint covering it ever completed: checkpoints expired after execution.checkpointing.timeout (${p['execution.checkpointing.timeout']} ms) and, with execution.checkpointing.tolerable-failed-checkpoints=${p['execution.checkpointing.tolerable-failed-checkpoints']}, the job failed over ${failovers} time${failovers === 1 ? '' : 's'}${stop} → each restore discarded the uncommitted output of {id}`,
        entries: [processed, firstExpired],
      };
    if (lastCrash >= 0 && !restartedAfter && !this.run.cutOff) {
      // Which failure of the job this was: the restart strategy's count starts at the first.
      const failures = this.ofKind('crash').filter(
        (i) => i <= lastCrash && t.actor[i] === flink,
      ).length;
      const why = flinkRestartsAfter(p, failures) ? 'never restarted' : gaveUpWhy(p, failures);
      return {
        template: `{id} was processed, but flink crashed${this.flinkCrashCause(lastCrash)} and ${why} → no checkpoint covering {id} completed, so its output was never committed`,
        entries: [processed, lastCrash],
      };
    }
    if (this.run.cutOff)
      return {
        template: `{id} was processed, but the run was cut off at ${this.run.endTime} ms before a checkpoint covering it completed → its output was not committed yet`,
        entries: [processed],
      };
    return null;
  }

  /**
   * A Flink job whose restart strategy is none and whose task crashed: the crash and, in words,
   * why nothing restarted it — or null.
   */
  private flinkFailedForGood(): { crash: number; cause: string; why: string } | null {
    const p = this.run.scenario.processor;
    if (p.type !== 'flink') return null;
    const flink = this.t.actors.indexOf('flink');
    const crashes = this.ofKind('crash').filter((i) => this.t.actor[i] === flink);
    // The failure the restart strategy did not restart after: the first under none, the one
    // after fixed-delay's last attempt (FixedDelayRestartBackoffTimeStrategy counts them all).
    const n = crashes.findIndex((_, k) => !flinkRestartsAfter(p, k + 1));
    if (n < 0) return null;
    const crash = crashes[n]!;
    return { crash, cause: this.flinkCrashCause(crash), why: gaveUpWhy(p, n + 1) };
  }

  /** How many times actor `name` restarted in the run. */
  private restartsOf(name: string): number {
    const t = this.t;
    const a = t.actors.indexOf(name);
    let n = 0;
    for (const i of this.ofKind('restart')) if (t.actor[i] === a) n++;
    return n;
  }

  private findCrash(actorName: string, after: number): number {
    const t = this.t;
    const a = t.actors.indexOf(actorName);
    return this.nextOf('crash', after, (x) => x === a);
  }

  private stmtErrorFor(j: number): Story | null {
    const t = this.t;
    // In the same statement as a failing row: the sink remembers every row of a failed statement.
    const ident = this.run.events.identity;
    for (const f of this.run.state.sink?.failed ?? []) {
      if (!f.events.some((ev) => ident[ev] === j)) continue;
      const code = ERROR_CODES[t.aux[f.entry]!];
      const what =
        code === 'CARDINALITY_VIOLATION'
          ? 'one target row would have been changed twice in one statement (cardinality violation)'
          : code === 'UNIQUE_VIOLATION'
            ? 'two rows with one key in a table with a unique key (uniqueness violation)'
            : code;
      return {
        template: `the statement that carried {id} failed — ${what} — and rolled back whole, so none of its rows were written; the consumer ${this.consumerErrorPolicy()}`,
        entries: [f.entry],
      };
    }
    return null;
  }

  /**
   * A consumer loop with onStatementError=skip whose statement carrying the event got no answer
   * within statement.timeout.ms (the request or its answer was lost): the loop moved on without
   * it, as configured. (Other policies retry or stop: their losses are told elsewhere.)
   */
  private unansweredStatementSkipped(j: number): Story | null {
    const p = this.run.scenario.processor;
    const sink = this.run.scenario.sink;
    if (p.type !== 'consumer' || p.onStatementError !== 'skip' || sink.type !== 'table')
      return null;
    const timeout = this.entriesOf(j).find(
      (i) =>
        this.kind(i) === 'reject' &&
        ERROR_CODES[this.t.aux[i]!] === 'STATEMENT_TIMEOUT' &&
        this.isProcessor(i),
    );
    if (timeout === undefined) return null;
    return {
      template: `the statement that carried {id} got no answer within statement.timeout.ms (${sink['statement.timeout.ms']} ms) and the consumer skipped it (onStatementError=skip)`,
      entries: [timeout],
    };
  }

  /**
   * A consumer that stops at a failed statement (onStatementError=halt) or retries it for ever
   * (retry, when it fails every time) processes nothing after it: the records behind it are lost
   * for that reason, not for lack of time.
   */
  private blockedByFailedStatement(): Story | null {
    const p = this.run.scenario.processor;
    const f = this.run.state.sink?.failed[0];
    if (p.type !== 'consumer' || !f || p.onStatementError === 'skip') return null;
    const code = ERROR_CODES[this.t.aux[f.entry]!];
    const what =
      code === 'CARDINALITY_VIOLATION'
        ? 'a cardinality violation'
        : code === 'UNIQUE_VIOLATION'
          ? 'a uniqueness violation'
          : code;
    return {
      template:
        p.onStatementError === 'halt'
          ? `{id} is in the log but was never processed: an earlier statement failed (${what}) and the consumer stopped on it (onStatementError=halt)`
          : `{id} is in the log but was never processed: the consumer kept retrying an earlier statement that fails every time (${what}, onStatementError=retry) and never got past it`,
      entries: [f.entry],
    };
  }

  private consumerErrorPolicy(): string {
    const p = this.run.scenario.processor;
    if (p.type !== 'consumer') return 'stopped';
    return p.onStatementError === 'halt'
      ? 'stopped on the error (onStatementError=halt)'
      : p.onStatementError === 'retry'
        ? 'retried the same batch, failing each time'
        : 'skipped the batch';
  }

  private blockedByLso(topicName: string, partition: number, offset: number): Story | null {
    const part = this.run.state.cluster.topics.get(topicName)?.partitions[partition];
    if (!part) return null;
    if (offset >= part.lso && part.lso < part.hw) {
      const open = [...part.openTxns.entries()].sort((a, b) => a[1] - b[1])[0];
      const waiting = open ? this.markerWaiting(topicName, partition, open[0]) : null;
      if (waiting)
        return {
          template: `{id} sits after transaction ${open![0]}: ${waiting.text} → read_committed readers stop at the last stable offset (${part.lso}), so {id} is held back`,
          entries: waiting.entries,
        };
      return {
        template: `{id} sits after transaction ${open?.[0] ?? '?'}, which is still open → read_committed readers stop at the last stable offset (${part.lso}), so {id} is held back`,
        entries: [],
      };
    }
    return null;
  }

  /**
   * The fault behind crash entry `i`: the one it names, or the one whose firing caused it (a
   * Spark checkpoint reset stops the query with the reset as its cause).
   */
  private faultOfCrash(i: number): FaultSpec | undefined {
    const t = this.t;
    const faults = this.run.scenario.faults;
    if (t.aux[i]! >= 0) return faults[t.aux[i]!];
    const c = t.cause[i]!;
    return c >= 0 && this.kind(c) === 'fault' && t.aux[c]! >= 0 ? faults[t.aux[c]!] : undefined;
  }

  /**
   * A Flink job or a Spark query that started (or started again) after the record was appended
   * with nothing to restore, reading from the end: a record already in the log is skipped.
   * KafkaSource `OffsetsInitializer.latest()`
   * (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset);
   * Spark's `startingOffsets` "latest" for a query without a checkpoint, which is also what a
   * deleted checkpoint location leaves
   * (https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html).
   */
  private startedAtLatest(rec: { p: number; o: number; append: number }): Story | null {
    const t = this.t;
    const p = this.run.scenario.processor;
    const flink = p.type === 'flink' && p.offsetsInitializer === 'latest';
    const spark = p.type === 'spark' && p.startingOffsets === 'latest';
    if (!flink && !spark) return null;
    const actor = t.actors.indexOf(p.type);
    // The first start after the record was appended, with nothing to restore (ckpt -1).
    const start = this.nextOf('restore', rec.append + 1, (a) => a === actor);
    if (start < 0 || t.ckpt[start]! >= 0) return null;
    const crash = this.prevOf('crash', start, actor);
    const reset = crash >= 0 && this.faultOfCrash(crash)?.kind === 'checkpoint-reset';
    const how =
      crash < 0
        ? 'started'
        : reset
          ? 'started again after its checkpoint location was deleted'
          : 'restarted after its crash';
    return {
      // No offset in the words: every record skipped by one start shares one explanation.
      template: flink
        ? `{id} was already in the log when flink ${how} with no checkpoint to restore → OffsetsInitializer.latest() began at the end of each partition, after {id}`
        : `{id} was already in the log when the query ${how}${reset ? '' : ' with no checkpoint'} → startingOffsets=latest began at the end of each partition, after {id}`,
      entries: [start, rec.append, crash],
    };
  }

  /**
   * A consumer that took the record's partition with no committed offset and
   * `auto.offset.reset=latest` starts at the end of the log: a record already there is skipped
   * ("latest: automatically reset the offset to the latest offset",
   * https://kafka.apache.org/documentation/#consumerconfigs_auto.offset.reset).
   */
  private resetPast(rec: { p: number; o: number; append: number }): Story | null {
    const t = this.t;
    const s = this.run.scenario;
    if (s.processor.type !== 'consumer' || s.processor['auto.offset.reset'] !== 'latest')
      return null;
    const topic = t.topics.indexOf(s.workload.topic);
    const assigns = this.ofKind('assign');
    for (let x = Ctx.from(assigns, rec.append + 1); x < assigns.length; x++) {
      const i = assigns[x]!;
      if (t.topic[i] !== topic || t.partition[i] !== rec.p) continue;
      if (t.offset[i]! <= rec.o) return null; // a start before it: not this story
      const who = this.actorName(i);
      // Its last crash before that start, if any.
      const crash = this.prevOf('crash', i, t.actor[i]!);
      // No per-record offset in the words: the records skipped by one start share one story.
      return {
        template: `{id} was already in the log when ${who} ${
          crash >= 0 ? 'restarted after its crash and ' : ''
        }took partition ${rec.p} with no committed offset → auto.offset.reset=latest started it at offset ${t.offset[i]}, after {id}`,
        entries: [i, rec.append, crash],
      };
    }
    return null;
  }

  /** The committed offset moved past the record before it was processed, then the processor died. */
  private committedAhead(j: number, rec: { p: number; o: number; append: number }): Story | null {
    const t = this.t;
    const s = this.run.scenario;
    const topic = t.topics.indexOf(s.workload.topic);
    const consumerActor = (a: number) => t.actors[a]!.startsWith('consumer');
    for (const i of this.ofKind('commit')) {
      if (t.partition[i] !== rec.p || t.offset[i]! <= rec.o || t.topic[i] !== topic) continue;
      // The commit landed, but its answer did not: commitSync gave up and the loop started
      // again from the committed offset, past the batch it had not processed yet.
      const fails = this.ofKind('commit-failed');
      let failed = -1;
      for (let x = Ctx.from(fails, i); x < fails.length && failed < 0; x++) {
        const f = fails[x]!;
        if (t.actor[f] !== t.peer[i] || t.partition[f] !== rec.p || t.topic[f] !== topic) continue;
        // The next failure of that member's commit of this partition: a timeout of this offset.
        if (!this.isCommitTimeout(f) || t.offset[f] !== t.offset[i]) break;
        failed = f;
      }
      if (failed >= 0) {
        const story = this.commitTimeoutText(
          failed,
          `of offset ${t.offset[i]} before processing the batch holding {id}`,
        );
        const who = t.actors[t.actor[failed]!]!;
        return {
          template: `${story.text}, although the coordinator had stored it → ${who} started again from the committed offset ${t.offset[i]}, past {id}`,
          entries: [i, ...story.entries, failed],
        };
      }
      const crash = this.nextOf('crash', i, consumerActor);
      // No consumer crash after this commit: none after any later one either.
      if (crash < 0) return null;
      const p = s.processor;
      const how =
        p.type === 'consumer'
          ? p['enable.auto.commit']
            ? `enable.auto.commit committed the polled position ${t.offset[i]} while {id} was still waiting to be processed`
            : p.commit === 'before-processing'
              ? `the loop committed offset ${t.offset[i]} before processing the batch holding {id}`
              : `offset ${t.offset[i]} was committed before {id} was processed`
          : `offset ${t.offset[i]} was committed before {id} was processed`;
      void j;
      const who = t.actors[t.actor[crash]!]!;
      // Whoever read the partition next: the crashed member after its restart, or another
      // member the group gave the partition to while it was down.
      const next = this.ofKind('assign').find(
        (a) => a > crash && t.topic[a] === topic && t.partition[a] === rec.p,
      );
      if (next !== undefined && t.actor[next] !== t.actor[crash])
        return {
          template: `${how} → ${who} crashed → ${this.takeoverText(who, crash, next)}, past {id}`,
          entries: [i, crash, next],
        };
      return {
        template: `${how} → ${who} crashed → after the restart it resumed from the committed offset, past {id}`,
        entries: [i, crash],
      };
    }
    return null;
  }
}

/** How a table sink's `statement` reads in words (also the SQL script's header, src/engine/sql). */
export function sqlName(statement: string): string {
  switch (statement) {
    case 'insert':
      return 'a plain INSERT';
    case 'on-conflict-do-nothing':
      return 'INSERT … ON CONFLICT DO NOTHING';
    case 'on-conflict-do-update':
      return 'INSERT … ON CONFLICT DO UPDATE';
    default:
      return 'MERGE';
  }
}

/**
 * The same step told once, with how many times it happened: three identical re-sends read as one
 * step "(3 times)", not three copies joined by ';'.
 */
function countRepeats(steps: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const s of steps) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => (n > 1 ? `${s} (${n} times)` : s));
}

// Batch stories live in their own file; re-exported here so the explanations have one entry point.
export { explainBatch, attemptWords, windowWords, batchTimeLabel } from './explainBatch';
export type { BatchExplanation } from './explainBatch';
