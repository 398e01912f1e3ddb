/**
 * What a finished atlas found, for the Markdown report: built from the atlas the page drew, and
 * carried only while the report is of the same scenario (as written) and the same choice.
 */
import { describe, expect, it } from 'vitest';
import type { Atlas, Placement } from '../../engine';
import { handMadeScenario as scenario, HELD, ONE_DUPLICATE } from './handMadeAtlas';
import { findingsOf, streamAtlasFindings, survivalPin } from './atlasFindings';

const lostAck = (time: number): Placement => ({
  kind: 'drop-response',
  fault: { kind: 'drop-response', at: time, link: 'produce', match: { nth: time + 1 } },
  component: 'producer',
  time,
  label: `the produce acknowledgement at ${time} ms lost`,
});

/** Two lost acks: the first held, the second duplicated one record. */
const atlas: Atlas = {
  scenario,
  depth: 1,
  kinds: ['drop-response'],
  base: HELD,
  placements: [lostAck(0), lostAck(99)],
  trials: [HELD, ONE_DUPLICATE].map((result, i) => ({ placements: [i], result })),
  partial: false,
};
const input = { name: 'as written' } as never;

describe('streamAtlasFindings', () => {
  it('keeps the summary drawn and the earliest break with the faults it adds', () => {
    expect(streamAtlasFindings(input, { explored: true }, atlas, 'the summary')).toEqual({
      input,
      choice: {},
      summary: 'the summary',
      counterexample: {
        words: 'the produce acknowledgement at 99 ms lost (1 duplicated)',
        faults: [{ kind: 'drop-response', at: 99, link: 'produce', match: { nth: 100 } }],
      },
      survives: false,
    });
    // One trial of two broke the claim: nothing to pin as survived.
    expect(survivalPin(streamAtlasFindings(input, { explored: true }, atlas, 's'))).toBeUndefined();
  });

  it('has no break to name when every placement held', () => {
    const held = { ...atlas, trials: atlas.trials.map((t) => ({ ...t, result: HELD })) };
    const f = streamAtlasFindings(input, { kinds: ['crash'], pairs: true }, held, 's');
    expect(f.counterexample).toBeNull();
    expect(f.choice).toEqual({ kinds: ['crash'], pairs: true });
    // The pin of it (`expect.atlas`): the same kinds, pairs as depth 2, none breaking the claim.
    expect(f.survives).toBe(true);
    expect(survivalPin(f)).toEqual({ kinds: ['crash'], depth: 2, breaks: 0 });
    expect(survivalPin(streamAtlasFindings(input, {}, held, 's'))).toEqual({ breaks: 0 });
  });

  it('does not survive where the scenario alone breaks its claim, whatever the trials', () => {
    const broken = {
      ...atlas,
      base: ONE_DUPLICATE,
      trials: atlas.trials.map((t) => ({ ...t, result: HELD })),
    };
    expect(streamAtlasFindings(input, {}, broken, 's').survives).toBe(false);
  });
});

describe('findingsOf', () => {
  const found = streamAtlasFindings(input, { kinds: ['crash'] }, atlas, 's');
  it('answers the same scenario as written and the same choice, explored or not', () => {
    expect(findingsOf(found, input, { kinds: ['crash'], explored: true })).toBe(found);
  });
  it('answers nothing for an edited scenario, other kinds, pairs, or no findings', () => {
    expect(
      findingsOf(found, { name: 'as written' } as never, { kinds: ['crash'] }),
    ).toBeUndefined();
    expect(findingsOf(found, input, {})).toBeUndefined();
    expect(findingsOf(found, input, { kinds: ['zombie'] })).toBeUndefined();
    expect(findingsOf(found, input, { kinds: ['crash'], pairs: true })).toBeUndefined();
    expect(findingsOf(null, input, { kinds: ['crash'] })).toBeUndefined();
  });
});
