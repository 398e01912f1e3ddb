/**
 * The three guarantee presets of the Kafka → consumer → table path (the foundation): the same
 * workload and the same faults under at-most-once, at-least-once and effectively-once knobs.
 *
 * Workload: 20 payments p-1..p-20, amount 10·i (true sum 2,100), one every 50 ms. Faults:
 * - the acknowledgement of p-4's produce request is lost (the producer, one request in flight,
 *   retries after request.timeout.ms = 30 s; with acks=0 there is no acknowledgement to lose);
 * - the consumer crashes in its 2nd batch, after writing 3 of its 5 records.
 * The consumer starts at 40 s, once every record is in the log, and polls 5 records at a time.
 */
import type { Guarantee, ScenarioInput } from '../engine';
import type { Preset } from './types';

const payments = Array.from({ length: 20 }, (_, i) => ({
  id: `p-${i + 1}`,
  amount: 10 * (i + 1),
  at: i * 50,
}));

/** The shared base: topology and workload, before a guarantee is applied. */
export function foundationBase(): ScenarioInput {
  return {
    version: 1,
    name: 'Payments: producer → Kafka → consumer → Postgres',
    seed: 1,
    workload: { topic: 'payments', events: payments },
    producer: { 'max.in.flight.requests.per.connection': 1 },
    processor: {
      type: 'consumer',
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      startAtMs: 40_000,
    },
    sink: { type: 'table', name: 'payments' },
    faults: [
      { id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'p-4' } },
      {
        id: 'consumer crash',
        kind: 'crash',
        target: 'consumer-0',
        point: 'mid-batch',
        afterRecords: 3,
        nth: 2,
      },
    ],
  };
}

/**
 * Each guarantee's recipe (./guaranteeRecipes.ts) as `applyGuarantee` sets it on the base, written
 * out: applying it needs the schemas' keys (zod), which this family — the default preset's, and
 * an embed's of these three — then loads without (issue 31). foundation.test.ts checks each
 * variant is `applyGuarantee(foundationBase(), g)` exactly.
 */
const RECIPE_ON_BASE: Record<Guarantee, Pick<ScenarioInput, 'producer' | 'processor' | 'sink'>> = {
  'at-most-once': {
    producer: { acks: '0', 'enable.idempotence': false, app: { onFailure: 'skip' } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      commit: 'before-processing',
      onStatementError: 'skip',
    },
    sink: { type: 'table', retries: 0 },
  },
  'at-least-once': {
    producer: { acks: 'all', 'enable.idempotence': false, app: { onFailure: 'resend' } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      commit: 'after-processing',
      onStatementError: 'retry',
    },
    sink: { type: 'table', statement: 'insert', retries: 3 },
  },
  'exactly-once': {
    producer: { acks: 'all', 'enable.idempotence': true, app: { onFailure: 'resend' } },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      commit: 'after-processing',
      onStatementError: 'retry',
    },
    sink: {
      type: 'table',
      statement: 'on-conflict-do-update',
      set: 'excluded',
      key: 'business-id',
      retries: 3,
    },
  },
};

/** The guarantee's recipe on the base; named as the page's scenario picker names it (the title). */
function variant(g: Guarantee, name: string, expect: ScenarioInput['expect']): ScenarioInput {
  const base = foundationBase();
  const recipe = RECIPE_ON_BASE[g];
  const s = {
    ...base,
    producer: { ...base.producer, ...recipe.producer },
    processor: { ...base.processor, ...recipe.processor },
    sink: { ...base.sink, ...recipe.sink },
    claim: g,
  } as ScenarioInput;
  return { ...s, name, expect };
}

const sources = [
  'https://kafka.apache.org/documentation/#semantics',
  'https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence',
  'https://kafka.apache.org/documentation/#consumerapi',
  'https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT',
];

/*
 * Expected outcomes, by hand:
 * at-most-once — acks=0: there is no acknowledgement to lose, the log holds p-1..p-20. Commit
 *   before processing, 5 per poll: batch 1 (p-1..p-5) commits offset 5 and is written; batch 2
 *   (p-6..p-10) commits offset 10, writes p-6..p-8 and crashes; the restart resumes at 10, so
 *   p-9 and p-10 are never written. 18 rows, sum 2,100 − 90 − 100 = 1,910, 2 lost.
 * at-least-once — idempotence off, one request in flight: p-4's retry (after 30 s) appends p-4
 *   again at offset 4, and p-5..p-20 follow (21 records). Batches of 5: [p-1..p-4, p-4′] is
 *   written and committed; [p-5..p-9] writes p-5..p-7 and crashes before its commit; the restart
 *   replays from offset 5. Rows: 21 + 3 = 24; duplicates p-4, p-5, p-6, p-7 = 4;
 *   sum 2,100 + 40 + 50 + 60 + 70 = 2,320.
 * effectively-once — the idempotent producer's retry is recognised: 20 records. Batch 2 is
 *   p-6..p-10; p-6..p-8 are written twice, but the second write is an upsert of the same row:
 *   20 rows, sum 2,100, 0 duplicates, 0 lost.
 */
export const foundationPresets: Preset[] = [
  {
    id: 'at-most-once',
    title: 'At-most-once: commit first, never retry',
    group: 'guarantees',
    oneLine:
      'Fire-and-forget producer, offsets committed before processing: a crash loses the rest of the batch.',
    illustrates: 'at-most-once',
    setup:
      'A producer sends 20 payments, p-1..p-20 ($10, $20, … $200), to Kafka with acks=0: it never waits for an answer, so the lost acknowledgement marked on p-4 changes nothing. A consumer polls 5 records at a time, commits its offset as soon as it has polled, then writes the batch to Postgres. It will crash in its 2nd batch, p-6..p-10, after writing 3 of its 5 records, and restart from its committed offset.',
    story:
      'A payments consumer commits its offsets as soon as it has polled, then writes the batch to Postgres. Its producer sends with acks=0. When the consumer dies half-way through a batch, the restart begins after the batch: the payments it had not written yet are gone, and nothing shows an error.',
    watch:
      'The committed-offset marker jumps ahead of the rows; after the crash the consumer resumes past p-9 and p-10.',
    fix: 'Try: set processor.commit to after-processing → nothing is lost, but a crash now replays (at-least-once).',
    predict: {
      needs: [
        '20 payments',
        'acks=0',
        '5 records at a time',
        'commits its offset as soon as it has polled',
        '2nd batch, p-6..p-10',
        '3 of its 5 records',
      ],
      question: 'How many of the 20 payments reach the table?',
      answer: '18: p-9 and p-10 were committed but never written.',
      mark: { kind: 'numbers', values: [{ value: 18, what: 'payments' }] },
    },
    sources,
    variants: [
      {
        id: 'default',
        label: 'at-most-once',
        summary: 'acks=0, commit before processing',
        scenario: variant('at-most-once', 'At-most-once: commit first, never retry', {
          totals: { rows: 18, duplicates: 0, lost: 2, sum: 1910 },
          rows: { 'p-9': 0, 'p-10': 0, 'p-8': 1 },
          observed: 'at-most-once',
        }),
        // acks=0: no acknowledgement to lose (the setup says so).
        neverFires: ['lost ack'],
      },
    ],
  },
  {
    id: 'at-least-once',
    title: 'At-least-once: retry everything, dedupe nothing',
    group: 'guarantees',
    oneLine:
      'Retries without idempotence and commits after the write: nothing is lost, some payments land twice.',
    illustrates: 'at-least-once',
    setup:
      'The same 20 payments, p-1..p-20, sent with acks=all and retries, idempotence off. p-4’s acknowledgement will be lost, so after request.timeout.ms (30 s) the producer sends p-4 again. A consumer polls 5 records at a time and commits only after writing them with a plain INSERT; it will crash in its 2nd batch after writing 3 of its 5 records and restart from its last commit.',
    story:
      'The same pipeline, made safe against loss: the producer waits for acks=all and retries, and the consumer commits only after Postgres has the rows. A lost acknowledgement makes the producer write p-4 twice, and a crash between the write and the commit makes the consumer write a whole batch again.',
    watch: 'Two p-4 records in the log; after the crash, p-5..p-7 written a second time.',
    fix: 'Try: set sink.statement to on-conflict-do-update (an upsert on payment id) → 0 duplicates.',
    predict: {
      needs: [
        '20 payments',
        'idempotence off',
        'p-4',
        'sends p-4 again',
        '5 records at a time',
        'commits only after writing',
        '2nd batch',
        '3 of its 5 records',
      ],
      question: 'How many rows does the table end with?',
      answer:
        '24: p-4 twice (the producer retry) and p-5..p-7 twice (written, not committed, replayed after the crash).',
      mark: { kind: 'numbers', values: [{ value: 24, what: 'rows' }] },
    },
    sources,
    variants: [
      {
        id: 'default',
        label: 'at-least-once',
        summary: 'acks=all, retries, idempotence off, commit after writing',
        scenario: variant('at-least-once', 'At-least-once: retry everything, dedupe nothing', {
          totals: { rows: 24, duplicates: 4, lost: 0, sum: 2320 },
          rows: { 'p-4': 2, 'p-5': 2, 'p-7': 2, 'p-8': 1 },
          observed: 'at-least-once',
        }),
      },
    ],
  },
  {
    id: 'effectively-once',
    title: 'Effectively-once: at-least-once plus an idempotent write',
    group: 'guarantees',
    oneLine:
      'The same failures, absorbed: idempotent producer and an upsert keyed on the payment id.',
    illustrates: 'exactly-once',
    setup:
      'The same 20 payments, p-1..p-20, and the same two faults: the acknowledgement of p-4’s request is lost, and the consumer (5 records per poll, commit after writing) crashes in its 2nd batch, p-6..p-10, after writing 3 of its 5 records. Now the producer is idempotent and the consumer writes with INSERT … ON CONFLICT (id) DO UPDATE, id being the payment’s id.',
    formerSetups: [
      'The same 20 payments, p-1..p-20, and the same two faults: the acknowledgement of p-4’s request is lost, and the consumer (5 records per poll, commit after writing) crashes in its 2nd batch, p-6..p-10, after writing 3 of its 5 records. Now the producer is idempotent and the consumer writes with INSERT … ON CONFLICT (payment_id) DO UPDATE.',
    ],
    story:
      'The same lost acknowledgement and the same crash. The idempotent producer recognises its own retry, and the consumer still replays a batch after the crash — but it writes with INSERT … ON CONFLICT (id) DO UPDATE, so the replay overwrites the rows with the same values.',
    watch:
      'The broker answers the retried batch without appending it; the replayed batch shows as updates, not new rows.',
    fix: 'Try: set sink.key to uuid-per-attempt → the replay gets new keys and the duplicates come back.',
    predict: {
      needs: ['20 payments', 'p-4', 'idempotent', 'ON CONFLICT (id) DO UPDATE'],
      question: 'The consumer still writes p-6..p-8 twice. How many rows?',
      answer: '20: the second write of each is an update of the same row.',
      mark: { kind: 'numbers', values: [{ value: 20, what: 'rows' }] },
    },
    sources,
    variants: [
      {
        id: 'default',
        label: 'effectively-once',
        summary: 'idempotent producer, upsert on the business id',
        scenario: variant(
          'exactly-once',
          'Effectively-once: at-least-once plus an idempotent write',
          {
            totals: { rows: 20, duplicates: 0, lost: 0, sum: 2100 },
            observed: 'exactly-once',
          },
        ),
      },
    ],
  },
];
