/**
 * Share with a prediction (jsdom): the popover offers "Ask for a prediction first" for an edited
 * scenario as for a preset as shipped, the link carries the author's question and answer (and
 * never a preset's own answer), and a page opened from that link asks the question and keeps the
 * verdict for the end of the run. The browser itself is e2e/share.spec.ts's job.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import { decodeShare, sharePredictionFromLocation } from '../../platform/share';
import { createLab, type Lab } from '../../store/labStore';
import { decodeSharePrediction } from '../../views/io/sharePrediction';
import { App } from '../App';
import { createNotices } from '../io/notices';
import type { PageServices } from '../io/PageContext';
import { chooseStart } from '../io/startup';
import { testIds } from '../testIds';
import { inlineRunner, presetLab } from '../testLab';
import { createShareSync } from './shareSync';

// Whole runs on a loaded two-core machine: its slowest test took 3.3 s in a full CI run
// (this file 7.7 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => {
  // jsdom has no canvas; the token layer copes with a null context.
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

const disposers: (() => void)[] = [];

/** The page as boot.ts wires it: a share sync on the lab (opened from the URL's link, or not). */
async function mount(lab: Lab, openedFromLink = false): Promise<PageServices> {
  const notices = createNotices();
  const shareLink = createShareSync(
    lab,
    notices,
    openedFromLink,
    openedFromLink ? sharePredictionFromLocation() : null,
  );
  disposers.push(() => shareLink.dispose());
  const page = { notices, artifacts: createArtifactClient(), shareLink };
  render(<App lab={lab} page={page} />);
  await act(() => lab.actions.settled());
  return page;
}

async function openShare(): Promise<HTMLElement> {
  await act(async () => fireEvent.click(screen.getByTestId(testIds.shareButton)));
  return screen.getByRole('dialog', { name: 'Share link' });
}

const url = () => (screen.getByTestId(testIds.shareUrl) as HTMLInputElement).value;
const hashOf = (link: string) => link.slice(link.indexOf('#'));
const ask = () => screen.getByTestId(testIds.shareAsk) as HTMLInputElement;

/** A fresh page (its own lab) opened from `link`, as boot.ts opens it. */
async function openLink(link: string): Promise<Lab> {
  cleanup();
  history.replaceState(null, '', link);
  const share = decodeShare(location.hash);
  const start = chooseStart({ share, preset: null, saved: null });
  const lab = createLab({
    runner: inlineRunner,
    ...(start.initial ? { initial: start.initial } : {}),
    initialPresetRef: start.presetRef,
  });
  await mount(lab, true);
  return lab;
}

afterEach(() => {
  cleanup();
  while (disposers.length) disposers.pop()!();
  history.replaceState(null, '', '/');
});

describe('Share: ask for a prediction first', () => {
  it('a preset as shipped: ticked with its own question, and the link carries no answer (p absent); unticked: p=0', async () => {
    await mount(presetLab('at-least-once'));
    await openShare();
    expect(ask().checked).toBe(true);
    expect((screen.getByTestId(testIds.shareQuestion) as HTMLInputElement).value).toBe(
      'How many rows does the table end with?',
    );
    expect(url()).toMatch(/#s=2\.[A-Za-z0-9_-]+$/);
    expect(url()).not.toContain('p=');
    expect(screen.getByTestId(testIds.shareAskNote).textContent).toContain(
      'its answer stays out of the link',
    );
    await act(async () => fireEvent.click(ask()));
    expect(hashOf(url())).toMatch(/&p=0$/);
    expect(decodeSharePrediction(hashOf(url()))).toEqual({ ask: false });
    // The address bar holds the same link.
    expect(location.href).toBe(url());
  });

  it('an edited preset: unticked at first; ticked with a question and an answer, the link carries both, and opening it asks them', async () => {
    const lab = presetLab('at-least-once');
    await mount(lab);
    act(() => lab.actions.setSeed(5));
    await act(() => lab.actions.settled());
    await openShare();
    expect(ask().checked).toBe(false);
    expect(url()).not.toContain('p=');
    await act(async () => fireEvent.click(ask()));
    fireEvent.change(screen.getByTestId(testIds.shareQuestion), {
      target: { value: 'How many rows now?' },
    });
    fireEvent.change(screen.getByTestId(testIds.shareAnswer), { target: { value: '24' } });
    expect(decodeSharePrediction(hashOf(url()))).toEqual({
      ask: true,
      question: 'How many rows now?',
      answer: '24',
    });
    const link = url();

    // Opened: no preset (it was edited), so the question stands beside the pipeline on its own;
    // the verdict waits; the end waits; "Show the answer" shows the author's answer.
    const opened = await openLink(link);
    expect(opened.app.getState().presetRef).toBeNull();
    const story = screen.getByTestId(testIds.linkedStory);
    expect(within(story).getByTestId(testIds.predictQuestion).textContent).toBe(
      'How many rows now?',
    );
    act(() => opened.actions.seek(1e9));
    expect(opened.cursor.getState().idx).toBeLessThan(opened.app.getState().view!.n);
    expect(screen.queryByTestId(testIds.verdict)).toBeNull();
    fireEvent.click(within(story).getByTestId(testIds.predictReveal));
    expect(within(story).getByTestId(testIds.predictAnswer).textContent).toBe('Answer: 24');
    // Answered: the end is allowed, and there the verdict shows.
    act(() => opened.actions.seek(1e9));
    expect(screen.getByTestId(testIds.verdict)).toBeTruthy();
  });

  it('a link of a preset as shipped with the author’s question asks it instead of the preset’s', async () => {
    await mount(presetLab('at-least-once'));
    await openShare();
    fireEvent.change(screen.getByTestId(testIds.shareQuestion), {
      target: { value: 'Which events are written twice?' },
    });
    fireEvent.change(screen.getByTestId(testIds.shareAnswer), { target: { value: 'p-4..p-7' } });
    const link = url();
    expect(decodeSharePrediction(hashOf(link))).toEqual({
      ask: true,
      question: 'Which events are written twice?',
      answer: 'p-4..p-7',
    });
    const opened = await openLink(link);
    // Opened as the preset (its story), asking the author's question.
    expect(opened.app.getState().presetRef).toBe('at-least-once/default');
    const story = screen.getByTestId(testIds.storyPanel);
    expect(within(story).getByTestId(testIds.predictQuestion).textContent).toBe(
      'Which events are written twice?',
    );
    expect(screen.queryByTestId(testIds.linkedStory)).toBeNull();
  });

  it('a link of a preset as shipped with p=0 asks nothing: the verdict shows at the end at once', async () => {
    await mount(presetLab('at-least-once'));
    await openShare();
    await act(async () => fireEvent.click(ask()));
    const opened = await openLink(url());
    expect(opened.app.getState().presetRef).toBe('at-least-once/default');
    expect(screen.queryByTestId(testIds.predict)).toBeNull();
    act(() => opened.actions.seek(1e9));
    // at-least-once preset: 24 rows, 4 duplicates (foundation.ts).
    expect(screen.getByTestId(testIds.verdict).getAttribute('data-observed')).toBe('at-least-once');
  });
});
