/**
 * A consumer loop whose producer was fenced exits (src/engine/processors/consumer.ts,
 * exitIfFenced): the event log and the sequence diagram say so, instead of "CRASHES" — no fault
 * crashed it. The run is the zombie one of src/engine/processors/fenced-zombie.test.ts: consumer-0
 * exits at 60,026 ms.
 */
import { expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { describeEntry } from './describe';
import { K } from '../run/kinds';
import { runSequenceDiagram } from './mermaid';
import { toRunView } from '../run/runView';

function zombieCopier(faults: unknown[]) {
  const r = parseScenario({
    version: 1,
    name: 'fenced exit',
    workload: { topic: 'in', generate: { count: 10, startAtMs: 10, intervalMs: 10_000 } },
    processor: {
      type: 'consumer',
      commit: 'with-transaction',
      'enable.auto.commit': false,
      'isolation.level': 'read_committed',
      'auto.offset.reset': 'earliest',
    },
    sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
    faults,
  });
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return simulate(r.scenario);
}

const crashLines = (run: ReturnType<typeof simulate>) => {
  const v = toRunView(run);
  const lines: string[] = [];
  for (let i = 0; i < v.n; i++)
    if (v.cols.kind[i] === K.crash) lines.push(`${v.cols.time[i]} ${describeEntry(v, i)}`);
  return lines;
};

it('the fenced zombie: "consumer-0 EXITS", in the event log and the diagram', () => {
  const run = zombieCopier([{ kind: 'zombie', at: 1529, target: 'consumer-0', pauseMs: 50_000 }]);
  expect(crashLines(run)).toEqual([
    '60026 consumer-0 EXITS: its producer was fenced by a newer instance with the same transactional.id — it closes the producer and stops, the newer instance does its work',
  ]);
  expect(runSequenceDiagram(run, { fromMs: 60_000, untilMs: 60_030 })).toContain(
    '✗ exits (producer fenced)',
  );
});

it('a crash fault is still a crash', () => {
  const run = zombieCopier([{ kind: 'crash', target: 'consumer-0', at: 20_000 }]);
  expect(crashLines(run)).toEqual(['20000 consumer-0 CRASHES']);
});
