/**
 * What the producer's moments are called, in the event log, Compare's "departs" line and the
 * atlas: acks=0 gets no acknowledgement (its batch is "considered sent", offset -1), and an
 * idempotent producer's InitProducerId is named as Kafka names it, not "transaction request" —
 * https://kafka.apache.org/documentation/#producerconfigs_acks,
 * https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence.
 */
import { expect, it } from 'vitest';
import { parseScenario, simulate, enumeratePlacements, type ScenarioInput } from '../../engine';
import { describeEntry } from './describe';
import { toRunView } from '../run/runView';
import { K } from '../run/kinds';

function run(producer: Record<string, unknown>, opportunities = false) {
  const r = parseScenario({
    version: 1,
    name: 'words',
    workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
    producer: { 'linger.ms': 0, ...producer },
    broker: { partitions: 1 },
  } as ScenarioInput);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { scenario: r.scenario, run: simulate(r.scenario, { opportunities }) };
}

const lines = (producer: Record<string, unknown>, kind: number) => {
  const v = toRunView(run(producer).run);
  const out: string[] = [];
  for (let i = 0; i < v.n; i++) if (v.cols.kind[i] === kind) out.push(describeEntry(v, i));
  return out;
};

it('acks=0: the producer considers e1 sent, with no ack; acks=all: it gets the ack', () => {
  expect(lines({ acks: '0' }, K.ack)).toEqual([
    'producer considers e1 sent without an ack (acks=0)',
  ]);
  expect(lines({ acks: 'all' }, K.ack)).toEqual(['producer gets the ack of e1 (offset 0)']);
});

it('an idempotent producer without transactional.id: InitProducerId, not a transaction', () => {
  const msgs = lines({ 'enable.idempotence': true }, K.msg).filter((l) =>
    /producer → coordinator|coordinator → producer/.test(l),
  );
  // One round trip, before the first produce: the request, then the answer.
  expect(msgs).toEqual([
    'producer → coordinator: InitProducerId request',
    'coordinator → producer: InitProducerId response',
  ]);
  const { scenario, run: r } = run({ 'enable.idempotence': true }, true);
  const txn = enumeratePlacements(scenario, r).filter((p) => p.label.includes('on the txn link'));
  expect(txn.map((p) => p.label)).toEqual([
    'the InitProducerId request at 0 ms (the 1st on the txn link) is lost',
    expect.stringMatching(/^the InitProducerId response at \d+ ms \(the 1st on the txn link\)/),
    expect.stringMatching(/^the InitProducerId response at \d+ ms \(the 1st on the txn link\)/),
  ]);
});
