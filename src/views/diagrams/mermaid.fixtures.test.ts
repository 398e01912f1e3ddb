/**
 * Diagram texts of known runs, written to `mermaid.diagrams.json` so that the platform's tests
 * can render them with the real mermaid (views/ may not import mermaid; platform/ may not run the
 * engine). The file is a vitest file snapshot: it fails when a diagram changes, and
 * `npx vitest run -u` rewrites it — review the diff, it is the diagrams' exact text.
 */
import { expect, it } from 'vitest';
import { eventSequenceDiagram, runSequenceDiagram, topologyFlowchart } from './mermaid';
import { HOSTILE, LOST_ACK, runOf } from './mermaid.testdata';

it('writes the diagrams of the known runs (mermaid.diagrams.json)', async () => {
  const lostAck = runOf(LOST_ACK);
  const hostile = runOf(HOSTILE);
  const diagrams: Record<string, string> = {
    'lost-ack/sequence': runSequenceDiagram(lostAck),
    'lost-ack/event-e1': eventSequenceDiagram(lostAck, 'e1')!,
    'lost-ack/flow': topologyFlowchart(lostAck.scenario),
    'hostile/sequence': runSequenceDiagram(hostile),
    'hostile/flow': topologyFlowchart(hostile.scenario),
  };
  for (let j = 0; j < hostile.events.identities; j++) {
    const id = hostile.events.identityId(j);
    diagrams[`hostile/event-${j}`] = eventSequenceDiagram(hostile, id)!;
  }
  await expect(`${JSON.stringify(diagrams, null, 2)}\n`).toMatchFileSnapshot(
    './mermaid.diagrams.json',
  );
});
