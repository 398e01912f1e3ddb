/**
 * What keeps the claim on the break, and its offers: Compare of the break beside the fix and
 * "Explore with …" (the knobs set, the atlas run again) for each knob that keeps it alone, one for
 * the knobs that keep it only together, none where not even they do.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FixSuggestion } from '../../views/atlas/fixSuggestion';
import { AtlasFix } from './AtlasFix';
import { atlasTestIds as ids } from './atlasTestIds';

const acks = { path: 'producer.acks', value: 'all', text: 'acks=all' };
const isolation = {
  path: 'processor.isolation.level',
  value: 'read_committed',
  text: 'isolation.level=read_committed',
};

/** The panel's fix asked, answered with `fix`; what "Explore with …" was called with. */
async function answered(fix: FixSuggestion) {
  const onExploreFix = vi.fn();
  render(
    <AtlasFix
      faults={[]}
      suggest={() => Promise.resolve(fix)}
      onCompareFix={() => {}}
      onExploreFix={onExploreFix}
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'What would keep the claim on it?' }));
  await screen.findByText(/^On this fault/);
  return onExploreFix;
}

const exploreButtons = () => screen.queryAllByTestId(ids.fixExplore).map((b) => b.textContent);

describe("the atlas's fix offers", () => {
  afterEach(cleanup);

  it('one knob alone: "Explore with acks=all" beside Compare, which sets that knob', async () => {
    const onExploreFix = await answered({ kind: 'alone', claim: 'exactly-once', knobs: [acks] });
    expect(exploreButtons()).toEqual(['Explore with acks=all']);
    expect(screen.getAllByTestId(ids.fixCompare)).toHaveLength(1);
    fireEvent.click(screen.getByTestId(ids.fixExplore));
    expect(onExploreFix).toHaveBeenCalledWith([acks]);
  });

  it('only together: one offer with both knobs', async () => {
    const onExploreFix = await answered({
      kind: 'together',
      claim: 'exactly-once',
      knobs: [acks, isolation],
    });
    expect(exploreButtons()).toEqual(['Explore with acks=all, isolation.level=read_committed']);
    fireEvent.click(screen.getByTestId(ids.fixExplore));
    expect(onExploreFix).toHaveBeenCalledWith([acks, isolation]);
  });

  it("none of the recipe's knobs keeps it: no button", async () => {
    await answered({ kind: 'none', claim: 'exactly-once', knobs: [acks, isolation] });
    expect(exploreButtons()).toEqual([]);
    expect(screen.queryAllByTestId(ids.fixCompare)).toEqual([]);
  });
});
