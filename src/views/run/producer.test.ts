import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, type ScenarioInput } from '../../engine';
import { findPreset } from '../../scenarios';
import { producerAt } from './at';
import { K } from './kinds';
import { toRunView, type RunView } from './runView';

function viewOf(ref: string, edit: (s: ScenarioInput) => void = () => {}): RunView {
  const input = structuredClone(findPreset(ref)!.variant.scenario);
  edit(input);
  const r = parseScenario(input);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return toRunView(simulate(r.scenario));
}

/** Records carried by the producer's entries of one kind before `idx`, read off the trace. */
function recordsBefore(v: RunView, kind: number, idx: number): number {
  const producer = v.actors.indexOf('producer');
  let n = 0;
  for (let i = 0; i < idx; i++) {
    if (v.cols.kind[i] === kind && v.cols.actor[i] === producer) n += v.cols.count[i]!;
  }
  return n;
}

describe('producer counts are records, not batches', () => {
  // lost-ack-retry: 10 events e1..e10 one every 100 ms, e3's acknowledgement lost, no idempotence.
  // With linger.ms = 200 the producer sends two records per batch: 5 acknowledgements for 10
  // records, and the retry re-sends e3's whole batch (2 records).
  const v = viewOf('lost-ack-retry/idempotence-off', (s) => {
    (s.producer as Record<string, unknown>)['linger.ms'] = 200;
  });

  it('at the end: 10 sent, 10 acknowledged, 2 retried', () => {
    let ackEntries = 0;
    for (let i = 0; i < v.n; i++) if (v.cols.kind[i] === K.ack) ackEntries++;
    expect(ackEntries).toBe(5);
    expect(producerAt(v, v.n)).toEqual({
      sent: 10,
      resent: 0,
      retries: 2,
      acks: 10,
      failures: 0,
      dedupes: 0,
    });
  });

  it('at every cursor they match the trace', () => {
    for (let idx = 0; idx <= v.n; idx++) {
      const c = producerAt(v, idx);
      expect(c.acks).toBe(recordsBefore(v, K.ack, idx));
      expect(c.retries).toBe(recordsBefore(v, K.retry, idx));
      expect(c.acks).toBeLessThanOrEqual(c.sent);
    }
  });

  it('a failed batch and the application seeing it fail are one failed record', () => {
    // retries=0: e3's lost acknowledgement fails its send once; the 9 others are acknowledged.
    const r = producerAt(viewOf('lost-ack-retry/retries-0'), Infinity);
    expect(r).toMatchObject({ sent: 10, acks: 9, failures: 1, retries: 0 });
  });
});
