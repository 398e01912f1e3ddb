/**
 * Library presets about what the log holds and who may see it: records of an aborted
 * transaction stay in the partition, and only a read_committed reader skips them (S09).
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, ids } from './helpers';
import { sourceUrls } from './sources';

type Isolation = 'read_committed' | 'read_uncommitted';

/**
 * S09's topology: a transactional producer (`t-1`, five events per transaction) writes e1..e10
 * (or e1..e11) into `events`; the pipeline's consumer copies what its isolation level lets it
 * read into a plain table, and a second reader with the other level shows the contrast.
 */
function dirtyRead(
  name: string,
  count: number,
  pipeline: Isolation,
  faults: ScenarioInput['faults'],
  expect: ScenarioInput['expect'],
  stopAtMs?: number,
): ScenarioInput {
  const other: Isolation = pipeline === 'read_committed' ? 'read_uncommitted' : 'read_committed';
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    ...(stopAtMs === undefined ? {} : { stopAtMs }),
    workload: { topic: 'events', generate: { count, startAtMs: 100, intervalMs: 100 } },
    producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 5 } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'isolation.level': pipeline,
    },
    sink: { type: 'table', name: 'events_copy' },
    readers: [
      { name: other === 'read_committed' ? 'rc' : 'ru', topic: 'events', 'isolation.level': other },
    ],
    faults,
    expect,
  };
}

const abortFirst: ScenarioInput['faults'] = [
  { id: 'validation failed', kind: 'abort-transaction', transaction: 1 },
];

/*
 * aborted-transaction-dirty-read — docs/semantics/scenarios.md#s09-aborted-transaction-and-readers. By hand:
 * The transactional producer groups five events per transaction. T1 sends e1..e5 (offsets 0..4)
 * and the application aborts it (abort-transaction 1): the records stay in the log and an abort
 * marker follows at offset 5 [K-DES §4.7]. T2 sends e1..e5 again (6..10) and commits (marker 11);
 * T3 sends e6..e10 (12..16) and commits (marker 17). The log holds 15 data records (markers are not
 * returned to applications), sum 550 + 150 = 700.
 * - read-committed (pipeline consumer read_committed): aborted records are skipped: 10 rows, 550,
 *   0 duplicates. The read_uncommitted reader `ru` beside it: 15 rows, 700, e1..e5 = 2.
 * - read-uncommitted (the Java default [K-CCFG]): "all messages are visible … even if they were
 *   part of an aborted transaction" [K-DES §4.6]: 15 rows, 700, 5 duplicates (e1..e5 = 2). The
 *   read_committed reader `rc` beside it: 10 rows, 550.
 * - open-transaction: e1..e11; T4 = {e11} (offset 18) is left open (hang-transaction 4), and the
 *   run stops at 30 s, before transaction.timeout.ms (60 s) would let the coordinator abort it.
 *   A read_committed consumer reads only up to the last stable offset, 18 — the first offset of
 *   the open transaction [K-CCFG isolation.level] — so e11 is missing: 10 rows, 550, e11 = 0
 *   (counted as lost while the transaction hangs). The read_uncommitted reader `ru` sees e11:
 *   16 rows, 810, e1..e5 = 2, e11 = 1 — a row for a payment that may yet be aborted. The workload
 *   has no records after e11, so the "records behind the LSO are held back too" half of S09(c)
 *   is not shown here.
 */
const abortedTransactionDirtyRead: Preset = {
  id: 'aborted-transaction-dirty-read',
  title: 'An aborted transaction, read anyway',
  group: 'broker',
  oneLine:
    'Aborted records stay in the log; only a read_committed consumer skips them, and it waits on open transactions.',
  illustrates: 'exactly-once',
  setup:
    'A billing service writes ten events, e1..e10, to Kafka in transactions of five. The first transaction, e1..e5, will fail a business check and be aborted; the service then sends e1..e5 again in a new transaction that commits, then e6..e10. An aborted transaction’s records stay in the log. One reader copies the topic with read_uncommitted (the Java client’s default), another with read_committed.',
  story:
    'A billing service writes each batch of five events in a Kafka transaction. Its first batch failed a business check and was aborted, then sent again and committed. The team reading the topic used the Java client’s default isolation level and found e1..e5 twice in their table; a team reading with read_committed saw each once. Later, a transaction that never finished made the read_committed copy stall at the open transaction.',
  watch:
    'Offsets 0–4 greyed out as aborted, followed by the abort marker; the two readers diverge on those five records — and, in the open-transaction variant, on e11 too, which read_committed does not read while its transaction is open.',
  fix: 'Try: set processor.isolation.level to read_committed → the aborted copies are skipped: 10 rows, 0 duplicates.',
  predict: {
    needs: [
      'ten events',
      'transactions of five',
      'e1..e5',
      'aborted',
      'stay in the log',
      'read_uncommitted',
    ],
    question:
      'A transaction with e1..e5 was aborted and then re-sent. How many rows does a read_uncommitted reader write?',
    answer:
      '15: the aborted e1..e5 stay in the log and read_uncommitted returns them, then the committed copies.',
    variant: 'read-uncommitted',
    mark: { kind: 'numbers', values: [{ value: 15, what: 'rows' }] },
  },
  sources: sourceUrls('K-TXN', 'K-DES', 'K-CCFG', 'K-PJD', 'KIP-890'),
  variants: [
    {
      id: 'read-committed',
      label: 'read_committed',
      summary:
        'the pipeline skips the aborted records; a read_uncommitted reader beside it does not',
      scenario: dirtyRead(
        'An aborted transaction, read anyway — read_committed',
        10,
        'read_committed',
        abortFirst,
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 10), 1),
          observed: 'exactly-once',
          points: {
            'log:events': { totals: { rows: 15, duplicates: 5 } },
            'reader:ru': {
              totals: { rows: 15, duplicates: 5, lost: 0, sum: 700 },
              rows: { ...each(ids(1, 5), 2), ...each(ids(6, 10), 1) },
            },
          },
        },
      ),
    },
    {
      id: 'read-uncommitted',
      label: 'read_uncommitted',
      summary: 'the Java default: the aborted e1..e5 are read and written too',
      scenario: dirtyRead(
        'An aborted transaction, read anyway — read_uncommitted',
        10,
        'read_uncommitted',
        abortFirst,
        {
          totals: { rows: 15, duplicates: 5, lost: 0, sum: 700 },
          rows: { ...each(ids(1, 5), 2), ...each(ids(6, 10), 1) },
          observed: 'at-least-once',
          points: {
            'log:events': { totals: { rows: 15, duplicates: 5 } },
            'reader:rc': {
              totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
              rows: each(ids(1, 10), 1),
            },
          },
        },
      ),
    },
    {
      id: 'open-transaction',
      label: 'open transaction holds the LSO',
      summary: 'a transaction left open: read_committed stops at it, read_uncommitted reads on',
      scenario: dirtyRead(
        'An aborted transaction, read anyway — open transaction holds the LSO',
        11,
        'read_committed',
        [...abortFirst, { id: 'stuck transaction', kind: 'hang-transaction', transaction: 4 }],
        {
          totals: { rows: 10, duplicates: 0, lost: 1, sum: 550 },
          rows: { ...each(ids(1, 10), 1), e11: 0 },
          observed: 'at-most-once',
          points: {
            'log:events': { totals: { rows: 16, duplicates: 5 } },
            'reader:ru': {
              totals: { rows: 16, duplicates: 5, lost: 0, sum: 810 },
              rows: { ...each(ids(1, 5), 2), ...each(ids(6, 11), 1) },
            },
          },
        },
        30_000,
      ),
    },
  ],
};

/** The broker-side presets, in library order. */
export const brokerPresets = { abortedTransactionDirtyRead };
