/**
 * The library preset of a lost acknowledgement retried with and without idempotence (S01): the
 * issue's reference embed (`?embed&preset=lost-ack-retry/acks-1`, README), a family of its own
 * (src/scenarios/presetFamilies.ts) because a family's module is loaded whole — with the other
 * producer presets' stories (./producer.ts) it cost its embed 3 kB gzip more (issue 31).
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, ids } from './helpers';
import { sourceUrls } from './sources';

/** S01's pipeline: e1..e10 (amount 10·i) at i·100 ms, one request in flight, retries on. */
function lostAck(
  name: string,
  producer: ScenarioInput['producer'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'events', generate: { count: 10, startAtMs: 100, intervalMs: 100 } },
    producer: {
      retries: 2147483647,
      'max.in.flight.requests.per.connection': 1,
      'request.timeout.ms': 30_000,
      ...producer,
    },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', name: 'events' },
    faults: [{ id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e3' } }],
    expect,
  };
}

/*
 * lost-ack-retry — docs/semantics/scenarios.md#s01-lost-acknowledgement. By hand:
 * e1..e10 (10..100, true sum 550) are sent at 100, 200, …, 1000 ms. The broker appends e3 at
 * offset 2 and its produce response is dropped. With max.in.flight = 1 nothing else is sent while
 * e3's request is outstanding; after request.timeout.ms (30 s) the producer retries the same batch.
 * The consumer (commit after writing, plain INSERT) copies every log record into the table.
 * - idempotence-off (enable.idempotence=false): "this automatic retry will simply resend the same
 *   record" [K-PCFG] and nothing dedupes it: e3 is appended again at offset 3, then e4..e10.
 *   Log and table: 11 rows, e3 = 2, sum 550 + 30 = 580, 1 duplicate, 0 lost.
 * - idempotence-on (defaults): the retry carries the same producer id, epoch and sequence (2); the
 *   broker recognises it and answers without appending [K-DES]. 10 rows, 550, 0, 0.
 * - acks-1 (acks=1, idempotence unset): acks≠all conflicts with idempotence, which was not set
 *   explicitly, so it is silently disabled [K-PCFG] — the same as idempotence-off: 11, 580, 1, 0.
 * - retries-0 (retries=0, idempotence unset): idempotence silently off and no retry. After 30 s
 *   the request times out and the error reaches the application, which logs it and moves on. The
 *   log still holds the one e3 the broker wrote: 10 rows, 550, 0, 0 — and verdict.falseFailures
 *   = ['e3'] (the app believes e3 failed; library.test.ts checks it, expect has no field for it).
 */
const lostAckRetry: Preset = {
  id: 'lost-ack-retry',
  title: 'A lost acknowledgement, retried',
  group: 'producer',
  oneLine:
    'The broker wrote e3, the answer never came back, the producer sent it again: is it in the log once or twice?',
  illustrates: 'at-least-once',
  setup:
    'An order service writes ten events, e1..e10, worth $10, $20, … $100 (sum 550), to Kafka; a consumer copies every record of the topic into a table. The broker will store e3 ($30), but its acknowledgement will be lost on the way back, so after its request timeout (30 s) the producer sends e3 again.',
  story:
    'An order service writes ten events to Kafka. The broker stores e3, but its acknowledgement is lost on the way back, so after 30 seconds the producer sends e3 again. Whether the log ends up with one e3 or two depends on a single setting, and on two others that can switch it off without a word.',
  watch:
    'The dropped response under e3, the retry 30 s later, and whether the broker appends it at offset 3 or answers "duplicate" without writing.',
  fix: 'Try: remove enable.idempotence=false (or acks=1) from the producer → the broker recognises the retry by its sequence number: 0 duplicates.',
  predict: {
    needs: ['ten events', 'sum 550', 'e3 ($30)', 'sends e3 again'],
    question:
      'With enable.idempotence=false, how many rows does the table end with, and what is their sum?',
    answer:
      '11 rows summing to 580: the retry appended e3 a second time, and the consumer copied both.',
    mark: {
      kind: 'numbers',
      values: [
        { value: 11, what: 'rows' },
        { value: 580, what: 'sum' },
      ],
    },
  },
  sources: sourceUrls('K-PCFG', 'K-DES', 'K-UPG'),
  variants: [
    {
      id: 'idempotence-off',
      label: 'idempotence off',
      summary: 'enable.idempotence=false: the retry appends e3 again',
      scenario: lostAck(
        'A lost acknowledgement, retried — idempotence off',
        { 'enable.idempotence': false },
        {
          totals: { rows: 11, duplicates: 1, lost: 0, sum: 580 },
          rows: { ...each(ids(1, 10), 1), e3: 2 },
          observed: 'at-least-once',
          points: { 'log:events': { totals: { rows: 11, duplicates: 1 } } },
        },
      ),
    },
    {
      id: 'idempotence-on',
      label: 'idempotence on (default)',
      summary: 'Kafka ≥ 3.2 defaults: the broker drops the retry by its sequence number',
      scenario: lostAck(
        'A lost acknowledgement, retried — idempotence on (default)',
        {},
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 10), 1),
          observed: 'exactly-once',
          points: { 'log:events': { totals: { rows: 10, duplicates: 0 } } },
        },
      ),
    },
    {
      id: 'acks-1',
      label: 'acks=1',
      summary: 'acks=1 with idempotence unset silently turns idempotence off',
      scenario: lostAck(
        'A lost acknowledgement, retried — acks=1',
        { acks: '1' },
        {
          totals: { rows: 11, duplicates: 1, lost: 0, sum: 580 },
          rows: { ...each(ids(1, 10), 1), e3: 2 },
          observed: 'at-least-once',
          points: { 'log:events': { totals: { rows: 11, duplicates: 1 } } },
        },
      ),
    },
    {
      id: 'retries-0',
      label: 'retries=0',
      summary: 'no retry: e3 is in the log once, but the application is told it failed',
      scenario: lostAck(
        'A lost acknowledgement, retried — retries=0',
        { retries: 0 },
        {
          totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
          rows: each(ids(1, 10), 1),
          observed: 'exactly-once',
          points: { 'log:events': { totals: { rows: 10, duplicates: 0 } } },
        },
      ),
    },
  ],
};

/** The lost-acknowledgement preset (the producer group's first, in library order). */
export const lostAckRetryPresets = { lostAckRetry };
