/**
 * A run's partition logs as view data: each record version with the entries that added and
 * removed it, and the step functions of high watermark, LSO and committed offsets ({@link logsView}).
 */
import type { Run, TraceColumns } from '../../engine';
import { roleOf } from './actors';
import { K } from './kinds';
import { IntList, StepsBuilder } from './steps';
import { NEVER, REC, type PartitionLogView } from './runView';

/** The consumer group a 'commit' entry belongs to: the actor that asked for it, up the cause chain. */
function commitGroup(cols: TraceColumns, actors: string[], i: number): string {
  let c = cols.cause[i]!;
  for (let hops = 0; c >= 0 && hops < 6; hops++) {
    const name = actors[cols.actor[c]!]!;
    const role = roleOf(name);
    if (role === 'processor') return name === 'flink' || name === 'spark' ? name : 'processor';
    if (role === 'reader') return name;
    c = cols.cause[c]!;
  }
  return 'processor';
}

export function logsView(run: Run, cols: TraceColumns, actors: string[]): PartitionLogView[] {
  interface Builder {
    topic: number;
    partition: number;
    name: string;
    offset: IntList;
    event: IntList;
    txn: IntList;
    flags: IntList;
    addedAt: IntList;
    removedAt: IntList;
    /** offset → live version (the current log). */
    live: IntList;
    truncations: number;
    leader: StepsBuilder;
    leader0: number;
    leo: StepsBuilder;
    hw: StepsBuilder;
    lso: StepsBuilder;
    /** Open transaction → its first offset here. */
    open: Map<number, number>;
    txnEnd: Map<number, { entry: number; commit: boolean }>;
    commits: Map<string, StepsBuilder>;
    /** Versions whose event is resolved after the pass: [version, truncation k or -1]. */
    pending: number[];
  }
  const topics = [...run.state.cluster.topics.values()];
  const byKey = new Map<number, Builder>();
  const key = (topic: number, p: number) => topic * 4096 + p;
  const partitionState = new Map<number, (typeof topics)[number]['partitions'][number]>();
  for (const topic of topics)
    topic.partitions.forEach((p, i) => {
      partitionState.set(key(topic.index, i), p);
      byKey.set(key(topic.index, i), {
        topic: topic.index,
        partition: i,
        name: `${topic.name}-${i}`,
        offset: new IntList(),
        event: new IntList(),
        txn: new IntList(),
        flags: new IntList(),
        addedAt: new IntList(),
        removedAt: new IntList(),
        live: new IntList(),
        truncations: 0,
        leader: new StepsBuilder(p.replicas[0]?.broker ?? -1),
        leader0: p.replicas[0]?.broker ?? -1,
        leo: new StepsBuilder(0),
        hw: new StepsBuilder(0),
        lso: new StepsBuilder(0),
        open: new Map(),
        txnEnd: new Map(),
        commits: new Map(),
        pending: [],
      });
    });
  const lsoOf = (b: Builder): number => {
    let lso = b.hw.current;
    for (const first of b.open.values()) if (first < lso) lso = first;
    return lso;
  };
  const addVersion = (b: Builder, i: number, offset: number, txn: number, flags: number) => {
    const v = b.offset.push(offset);
    b.event.push(-1);
    b.txn.push(txn);
    b.flags.push(flags);
    b.addedAt.push(i);
    b.removedAt.push(NEVER);
    while (b.live.length <= offset) b.live.push(-1);
    b.live.set(offset, v);
    return v;
  };
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (
      k !== K.append &&
      k !== K.marker &&
      k !== K.truncate &&
      k !== K.hw &&
      k !== K.commit &&
      k !== K.leader
    )
      continue;
    const b = byKey.get(key(cols.topic[i]!, cols.partition[i]!));
    if (!b) continue;
    const off = cols.offset[i]!;
    if (k === K.append) {
      const txn = cols.txn[i]!;
      for (let r = 0; r < cols.count[i]!; r++) {
        const v = addVersion(b, i, off + r, txn, REC.data);
        b.pending.push(v, -1);
      }
      if (txn >= 0 && !b.open.has(txn) && !b.txnEnd.has(txn)) b.open.set(txn, off);
      b.leo.add(i, Math.max(b.leo.current, off + cols.count[i]!));
    } else if (k === K.marker) {
      const commit = cols.aux[i] === 1;
      addVersion(b, i, off, cols.txn[i]!, commit ? REC.commitMarker : REC.abortMarker);
      b.open.delete(cols.txn[i]!);
      b.txnEnd.set(cols.txn[i]!, { entry: i, commit });
      b.leo.add(i, Math.max(b.leo.current, off + 1));
    } else if (k === K.truncate) {
      const end = b.live.length;
      const seg = b.truncations++;
      for (let o = off; o < end; o++) {
        const v = b.live.get(o);
        if (v < 0) continue;
        b.removedAt.set(v, i);
        b.live.set(o, -1);
        // Re-point the pending event lookup at the truncated segment it ended up in.
        for (let q = b.pending.length - 2; q >= 0; q -= 2)
          if (b.pending[q] === v) {
            b.pending[q + 1] = seg;
            break;
          }
      }
      b.live.length = off;
      b.leo.add(i, off);
      // A new leader's high watermark never exceeds its log end (the engine clamps it too).
      if (b.hw.current > off) b.hw.add(i, off);
      // Rebuild open transactions from what remains, as the broker does.
      b.open.clear();
      for (let o = 0; o < off; o++) {
        const v = b.live.get(o);
        if (v < 0) continue;
        const tx = b.txn.get(v);
        if (tx >= 0 && b.flags.get(v) === REC.data && !b.txnEnd.has(tx) && !b.open.has(tx))
          b.open.set(tx, o);
      }
    } else if (k === K.hw) {
      b.hw.add(i, off);
    } else if (k === K.leader) {
      b.leader.add(i, cols.aux[i]!);
      continue;
    } else if (k === K.commit) {
      const g = commitGroup(cols, actors, i);
      let s = b.commits.get(g);
      if (!s) b.commits.set(g, (s = new StepsBuilder(-1)));
      s.add(i, off);
      continue;
    }
    b.lso.add(i, lsoOf(b));
  }
  const out: PartitionLogView[] = [];
  for (const [k2, b] of byKey) {
    const p = partitionState.get(k2)!;
    const event = b.event.toArray();
    const offset = b.offset.toArray();
    for (let q = 0; q < b.pending.length; q += 2) {
      const v = b.pending[q]!;
      const seg = b.pending[q + 1]!;
      const o = offset[v]!;
      if (seg < 0) event[v] = o < p.leo ? p.event.get(o) : -1;
      else {
        const s = p.truncated[seg];
        event[v] = s ? (s.events[o - s.offset] ?? -1) : -1;
      }
    }
    const maxOffset = offset.reduce((m, o) => Math.max(m, o + 1), 0);
    const headVersion = new Int32Array(maxOffset).fill(-1);
    const prevVersion = new Int32Array(offset.length).fill(-1);
    for (let v = 0; v < offset.length; v++) {
      prevVersion[v] = headVersion[offset[v]!]!;
      headVersion[offset[v]!] = v;
    }
    out.push({
      topic: b.topic,
      partition: b.partition,
      name: b.name,
      offset,
      event,
      txn: b.txn.toArray(),
      flags: Uint8Array.from(b.flags.toArray()),
      addedAt: b.addedAt.toArray(),
      removedAt: b.removedAt.toArray(),
      headVersion,
      prevVersion,
      leader: b.leader.build(),
      leader0: b.leader0,
      leo: b.leo.build(),
      hw: b.hw.build(),
      lso: b.lso.build(),
      txnEnd: b.txnEnd,
      commits: [...b.commits].map(([group, s]) => ({ group, steps: s.build() })),
    });
  }
  out.sort((a, b) => a.topic - b.topic || a.partition - b.partition);
  return out;
}
