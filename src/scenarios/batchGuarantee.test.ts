/**
 * The guarantee switch on a batch preset: the recipe's knobs land in the `batch` part (the
 * engine's applyBatchGuarantee, docs/semantics/batch.md#the-guarantee-switch), the switched
 * scenario runs through the batch engine to the counts derived by hand, and the recipe check
 * finds the knobs following the recipe afterwards.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, runBatch, type ScenarioInput } from '../engine';
import { applyGuarantee, findPreset, recipeDifferences } from '.';

const totalsOf = (s: ScenarioInput) => {
  const parsed = parseScenario(s);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const t = runBatch(parsed.scenario).verdict.totals;
  return { rows: t.rows, duplicates: t.duplicates, lost: t.lost, sum: t.observedSum };
};
const variant = (ref: string) => findPreset(ref)!.variant.scenario;

describe('the guarantee switch on a batch job', { timeout: 30_000 }, () => {
  it('exactly-once: the window pinned and the logical date overwritten — the clock re-run is exact', () => {
    // clear-rerun-window/clock-overwrite (src/scenarios/library/batch.ts): pinned, the re-run of
    // 2024-03-10 reads e1..e3 again and replaces its own partition: 5 rows, sum 10+20+30+100+200.
    // "The tasks should produce the same outcome on every re-run":
    // https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task
    const s = applyGuarantee(variant('clear-rerun-window/clock-overwrite'), 'exactly-once');
    expect(s.claim).toBe('exactly-once');
    expect(s.batch).toMatchObject({
      window: 'pinned',
      task: { retries: 2 },
      write: { mode: 'overwrite-partition', partitionBy: 'logical-date', atomic: true },
    });
    expect(totalsOf(s)).toEqual({ rows: 5, duplicates: 0, lost: 0, sum: 360 });
    expect(recipeDifferences(s, 'exactly-once')).toEqual([]);
  });

  it('at-least-once: append, and the window pinned too — the re-run appends its own day again', () => {
    // "Read and write in a specific partition. Never read the latest available data in a task"
    // (https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task):
    // the recipe pins the window whatever the guarantee. The clear of 2024-03-10 at 2024-03-13
    // 01:00 then reads e1..e3 again (not f1, f2) and appends them: 3 + 0 + 2 scheduled rows and
    // e1..e3 again — 8 rows, 3 duplicates, none lost, 360 + 60 = 420; nothing under the wrong
    // partition. (With the clock window kept it appended f1, f2 under 2024-03-10 instead.)
    const s = applyGuarantee(variant('clear-rerun-window/clock-overwrite'), 'at-least-once');
    expect(s.batch).toMatchObject({
      window: 'pinned',
      task: { retries: 2 },
      write: { mode: 'append', partitionBy: 'logical-date', atomic: true },
    });
    expect(totalsOf(s)).toEqual({ rows: 8, duplicates: 3, lost: 0, sum: 420 });
    expect(recipeDifferences(s, 'at-least-once')).toEqual([]);
  });

  it('at-most-once: no retries — the retried append of S21 writes the day once, and stops', () => {
    // airflow-retry-append/append: try 1 commits e1..e10 then fails; retries 0: no try 2.
    const s = applyGuarantee(variant('airflow-retry-append/append'), 'at-most-once');
    expect(s.batch).toMatchObject({ task: { retries: 0 }, write: { mode: 'append' } });
    expect(totalsOf(s)).toEqual({ rows: 10, duplicates: 0, lost: 0, sum: 550 });
    // The shipped variant (retries 1, append) differs from the recipe in one knob.
    expect(recipeDifferences(variant('airflow-retry-append/append'), 'at-most-once')).toEqual([
      expect.objectContaining({ path: 'batch.task.retries', value: 0 }),
    ]);
  });
});

describe('the recipe check on a batch file without workload', () => {
  it('counts a knob left unset as its default: write.atomic and write.partitionBy follow the recipe', () => {
    // docs/format.md#batch-jobs: "`workload` may then be left out". The job writes with
    // dbt-incremental and sets neither write.atomic (default true) nor write.partitionBy (default
    // logical-date), both what the exactly-once recipe sets: only write.mode differs (the recipe
    // overwrites the partition). Left unparsed for want of a workload, the two defaults read as
    // unset and differed too ("3 knobs differ … (write.mode, write.atomic, write.partitionBy)").
    const s: ScenarioInput = {
      version: 1,
      name: 'dbt incremental, no workload',
      claim: 'exactly-once',
      batch: {
        task: { retries: 2 },
        write: { mode: 'dbt-incremental', uniqueKey: true },
        source: [{ id: 'o1', date: '2024-03-10' }],
      },
    } as ScenarioInput;
    expect(recipeDifferences(s, 'exactly-once').map((k) => k.path)).toEqual(['batch.write.mode']);
    expect(recipeDifferences(s, 'at-least-once').map((k) => k.path)).toEqual(['batch.write.mode']);
  });
});

describe('the recipes and a dedupe store in front of the write', () => {
  // dedupe-ttl-expired/ttl-7-days (src/scenarios/library/batchDedupe.ts): append behind Redis
  // SET NX EX 604800, e1..e10 written once at 03-11 00:01, 2024-03-10 cleared at 03-13 00:00.
  const job = () => variant('dedupe-ttl-expired/ttl-7-days');
  it('exactly-once drops the store: an overwrite behind it, re-run while the claims live, emptied the partition', () => {
    // Kept, the re-run skipped all ten claimed rows and its INSERT OVERWRITE replaced the
    // partition with none: 0 rows, 10 lost. Without it the re-run overwrites 2024-03-10 with
    // e1..e10 again: 10 rows, sum 550 — the recipe's own idempotence.
    const s = applyGuarantee(job(), 'exactly-once');
    expect(s.batch?.dedupe).toBeUndefined();
    expect(totalsOf(s)).toEqual({ rows: 10, duplicates: 0, lost: 0, sum: 550 });
    expect(recipeDifferences(s, 'exactly-once')).toEqual([]);
    expect(recipeDifferences(job(), 'exactly-once').map((k) => k.path)).toEqual([
      'batch.task.retries',
      'batch.write.mode',
      'batch.dedupe',
    ]);
  });
  it('at-least-once drops it too ("dedupe nothing"): claim then write loses a row crashed between its claim and its write', () => {
    // The clear re-runs 03-10 and appends e1..e10 again: 20 rows, sum 1,100, 10 duplicates.
    const s = applyGuarantee(job(), 'at-least-once');
    expect(s.batch?.dedupe).toBeUndefined();
    expect(totalsOf(s)).toEqual({ rows: 20, duplicates: 10, lost: 0, sum: 1100 });
  });
  it('at-most-once keeps it: a claim taken before the write is at most once', () => {
    const s = applyGuarantee(job(), 'at-most-once');
    expect(s.batch?.dedupe).toEqual({
      store: 'redis',
      ttlMs: 604_800_000,
      order: 'claim-then-write',
    });
    expect(totalsOf(s)).toEqual({ rows: 10, duplicates: 0, lost: 0, sum: 550 });
  });
});
