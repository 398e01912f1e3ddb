/**
 * `--diagram event:<id>` for a record that is not its batch's first: the chain follows the batch
 * (its request and append carry the first event only) to the append and the truncation.
 */
import { expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { cutBatchInput } from '../../engine/testing';
import { eventChain, eventSequenceDiagram } from './mermaid';

it('e3, the third record of a batch cut by a failover (acks=1): its chain holds the append and the cut', () => {
  // e1..e3 at 295..297 ms, linger.ms=5: one batch, appended by broker-1 at offsets 0..2 at
  // 302 ms, acknowledged (acks=1), then cut when broker-2 takes over at 303 ms (as in
  // engine/explain/lost.test.ts). e3's chain: its send (297 ms), the append, the fault, the
  // crash and the truncation — not only the send.
  const parsed = parseScenario({ version: 1, name: 'cut batch', ...cutBatchInput });
  if (!parsed.ok) throw new Error('invalid scenario');
  const run = simulate(parsed.scenario);
  const t = run.trace;
  const kinds = eventChain(run, 'e3')!.map((i) => t.kindOf(i));
  for (const k of ['app-send', 'append', 'fault', 'crash', 'truncate'] as const)
    expect(kinds).toContain(k);
  expect(eventSequenceDiagram(run, 'e3')).toContain('appended');
});
