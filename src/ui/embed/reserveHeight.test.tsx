/**
 * The streaming player's height (issue 31, "Stable height"), reserved before its first paint
 * without a copy of it (./ReserveHeight.tsx): the player itself is laid out at points of its
 * run, on cursors of its own, so the lab's cursor never moves; no shadow root is made. The heights themselves need a layout: e2e/embed-shift.spec.ts,
 * scripts/embed-height-check.ts.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import { createNotices } from '../io/notices';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { EmbedApp } from './EmbedApp';
import { DEFAULT_EMBED } from './embedOptions';

vi.setConfig({ testTimeout: 15_000 });

beforeAll(() => {
  // jsdom has no canvas; the token layer copes with a null context.
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

describe('the stream embed’s height (jsdom)', () => {
  afterEach(cleanup);

  it('is reserved by the live player, with no copy, the lab’s cursor unmoved', async () => {
    // The measuring copy lived in a closed shadow root: none now.
    const attachShadow = vi.spyOn(Element.prototype, 'attachShadow');
    const lab = presetLab('at-least-once/default');
    const moved: number[] = [];
    lab.cursor.subscribe((s) => moved.push(s.idx));
    const page = { notices: createNotices(), artifacts: createArtifactClient(), shareLink: null };
    render(<EmbedApp lab={lab} page={page} options={DEFAULT_EMBED} presetRef={null} />);
    await act(() => lab.actions.settled());
    const player = screen.getByTestId(testIds.embedPlayer);
    // A probe a task: measured a few tasks after its run.
    await waitFor(() => expect(player.dataset.measuring).toBeUndefined(), { timeout: 10_000 });
    expect(player.dataset.status).toBe('ready');
    expect(attachShadow).not.toHaveBeenCalled();
    expect(player.getAttribute('aria-busy')).toBeNull();
    // jsdom lays nothing out: every probe reads 0 px, and the tallest is held.
    expect(player.style.height).toBe('0px');
    // One player, one pipeline in the document: its probes laid out the live one.
    expect(screen.getAllByTestId(testIds.embedPlayer)).toHaveLength(1);
    // The probes stood on cursors of their own: the lab's only ever stood at event 0.
    expect(moved.filter((idx) => idx !== 0)).toEqual([]);
    expect(lab.cursor.getState().idx).toBe(0);
  });
});
