/**
 * Library presets about effects outside every engine's exactly-once boundary: a card charge
 * retried with and without a stable Stripe idempotency key, and an email sent from a Flink
 * operator that is replayed after a restore (S25).
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, ids } from './helpers';
import { exactlyOnceKafkaSink, flinkJob, rcReader } from './processor';
import { sourceUrls } from './sources';

const HOUR = 3600 * 1000;

type EffectInput = Extract<NonNullable<ScenarioInput['sink']>, { type: 'effect' }>;

/**
 * S25 config A: a payment worker consumes p-77 (40) and charges the card; the first call is
 * executed but its response is lost, so the worker retries after its 30 s timeout.
 */
function charge(
  name: string,
  sink: Omit<EffectInput, 'type' | 'service'>,
  expect: ScenarioInput['expect'],
  stopAtMs?: number,
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    ...(stopAtMs === undefined ? {} : { stopAtMs }),
    workload: { topic: 'payments', events: [{ id: 'p-77', amount: 40, at: 0 }] },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'effect', service: 'card-charge', 'timeout.ms': 30_000, ...sink },
    faults: [
      { id: 'response lost', kind: 'drop-response', link: 'effect', match: { event: 'p-77' } },
    ],
    expect,
  };
}

const oneCharge = {
  totals: { rows: 1, duplicates: 0, lost: 0, sum: 40 },
  rows: { 'p-77': 1 },
  observed: 'exactly-once',
} as const;
const twoCharges = {
  totals: { rows: 2, duplicates: 1, lost: 0, sum: 80 },
  rows: { 'p-77': 2 },
  observed: 'at-least-once',
} as const;

/*
 * card-charge-idempotency — docs/semantics/scenarios.md#s25-side-effects-and-idempotency-keys. By hand:
 * Config A: the worker calls create-charge for p-77 (40) at ~0 s. The service executes it and
 * saves the result under the request's idempotency key; the response is lost. After its 30 s
 * timeout the worker waits retryDelayMs and retries [STRIPE: the saved result is returned for a
 * later request with the same key, keys may be pruned once at least 24 h old, different
 * parameters under one key are an error].
 * - stable-key (key charge-p-77 from the payment id, retry at ~40 s): the saved result is
 *   returned, no new charge: 1 charge, 40.
 * - key-per-attempt (a uuid4 per call): the retry is a new request: 2 charges, 80, 1 duplicate.
 * - after-retention (stable key, retry 30 h after the timeout; the run stops at 31 h): the key was
 *   pruned at exactly 24 h (docs/semantics/sinks.md#side-effects-and-idempotency-keys), so the retry is a new request: 2 charges, 80. The
 *   worker waits for its retry inside the poll loop, so 5 min in (max.poll.interval.ms) it leaves
 *   the group; after the retry its offset commit fails and it reads p-77 again: that third call
 *   carries the same key, saved by the retry, and is answered from the store — still 2 charges.
 * - changed-amount (stable key, the retry sends 45): parameters differ from the saved request, the
 *   service answers with an error and charges nothing: 1 charge, 40.
 * Config B, email-in-operator (S25.f): S07c's job — 250 events, crash after e201..e250, restore of
 * the checkpoint at offset 200, KafkaSink EXACTLY_ONCE read by rc — with a map() that sends one
 * email per record and no idempotency key. The sink side is S07c: rc reads 250 rows, 313,750.
 * The emails are outside Flink's state [F-FT]: e201..e250 are emailed before the crash and again
 * in the replay: 300 emails, e201..e250 = 2, 50 duplicates, sum 426,500.
 * Not reproduced: S25.e (a first attempt rejected by validation, so nothing is saved, then a fixed
 * retry with the same key executes: 1 charge). The scenario format has no fault for "the service
 * refused the request before executing it"; a dropped request gives the same count for a different
 * reason, so it is not offered as S25.e.
 */
const cardChargeIdempotency: Preset = {
  id: 'card-charge-idempotency',
  title: 'Charging a card exactly once',
  group: 'side effect',
  oneLine:
    'A retried charge is safe only with an idempotency key that is stable, unexpired, and sent with the same amount.',
  illustrates: 'exactly-once',
  setup:
    'A payment worker charges the card for payment p-77, $40, through Stripe and waits 30 seconds for the answer; without one it retries the charge. The charge will go through, but its response will be lost. The worker asked about makes a new idempotency key (a uuid4) for every attempt.',
  story:
    'A payment worker charges the card for p-77 through Stripe. The charge went through, but the response was lost after the worker’s 30-second timeout, so it retried. With a key derived from the payment id the retry simply got the first answer back; a worker that made up a new key per attempt charged the customer twice. A separate Flink job that emailed a receipt from inside an operator sent 50 receipts twice after a restore, although its Kafka output was exactly-once.',
  watch:
    'The lost response and the retry at the service: answered from the idempotency store, executed as a new charge, or refused; in the email variant, the emails counter against the reader’s rows.',
  fix: 'Try: the stable-key variant (idempotency key = charge-<payment id>, retried within 24 h) → 1 charge.',
  predict: {
    needs: [
      '$40',
      '30 seconds',
      'retries the charge',
      'response will be lost',
      'new idempotency key',
    ],
    question:
      'The charge succeeded but the response was lost. The worker retries with a new uuid4 as its idempotency key. How much is the customer charged?',
    answer: '$80: the new key makes the retry a new request, so p-77 is charged twice.',
    variant: 'key-per-attempt',
    mark: {
      kind: 'numbers',
      values: [
        {
          value: 80,
          what: 'charged',
          prefix: '$',
          alsoAs: { value: 2, units: ['charge', 'time'] },
        },
      ],
    },
  },
  sources: sourceUrls('STRIPE-API', 'STRIPE', 'F-FT', 'F-KAF'),
  variants: [
    {
      id: 'stable-key',
      label: 'stable key',
      summary: 'key charge-p-77, retried after 10 s: the saved result is returned',
      scenario: charge(
        'Charging a card exactly once — stable key',
        { idempotencyKey: 'business-id', retryDelayMs: 10_000 },
        oneCharge,
      ),
    },
    {
      id: 'key-per-attempt',
      label: 'key per attempt',
      summary: 'a fresh uuid4 per call: the retry is a new charge',
      scenario: charge(
        'Charging a card exactly once — key per attempt',
        { idempotencyKey: 'per-attempt', retryDelayMs: 10_000 },
        twoCharges,
      ),
    },
    {
      id: 'after-retention',
      label: 'retried after 30 h',
      summary: 'the key was pruned after 24 h: the retry charges again',
      scenario: charge(
        'Charging a card exactly once — retried after 30 h',
        { idempotencyKey: 'business-id', retryDelayMs: 30 * HOUR },
        twoCharges,
        31 * HOUR,
      ),
    },
    {
      id: 'changed-amount',
      label: 'changed amount',
      summary: 'same key, amount 45 on the retry: an error, no second charge',
      scenario: charge(
        'Charging a card exactly once — changed amount',
        { idempotencyKey: 'business-id', retryDelayMs: 10_000, retryAmountDelta: 5 },
        oneCharge,
      ),
    },
    {
      id: 'email-in-operator',
      label: 'email in a replayed operator',
      summary: 'a Flink map() sends an email per record: the replay after a restore emails again',
      scenario: flinkJob(
        'Charging a card exactly once — email in a replayed operator',
        exactlyOnceKafkaSink,
        [rcReader],
        { point: 'mid-batch', afterRecords: 50 },
        {
          totals: { rows: 250, duplicates: 0, lost: 0, sum: 313_750 },
          rows: { e1: 1, e200: 1, e201: 1, e250: 1 },
          // The Kafka output is exactly-once, but the emails (the operator's side effect) went out
          // twice for e201..e250: the run as a whole is at-least-once.
          observed: 'at-least-once',
          points: {
            effects: {
              totals: { rows: 300, duplicates: 50, lost: 0, sum: 426_500 },
              rows: { e1: 1, e200: 1, ...each(ids(201, 250), 2) },
            },
          },
        },
        { sideEffect: { service: 'email' } },
      ),
    },
  ],
};

/** The side-effect presets, in library order. */
export const sideEffectPresets = { cardChargeIdempotency };
