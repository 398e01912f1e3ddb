/**
 * Library presets whose outcome is decided by how the sink writes: a key generated during
 * processing cannot collapse a replay (S18), and MERGE with the same key twice in its source
 * (S19).
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { commitAfter } from './consumer';
import { each, ids } from './helpers';
import { sourceUrls } from './sources';

// ------------------------------------------------------------------ pipeline-generated-ids (S18)

/** S13's replay into INSERT … ON CONFLICT (<key>) DO NOTHING, with the key column of the variant
 * (src/engine/sinks/keyColumns.ts: `uuid`, `id` or `src`, as the sink's card and SQL name it). */
function generatedIds(
  name: string,
  key: 'uuid-per-attempt' | 'business-id' | 'source-offset',
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return commitAfter(
    name,
    { type: 'table', name: 'events', statement: 'on-conflict-do-nothing', key },
    expect,
  );
}

/*
 * pipeline-generated-ids — docs/semantics/scenarios.md#s18-pipeline-generated-keys. By hand, with S13's consumer
 * and fault (5 per poll, commit after writing, crash before the 2nd commit, so e6..e10 are written
 * twice) and a sink INSERT … ON CONFLICT (row_id) DO NOTHING where event_id is stored but not
 * unique:
 * - random-id (row_id = uuid4() each time a record is processed): the replay makes new ids, no
 *   conflict occurs (R5): e6..e10 = 2: 15 rows, sum 950, 5 duplicates.
 * - deterministic-id (row_id = event_id): the replayed rows conflict: 10 rows, 550.
 * - offset-id (row_id = uuid5(topic/partition/offset), S18.b's second option): the replay reads
 *   the same offsets, so the same ids: 10 rows, 550.
 */
const pipelineGeneratedIds: Preset = {
  id: 'pipeline-generated-ids',
  title: 'Insert-if-absent keyed on an id the pipeline makes up',
  group: 'sink',
  oneLine:
    'ON CONFLICT only helps if a replay produces the same key: a fresh UUID per attempt never conflicts.',
  illustrates: 'at-least-once',
  setup:
    'A consumer reads ten events, e1..e10, 5 at a time, writes them with INSERT … ON CONFLICT (uuid) DO NOTHING, where uuid is a new uuid4() made each time a record is processed, then commits. It will crash after writing its 2nd batch, before committing it, so that batch of 5 is processed again.',
  formerSetups: [
    'A consumer reads ten events, e1..e10, 5 at a time, writes them with INSERT … ON CONFLICT (row_id) DO NOTHING, where row_id is a new uuid4() made each time a record is processed, then commits. It will crash after writing its 2nd batch, before committing it, so that batch of 5 is processed again.',
  ],
  story:
    'A team made its consumer "idempotent" by writing with INSERT … ON CONFLICT DO NOTHING on a uuid column — filled with a new UUID each time a record is processed. After a crash replayed a batch, the replayed rows arrived with new UUIDs, nothing conflicted, and every event of the batch was in the table twice.',
  watch:
    'The replayed e6..e10 arriving at the sink: with random ids they become new rows; with ids derived from the event or its offset they hit the conflict and are skipped.',
  fix: 'Try: set sink.key to business-id (or source-offset) → the replay produces the same keys: 0 duplicates.',
  predict: {
    needs: [
      '5 at a time',
      'ON CONFLICT (uuid) DO NOTHING',
      'new uuid4() made each time a record is processed',
      'batch of 5 is processed again',
    ],
    question:
      'The sink is INSERT … ON CONFLICT (uuid) DO NOTHING and uuid = uuid4(). A batch of 5 is replayed. How many duplicates?',
    answer: '5: each replayed record got a new uuid, so no insert conflicted.',
    mark: { kind: 'numbers', values: [{ value: 5, what: 'duplicates' }] },
  },
  sources: sourceUrls('PG-INS', 'K-DES', 'AF-BP'),
  variants: [
    {
      id: 'random-id',
      label: 'random id per attempt',
      summary: 'uuid = uuid4() at processing time: the replay gets new keys',
      scenario: generatedIds(
        'Insert-if-absent keyed on an id the pipeline makes up — random id per attempt',
        'uuid-per-attempt',
        {
          totals: { rows: 15, duplicates: 5, lost: 0, sum: 950 },
          rows: { ...each(ids(1, 5), 1), ...each(ids(6, 10), 2) },
          observed: 'at-least-once',
        },
      ),
    },
    {
      id: 'deterministic-id',
      label: 'deterministic id',
      summary: 'keyed on the event’s id (id): the replay conflicts and is skipped',
      scenario: generatedIds(
        'Insert-if-absent keyed on an id the pipeline makes up — deterministic id',
        'business-id',
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 10), 1),
          observed: 'exactly-once',
        },
      ),
    },
    {
      id: 'offset-id',
      label: 'id from the source offset',
      summary: 'keyed on the source offset (src): the same offsets give the same keys',
      scenario: generatedIds(
        'Insert-if-absent keyed on an id the pipeline makes up — id from the source offset',
        'source-offset',
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 10), 1),
          observed: 'exactly-once',
        },
      ),
    },
  ],
};

// ------------------------------------------------------------------ merge-duplicate-source (S19)

type MergeClause = 'update' | 'do-nothing' | 'none';

/**
 * S19's table `orders` = {o1: 100}, and one MERGE whose source is the listed rows: they are in the
 * log before the consumer starts, so its one poll batch is the MERGE's `USING src`.
 */
function mergeSource(
  name: string,
  src: [string, number][],
  merge: { whenMatched: MergeClause; dedupeSource?: boolean },
  expect: ScenarioInput['expect'],
  uniqueKey?: boolean,
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: {
      topic: 'orders',
      events: src.map(([id, amount], k) => ({ id, amount, at: 10 * (k + 1) })),
    },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
    },
    sink: {
      type: 'table',
      name: 'orders',
      statement: 'merge',
      statementPer: 'batch',
      merge,
      ...(uniqueKey === undefined ? {} : { uniqueKey }),
      initialRows: [{ id: 'o1', amount: 100 }],
    },
    expect,
  };
}

const existingTwice: [string, number][] = [
  ['o1', 120],
  ['o1', 130],
  ['o2', 50],
];
const newTwice: [string, number][] = [
  ['o3', 70],
  ['o3', 70],
];

/*
 * merge-duplicate-source — docs/semantics/scenarios.md#s19-merge-with-a-duplicated-source-key. The statement is MERGE INTO
 * orders t USING src s ON t.order_id = s.order_id WHEN MATCHED THEN UPDATE SET amount = s.amount
 * WHEN NOT MATCHED THEN INSERT; the table starts as {o1: 100}; an id listed twice in the workload
 * is the source emitting that key twice. The consumer stops on a statement error
 * (onStatementError=halt), so a failed MERGE leaves the table as it was: S19's "for this attempt".
 * Totals count every table row, including o1's initial row; rows per id count o1's row as o1's.
 * By hand [PG-MRG]:
 * - key-exists (src (o1,120), (o1,130), (o2,50)): target o1 is joined to two source rows and the
 *   second UPDATE is a cardinality violation; the whole statement rolls back, o2 included. Table
 *   {o1: 100}: 1 row, sum 100, 0 duplicates, 1 lost (o2).
 * - new-key (src (o3,70) twice, no unique constraint): both are NOT MATCHED, both inserted (A11):
 *   {o1: 100, o3: 70, o3: 70}: 3 rows, 240, 1 duplicate (o3 = 2). Delta enforces no key, same.
 * - new-key-unique (as new-key, order_id a primary key): the second INSERT is a uniqueness
 *   violation, the statement fails: {o1: 100}: 1 row, 100, 1 lost (o3).
 * - insert-only (no WHEN MATCHED clause, src (o1,120), (o1,130)): no modification is attempted,
 *   so no error (A12); the table is unchanged: 1 row, 100, nothing lost.
 * - source-deduped (S19 a′: key-exists with DISTINCT ON (order_id), keeping the last by ingest
 *   order): src (o1,130), (o2,50): {o1: 130, o2: 50}: 2 rows, 180.
 * - source-deduped-new-key (S19 b′: new-key deduplicated): {o1: 100, o3: 70}: 2 rows, 170.
 */
const mergeDuplicateSource: Preset = {
  id: 'merge-duplicate-source',
  title: 'MERGE with the same key twice in its source',
  group: 'sink',
  oneLine:
    'MERGE decides MATCHED once per source row: a duplicated key is an error, or two inserts, depending on the target.',
  illustrates: 'exactly-once',
  setup:
    'An orders job upserts each micro-batch into Postgres with one MERGE: WHEN MATCHED THEN UPDATE, WHEN NOT MATCHED THEN INSERT. The table holds {o1: 100}. The next batch holds (o1, 120), (o1, 130) and a new order (o2, 50): the upstream system sent o1 twice.',
  story:
    'An orders job upserts each micro-batch with one MERGE. One day an upstream system sent order o1 twice in the same batch: Postgres refused the whole statement, and a new order in that batch went missing with it. A week later a new order arrived twice in one batch and was simply inserted twice, because nothing in the target matched yet.',
  watch:
    'The single MERGE statement per batch: failing and rolling back whole, inserting both copies, or doing nothing, depending on the variant.',
  fix: 'Try: deduplicate the source first (merge.dedupeSource, DISTINCT ON order_id) → each key once per statement: no error, no duplicate.',
  predict: {
    needs: ['one MERGE', '{o1: 100}', '(o1, 120), (o1, 130)', '(o2, 50)'],
    question:
      'The target has o1. The batch holds (o1,120), (o1,130) and a new order o2. What does the table hold after the MERGE?',
    answer:
      'Only {o1: 100}. The second update of o1 is a cardinality violation, the statement rolls back, and o2 is lost with it.',
    mark: {
      kind: 'choice',
      options: [
        {
          id: 'rolled-back',
          text: 'Only {o1: 100}: the MERGE fails, and o2 is lost with it',
          right: true,
        },
        {
          id: 'last-wins',
          text: '{o1: 130, o2: 50}: the last update of o1 wins',
          whyNot:
            'PostgreSQL’s MERGE may not change one target row twice: the second match is an error (a cardinality violation), not a later write.',
        },
        {
          id: 'first-wins',
          text: '{o1: 120, o2: 50}: the second update of o1 is skipped',
          whyNot:
            'MERGE does not skip a second source row that matches the same target row: it fails the whole statement.',
        },
        {
          id: 'o1-only',
          text: '{o1: 120}: o1 is updated, o2 is refused',
          whyNot:
            'A failed statement is rolled back whole: nothing of it is kept, o1’s update included.',
        },
      ],
    },
  },
  sources: sourceUrls('PG-MRG', 'D-MERGE', 'PG-INS'),
  variants: [
    {
      id: 'key-exists',
      label: 'the key exists in the target',
      summary: 'two source rows update o1: cardinality violation, the whole statement fails',
      scenario: mergeSource(
        'MERGE with the same key twice in its source — the key exists in the target',
        existingTwice,
        { whenMatched: 'update' },
        {
          totals: { rows: 1, duplicates: 0, lost: 1, sum: 100 },
          rows: { o1: 1, o2: 0 },
          observed: 'at-most-once',
        },
      ),
    },
    {
      id: 'new-key',
      label: 'a new key, no unique constraint',
      summary: 'both copies are NOT MATCHED: both inserted',
      scenario: mergeSource(
        'MERGE with the same key twice in its source — a new key, no unique constraint',
        newTwice,
        { whenMatched: 'update' },
        {
          totals: { rows: 3, duplicates: 1, lost: 0, sum: 240 },
          rows: { o3: 2 },
          observed: 'at-least-once',
        },
      ),
    },
    {
      id: 'new-key-unique',
      label: 'a new key, unique constraint',
      summary: 'the second insert is a uniqueness violation: the statement fails',
      scenario: mergeSource(
        'MERGE with the same key twice in its source — a new key, unique constraint',
        newTwice,
        { whenMatched: 'update' },
        {
          totals: { rows: 1, duplicates: 0, lost: 1, sum: 100 },
          rows: { o3: 0 },
          observed: 'at-most-once',
        },
        true,
      ),
    },
    {
      id: 'insert-only',
      label: 'insert-only MERGE',
      summary: 'no WHEN MATCHED clause: nothing is modified, no error',
      scenario: mergeSource(
        'MERGE with the same key twice in its source — insert-only MERGE',
        [
          ['o1', 120],
          ['o1', 130],
        ],
        { whenMatched: 'none' },
        {
          totals: { rows: 1, duplicates: 0, lost: 0, sum: 100 },
          rows: { o1: 1 },
          observed: 'exactly-once',
        },
      ),
    },
    {
      id: 'source-deduped',
      label: 'source deduplicated',
      summary: 'DISTINCT ON (order_id) first, keeping the last: o1 → 130, o2 inserted',
      scenario: mergeSource(
        'MERGE with the same key twice in its source — source deduplicated',
        existingTwice,
        { whenMatched: 'update', dedupeSource: true },
        {
          totals: { rows: 2, duplicates: 0, lost: 0, sum: 180 },
          rows: { o1: 1, o2: 1 },
          observed: 'exactly-once',
        },
      ),
    },
    {
      id: 'source-deduped-new-key',
      label: 'source deduplicated, new key',
      summary: 'DISTINCT ON (order_id) first: o3 inserted once',
      scenario: mergeSource(
        'MERGE with the same key twice in its source — source deduplicated, new key',
        newTwice,
        { whenMatched: 'update', dedupeSource: true },
        {
          totals: { rows: 2, duplicates: 0, lost: 0, sum: 170 },
          rows: { o3: 1 },
          observed: 'exactly-once',
        },
      ),
    },
  ],
};

/** The sink presets, in library order. */
export const sinkPresets = { pipelineGeneratedIds, mergeDuplicateSource };
