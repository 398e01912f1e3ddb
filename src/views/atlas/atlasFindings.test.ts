/**
 * What a finished atlas found, for the Markdown report: built from the atlas the page drew, and
 * carried only while the report is of the same scenario (as written) and the same choice.
 */
import { describe, expect, it } from 'vitest';
import type { Atlas, Placement } from '../../engine';
import { handMadeScenario as scenario, HELD, ONE_DUPLICATE } from './handMadeAtlas';
import { atlasPinFor, findingsOf, streamAtlasFindings, survivalPin } from './atlasFindings';

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
      outcomes: { held: 1, duplicates: 1, losses: 0, both: 0, stuck: 0 },
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
  // Opening Compare (or ticking a kind) is an undo step that copies the scenario unchanged: the
  // report after Compare lost "What it found" though the atlas panel still showed it as current.
  it('answers a copy of the same scenario, as Compare opened leaves on screen', () => {
    expect(findingsOf(found, structuredClone(input), { kinds: ['crash'] })).toBe(found);
  });
  it('answers nothing for an edited scenario, other kinds, pairs, or no findings', () => {
    expect(findingsOf(found, { name: 'as edited' } as never, { kinds: ['crash'] })).toBeUndefined();
    expect(findingsOf(found, input, {})).toBeUndefined();
    expect(findingsOf(found, input, { kinds: ['zombie'] })).toBeUndefined();
    expect(findingsOf(found, input, { kinds: ['crash'], pairs: true })).toBeUndefined();
    expect(findingsOf(null, input, { kinds: ['crash'] })).toBeUndefined();
  });
});

describe('atlasPinFor', () => {
  // The two-lost-acks atlas above: 2 trials, 1 held, 1 duplicated.
  const found = streamAtlasFindings(input, { explored: true }, atlas, 's');

  it('counts the trials per outcome', () => {
    expect(found.outcomes).toEqual({ held: 1, duplicates: 1, losses: 0, both: 0, stuck: 0 });
  });

  it('re-pins a block of the kinds and depth explored from the atlas found', () => {
    expect(atlasPinFor(found, { breaks: 0 })).toEqual({ breaks: 1 });
    // Its outcomes listed take the counts; breaks only when the block had it.
    expect(atlasPinFor(found, { outcomes: { held: 2, losses: 0 } })).toEqual({
      outcomes: { held: 1, losses: 0 },
    });
    expect(atlasPinFor(found, { depth: 1, breaks: 0, outcomes: { duplicates: 0 } })).toEqual({
      depth: 1,
      breaks: 1,
      outcomes: { duplicates: 1 },
    });
  });

  it('leaves a block of other kinds or depth, or with nothing found, as written', () => {
    expect(atlasPinFor(found, { depth: 2, breaks: 0 })).toEqual({ depth: 2, breaks: 0 });
    expect(atlasPinFor(found, { kinds: ['crash'], breaks: 0 })).toEqual({
      kinds: ['crash'],
      breaks: 0,
    });
    expect(atlasPinFor(undefined, { breaks: 0 })).toEqual({ breaks: 0 });
    // Kinds in another order are the same kinds.
    const two = streamAtlasFindings(input, { kinds: ['crash', 'drop-response'] }, atlas, 's');
    expect(atlasPinFor(two, { kinds: ['drop-response', 'crash'], breaks: 0 })).toEqual({
      kinds: ['drop-response', 'crash'],
      breaks: 1,
    });
    // No block: the survival pin, when the claim survived (here it did not).
    expect(atlasPinFor(found, undefined)).toBeUndefined();
  });
});
