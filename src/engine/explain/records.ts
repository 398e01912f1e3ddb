/**
 * The records of one business identity in a topic's log: where they sit, which send and which
 * append wrote them, in which transaction. Grouped per topic on first use (two passes over the
 * log), so each story's question costs that identity's records only.
 */
import type { Run } from '../simulate';

/** One data record of an identity: partition, offset, its 'app-send' and 'append' entries, txn. */
export interface RecordOf {
  p: number;
  o: number;
  send: number;
  txn: number;
  append: number;
}

interface TopicIndex {
  /** Records of identity j are at [start[j], start[j + 1]). */
  start: Int32Array;
  part: Int32Array;
  offset: Int32Array;
}

export class RecordIndex {
  private readonly topics = new Map<string, TopicIndex>();

  constructor(private readonly run: Run) {}

  /** Records of identity `j` in `topicName` (partition order, then offset). */
  of(j: number, topicName: string): RecordOf[] {
    const topic = this.run.state.cluster.topics.get(topicName);
    if (!topic) return [];
    let idx = this.topics.get(topicName);
    if (!idx) {
      // One pass to count records per identity, one to place them (partition order, then offset).
      const ident = this.run.events.identity;
      const start = new Int32Array(this.run.events.identities + 1);
      for (const part of topic.partitions)
        for (let o = 0; o < part.leo; o++)
          if (!part.isControl(o)) start[ident[part.event.get(o)]! + 1]!++;
      for (let k = 1; k < start.length; k++) start[k]! += start[k - 1]!;
      const fill = start.slice(0, -1);
      const n = start[start.length - 1]!;
      const partOf = new Int32Array(n);
      const offsetOf = new Int32Array(n);
      for (const part of topic.partitions)
        for (let o = 0; o < part.leo; o++) {
          if (part.isControl(o)) continue;
          const at = fill[ident[part.event.get(o)]!]!++;
          partOf[at] = part.index;
          offsetOf[at] = o;
        }
      this.topics.set(topicName, (idx = { start, part: partOf, offset: offsetOf }));
    }
    const out: RecordOf[] = [];
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
}
