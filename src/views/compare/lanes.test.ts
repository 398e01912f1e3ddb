import { describe, expect, it } from 'vitest';
import { withLaneKnob, withoutLaneKnob } from './lanes';

describe("a lane's knobs, set and removed (the stream's lane header and a batch job's Compare)", () => {
  it('setting a knob again replaces its value, after the others', () => {
    const lane = { guarantee: 'exactly-once' as const, knobs: [{ path: 'a', value: 1 }] };
    expect(withLaneKnob(withLaneKnob(lane, 'b', 2), 'a', 3)).toEqual({
      guarantee: 'exactly-once',
      knobs: [
        { path: 'b', value: 2 },
        { path: 'a', value: 3 },
      ],
    });
  });
  it('removing the last knob leaves the lane without knobs', () => {
    const lane = withLaneKnob({}, 'batch.dedupe.ttlMs', 604_800_000);
    expect(withoutLaneKnob(withLaneKnob(lane, 'x', 1), 'x')).toEqual(lane);
    expect(withoutLaneKnob(lane, 'batch.dedupe.ttlMs')).toEqual({});
  });
});
