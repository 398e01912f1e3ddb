import { describe, expect, it } from 'vitest';
import { describeFault, type FaultSpec } from '../../engine';
import { describeEntry } from '../diagrams/describe';
import { faultName, faultTitle, faultWhat } from './faultName';
import { K } from '../run/kinds';
import { findPreset } from '../../scenarios';
import { parseScenario, simulate } from '../../engine';
import { toRunView } from '../run/runView';

describe('faultName', () => {
  it('says the id when there is one, else the number counted from 1', () => {
    expect(faultName({ id: 'lost ack' }, 0)).toBe('fault "lost ack"');
    expect(faultName({}, 0)).toBe('fault 1');
    expect(faultName(undefined, 2)).toBe('fault 3');
    // An empty id names nothing: the number.
    expect(faultName({ id: '' }, 1)).toBe('fault 2');
    expect(faultTitle({ id: 'lost ack' }, 0)).toBe('Fault "lost ack"');
    expect(faultTitle({}, 4)).toBe('Fault 5');
  });

  it('faultWhat is describeFault without the id', () => {
    // As validated: a crash at once ('now', its 1st time).
    const f = {
      id: 'c',
      kind: 'crash',
      target: 'consumer-0',
      at: 0,
      point: 'now',
      nth: 1,
    } as unknown as FaultSpec;
    expect(describeFault(f)).toBe('a crash of consumer-0 "c"');
    expect(faultWhat(f)).toBe('a crash of consumer-0');
    expect(f.id).toBe('c');
  });
});

describe('the status line and the Event trace name a firing fault as the CLI does', () => {
  it('"fault "lost ack" fires", not "fault 1 fires"', () => {
    const p = parseScenario(findPreset('lost-ack-retry/idempotence-off')!.variant.scenario);
    if (!p.ok) throw new Error('preset invalid');
    const v = toRunView(simulate(p.scenario));
    const fired: string[] = [];
    for (let i = 0; i < v.n; i++) if (v.cols.kind[i] === K.fault) fired.push(describeEntry(v, i));
    // lost-ack-retry has one fault, id "lost ack", which fires once (e3's acknowledgement).
    expect(fired).toEqual(['fault "lost ack" fires']);
  });

  // A fault without an id is a number alone: Compare's point of divergence for a placement added
  // from the fault atlas read "lane 2 — fault 2 fires", naming nothing the reader could find.
  it('an unnamed fault fires with what it is: "fault 1 fires (a lost acknowledgement)"', () => {
    const s = findPreset('lost-ack-retry/idempotence-off')!.variant.scenario as {
      faults: { id?: string }[];
    };
    const p = parseScenario({ ...s, faults: s.faults.map(({ id: _id, ...f }) => f) });
    if (!p.ok) throw new Error('preset invalid');
    const v = toRunView(simulate(p.scenario));
    const fired: string[] = [];
    for (let i = 0; i < v.n; i++) if (v.cols.kind[i] === K.fault) fired.push(describeEntry(v, i));
    expect(fired).toEqual(['fault 1 fires (a lost acknowledgement)']);
  });
});
