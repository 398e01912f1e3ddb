/**
 * The atlas panel's kinds are the lab's state (src/views/atlas/atlasChoice.ts): a checkbox ticks
 * one undo step, undo puts it back, and a choice set from outside (a link) shows ticked. With no
 * kind ticked, Explore says so and starts nothing (no Cancel left behind).
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AtlasPanel } from './AtlasPanel';
import { renderInLab } from './atlasTesting';
import { atlasTestIds as ids } from './atlasTestIds';

// One inline run of a small preset (well under 1 s alone); wide for a shared machine.
vi.setConfig({ testTimeout: 15_000 });

const boxes = () =>
  [...screen.getByTestId(ids.kinds).querySelectorAll('input')] as HTMLInputElement[];
const box = (kind: string) => boxes().find((b) => b.dataset.kind === kind)!;

describe('the atlas panel kinds', () => {
  afterEach(cleanup);

  it('a tick is an undo step; a link choice shows ticked; none ticked explores nothing', async () => {
    const lab = await renderInLab('at-least-once', () => <AtlasPanel />);
    expect(boxes().filter((b) => b.checked)).toHaveLength(9);
    fireEvent.click(box('crash'));
    expect(box('crash').checked).toBe(false);
    expect(lab.app.getState().atlas).toEqual({
      kinds: [
        'drop-request',
        'drop-response',
        'delay-response',
        'leader-failover',
        'rebalance',
        'zombie',
        'app-resend',
        'source-duplicate',
      ],
    });
    expect(lab.app.getState().notice).toBe('Fault atlas: crashes left out');
    act(() => lab.actions.undo());
    expect(box('crash').checked).toBe(true);
    // A link's choice (as bootLab sets it): those kinds ticked, the explored atlas offered.
    act(() => lab.app.setState({ atlas: { kinds: ['rebalance'], explored: true } }));
    expect(
      boxes()
        .filter((b) => b.checked)
        .map((b) => b.dataset.kind),
    ).toEqual(['rebalance']);
    expect(screen.getByTestId(ids.offer).textContent).toContain('1 kind');
    // Untick the last one: Explore refuses, and nothing runs (Explore, not Cancel, is there).
    fireEvent.click(box('rebalance'));
    fireEvent.click(screen.getByTestId(ids.explore));
    expect(screen.getByTestId(ids.error).textContent).toBe(
      'Tick at least one fault kind to explore.',
    );
    expect(screen.queryByTestId(ids.cancel)).toBeNull();
    expect(screen.getByTestId(ids.explore)).toBeTruthy();
  });

  it('says what it explores: single faults, or pairs once "Pairs too" is ticked', async () => {
    // It said "every single fault" above "Explore pairs of faults" and a map of pairs.
    await renderInLab('at-least-once', () => <AtlasPanel />);
    const head = () => screen.getByRole('region', { name: 'Fault atlas' }).textContent;
    expect(head()).toContain('every single fault, everywhere it can strike, each run once');
    fireEvent.click(screen.getByTestId(ids.pairs));
    expect(head()).toContain('every pair of faults, wherever they strike, each pair run once');
    expect(head()).not.toContain('every single fault');
    expect(screen.getByTestId(ids.explore).textContent).toBe('Explore pairs of faults');
  });
});
