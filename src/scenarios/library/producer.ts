/**
 * Library presets whose failure happens between the application and Kafka: a fire-and-forget
 * request lost on the wire (S02), a payment re-sent by the application after its own timeout
 * (S06), and a retry storm at scale (an incident). The lost acknowledgement retried with and
 * without idempotence (S01) is a module of its own, ./lostAckRetry.ts.
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, ids } from './helpers';
import { sourceUrls } from './sources';

// ---------------------------------------------------------------- acks0-dropped-request (S02)

/*
 * acks0-dropped-request — docs/semantics/scenarios.md#s02-acks0-dropped-request. By hand:
 * e1..e10 at i·100 ms with acks=0 (idempotence unset, so off; setting it true would be a
 * ConfigException). The network drops the request carrying e3 before the broker sees it. With
 * acks=0 a record "is immediately added to the socket buffer and considered sent … the retries
 * configuration will not take effect" [K-PCFG]: nothing notices, nothing retries. The log holds 9
 * records; the table 9 rows, sum 550 − 30 = 520, 0 duplicates, 1 lost (e3).
 */
const acks0DroppedRequest: Preset = {
  id: 'acks0-dropped-request',
  title: 'acks=0: a request lost on the wire',
  group: 'producer',
  oneLine: 'Fire-and-forget sends are fast until one packet is lost: no error, no retry, no e3.',
  illustrates: 'at-most-once',
  setup:
    'A telemetry producer sends ten events, e1..e10, to Kafka with acks=0: it counts a record as sent the moment it leaves the socket and never waits for an answer. A consumer copies the topic into a table. The request carrying e3 will be lost on the network before it reaches the broker.',
  story:
    'A telemetry team switched its producer to acks=0 to shave latency, reasoning that the network inside one data centre does not lose packets. One request, the one carrying e3, never reached the broker. The producer had already counted it as sent, so no error was logged and no retry was made; e3 is simply missing downstream.',
  watch:
    'The request for e3 disappears between producer and broker; the producer shows no error and the offsets close up around the gap.',
  fix: 'Try: set producer.acks to all → the producer waits for the write and retries the lost request: 10 rows.',
  predict: {
    needs: ['ten events', 'acks=0', 'never waits for an answer', 'e3 will be lost'],
    question: 'How many rows reach the table, and does anything report an error?',
    answer:
      '9 rows (sum 520). Nothing reports an error: with acks=0 the record counted as sent the moment it left the socket.',
    mark: {
      kind: 'choice',
      options: [
        { id: 'nine-silent', text: '9 rows, and nothing reports an error', right: true },
        {
          id: 'nine-error',
          text: '9 rows, and the producer logs an error for e3',
          whyNot:
            'With acks=0 the producer waits for no answer, so there is no failure to notice: the send counted as done.',
        },
        {
          id: 'ten-retry',
          text: '10 rows: the producer retries e3',
          whyNot:
            'A retry follows a failed or timed-out request; with acks=0 nothing times out, so the retries never fire.',
        },
        {
          id: 'ten-broker',
          text: '10 rows: the broker notices the gap and asks for e3',
          whyNot:
            'A broker never asks for a record: it only answers the requests that reach it, and this one never did.',
        },
      ],
    },
  },
  sources: sourceUrls('K-PCFG', 'K-DES'),
  variants: [
    {
      id: 'default',
      label: 'acks=0',
      summary: 'the produce request carrying e3 is dropped; acks=0 never retries',
      scenario: {
        version: 1,
        name: 'acks=0: a request lost on the wire',
        claim: 'exactly-once',
        workload: { topic: 'events', generate: { count: 10, startAtMs: 100, intervalMs: 100 } },
        producer: { acks: '0', 'max.in.flight.requests.per.connection': 1 },
        processor: {
          type: 'consumer',
          'enable.auto.commit': false,
          'auto.offset.reset': 'earliest',
        },
        sink: { type: 'table', name: 'events' },
        faults: [
          { id: 'lost request', kind: 'drop-request', link: 'produce', match: { event: 'e3' } },
        ],
        expect: {
          totals: { rows: 9, duplicates: 0, lost: 1, sum: 520 },
          rows: { ...each(ids(1, 10), 1), e3: 0 },
          observed: 'at-most-once',
          points: { 'log:events': { totals: { rows: 9, lost: 1 } } },
        },
      },
    },
  ],
};

// ---------------------------------------------------------------- payment-resent-by-app (S06)

const payments = [
  { id: 'p-75', amount: 100, at: 0 },
  { id: 'p-76', amount: 250, at: 10 },
  { id: 'p-77', amount: 40, at: 20 },
  { id: 'p-78', amount: 75, at: 30 },
  { id: 'p-79', amount: 310, at: 40 },
];

/** S06's checkout service → payments → consumer → Postgres, with one sink per variant. */
function p77(
  name: string,
  sink: ScenarioInput['sink'],
  expect: ScenarioInput['expect'],
  extra: Partial<ScenarioInput> = {},
  processor: { onStatementError?: 'retry' | 'skip' | 'halt' } = {},
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'payments', events: payments },
    producer: { app: { mode: 'sync', 'get.timeout.ms': 2000, onFailure: 'resend' } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 5000,
      ...processor,
    },
    sink,
    faults: [
      {
        id: 'slow ack',
        kind: 'delay-response',
        link: 'produce',
        match: { event: 'p-77' },
        delayMs: 3000,
      },
    ],
    ...extra,
    expect,
  };
}

/** Every payment once: what each sink that collapses the re-send ends with. */
const paymentsOnce = {
  totals: { rows: 5, duplicates: 0, lost: 0, sum: 775 },
  rows: { 'p-75': 1, 'p-76': 1, 'p-77': 1, 'p-78': 1, 'p-79': 1 },
  observed: 'exactly-once',
  points: { 'log:payments': { totals: { rows: 6, duplicates: 1 }, rows: { 'p-77': 2 } } },
} as const;

/** p-77 twice. */
const p77Twice = {
  totals: { rows: 6, duplicates: 1, lost: 0, sum: 815 },
  rows: { 'p-75': 1, 'p-76': 1, 'p-77': 2, 'p-78': 1, 'p-79': 1 },
  observed: 'at-least-once',
  points: { 'log:payments': { totals: { rows: 6, duplicates: 1 }, rows: { 'p-77': 2 } } },
} as const;

/*
 * payment-resent-by-app — docs/semantics/scenarios.md#s06-payment-re-sent-by-the-application. By hand:
 * Payments p-75..p-79 (100, 250, 40, 75, 310; true sum 775). The checkout service sends them one
 * after another with send().get(2 s) (producer.app mode sync), idempotent producer (defaults).
 * p-75 → offset 0, p-76 → 1, p-77 → 2, but p-77's response is delayed 3 s. The service stops
 * waiting at 2 s and calls send(p-77) again: a new record with the next sequence number, which
 * idempotence cannot recognise ("application level re-sends … cannot be de-duplicated" [K-PJD]);
 * it lands at offset 3, then p-78 at 4 and p-79 at 5. The log holds 6 records, p-77 twice. The
 * consumer starts at 5 s, when all six (and the late acknowledgement) are in, and gets them in one
 * poll; it commits after writing.
 * - plain-insert: every record is a row: 6 rows, p-77 = 2, sum 775 + 40 = 815, 1 duplicate.
 * - on-conflict-do-nothing (unique index on id, the payment id, one statement per record): the second
 *   p-77 conflicts and is skipped [PG-INS]: 5 rows, 775.
 * - merge-per-record (MERGE … WHEN NOT MATCHED THEN INSERT, one statement per record): the second
 *   p-77 is MATCHED, with no action: 5 rows, 775.
 * - merge-per-batch (one MERGE for the poll batch of 6, no unique constraint): both p-77 source
 *   rows are NOT MATCHED against the target, so both are inserted [PG-MRG, A11]: 6 rows, 815.
 * - merge-per-batch-unique-key (same, with a primary key on id): the second INSERT is a
 *   uniqueness violation, the statement fails and rolls back whole. The consumer retries the same
 *   poisoned batch every second (onStatementError=retry) and fails every time; the run stops at
 *   20 s: 0 rows, sum 0, all five payments lost (docs/semantics/scenarios.md#s06-payment-re-sent-by-the-application: 0 rows, lost 5).
 * - merge-dedupe-source (DISTINCT ON id first, one MERGE per batch): 5 source rows, 5
 *   rows, 775.
 * - dedupe-table (payments_processed(id PK) written in the row's transaction, 24 h retention):
 *   the second p-77 finds its id recorded and is skipped: 5 rows, 775.
 */
const paymentResentByApp: Preset = {
  id: 'payment-resent-by-app',
  title: 'Payment p-77 sent twice by the application',
  group: 'producer',
  oneLine:
    'An idempotent producer cannot recognise a re-send the application made itself: only the sink can.',
  illustrates: 'at-least-once',
  setup:
    'A checkout service sends five payments, p-75..p-79, through an idempotent Kafka producer and waits 2 seconds for each to be confirmed; without a confirmation it calls send() again with the same payment. The broker will write p-77 but answer only after 3 seconds. A consumer copies the topic into Postgres with a plain INSERT.',
  story:
    'A checkout service waits two seconds for Kafka to confirm each payment. The broker wrote p-77 but answered after three, so the service gave up and sent p-77 again, as a brand-new record. The producer was idempotent, yet finance found p-77 twice in Postgres and the day’s total 40 too high. Whether the copy survives depends entirely on how the sink writes.',
  watch:
    'Two p-77 records in the log at offsets 2 and 3; then, per variant, whether the second one becomes a row, is skipped, or makes the whole batch fail.',
  fix: 'Try: write with INSERT … ON CONFLICT (id) DO NOTHING (the on-conflict variant) → 0 duplicates, sum 775.',
  predict: {
    needs: ['idempotent', '2 seconds', '3 seconds', 'calls send() again', 'plain INSERT'],
    question: 'The producer is idempotent. How many rows will p-77 have in the plain-insert table?',
    answer:
      'Two. Idempotence dedupes the producer’s own retries of one record; the application’s second send() is a new record with a new sequence number.',
    mark: { kind: 'numbers', values: [{ value: 2, what: 'rows of p-77' }] },
  },
  sources: sourceUrls('K-PJD', 'K-DES', 'PG-INS', 'PG-MRG'),
  variants: [
    {
      id: 'plain-insert',
      label: 'plain INSERT',
      summary: 'every record becomes a row',
      scenario: p77(
        'Payment p-77 sent twice by the application — plain INSERT',
        { type: 'table', name: 'payments' },
        p77Twice,
      ),
    },
    {
      id: 'on-conflict-do-nothing',
      label: 'ON CONFLICT DO NOTHING',
      summary: 'a unique index on id, the payment id: the second p-77 is skipped',
      scenario: p77(
        'Payment p-77 sent twice by the application — ON CONFLICT DO NOTHING',
        { type: 'table', name: 'payments', statement: 'on-conflict-do-nothing' },
        paymentsOnce,
      ),
    },
    {
      id: 'merge-per-record',
      label: 'MERGE per record',
      summary: 'one MERGE per record: the second p-77 is MATCHED, nothing happens',
      scenario: p77(
        'Payment p-77 sent twice by the application — MERGE per record',
        {
          type: 'table',
          name: 'payments',
          statement: 'merge',
          merge: { whenMatched: 'do-nothing' },
        },
        paymentsOnce,
      ),
    },
    {
      id: 'merge-per-batch',
      label: 'one MERGE per batch',
      summary: 'both p-77 rows are in one MERGE: both NOT MATCHED, both inserted',
      scenario: p77(
        'Payment p-77 sent twice by the application — one MERGE per batch',
        {
          type: 'table',
          name: 'payments',
          statement: 'merge',
          statementPer: 'batch',
          merge: { whenMatched: 'do-nothing' },
        },
        p77Twice,
      ),
    },
    {
      id: 'merge-per-batch-unique-key',
      label: 'one MERGE per batch, unique key',
      summary: 'a primary key turns the double insert into an error: the batch is poisoned',
      scenario: p77(
        'Payment p-77 sent twice by the application — one MERGE per batch, unique key',
        {
          type: 'table',
          name: 'payments',
          statement: 'merge',
          statementPer: 'batch',
          uniqueKey: true,
          merge: { whenMatched: 'do-nothing' },
        },
        {
          totals: { rows: 0, duplicates: 0, lost: 5, sum: 0 },
          rows: { 'p-75': 0, 'p-76': 0, 'p-77': 0, 'p-78': 0, 'p-79': 0 },
          observed: 'at-most-once',
          points: { 'log:payments': { totals: { rows: 6, duplicates: 1 } } },
        },
        { stopAtMs: 20_000 },
        { onStatementError: 'retry' },
      ),
    },
    {
      id: 'merge-dedupe-source',
      label: 'MERGE, source deduplicated',
      summary: 'DISTINCT ON (id) before the MERGE',
      scenario: p77(
        'Payment p-77 sent twice by the application — MERGE, source deduplicated',
        {
          type: 'table',
          name: 'payments',
          statement: 'merge',
          statementPer: 'batch',
          merge: { whenMatched: 'do-nothing', dedupeSource: true },
        },
        paymentsOnce,
      ),
    },
    {
      id: 'dedupe-table',
      label: 'dedupe table',
      summary: 'payments_processed(id) written in the same transaction as the row',
      scenario: p77(
        'Payment p-77 sent twice by the application — dedupe table',
        { type: 'table', name: 'payments', dedupe: { retentionMs: 24 * 3600 * 1000 } },
        paymentsOnce,
      ),
    },
  ],
};

// ---------------------------------------------------------------------- retry-storm (incident)

/** The retry storm: 1,000 records one second apart, every 100th produce response lost. */
function retryStorm(
  name: string,
  idempotence: boolean,
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'events', generate: { count: 1000, startAtMs: 1000, intervalMs: 1000 } },
    producer: { 'enable.idempotence': idempotence, 'request.timeout.ms': 500 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', name: 'events' },
    faults: [
      {
        id: '1% of acks lost',
        kind: 'drop-response',
        link: 'produce',
        match: { nth: 100, every: 100 },
      },
    ],
    expect,
  };
}

/** The ten events whose acknowledgement is lost (derivation below). */
const stormVictims = [
  'e100',
  'e199',
  'e298',
  'e397',
  'e496',
  'e595',
  'e694',
  'e793',
  'e892',
  'e991',
];

/*
 * retry-storm — an incident (a client's retries after request timeouts duplicated about 0.65% of
 * 500,000 records), scaled down to 1,000 records and 1% of acknowledgements lost; the shape — a
 * small fraction of lost responses, each retried into a duplicate unless idempotence is on — is
 * kept. Same mechanism as S01, at volume. By hand:
 * e_i (amount 10·i, true sum 5,005,000) is sent at i·1000 ms. A request's round trip takes a few
 * ms; a lost response is retried after request.timeout.ms (500) + retry.backoff.ms (100), well
 * before the next event, so every record travels alone and the produce responses come in order,
 * one per request, retries included. The fault drops response #100, #200, … (match nth 100,
 * every 100). Before the k-th drop, k−1 retries have each added one response, so response #100k
 * belongs to event e_(100k − (k−1)) = e_(99k+1): e100, e199, e298, …, e991 (k = 1..10; #1100
 * would be needed for k = 11 but there are only 1,010 responses). Idempotence does not change
 * this count (a deduplicated retry is answered too).
 * - idempotence-off: each of the 10 retries is appended again: 1,010 rows, 10 duplicates,
 *   sum 5,005,000 + 10·(100 + 199 + … + 991) = 5,005,000 + 10·5,455 = 5,059,550.
 * - idempotence-on: each retry has the same producer id and sequence and is dropped by the
 *   broker: 1,000 rows, 0 duplicates, 5,005,000.
 */
const retryStormPreset: Preset = {
  id: 'retry-storm',
  title: 'Retry storm: 1% of acknowledgements lost',
  group: 'producer',
  oneLine:
    'A busy network loses one produce response in a hundred; with idempotence off, every one of them becomes a duplicate.',
  illustrates: 'at-least-once',
  setup:
    'An ingestion service sends 1,000 records, e1..e1000, to Kafka with enable.idempotence=false, and a consumer copies them into a table. One produce response in every hundred will be lost (the 100th, the 200th, … the 1,000th); the producer retries each one after its request timeout.',
  story:
    'An ingestion service had idempotence switched off years ago, when an old broker did not support it. During a week of network trouble about one produce response in a hundred went missing, and the client retried each one after its request timeout. Every retry wrote its record a second time: a reconciliation job later found a fraction of a percent of all records duplicated. This preset is the incident at 1,000 records.',
  watch:
    'Ten lost responses spread over the run, each followed half a second later by a retry; with idempotence off the log grows to 1,010 records, with it on it stays at 1,000.',
  fix: 'Try: the idempotence-on variant (enable.idempotence=true, the default since Kafka 3.0 — in effect from 3.0.1/3.1.1/3.2.0) → the broker drops all ten retries: 0 duplicates.',
  predict: {
    needs: [
      '1,000 records',
      'enable.idempotence=false',
      'One produce response in every hundred',
      'retries each one',
    ],
    question:
      'Out of 1,000 records, with every 100th acknowledgement lost, how many duplicates reach the table?',
    answer:
      '10 — one per lost acknowledgement (e100, e199, …, e991), since each retry is appended again.',
    mark: { kind: 'numbers', values: [{ value: 10, what: 'duplicates' }] },
  },
  sources: sourceUrls('K-PCFG', 'K-DES'),
  variants: [
    {
      id: 'idempotence-off',
      label: 'idempotence off',
      summary: 'every retry is a second copy',
      scenario: retryStorm('Retry storm: 1% of acknowledgements lost — idempotence off', false, {
        totals: { rows: 1010, duplicates: 10, lost: 0, sum: 5_059_550 },
        rows: { ...each(stormVictims, 2), e1: 1, e99: 1, e101: 1, e1000: 1 },
        observed: 'at-least-once',
        points: { 'log:events': { totals: { rows: 1010, duplicates: 10 } } },
      }),
    },
    {
      id: 'idempotence-on',
      label: 'idempotence on',
      summary: 'the broker recognises every retry',
      scenario: retryStorm('Retry storm: 1% of acknowledgements lost — idempotence on', true, {
        totals: { rows: 1000, duplicates: 0, lost: 0, sum: 5_005_000 },
        rows: { ...each(stormVictims, 1), e1: 1, e1000: 1 },
        observed: 'exactly-once',
        points: { 'log:events': { totals: { rows: 1000, duplicates: 0 } } },
      }),
    },
  ],
};

/** The producer-side presets, in library order. */
export const producerPresets = {
  acks0DroppedRequest,
  paymentResentByApp,
  retryStorm: retryStormPreset,
};
