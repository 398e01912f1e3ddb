/**
 * A teacher's own challenge file (docs/challenges.md, "The format"): the shipped acks-one-loses
 * under an id of its own — for the import's unit test and the page's (e2e/challenge.spec.ts).
 */
export const OWN_CHALLENGE = {
  version: 1,
  id: 'our-acks-one',
  title: 'Our acks=1 exercise',
  area: 'producer',
  intro: 'Make one acknowledged event disappear with a single fault.',
  start: { preset: 'lost-ack-retry/acks-1', withoutFaults: true },
  goal: { kind: 'lose', atLeast: 1 },
  allow: { faults: { max: 1 }, knobs: { max: 0, locked: [] } },
  hints: [],
  solution: {
    faults: [{ kind: 'leader-failover', at: 100, point: 'after-append', partition: 0 }],
    knobs: [],
    why: 'The leader fails right after appending e1 and acknowledging it (acks=1).',
  },
};
