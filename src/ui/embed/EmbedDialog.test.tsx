/**
 * The Embed dialog in jsdom: the speed it offers goes into the snippet's address (docs/embed.md:
 * every option of the player but `preset=` is set here).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { createNotices } from '../io/notices';
import { createShareSync, type ShareSync } from '../share/shareSync';
import { PageProvider } from '../io/PageContext';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { EmbedButton } from './EmbedDialog';

async function open(lab: Lab, shareLink: ShareSync | null = null): Promise<HTMLElement> {
  render(
    <LabProvider lab={lab}>
      <PageProvider
        page={{ notices: createNotices(), artifacts: createArtifactClient(), shareLink }}
      >
        <EmbedButton />
      </PageProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  fireEvent.click(screen.getByTestId(testIds.embedButton));
  return screen.getByTestId(testIds.embedDialog);
}

const snippet = () => (screen.getByTestId(testIds.embedSnippet) as HTMLTextAreaElement).value;

describe('Embed dialog: speed', () => {
  afterEach(cleanup);

  it('starts at the lab’s default (no speed= written); a chosen speed goes in the address', async () => {
    const lab = presetLab('at-least-once');
    act(() => lab.actions.setSpeed(0.037));
    const dialog = await open(lab);
    const speed = within(dialog).getByLabelText('Speed') as HTMLSelectElement;
    expect(speed.value).toBe('');
    expect(snippet()).not.toContain('speed=');
    // The lab's speed now is offered, in its place on the ladder. (The preset's question comes
    // along: predict=1.)
    expect([...speed.options].map((o) => o.textContent).slice(0, 7)).toEqual([
      '×0.01, the lab’s default',
      '×0.001',
      '×0.002',
      '×0.005',
      '×0.02',
      '×0.037 (as the lab plays now)',
      '×0.05',
    ]);
    fireEvent.change(speed, { target: { value: '0.1' } });
    expect(snippet()).toContain('?embed&amp;speed=0.1&amp;predict=1#s=2.');
    fireEvent.change(speed, { target: { value: '0.037' } });
    expect(snippet()).toContain('?embed&amp;speed=0.037&amp;predict=1#s=2.');
    fireEvent.change(speed, { target: { value: '' } });
    expect(snippet()).not.toContain('speed=');
  });
});

describe('Embed dialog: a share link’s question', () => {
  let sync: ShareSync | null = null;
  afterEach(() => {
    cleanup();
    sync?.dispose();
    sync = null;
  });
  const ask = () => screen.getByLabelText('Ask for a prediction, then reveal') as HTMLInputElement;

  it('the page opened from a link that asks (p=1): the player starts asking it; edited, not', async () => {
    const lab = presetLab('at-least-once');
    act(() => lab.actions.setSeed(5));
    const question = { ask: true as const, question: 'How many rows?', answer: '24: p-4 twice' };
    sync = createShareSync(lab, createNotices(), true, question);
    await open(lab, sync);
    expect(ask().checked).toBe(true);
    expect((screen.getByLabelText(/^Question/) as HTMLInputElement).value).toBe('How many rows?');
    expect(snippet()).toContain('&amp;predict=1&amp;q=How+many+rows%3F&amp;a=24%3A+p-4+twice#s=2.');
    cleanup();
    act(() => lab.actions.setSeed(6));
    await open(lab, sync);
    expect(ask().checked).toBe(false);
    expect(snippet()).not.toContain('predict=');
  });

  it('a preset as shipped opened from a link with p=0: the player asks nothing either', async () => {
    const lab = presetLab('at-least-once');
    sync = createShareSync(lab, createNotices(), true, { ask: false });
    await open(lab, sync);
    expect(ask().checked).toBe(false);
    expect(snippet()).not.toContain('predict=');
  });
});
