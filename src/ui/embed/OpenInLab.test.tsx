/**
 * "Open in Delivery Lab ↗" from an embed carries what the embed was given beside its scenario —
 * Compare's lanes (`c=`) and the fault atlas's choice (`a=`) — so the lab opens with them: the
 * player shows no atlas, the lab offers the one explored (issue #23, "embeds carry it").
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabProvider } from '../../store/LabContext';
import { decodeAtlas } from '../../views/atlas/atlasLink';
import { decodeCompare } from '../../views/compare/compareLink';
import { decodeShare } from '../../views/io/shareLink';
import { presetLab } from '../testLab';
import { OpenInLab } from './OpenInLab';

// One inline run of a small preset (well under 1 s alone); wide for a shared machine.
vi.setConfig({ testTimeout: 15_000 });

describe('Open in Delivery Lab from an embed', () => {
  afterEach(cleanup);

  it('links the scenario with its lanes and atlas choice; a choice changed makes a new link', async () => {
    const lab = presetLab('at-least-once');
    const atlas = { kinds: ['zombie'], explored: true };
    const compare = { lanes: [{ guarantee: 'at-most-once' as const }] };
    // As bootLab sets them from the embed's hash.
    lab.app.setState({ atlas, compare });
    await act(() => lab.actions.settled());
    render(
      <LabProvider lab={lab}>
        <OpenInLab scenario={lab.app.getState().scenario} />
      </LabProvider>,
    );
    const link = screen.getByRole('link', { name: 'Open in Delivery Lab ↗' });
    fireEvent.focus(link);
    await waitFor(() => expect(link.getAttribute('href')).toMatch(/^\.\/#s=/));
    const hash = link.getAttribute('href')!.slice(2);
    expect(decodeShare(hash)).toMatchObject({ ok: true, input: lab.app.getState().scenario });
    expect(decodeCompare(hash)).toEqual({ ok: true, spec: compare });
    expect(decodeAtlas(hash, false)).toEqual({ ok: true, choice: atlas });
    // The reader changes nothing of it in the player; should the state change, the old link goes
    // (to the preset's own link: nothing compared or chosen is left, the scenario as shipped).
    act(() => lab.app.setState({ atlas: {}, compare: null }));
    expect(link.getAttribute('href')).toBe('./?preset=at-least-once/default');
    act(() => lab.app.setState({ atlas: { kinds: ['zombie'] } }));
    expect(link.getAttribute('href')).toBe('./');
  });

  it('links a preset as shipped by `?preset=` from the first render, before any hover or focus', async () => {
    // Before: "./" (the bare lab root) until the pointer or the focus reached it — "Copy link
    // address" and a middle click lost the scenario.
    const lab = presetLab('at-most-once');
    await act(() => lab.actions.settled());
    render(
      <LabProvider lab={lab}>
        <OpenInLab scenario={lab.app.getState().scenario} />
      </LabProvider>,
    );
    const link = screen.getByRole('link', { name: 'Open in Delivery Lab ↗' });
    expect(link.getAttribute('href')).toBe('./?preset=at-most-once/default');
  });
});
