/**
 * What a finished atlas found, for the Markdown report: built from the atlas the page drew, and
 * carried only while the report is of the same scenario (as written) and the same choice.
 */
import { describe, expect, it } from 'vitest';
import type { Atlas, Placement } from '../../engine';
import { handMadeScenario as scenario, HELD, ONE_DUPLICATE } from './handMadeAtlas';
import { findingsOf, streamAtlasFindings } from './atlasFindings';

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
    });
  });

  it('has no break to name when every placement held', () => {
    const held = { ...atlas, trials: atlas.trials.map((t) => ({ ...t, result: HELD })) };
    const f = streamAtlasFindings(input, { kinds: ['crash'], pairs: true }, held, 's');
    expect(f.counterexample).toBeNull();
    expect(f.choice).toEqual({ kinds: ['crash'], pairs: true });
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
