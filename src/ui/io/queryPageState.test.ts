/**
 * `?preset=…&a=…&c=` on the lab's page (issue #23.2): read as the share link's `#…&a=…&c=` —
 * honoured when good, refused naming its field when bad, the preset open either way. Both were
 * ignored (`c=` until the query's page state was read as one, ./queryPageState.ts).
 */
import { describe, expect, it } from 'vitest';
import { presetLab } from '../testLab';
import { applyQueryPageState, dropQueryPageStateOnChange } from './queryPageState';

const v = (data: unknown) => `1.${Buffer.from(JSON.stringify(data)).toString('base64url')}`;

describe('the atlas choice and Compare in the query', () => {
  it('ticks the kinds of a good a=, refuses a bad one naming its field, keeps the preset', () => {
    const lab = presetLab('lost-ack-retry');
    const said: string[] = [];
    const notices = { push: (n: { text: string }) => said.push(n.text) };
    applyQueryPageState(lab, notices, `?preset=lost-ack-retry&a=${v({ kinds: ['crash'] })}`);
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(said).toEqual([]);
    const before = lab.app.getState().scenario;
    applyQueryPageState(
      lab,
      notices,
      `?preset=lost-ack-retry&a=${v({ kinds: ['crash', 'meteor'] })}`,
    );
    expect(said).toEqual([
      'link, fault atlas (a=): kinds.1: expected drop-request, drop-response, delay-response, crash, leader-failover, rebalance, zombie, app-resend or source-duplicate, got "meteor". The preset opened without it.',
    ]);
    // Refused: the choice before stays, and so does the scenario.
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(lab.app.getState().scenario).toBe(before);
    // No a=: nothing said, nothing changed.
    applyQueryPageState(lab, notices, '?preset=lost-ack-retry');
    expect(said).toHaveLength(1);
  });

  it('opens Compare with the lanes of a good c=, refuses a bad one naming its field, applies a= either way', () => {
    const lab = presetLab('lost-ack-retry');
    const said: string[] = [];
    const notices = { push: (n: { text: string }) => said.push(n.text) };
    const lanes = { lanes: [{ guarantee: 'exactly-once' }, { guarantee: 'at-most-once' }] };
    applyQueryPageState(lab, notices, `?preset=lost-ack-retry&c=${v(lanes)}`);
    expect(lab.app.getState().compare).toEqual(lanes);
    expect(lab.app.getState().atlas).toEqual({});
    expect(said).toEqual([]);
    applyQueryPageState(
      lab,
      notices,
      `?preset=lost-ack-retry&a=${v({ kinds: ['zombie'] })}&c=${v({ lanes: [] })}`,
    );
    // The good a= applies; the bad c= leaves the lanes as they were.
    expect(lab.app.getState().atlas).toEqual({ kinds: ['zombie'] });
    expect(lab.app.getState().compare).toEqual(lanes);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^link, compare \(c=\): lanes: .*\. The preset opened without it\.$/);
  });
});

describe("the query's a= and c= once applied", () => {
  it('leave the address at the first change of the scenario, its preset, the kinds or the lanes', async () => {
    const lab = presetLab('lost-ack-retry');
    let cleared = 0;
    const off = dropQueryPageStateOnChange(lab, () => cleared++);
    // What the address does not describe: no change of it.
    lab.actions.setPresent(true);
    lab.actions.setFontStep(3);
    expect(cleared).toBe(0);
    lab.actions.setAtlas({ kinds: ['crash'] }, 'Fault atlas: kinds');
    expect(cleared).toBe(1);
    lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    expect(cleared).toBe(2);
    lab.actions.loadPreset('at-most-once');
    expect(cleared).toBe(3);
    off();
    await lab.actions.settled();
  });
});
