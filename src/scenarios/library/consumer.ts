/**
 * Library presets whose failure happens in a Kafka consumer loop: where the offset commit sits
 * relative to the work (S12, S13), consume-transform-produce in one transaction (S15), and three
 * incidents — auto-commit running ahead of a worker thread, a rebalance while records were
 * finishing out of order, and a batch that outlasted max.poll.interval.ms.
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, fivePerPoll, ids } from './helpers';
import { sourceUrls } from './sources';

/** e1..e10 (amount 10·i) at i·10 ms, all in the log before the consumer starts at 1 s. */
const tenEvents = { topic: 'events', generate: { count: 10, startAtMs: 10, intervalMs: 10 } };

// ---------------------------------------------------------------- commit-before-process (S12)

/*
 * commit-before-process — docs/semantics/scenarios.md#s12-commit-before-processing. By hand:
 * e1..e10 (sum 550) are in the log when the consumer starts at 1 s. max.poll.records = 10, so
 * one poll returns offsets 0..9; commit=before-processing commits offset 10 right away, then the
 * loop inserts e1..e4 and crashes (mid-batch, afterRecords 4). The restart resumes at the
 * committed offset 10 and finds nothing: "messages may not be processed" [K-DES §4.6].
 * Table: e1..e4 = 1, e5..e10 = 0: 4 rows, sum 10+20+30+40 = 100, 0 duplicates, 6 lost.
 */
const commitBeforeProcess: Preset = {
  id: 'commit-before-process',
  title: 'Commit first, then process',
  group: 'consumer',
  oneLine: 'The offset is saved before the rows are: a crash mid-batch skips the rest for good.',
  illustrates: 'at-most-once',
  setup:
    'A consumer reads ten events, e1..e10, polling up to 10 records at a time. It commits its offset right after each poll, before it writes the records to the table. It will crash after writing 4 of the 10 records it polled, and restart from its committed offset.',
  story:
    'A reporting consumer was rewritten to commit its offset immediately after each poll, because someone had seen duplicates after a restart. The next crash came four records into a batch of ten. On restart the consumer resumed after the whole batch, and six events never reached the table; no error was ever logged.',
  watch:
    'The committed-offset marker jumps to 10 before the first row is written; after the crash the consumer restarts at 10 with nothing left to read.',
  fix: 'Try: set processor.commit to after-processing → nothing is lost (the batch is replayed instead; see commit-after-process).',
  predict: {
    needs: ['ten events', '10 records at a time', 'right after each poll', '4 of the 10 records'],
    question:
      'The consumer crashes after writing 4 of the 10 records it polled. How many rows does the table end with?',
    answer: '4. The offset was already at 10, so the restart skipped e5..e10.',
    mark: { kind: 'numbers', values: [{ value: 4, what: 'rows' }] },
  },
  sources: sourceUrls('K-DES', 'K-CJD', 'K-CCFG'),
  variants: [
    {
      id: 'default',
      label: 'commit before processing',
      summary: 'commitSync() right after poll(), crash after 4 inserts',
      scenario: {
        version: 1,
        name: 'Commit first, then process',
        claim: 'exactly-once',
        workload: tenEvents,
        processor: {
          type: 'consumer',
          'enable.auto.commit': false,
          commit: 'before-processing',
          'auto.offset.reset': 'earliest',
          'max.poll.records': 10,
          startAtMs: 1000,
        },
        sink: { type: 'table', name: 'events' },
        faults: [
          { id: 'crash', kind: 'crash', target: 'consumer-0', point: 'mid-batch', afterRecords: 4 },
        ],
        expect: {
          totals: { rows: 4, duplicates: 0, lost: 6, sum: 100 },
          rows: { ...each(ids(1, 4), 1), ...each(ids(5, 10), 0) },
          observed: 'at-most-once',
        },
      },
    },
  ],
};

// ----------------------------------------------------------------- commit-after-process (S13)

/** S13's loop: 5 per poll, commit after writing, crash before the second commit. */
export function commitAfter(
  name: string,
  sink: ScenarioInput['sink'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  const crash = {
    id: 'crash',
    kind: 'crash',
    target: 'consumer-0',
    point: 'before-commit',
    nth: 2,
  };
  return fivePerPoll(name, tenEvents, {}, sink, [crash] as ScenarioInput['faults'], expect);
}

/*
 * commit-after-process — docs/semantics/scenarios.md#s13-commit-after-processing. By hand:
 * e1..e10 (sum 550) in the log; 5 records per poll, commit after the batch is written. Batch 1
 * (offsets 0..4) is written and offset 5 committed. Batch 2 (e6..e10) is written in full, and the
 * consumer crashes before its commit (before-commit, 2nd time). The restart resumes at 5 and
 * writes e6..e10 again: "the first few messages it receives will already have been processed"
 * [K-DES §4.6]; the new owner "would repeat the insert of the last batch" [K-CJD].
 * - plain-insert: e6..e10 = 2: 15 rows, sum 550 + 400 = 950, 5 duplicates.
 * - on-conflict-do-nothing (unique event_id): the second writes conflict: 10 rows, 550.
 * - additive-upsert (ON CONFLICT DO UPDATE SET amount = sink.amount + EXCLUDED.amount): still
 *   10 rows and 0 duplicate rows, but e6..e10 now hold 120, 140, 160, 180, 200: sum 950. The
 *   checker counts each of those rows as taking effect twice, so `rows` (which compares
 *   max(rows, effects)) expects 2 for e6..e10, and the guarantee observed is at-least-once (R5).
 */
const commitAfterProcess: Preset = {
  id: 'commit-after-process',
  title: 'Process, then commit: the replayed batch',
  group: 'consumer',
  oneLine:
    'A crash between the write and the commit replays the batch: harmless only if the write is idempotent.',
  illustrates: 'at-least-once',
  setup:
    'An orders consumer reads ten events, e1..e10, worth $10, $20, … $100 (sum 550), polls 5 at a time, writes each batch to Postgres and commits the offset afterwards. It will crash after writing its 2nd batch, e6..e10 ($400), and before committing it, then restart from its last commit. Three tables are tried; the one asked about uses an additive upsert: ON CONFLICT DO UPDATE SET amount = amount + EXCLUDED.amount.',
  story:
    'An orders consumer writes each batch of five to Postgres and commits the offset afterwards, the textbook at-least-once loop. It crashed once, after writing its second batch and before committing it, and the restart wrote e6..e10 again. Three teams ran the same loop against three tables: one got duplicate rows, one got none, and one got the right row count with the wrong totals.',
  watch:
    'The crash between the last row of batch 2 and its commit; the restart re-reads from offset 5, and the sink marks each second write as a new row, a skipped conflict, or an update.',
  fix: 'Try: set sink.statement to on-conflict-do-nothing (or do-update with set=excluded) → the replay changes nothing: 10 rows, sum 550.',
  predict: {
    needs: [
      'ten events',
      'sum 550',
      '5 at a time',
      'commits the offset afterwards',
      '2nd batch, e6..e10 ($400)',
      'amount = amount + EXCLUDED.amount',
    ],
    question:
      'With the additive upsert (amount = amount + EXCLUDED.amount), how many rows and what sum?',
    answer:
      '10 rows, but a sum of 950 instead of 550: e6..e10 were each added twice. An upsert must set the value, not add to it.',
    variant: 'additive-upsert',
    mark: {
      kind: 'numbers',
      values: [
        { value: 10, what: 'rows' },
        { value: 950, what: 'sum' },
      ],
    },
  },
  sources: sourceUrls('K-DES', 'K-CJD', 'PG-INS'),
  variants: [
    {
      id: 'plain-insert',
      label: 'plain INSERT',
      summary: 'the replayed batch becomes five more rows',
      scenario: commitAfter(
        'Process, then commit: the replayed batch — plain INSERT',
        { type: 'table', name: 'events' },
        {
          totals: { rows: 15, duplicates: 5, lost: 0, sum: 950 },
          rows: { ...each(ids(1, 5), 1), ...each(ids(6, 10), 2) },
          observed: 'at-least-once',
        },
      ),
    },
    {
      id: 'on-conflict-do-nothing',
      label: 'ON CONFLICT DO NOTHING',
      summary: 'the replayed rows conflict on event_id and are skipped',
      scenario: commitAfter(
        'Process, then commit: the replayed batch — ON CONFLICT DO NOTHING',
        { type: 'table', name: 'events', statement: 'on-conflict-do-nothing' },
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 10), 1),
          observed: 'exactly-once',
        },
      ),
    },
    {
      id: 'additive-upsert',
      label: 'additive upsert',
      summary: 'DO UPDATE SET amount = amount + EXCLUDED.amount: one row each, values doubled',
      scenario: commitAfter(
        'Process, then commit: the replayed batch — additive upsert',
        { type: 'table', name: 'events', statement: 'on-conflict-do-update', set: 'add-excluded' },
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 950 },
          rows: { ...each(ids(1, 5), 1), ...each(ids(6, 10), 2) },
          observed: 'at-least-once',
        },
      ),
    },
  ],
};

// ------------------------------------------------------------ consume-transform-produce (S15)

/** S15's copier: input e1..e10 → consumer in transactions → topic `out` → readers. */
function copier(
  name: string,
  point: 'before-commit-transaction' | 'after-commit-decision',
  firstReader: 'rc' | 'ru',
  expect: ScenarioInput['expect'],
): ScenarioInput {
  const rc = { name: 'rc', topic: 'out', 'isolation.level': 'read_committed' } as const;
  const ru = { name: 'ru', topic: 'out', 'isolation.level': 'read_uncommitted' } as const;
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10 } },
    processor: {
      type: 'consumer',
      commit: 'with-transaction',
      'enable.auto.commit': false,
      'isolation.level': 'read_committed',
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      startAtMs: 1000,
    },
    sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
    // The first reader is the pipeline's end (the verdict's primary point).
    readers: firstReader === 'rc' ? [rc, ru] : [ru, rc],
    faults: [{ id: 'crash', kind: 'crash', target: 'consumer-0', point, nth: 2 }],
    expect,
  };
}

const tenOnce = {
  totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
  rows: each(ids(1, 10), 1),
};
const sixToTenTwice = {
  totals: { rows: 15, duplicates: 5, lost: 0, sum: 950 },
  rows: { ...each(ids(1, 5), 1), ...each(ids(6, 10), 2) },
};

/*
 * consume-transform-produce — docs/semantics/scenarios.md#s15-consume-transform-produce. By hand:
 * The copier reads `in` (e1..e10, non-transactional) 5 at a time and, per batch: begin → send the
 * outputs to `out` → sendOffsetsToTransaction(next offset) → commitTransaction. Batch 1 commits
 * e1..e5 with offset 5. Batch 2 sends e6..e10 and offset 10, then the process crashes
 * (before-commit-transaction, 2nd time). The restart's initTransactions aborts that transaction;
 * its offsets were "considered committed only if the transaction is committed" [K-PJD], so the
 * group is still at 5 and e6..e10 are copied again in a new transaction, which commits. `out` then
 * holds 15 data records: e6..e10 twice, the first copies aborted.
 * - read-committed: the aborted copies are invisible to `rc`: 10 rows, 550. `ru` beside it: 15.
 * - read-uncommitted: `ru` reads the aborted copies as well [K-DES §4.6]: 15 rows, 950,
 *   e6..e10 = 2. `rc` beside it: 10.
 * - after-commit-decision: the crash comes after the coordinator logged the commit of batch 2;
 *   the new instance's initTransactions "awaits its completion" [K-PJD], so offset 10 is
 *   committed and nothing is copied twice: `out` holds 10, and rc and ru both read 10 rows, 550.
 */
const consumeTransformProduce: Preset = {
  id: 'consume-transform-produce',
  title: 'Consume, transform, produce in one transaction',
  group: 'consumer',
  oneLine:
    'Outputs and offsets commit together, so a crash before the commit aborts both — for read_committed readers only.',
  illustrates: 'exactly-once',
  setup:
    'A copier reads ten orders, e1..e10, 5 at a time from one topic and writes each batch to another in a Kafka transaction that also commits its input offsets. It will crash after sending its 2nd batch, before committing that transaction; on restart the open transaction is aborted and the batch copied again. Two readers count the output: one with read_committed, one with read_uncommitted (which also returns records of aborted transactions).',
  story:
    'A copier service reads orders from one topic and writes enriched orders to another, committing its input offsets inside the same Kafka transaction as its outputs. It crashed after sending its second batch but before committing. The restart aborted the half-done transaction and copied the batch again; the downstream team using read_committed saw ten orders, while a dashboard reading with the default read_uncommitted counted fifteen.',
  watch:
    'A crash before commitTransaction: its five records greyed out as aborted in `out`, the group offset staying at 5 until the retry commits, and the two readers’ tables. A crash after the commit decision: the coordinator completes the commit, nothing is aborted.',
  fix: 'Try: read `out` with isolation.level=read_committed (the read-committed variant) → every order once.',
  predict: {
    needs: [
      'ten orders',
      '5 at a time',
      '2nd batch',
      'aborted',
      'read_committed',
      'read_uncommitted',
    ],
    question:
      'The copier crashed before committing batch 2 and redid it. What do the read_committed and read_uncommitted readers count?',
    answer:
      'read_committed: 10. read_uncommitted: 15 — it also returns the five records of the aborted transaction.',
    mark: {
      kind: 'numbers',
      values: [
        { value: 10, what: 'read_committed' },
        { value: 15, what: 'read_uncommitted' },
      ],
    },
  },
  sources: sourceUrls('K-TXN', 'K-DES', 'K-PJD', 'K-CCFG'),
  variants: [
    {
      id: 'read-committed',
      label: 'read_committed reader',
      summary: 'crash before commitTransaction; the downstream reader reads committed data only',
      scenario: copier(
        'Consume, transform, produce in one transaction — read_committed reader',
        'before-commit-transaction',
        'rc',
        {
          ...tenOnce,
          observed: 'exactly-once',
          points: {
            'log:out': { totals: { rows: 15, duplicates: 5 } },
            'reader:ru': sixToTenTwice,
          },
        },
      ),
    },
    {
      id: 'read-uncommitted',
      label: 'read_uncommitted reader',
      summary: 'the same crash, read by the Java default isolation level',
      scenario: copier(
        'Consume, transform, produce in one transaction — read_uncommitted reader',
        'before-commit-transaction',
        'ru',
        {
          ...sixToTenTwice,
          observed: 'at-least-once',
          points: {
            'log:out': { totals: { rows: 15, duplicates: 5 } },
            'reader:rc': tenOnce,
          },
        },
      ),
    },
    {
      id: 'after-commit-decision',
      label: 'crash after the commit decision',
      summary: 'the coordinator had logged the commit: the restart completes it, nothing is redone',
      scenario: copier(
        'Consume, transform, produce in one transaction — crash after the commit decision',
        'after-commit-decision',
        'rc',
        {
          ...tenOnce,
          observed: 'exactly-once',
          points: {
            'log:out': { totals: { rows: 10, duplicates: 0 } },
            'reader:ru': tenOnce,
          },
        },
      ),
    },
  ],
};

// ------------------------------------------------------------------ auto-commit-crash (incident)

/** e1..e200 in the log (offsets 0..199) before an auto-committing consumer starts at 1 s. */
function autoCommit(
  name: string,
  mode: 'handoff' | 'sync',
  crash: { afterRecords: number; nth: number },
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'events', generate: { count: 200, startAtMs: 0, intervalMs: 1 } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': true,
      'auto.commit.interval.ms': 5000,
      'auto.offset.reset': 'earliest',
      'max.poll.records': 100,
      startAtMs: 1000,
      processing: { mode, perRecordMs: 50 },
    },
    sink: { type: 'table', name: 'events' },
    faults: [
      { id: 'worker crash', kind: 'crash', target: 'consumer-0', point: 'mid-batch', ...crash },
    ],
    expect,
  };
}

/*
 * auto-commit-crash — an incident (offsets 100–199 polled, position 200 auto-committed, crash
 * after 150 → 151–199 lost while the lag showed 0), reproduced with its own numbers: offsets
 * here start at 0 as in Kafka, offset o holds e(o+1). Mechanism: docs/semantics/consumer.md#auto-commit auto-commit
 * ("the committed offset [can] get ahead of the consumed position") and A10 (the position is
 * committed inside poll() once auto.commit.interval.ms has passed). By hand:
 * e1..e200 (sum 201,000) are in the log when the consumer starts at 1 s; max.poll.records 100,
 * each record costs 50 ms of processing plus a 4 ms round trip to the table.
 * - handoff (poll hands records to a worker thread and returns at once): the first poll returns
 *   offsets 0–99, the next one, immediately, 100–199, so the position is 200. The worker needs
 *   54 ms a record. At ~6 s (5 s after the assignment) the idle loop's poll auto-commits 200,
 *   while the worker is around offset 90. The worker crashes after its 151st record (offset 150;
 *   mid-batch with afterRecords 1 counts single records in this mode, so nth 151), at ~9.2 s.
 *   The restart resumes at 200: offsets 151–199 (e152..e200, 49 events) are never processed, and
 *   the lag is 0. Table: 151 rows, sum Σ10·i (i = 1..151) = 114,760, 0 duplicates, 49 lost.
 * - sync (poll → process the whole batch → poll): the second poll, after batch 0–99 is written
 *   (~6.4 s), auto-commits 100 and returns 100–199. The crash after its 51st record (offset 150;
 *   afterRecords 51 counts within the batch, nth 2 skips batch 1's 51st record) restarts at
 *   100: offsets 100–150 (e101..e151) are written twice. 251 rows, 51 duplicates, 0 lost,
 *   sum 201,000 + Σ10·i (i = 101..151) = 201,000 + 64,260 = 265,260.
 */
const autoCommitCrash: Preset = {
  id: 'auto-commit-crash',
  title: 'Auto-commit ahead of a worker thread',
  group: 'consumer',
  oneLine:
    'Records handed to a worker count as consumed: auto-commit saves a position the work never reached.',
  illustrates: 'at-most-once',
  setup:
    'A consumer reads 200 events at offsets 0..199. Its poll loop hands each batch to a worker thread and polls again at once, with enable.auto.commit on. The worker will crash just after processing offset 150, when the loop has polled up to offset 199 and auto-committed offset 200 (the next to read); it restarts from the committed offset.',
  story:
    'To keep up with a slow enrichment step, a team moved processing to a worker thread: the poll loop now hands each batch over and polls again at once, with enable.auto.commit left on. The loop had polled up to offset 199 and auto-committed 200 when the worker died while on offset 150. The restarted consumer began at 200, the lag graph read zero, and 49 records were silently never processed.',
  watch:
    'With a hand-off to a worker: the committed offset reaching 200 while the processed rows are still below 100, and after the crash the consumer resuming at 200, past everything the worker had not done. Processing before the next poll: the committed offset trailing the rows, and the records since it written again after the crash.',
  fix: 'Try: process each batch before the next poll (processing.mode sync, the process-before-poll variant) → nothing is lost; the records since the last commit are replayed instead.',
  predict: {
    needs: [
      '200 events',
      'offsets 0..199',
      'after processing offset 150',
      'auto-committed offset 200',
    ],
    question:
      'The worker crashes after offset 150, and auto-commit had already saved 200. How many of the 200 events reach the table?',
    answer: '151. Offsets 151–199 were committed but never processed, and the restart skips them.',
    mark: { kind: 'numbers', values: [{ value: 151, what: 'events' }] },
  },
  sources: sourceUrls('K-CJD', 'K-CCFG', 'K-DES'),
  variants: [
    {
      id: 'handoff',
      label: 'hand-off to a worker',
      summary: 'poll() hands records over and returns; auto-commit saves the polled position',
      scenario: autoCommit(
        'Auto-commit ahead of a worker thread — hand-off to a worker',
        'handoff',
        { afterRecords: 1, nth: 151 },
        {
          totals: { rows: 151, duplicates: 0, lost: 49, sum: 114_760 },
          rows: { ...each(ids(1, 151), 1), ...each(ids(152, 200), 0) },
          observed: 'at-most-once',
        },
      ),
    },
    {
      id: 'process-before-poll',
      label: 'process before the next poll',
      summary: 'the batch is finished before poll() runs again, so auto-commit trails the work',
      scenario: autoCommit(
        'Auto-commit ahead of a worker thread — process before the next poll',
        'sync',
        { afterRecords: 51, nth: 2 },
        {
          totals: { rows: 251, duplicates: 51, lost: 0, sum: 265_260 },
          rows: { ...each(ids(1, 100), 1), ...each(ids(101, 151), 2), ...each(ids(152, 200), 1) },
          observed: 'at-least-once',
        },
      ),
    },
  ],
};

// --------------------------------------------------------------- rebalance-midflight (incident)

/** e1..e7 at offsets 0..6; two group members; consumer-0 works on up to 7 records at once. */
function midflight(
  name: string,
  sink: ScenarioInput['sink'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'events', generate: { count: 7, startAtMs: 0, intervalMs: 1 } },
    processor: {
      type: 'consumer',
      instances: 2,
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
      processing: { mode: 'parallel', concurrency: 7, durationsMs: [10, 10, 10, 1000, 10, 10, 10] },
    },
    sink,
    faults: [{ id: 'rebalance', kind: 'rebalance', target: 'consumer-0', at: 1500 }],
    expect,
  };
}

/*
 * rebalance-midflight — an incident (1, 2, 3, 5, 6, 7 done, 4 in flight at a rebalance → 5–7
 * redone), reproduced with the same numbers as event ids: e1..e7 at offsets 0..6 (sum 280).
 * By hand: two group members; the one partition goes to consumer-0, which processes up to 7
 * records at once and commits only the contiguous prefix of finished offsets [K-CJD "Manual
 * Offset Control": the committed offset is the next record to read]. Processing times cycle
 * through 10, 10, 10, 1000, 10, 10, 10 ms (per instance). consumer-0 polls e1..e7 at ~1 s;
 * e1, e2, e3, e5, e6, e7 are written ~10 ms later, e4 needs 1 s. The prefix is e1..e3, so the
 * committed offset is 3 (e4's). At 1.5 s a rebalance moves the partition to consumer-1:
 * consumer-0 commits its finished prefix (still 3). Its e4, in flight, is not stopped by the
 * revoke [K-CJD "Multi-threaded Processing": waiting for or cancelling in-flight work in
 * onPartitionsRevoked is the application's job, and this one does neither]: it finishes at ~2 s
 * and writes e4, uncommitted. consumer-1 starts at offset 3 and processes e4, e5, e6, e7 (10, 10,
 * 10, 1000 ms) — all four for the second time.
 * - plain-insert: e4..e7 = 2: 11 rows, 4 duplicates, sum 280 + 40 + 50 + 60 + 70 = 500.
 * - upsert (variant id; an insert-if-absent, ON CONFLICT (event_id) DO NOTHING — Postgres calls
 *   only DO UPDATE an upsert): the second copies conflict: 7 rows, 280.
 */
const rebalanceMidflight: Preset = {
  id: 'rebalance-midflight',
  title: 'A rebalance while records finish out of order',
  group: 'consumer',
  oneLine:
    'Only the contiguous prefix of finished offsets can be committed; everything after the gap is redone.',
  illustrates: 'at-least-once',
  setup:
    'A consumer processes seven records, e1..e7, in parallel to hide a slow API call. e1–e3 and e5–e7 will be done while e4 still waits on its slow call, when a rebalance moves the partition to another instance. A committed offset means “everything before this is done”; the old instance’s call for e4 is still running.',
  story:
    'A consumer processes records in parallel to hide a slow API: 1, 2, 3, 5, 6 and 7 were done, but 4 was still waiting on a slow call when a rebalance moved the partition to another instance. The committed offset could only point at record 4 (offset 3), because a committed offset means “everything before this is done”. The new owner started at record 4 and did 5, 6 and 7 again — and the slow call for 4 came back on the old instance, which wrote it too.',
  watch:
    'Six rows written almost at once, the committed offset stuck at 3 behind e4, then the partition moving to consumer-1, which writes e4..e7 — while consumer-0 still finishes e4 and writes it.',
  fix: 'Try: make the write idempotent (sink.statement on-conflict-do-nothing, the upsert variant) → the redone records change nothing: 7 rows.',
  predict: {
    needs: [
      'e1..e7',
      'e1–e3 and e5–e7 will be done',
      'e4 still waits',
      'everything before this is done',
    ],
    question:
      'e1–e3 and e5–e7 were done and e4 was in flight when the partition moved. Which records does the new owner process?',
    answer:
      'e4, e5, e6 and e7: the committed offset could only reach e4, so e5–e7 are processed twice — and e4 too, since the old owner’s slow call still finishes and writes it.',
    mark: { kind: 'events', ids: ['e4', 'e5', 'e6', 'e7'] },
  },
  sources: sourceUrls('K-CJD', 'K-DES', 'K-CCFG'),
  variants: [
    {
      id: 'plain-insert',
      label: 'plain INSERT',
      summary: 'the redone e5..e7, and e4 finished late by the old owner, become duplicate rows',
      scenario: midflight(
        'A rebalance while records finish out of order — plain INSERT',
        { type: 'table', name: 'events' },
        {
          totals: { rows: 11, duplicates: 4, lost: 0, sum: 500 },
          rows: { ...each(ids(1, 3), 1), ...each(ids(4, 7), 2) },
          observed: 'at-least-once',
          points: { processed: { totals: { rows: 11, duplicates: 4 } } },
        },
      ),
    },
    {
      id: 'upsert',
      label: 'ON CONFLICT DO NOTHING on event_id',
      summary: 'INSERT … ON CONFLICT DO NOTHING absorbs the redone records',
      scenario: midflight(
        'A rebalance while records finish out of order — ON CONFLICT DO NOTHING on event_id',
        { type: 'table', name: 'events', statement: 'on-conflict-do-nothing' },
        {
          totals: { rows: 7, duplicates: 0, lost: 0, sum: 280 },
          rows: each(ids(1, 7), 1),
          observed: 'exactly-once',
          points: { processed: { totals: { rows: 11, duplicates: 4 } } },
        },
      ),
    },
  ],
};

// ------------------------------------------------------------ poll-timeout-slow-batch (incident)

/** The 3rd record an instance processes takes 400 s (a slow API call); every other one 1 s. */
const slowThird = [1000, 1000, 400_000, ...Array<number>(12).fill(1000)];

/** e1..e10 in the log at 1 s; batches of 5; one slow record in the first batch. */
function slowBatch(
  name: string,
  extra: Record<string, unknown>,
  sink: ScenarioInput['sink'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return fivePerPoll(
    name,
    tenEvents,
    { processing: { durationsMs: slowThird }, ...extra },
    sink,
    undefined,
    expect,
  );
}

/*
 * poll-timeout-slow-batch — an incident (a consumer whose slow downstream call kept it from
 * polling: it was thrown out of the group, its commit failed, and the batch ran twice). By hand:
 * e1..e10 (10·i) are in the log when the consumer starts at 1 s; max.poll.records = 5. The 3rd
 * record takes 400 s, the others 1 s, so the batch e1..e5 takes 404 s. max.poll.interval.ms
 * (default 300,000) passes 300 s after the poll: the member leaves the group — "If poll() is not
 * called before expiration of this timeout, then the consumer is considered failed"; a static
 * member stops heartbeating and is removed session.timeout.ms (45 s) later [K-CCFG
 * max.poll.interval.ms]. It still writes e1..e5, each as it is processed (e1 at ~2 s, e3..e5 after
 * the leave); at 404 s its commitSync fails
 * (CommitFailedException: "the time between subsequent calls to poll() was longer than the
 * configured max.poll.interval.ms" [K-CJD]); it rejoins and reads from the committed offset 0:
 * e1..e5 again (1 s each: the 6th..10th processing times), committed; then e6..e10.
 * - plain-insert: e1..e5 = 2: 15 rows, 5 duplicates, sum 2·150 + 400 = 700.
 * - longer-interval (max.poll.interval.ms 600,000 > 404 s): nobody leaves: 10 rows, 550.
 * - upsert (INSERT … ON CONFLICT DO NOTHING on event_id): the second pass conflicts: 10 rows, 550.
 */
const pollTimeoutSlowBatch: Preset = {
  id: 'poll-timeout-slow-batch',
  title: 'A batch that outlasts max.poll.interval.ms',
  group: 'consumer',
  oneLine:
    'A consumer that does not call poll() for max.poll.interval.ms leaves its group; its commit fails and the batch runs again.',
  illustrates: 'at-least-once',
  setup:
    'A consumer reads ten events, e1..e10, five per poll, calls a slow API for each record and writes a row per record as it goes; it commits after the whole batch. In the first batch, e1..e5, the call for e3 will take 400 s (the others 1 s). max.poll.interval.ms is 5 minutes: a consumer that does not call poll() again within it is considered failed and leaves its group.',
  story:
    'A consumer calls a slow API for each record. One call took almost seven minutes, so the batch of five was not finished when max.poll.interval.ms (five minutes) ran out. The consumer left the group while it was still working, writing a row per record; when it finished the batch, its commit failed with CommitFailedException. It joined the group again, read the same five records from the committed offset and wrote them a second time.',
  watch:
    'The poll at 1 s, the long wait on e3, and whether “consumer-0’s POLL TIMEOUT” comes five minutes after the poll: then the five rows, the refused commit, and e1..e5 read and written again. With max.poll.interval.ms at 10 min it does not come.',
  fix: 'Try: raise max.poll.interval.ms above the longest batch (the longer-interval variant) or make the write idempotent (the upsert variant) → 10 rows. Fewer records per poll would not help here: the slow record alone outlasts the interval.',
  predict: {
    needs: [
      'five per poll',
      'writes a row per record as it goes',
      'commits after the whole batch',
      '400 s',
      '5 minutes',
    ],
    question:
      'One record of a batch of five takes 400 s; max.poll.interval.ms is 5 minutes and commits follow the processing. How many rows does e1 end with?',
    answer:
      'Two: the consumer left the group at 5 minutes, its commit for the batch failed, and it processed e1–e5 again from the committed offset.',
    mark: { kind: 'numbers', values: [{ value: 2, what: 'rows of e1' }] },
  },
  sources: sourceUrls('K-CCFG', 'K-CJD', 'K-DES'),
  variants: [
    {
      id: 'plain-insert',
      label: 'plain INSERT',
      summary: 'the batch runs twice: e1..e5 become duplicate rows',
      scenario: slowBatch(
        'A batch that outlasts max.poll.interval.ms — plain INSERT',
        {},
        { type: 'table', name: 'events' },
        {
          totals: { rows: 15, duplicates: 5, lost: 0, sum: 700 },
          rows: { ...each(ids(1, 5), 2), ...each(ids(6, 7), 1) },
          observed: 'at-least-once',
        },
      ),
    },
    {
      id: 'longer-interval',
      label: 'max.poll.interval.ms 10 min',
      summary: 'the batch fits in the interval: nobody leaves, every row once',
      scenario: slowBatch(
        'A batch that outlasts max.poll.interval.ms — max.poll.interval.ms 10 min',
        { 'max.poll.interval.ms': 600_000 },
        { type: 'table', name: 'events' },
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 6), 1),
          observed: 'exactly-once',
        },
      ),
    },
    {
      id: 'upsert',
      label: 'ON CONFLICT DO NOTHING on event_id',
      summary: 'the second pass conflicts with the rows already there',
      scenario: slowBatch(
        'A batch that outlasts max.poll.interval.ms — ON CONFLICT DO NOTHING on event_id',
        {},
        { type: 'table', name: 'events', statement: 'on-conflict-do-nothing' },
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 6), 1),
          observed: 'exactly-once',
          points: { processed: { totals: { rows: 15, duplicates: 5 } } },
        },
      ),
    },
  ],
};

// -------------------------------------------------------------------- zombie-consumer (F9)

/** consumer-0 freezes at 1,012 ms (a long GC pause, a stalled VM) for 60 s. */
const freeze = [
  { id: 'freeze', kind: 'zombie', target: 'consumer-0', at: 1012, pauseMs: 60_000 },
] as ScenarioInput['faults'];

/** The copier of consume-transform-produce, frozen instead of crashed. */
function frozenCopier(name: string, expect: ScenarioInput['expect']): ScenarioInput {
  const { faults: _crash, ...rest } = copier(name, 'before-commit-transaction', 'rc', expect);
  return { ...rest, faults: freeze };
}

/*
 * zombie-consumer — docs/semantics/consumer.md#zombie-consumer. By hand: e1..e10 (10·i) in the log; the consumer starts at
 * 1 s, polls e1..e5 and writes e1 (≈1,010 ms, 1 ms per record) before it freezes at 1,012 ms for
 * 60 s — longer than session.timeout.ms (45 s). The group removes it (≈46 s) and a replacement
 * starts from the committed offset 0: it writes e1..e10 and commits. At 61 s the zombie wakes,
 * unaware, finishes its batch — writes e2..e5 — and its commit is refused (COMMIT_FAILED).
 * - plain-insert: e1..e5 twice: 15 rows, 5 duplicates, 550 + 150 = 700.
 * - on-conflict-do-nothing: the second copies conflict: 10 rows, 550.
 * - transactional (the copier of consume-transform-produce, Kafka → Kafka): the replacement's
 *   initTransactions with the same transactional.id fences the zombie: its open transaction is
 *   aborted and its late writes are refused (INVALID_PRODUCER_EPOCH), and, fenced, it closes its
 *   producer and exits (61,023 ms) rather than rejoin; read_committed: 10, 550.
 */
const zombieConsumer: Preset = {
  id: 'zombie-consumer',
  title: 'A zombie consumer wakes up and writes',
  group: 'consumer',
  oneLine:
    'A paused instance is replaced, but it does not know: when it wakes it still writes the batch it held.',
  illustrates: 'at-least-once',
  setup:
    'consumer-0 reads ten events, e1..e10, 5 per poll, writes each record to a plain table, and commits after each batch. It has written e1 when it freezes for 60 s (a long GC pause) with e1..e5 in hand — longer than session.timeout.ms (45 s), so the group hands its partition to a replacement, which starts from the last committed offset (none yet: e1). When consumer-0 wakes, it finishes the batch in hand.',
  story:
    'A consumer froze for a minute in the middle of a batch — a long garbage-collection pause. The group gave up on it after session.timeout.ms and handed its partition to a replacement, which started from the last committed offset and wrote the same records. When the frozen instance woke up, nothing had told it that it was replaced: it finished the batch in hand and wrote those rows too. Only its offset commit failed, after the damage was done.',
  watch:
    'consumer-0 freezing at 1 s with e1..e5 polled and e1 written, the replacement taking the partition at about 46 s and writing e1..e10, then consumer-0 waking at 61 s, writing e2..e5 and getting COMMIT_FAILED.',
  fix: 'Try: make the write idempotent (the on-conflict-do-nothing variant), or write through Kafka transactions, where the replacement fences the zombie (the transactional variant).',
  predict: {
    needs: [
      'e1..e10',
      'has written e1',
      'e1..e5 in hand',
      '60 s',
      'last committed offset',
      'finishes the batch in hand',
    ],
    question:
      'consumer-0 freezes for 60 s with e1..e5 in hand and is replaced. When it wakes up, how many rows does the plain table end with?',
    answer:
      '15: the replacement writes e1..e10, and the zombie still writes e2..e5 when it wakes (e1 it had written before the pause, and its offset was never committed, so the replacement wrote it again).',
    mark: { kind: 'numbers', values: [{ value: 15, what: 'rows' }] },
  },
  sources: sourceUrls('K-CCFG', 'K-CJD', 'K-TXN'),
  variants: [
    {
      id: 'plain-insert',
      label: 'plain INSERT',
      summary: 'both instances write e1..e5: five duplicate rows',
      scenario: fivePerPoll(
        'A zombie consumer wakes up and writes — plain INSERT',
        tenEvents,
        {},
        { type: 'table', name: 'events' },
        freeze,
        {
          totals: { rows: 15, duplicates: 5, lost: 0, sum: 700 },
          rows: { ...each(ids(1, 5), 2), ...each(ids(6, 10), 1) },
          observed: 'at-least-once',
        },
      ),
    },
    {
      id: 'on-conflict-do-nothing',
      label: 'ON CONFLICT DO NOTHING on event_id',
      summary: "the zombie's late rows conflict and change nothing",
      scenario: fivePerPoll(
        'A zombie consumer wakes up and writes — ON CONFLICT DO NOTHING on event_id',
        tenEvents,
        {},
        { type: 'table', name: 'events', statement: 'on-conflict-do-nothing' },
        freeze,
        { ...tenOnce, observed: 'exactly-once' },
      ),
    },
    {
      id: 'transactional',
      label: 'Kafka transactions (fenced)',
      summary:
        "the replacement's initTransactions fences the zombie: read_committed sees each once",
      scenario: frozenCopier(
        'A zombie consumer wakes up and writes — Kafka transactions (fenced)',
        {
          ...tenOnce,
          observed: 'exactly-once',
        },
      ),
    },
  ],
};

/** The consumer-side presets, in library order. */
export const consumerPresets = {
  commitBeforeProcess,
  commitAfterProcess,
  consumeTransformProduce,
  autoCommitCrash,
  rebalanceMidflight,
  pollTimeoutSlowBatch,
  zombieConsumer,
};
