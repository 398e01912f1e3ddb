/**
 * The sink in the stories: what its statement does with a copy, and statements that failed or went
 * unanswered.
 */
import { ERROR_CODES } from '../trace';
import { sqlName } from '../sinks/statementWords';
import { firstAtOrAfter } from './traceIndex';
import { StoryFamily, type Story } from './story';
import { groupDigits } from '../groupDigits';
import { CONTENT_COLUMN_SQL } from '../batch/contentColumns';
import { columnSql, keyColumn } from '../sinks/keyColumns';

export class SinkStories extends StoryFamily {
  /**
   * A false merge: identity `j` is lost because the sink is keyed by content and another real
   * event with the same content took its place (docs/semantics/sinks.md#content-keys) — a loss,
   * not a duplicate. Null when the checker found none for `j`.
   */
  falseMerge(j: number): Story | null {
    const s = this.run.scenario.sink;
    if (s.type !== 'table' || typeof s.key === 'string') return null;
    const ev = this.run.events;
    const m = this.v.falseMerges.find((x) => x.id === ev.identityId(j));
    if (m === undefined) return null;
    const at = this.index
      .entriesOf(j)
      .find(
        (i) =>
          (this.index.kind(i) === 'row-skip' || this.index.kind(i) === 'row-update') &&
          this.ctx.primaryActors.has(this.t.actor[i]!),
      );
    const first = ev.firstIndexOf(j);
    const content = ev.content(first);
    const same = s.key
      .map((c) =>
        c === 'amount'
          ? `${columnSql(s, 'amount')} ${ev.amount[first]}`
          : `${columnSql(s, CONTENT_COLUMN_SQL[c])} '${content[c] ?? ''}'`,
      )
      .join(', ');
    const cols = keyColumn(s);
    const how = s.dedupe
      ? `the dedupe table already held that key and skipped {id}`
      : s.statement === 'on-conflict-do-nothing'
        ? `ON CONFLICT (${cols}) DO NOTHING skipped {id}`
        : s.statement === 'on-conflict-do-update'
          ? `ON CONFLICT (${cols}) DO UPDATE wrote {id}'s amount over ${m.into}'s row`
          : `MERGE … ON (${cols}) matched ${m.into}'s row`;
    return {
      template: `{id} was merged into ${m.into}'s row: the sink's key is (${cols}), not the event id, and both have ${same} → ${how}; a real event lost (a false merge), not a duplicate`,
      entries: at === undefined ? [] : [at],
    };
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

  whyNotCollapsed(): string {
    const s = this.run.scenario.sink;
    if (s.type === 'table') {
      if (s.key === 'uuid-per-attempt')
        return `${this.sinkStatement()} — nothing collapsed the copies`;
      if (s.statement === 'insert' && !s.dedupe)
        return 'a plain INSERT has no key to collapse the copies';
      // Keyed on topic-partition@offset, a copy collapses only when the same record is read again;
      // one the producer or the application appended again sits at another offset: another key
      // (docs/semantics/sinks.md#sink-key: "stable across replays but not across re-sends").
      if (s.key === 'source-offset')
        return `the key is the source offset (${keyColumn(s)}): the copy was appended at another offset, so ${this.sinkStatement()} took it for another record`;
      // Both copies inserted through a dedupe table keyed on the business id: the first one's
      // entry had expired when the second came
      // (docs/semantics/sinks.md#dedupe-table: a copy that comes later than the retention is a new row).
      if (s.dedupe && s.key === 'business-id')
        return `the dedupe table keeps an id for ${groupDigits(s.dedupe.retentionMs)} ms (dedupe.retentionMs): the copy came after the first one's entry had expired, so it was taken as new`;
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

  stmtErrorFor(j: number): Story | null {
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
  unansweredStatementSkipped(j: number): Story | null {
    const p = this.run.scenario.processor;
    const sink = this.run.scenario.sink;
    if (p.type !== 'consumer' || p.onStatementError !== 'skip' || sink.type !== 'table')
      return null;
    const timeout = this.statementTimeoutOf(j);
    if (timeout < 0) return null;
    const t = this.t;
    // The commit that makes the skip a loss: the consumer's first committed offset past the record
    // (before processing or after), so neither a restart nor a new owner reads it again.
    const o = this.offsetIn(timeout, j);
    let committed = '';
    let commit = -1;
    for (const i of this.index.ofKind('commit'))
      if (
        t.peer[i] === t.actor[timeout] &&
        t.topic[i] === t.topic[timeout] &&
        t.partition[i] === t.partition[timeout] &&
        t.offset[i]! > o
      ) {
        commit = i;
        committed = `; ${t.actors[t.actor[timeout]!]} committed offset ${t.offset[i]}, past {id}, so no restart reads {id} again`;
        break;
      }
    return {
      template: `the statement that carried {id} got no answer within statement.timeout.ms (${sink['statement.timeout.ms']} ms) and the consumer skipped it (onStatementError=skip)${committed}`,
      entries: commit >= 0 ? [timeout, commit] : [timeout],
    };
  }

  /**
   * The processor's STATEMENT_TIMEOUT for the statement that carried identity `j`, or -1. A
   * statement of several rows carries its first event only: the one whose records (topic,
   * partition, offsets) hold a record of `j` the processor processed.
   */
  private statementTimeoutOf(j: number): number {
    const t = this.t;
    const isTimeout = (i: number) =>
      this.index.kind(i) === 'reject' &&
      ERROR_CODES[t.aux[i]!] === 'STATEMENT_TIMEOUT' &&
      this.isProcessor(i);
    const own = this.index.entriesOf(j).find(isTimeout);
    if (own !== undefined) return own;
    const rejects = this.index.ofKind('reject');
    for (const p of this.index.entriesOf(j)) {
      if (this.index.kind(p) !== 'process' || !this.isProcessor(p)) continue;
      for (let x = firstAtOrAfter(rejects, p); x < rejects.length; x++) {
        const i = rejects[x]!;
        if (
          isTimeout(i) &&
          t.actor[i] === t.actor[p] &&
          t.topic[i] === t.topic[p] &&
          t.partition[i] === t.partition[p] &&
          t.offset[i]! <= t.offset[p]! &&
          t.offset[p]! < t.offset[i]! + t.count[i]!
        )
          return i;
      }
    }
    return -1;
  }

  /** The offset of identity `j`'s record among the records of entry `i` (its first when unknown). */
  private offsetIn(i: number, j: number): number {
    const t = this.t;
    for (const p of this.index.entriesOf(j))
      if (
        this.index.kind(p) === 'process' &&
        t.topic[p] === t.topic[i] &&
        t.partition[p] === t.partition[i] &&
        t.offset[p]! >= t.offset[i]! &&
        t.offset[p]! < t.offset[i]! + Math.max(1, t.count[i]!)
      )
        return t.offset[p]!;
    return t.offset[i]!;
  }

  /**
   * A consumer that stops at a failed statement (onStatementError=halt) or retries it for ever
   * (retry, when it fails every time) processes nothing after it: the records behind it are lost
   * for that reason, not for lack of time.
   */
  blockedByFailedStatement(): Story | null {
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
}
