/**
 * `delivery-lab from-config`: the report ends with the guarantee end to end and the single-fault
 * atlas of the built scenario — which single fault breaks this configuration.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromConfigCommand } from './fromConfig';
import { captured } from './cliTesting';

const examples = 'src/scenarios/config/examples';

const cli = (argv: string[]) => captured(fromConfigCommand, argv);

describe('from-config: the atlas line', () => {
  it('a transactional producer on the lost-ack story: exactly-once end to end; the first single fault that breaks it is an application re-send', () => {
    const r = cli([`${examples}/transactional-producer.properties`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "guarantee end to end: exactly-once (under lost-ack-retry/idempotence-on's fault)",
    );
    // A re-send is a new record with a new sequence: neither idempotence nor a transaction
    // dedupes it (https://kafka.apache.org/documentation/#semantics).
    expect(r.out).toContain(
      'the first fault that breaks it: the application sends e1 again, as a new record (at 100 ms): duplicates',
    );
    const json = JSON.parse(
      cli([`${examples}/transactional-producer.properties`, '--format', 'json']).out,
    ) as { atlas: { breaks: string; survives: boolean } };
    expect(json.atlas.survives).toBe(false);
  }, 120_000);

  it('a producer that breaks the workload\'s claim: the claim is named as the base preset\'s, not "its"', () => {
    // acks=1, idempotence off on the lost-ack story (base lost-ack-retry/idempotence-on, which
    // claims exactly-once): the lost ack's retry appends e1 again — at-least-once
    // (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
    const r = cli([`${examples}/producer.properties`]);
    expect(r.err).toBe('');
    expect(r.out).toContain(
      "guarantee end to end: at-least-once (under lost-ack-retry/idempotence-on's fault); the lost-ack-retry/idempotence-on workload claims exactly-once, and with your settings it breaks",
    );
    expect(r.out).not.toContain('breaks its');
  }, 120_000);

  it('--skip-atlas leaves it out', () => {
    const r = cli([`${examples}/transactional-producer.properties`, '--skip-atlas']);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('single-fault atlas');
  }, 60_000);
});

describe('from-config: a workload fault that never fired tests nothing', () => {
  // flink-checkpoint-replay crashes the TaskManager once 50 records have been processed since the
  // last barrier, armed at 5 s, when e201..e250 arrive (src/scenarios/library/processor.ts). The
  // job starts at 1 s: with a 30 s interval no barrier comes before 31 s, so at 5 s the count since
  // the job's start is already past 200 and never equals 50 — a clean run, whose "exactly-once"
  // the fault never tested. Before this check the report claimed exactly-once, exit 0.
  const dir = mkdtempSync(join(tmpdir(), 'from-config-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, 'execution.checkpointing.interval: 30 s\n');

  it('says "not tested", names the fault, claims no guarantee, exit 3', () => {
    const r = cli([file, '--skip-atlas']);
    expect(r.err).toBe('');
    expect(r.code).toBe(3);
    expect(r.out).toContain(
      "guarantee end to end: not tested: the fault never fired under this configuration (flink-checkpoint-replay/2pc-read-committed's fault)\n" +
        '  ⚠ fault "TaskManager crash", a crash of flink mid-batch after 50 records, never fired: its condition never came',
    );
    expect(r.out).not.toContain('guarantee end to end: exactly-once');
  }, 60_000);

  it('--format json: guarantee.tested false with the fault that never fired', () => {
    const r = cli([file, '--skip-atlas', '--format', 'json']);
    expect(r.code).toBe(3);
    const json = JSON.parse(r.out) as { guarantee: { tested: boolean; unfired: string[] } };
    expect(json.guarantee.tested).toBe(false);
    expect(json.guarantee.unfired).toEqual([
      'fault "TaskManager crash", a crash of flink mid-batch after 50 records, never fired: its condition never came',
    ]);
  }, 60_000);

  it('at 4 s the first checkpoint (5 s) comes before e201..e250: the crash fires, a tested guarantee, exit 0', () => {
    const four = join(dir, 'four.yaml');
    writeFileSync(four, 'execution.checkpointing.interval: 4 s\n');
    const r = cli([four, '--skip-atlas']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "guarantee end to end: exactly-once (under flink-checkpoint-replay/2pc-read-committed's fault)",
    );
    expect(r.out).not.toContain('never fired');
  }, 60_000);
});
