/**
 * A lane that sets many knobs (a whole producer.properties) lists three and "and N more", so its
 * counters stay level with the other lanes'; the button shows them all, and folds them again.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { handMadeScenario } from '../../views/atlas/handMadeAtlas';
import type { LaneSpec } from '../../views/compare/lanes';
import { compareTestIds as c } from './compareTestIds';
import { LaneHeader } from './LaneHeader';

const knobs: NonNullable<LaneSpec['knobs']> = [
  { path: 'producer.acks', value: 'all' },
  { path: 'producer.enable.idempotence', value: true },
  { path: 'producer.retries', value: 2147483647 },
  { path: 'producer.linger.ms', value: 5 },
  { path: 'producer.request.timeout.ms', value: 30000 },
];

function header(lane: LaneSpec) {
  return render(
    <LaneHeader
      number={2}
      lane={lane}
      scenario={null}
      onScreen={{ version: 1, name: 'lane test', workload: { topic: 'in', events: [] } }}
      onChange={() => {}}
      onRemove={null}
    />,
  );
}

const listed = () =>
  screen.getByRole('list', { name: 'Lane 2: knobs set otherwise' }).querySelectorAll('li code');

afterEach(cleanup);

describe("a lane's knobs", () => {
  it('five knobs: three listed, "and 2 more knobs", then all five, then three again', () => {
    header({ knobs });
    expect([...listed()].map((x) => x.textContent)).toEqual([
      'acks',
      'enable.idempotence',
      'retries',
    ]);
    const more = screen.getByTestId(c.laneKnobsMore);
    expect(more.textContent).toBe('and 2 more knobs');
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(listed()).toHaveLength(5);
    expect(more.textContent).toBe('fewer');
    expect(more.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(more);
    expect(listed()).toHaveLength(3);
  });

  it('four knobs: all listed, nothing to fold', () => {
    header({ knobs: knobs.slice(0, 4) });
    expect(listed()).toHaveLength(4);
    expect(screen.queryByTestId(c.laneKnobsMore)).toBeNull();
  });
});

// The value box is 10 characters wide: at 1280×720 with three lanes, the statement's choices
// showed as "insert / on-con", and the rest had to be guessed. The box now offers them as a list.
describe("a lane's knob value", () => {
  it("offers a choice knob's values as the input's list: the statement's four", () => {
    // A parsed scenario with the defaults: a table sink, a consumer loop (the knobs it lists).
    render(
      <LaneHeader
        number={2}
        lane={{}}
        scenario={handMadeScenario}
        onScreen={{ version: 1, name: 'lane test', workload: { topic: 'in', events: [] } }}
        onChange={() => {}}
        onRemove={null}
      />,
    );
    fireEvent.change(screen.getByTestId(c.laneKnob), { target: { value: 'sink.statement' } });
    const input = screen.getByTestId(c.laneKnobValue) as HTMLInputElement;
    const list = input.list;
    expect(list).not.toBeNull();
    expect([...list!.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'insert',
      'on-conflict-do-nothing',
      'on-conflict-do-update',
      'merge',
    ]);
    // A switch offers true and false; a number, nothing to pick from.
    fireEvent.change(screen.getByTestId(c.laneKnob), {
      target: { value: 'producer.enable.idempotence' },
    });
    expect([...input.list!.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'true',
      'false',
    ]);
    fireEvent.change(screen.getByTestId(c.laneKnob), { target: { value: 'producer.retries' } });
    expect(input.list).toBeNull();
  });
});
