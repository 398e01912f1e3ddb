/**
 * `delivery-lab from-config`: the report ends with the guarantee end to end and the single-fault
 * atlas of the built scenario — which single fault breaks this configuration.
 */
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
