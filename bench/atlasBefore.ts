/**
 * The single-fault atlas's CPU time per library preset variant (median of 3, seconds) before the
 * atlas's speed work (commit 332e7b6, this 2-core machine under a load average of 10–20 from
 * other work: wall times were 3–10× the CPU times; compare CPU, and expect ±30% noise). Atlases
 * of more than 2,000 placements were timed on 400 of them and extrapolated. bench/atlas.bench.ts prints each
 * preset's ratio to it.
 */
export const ATLAS_CPU_BEFORE: Readonly<Record<string, number>> = {
  'at-most-once/default': 0.36,
  'at-least-once/default': 0.28,
  'effectively-once/default': 0.19,
  'lost-ack-retry/idempotence-off': 0.13,
  'lost-ack-retry/idempotence-on': 0.17,
  'lost-ack-retry/acks-1': 0.06,
  'lost-ack-retry/retries-0': 0.05,
  'acks0-dropped-request/default': 0.05,
  'payment-resent-by-app/plain-insert': 0.05,
  'payment-resent-by-app/on-conflict-do-nothing': 0.05,
  'payment-resent-by-app/merge-per-record': 0.05,
  'payment-resent-by-app/merge-per-batch': 0.03,
  'payment-resent-by-app/merge-per-batch-unique-key': 0.07,
  'payment-resent-by-app/merge-dedupe-source': 0.03,
  'payment-resent-by-app/dedupe-table': 0.03,
  'flink-checkpoint-replay/plain-sink': 8.44,
  'flink-checkpoint-replay/upsert': 6.13,
  'flink-checkpoint-replay/2pc-read-committed': 19.85,
  'flink-checkpoint-replay/2pc-read-uncommitted': 18.25,
  'flink-checkpoint-replay/2pc-jdbc-xa': 8.09,
  'flink-checkpoint-replay/flushed-20-of-50': 7.13,
  'flink-commit-phase-crash/recovered-in-time': 12.98,
  'flink-commit-phase-crash/after-transaction-timeout': 12.58,
  'flink-commit-phase-crash/fail-on-expired': 12.84,
  'flink-commit-phase-crash/during-commit': 15.78,
  'flink-commit-phase-crash/timeout-left-unset': 2.71,
  'aborted-transaction-dirty-read/read-committed': 0.19,
  'aborted-transaction-dirty-read/read-uncommitted': 0.1,
  'aborted-transaction-dirty-read/open-transaction': 0.11,
  'commit-before-process/default': 0.09,
  'commit-after-process/plain-insert': 0.09,
  'commit-after-process/on-conflict-do-nothing': 0.08,
  'commit-after-process/additive-upsert': 0.09,
  'consume-transform-produce/read-committed': 0.36,
  'consume-transform-produce/read-uncommitted': 0.21,
  'consume-transform-produce/after-commit-decision': 0.18,
  'spark-batch-replay/append': 0.19,
  'spark-batch-replay/delta-txn': 0.13,
  'spark-batch-replay/merge': 0.15,
  'spark-batch-replay/file-sink': 0.11,
  'pipeline-generated-ids/random-id': 0.05,
  'pipeline-generated-ids/deterministic-id': 0.06,
  'pipeline-generated-ids/offset-id': 0.08,
  'merge-duplicate-source/key-exists': 0.01,
  'merge-duplicate-source/new-key': 0.01,
  'merge-duplicate-source/new-key-unique': 0.01,
  'merge-duplicate-source/insert-only': 0.01,
  'merge-duplicate-source/source-deduped': 0.01,
  'merge-duplicate-source/source-deduped-new-key': 0.01,
  'card-charge-idempotency/stable-key': 0.0,
  'card-charge-idempotency/key-per-attempt': 0.0,
  'card-charge-idempotency/after-retention': 0.01,
  'card-charge-idempotency/changed-amount': 0.0,
  'card-charge-idempotency/email-in-operator': 30.7,
  'retry-storm/idempotence-off': 454.92,
  'retry-storm/idempotence-on': 412.84,
  'auto-commit-crash/handoff': 1.66,
  'auto-commit-crash/process-before-poll': 2.09,
  'rebalance-midflight/plain-insert': 0.05,
  'rebalance-midflight/upsert': 0.03,
  'poll-timeout-slow-batch/plain-insert': 0.14,
  'poll-timeout-slow-batch/longer-interval': 0.07,
  'poll-timeout-slow-batch/upsert': 0.07,
  'zombie-consumer/plain-insert': 0.04,
  'zombie-consumer/on-conflict-do-nothing': 0.09,
  'zombie-consumer/transactional': 0.28,
};

/**
 * The page's single-fault atlas before its speed work in the page (commit fd01bd8; fresh workers
 * per atlas, the second started only after planning, one fixed slice each): click → heat map
 * drawn, median of 3 in headless Chromium, ms, on this 2-core machine under a load average of ~12.
 * bench/ui.bench.ts prints each beside today's figure.
 */
export const ATLAS_PAGE_BEFORE: Readonly<Record<string, number>> = {
  'at-least-once/default': 2565,
  'at-most-once/default': 1832,
  'card-charge-idempotency/stable-key': 981,
  'flink-checkpoint-replay/plain-sink': 19610,
};
