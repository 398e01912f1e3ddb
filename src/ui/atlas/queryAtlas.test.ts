/**
 * `?preset=…&a=` on the lab's page (issue #23.2): read as the share link's `#…&a=` — honoured
 * when good, refused naming its field when bad, the preset open either way. It was ignored.
 */
import { describe, expect, it } from 'vitest';
import { presetLab } from '../testLab';
import { applyQueryAtlas } from './queryAtlas';

const a = (choice: unknown) => `1.${Buffer.from(JSON.stringify(choice)).toString('base64url')}`;

describe('the atlas choice in the query', () => {
  it('ticks the kinds of a good a=, refuses a bad one naming its field, keeps the preset', () => {
    const lab = presetLab('lost-ack-retry');
    const said: string[] = [];
    const notices = { push: (n: { text: string }) => said.push(n.text) };
    applyQueryAtlas(lab, notices, `?preset=lost-ack-retry&a=${a({ kinds: ['crash'] })}`);
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(said).toEqual([]);
    const before = lab.app.getState().scenario;
    applyQueryAtlas(lab, notices, `?preset=lost-ack-retry&a=${a({ kinds: ['crash', 'meteor'] })}`);
    expect(said).toEqual([
      'link, fault atlas (a=): kinds.1: unknown kind "meteor"; expected one of drop-request, drop-response, delay-response, crash, leader-failover, rebalance, zombie, app-resend, source-duplicate. The preset opened without it.',
    ]);
    // Refused: the choice before stays, and so does the scenario.
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(lab.app.getState().scenario).toBe(before);
    // No a=: nothing said, nothing changed.
    applyQueryAtlas(lab, notices, '?preset=lost-ack-retry');
    expect(said).toHaveLength(1);
  });
});
