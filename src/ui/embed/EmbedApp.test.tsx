/**
 * The embedded player in jsdom (the host page, the frame and the height messages are the
 * Playwright spec's job, e2e/embed.spec.ts): which question `predict=1` asks of which run, that
 * the outcome waits for a locked-in answer and the end of the run (or "Reveal now"), and where
 * the run opens.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import type { Lab } from '../../store/labStore';
import { createNotices } from '../io/notices';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { EmbedApp } from './EmbedApp';
import { Explanations } from '../panels/Explanations';
import { EmbedPrediction } from './EmbedPrediction';
import { DEFAULT_EMBED, type EmbedOptions } from './embedOptions';

// Whole runs on a loaded two-core machine: its slowest test took 2.7 s in a full CI run
// (this file 9.9 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

beforeAll(() => {
  // jsdom has no canvas; the token layer copes with a null context.
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

/**
 * An embed of a library preset, as `?embed&preset=<ref>` opens it.
 * @param presetRef - what the embed was told about the scenario's preset (null: a share link).
 */
async function mount(
  ref: string,
  options: Partial<EmbedOptions> = {},
  presetRef: string | null = ref,
): Promise<Lab> {
  const lab = presetLab(ref);
  const page = { notices: createNotices(), artifacts: createArtifactClient(), shareLink: null };
  render(
    <EmbedApp
      lab={lab}
      page={page}
      options={{ ...DEFAULT_EMBED, panels: [...DEFAULT_EMBED.panels, 'why'], ...options }}
      why={Explanations}
      presetRef={presetRef}
      // As src/embedMain.tsx hands it over for `predict=1`.
      prediction={options.predict ? EmbedPrediction : null}
    />,
  );
  await act(() => lab.actions.settled());
  // The player starts (t=, autoplay) once its height is reserved (ReserveHeight.tsx).
  // waitFor's 1 s default failed once on a loaded machine (a full run of src/ui beside other work).
  await waitFor(() => expect(document.querySelector('[data-measuring]')).toBeNull(), {
    timeout: 10_000,
  });
  // And the effects of the render that reserved it (autoplay, `t=`): a commit's DOM can be seen
  // before its effects have run.
  await act(async () => {});
  return lab;
}

const box = () => screen.getByTestId(testIds.embedPredict);
const answer = () => screen.queryByTestId(testIds.embedAnswer);
const hidden = () => screen.queryAllByTestId(testIds.outcomeHidden).map((x) => x.dataset.what);
const playing = (lab: Lab) => lab.app.getState().playing;

describe('embedded player (jsdom)', () => {
  it('a link that could not be opened shows why and plays nothing (not the default scenario)', async () => {
    const lab = presetLab('at-least-once/default');
    const notices = createNotices([
      { tone: 'error', text: 'This share link could not be opened; the lab opened without it:' },
    ]);
    render(
      <EmbedApp
        lab={lab}
        page={{ notices, artifacts: createArtifactClient(), shareLink: null }}
        options={DEFAULT_EMBED}
        presetRef={null}
        linkRefused
      />,
    );
    await act(() => lab.actions.settled());
    const refused = screen.getByTestId(testIds.embedRefused);
    expect(refused.textContent).toContain('This share link could not be opened');
    expect(refused.textContent).toContain('Nothing to play');
    expect(screen.queryByTestId(testIds.embedPlayer)).toBeNull();
    expect(screen.queryByTestId(testIds.play)).toBeNull();
  });

  afterEach(cleanup);

  it('renders none of its parts before its run is in (hidden then): the settling line alone', async () => {
    const lab = presetLab('lost-ack-retry/acks-1');
    const page = { notices: createNotices(), artifacts: createArtifactClient(), shareLink: null };
    render(<EmbedApp lab={lab} page={page} options={DEFAULT_EMBED} presetRef={null} />);
    expect(lab.app.getState().view).toBeNull();
    const player = screen.getByTestId(testIds.embedPlayer);
    expect(player.getAttribute('aria-busy')).toBe('true');
    expect(player.textContent).toBe('Loading the run…');
    expect(screen.queryByTestId(testIds.play)).toBeNull();
    await act(() => lab.actions.settled());
    await waitFor(() => expect(player.getAttribute('aria-busy')).toBeNull(), { timeout: 10_000 });
    expect(screen.getByTestId(testIds.play)).not.toBeNull();
  });

  it("a variant the preset's question is not about is asked about its own run, not the other variant's", async () => {
    const lab = await mount('flink-checkpoint-replay/2pc-jdbc-xa', { predict: true });
    // Not the plain-sink question (its answer, 300 rows, is not this run's).
    expect(box().textContent).not.toContain('plain JDBC sink');
    expect(box().textContent).toContain('What will the sink end with?');
    expect(hidden()).toEqual(['verdict', 'why']);
    fireEvent.click(within(box()).getByRole('button', { name: 'Some events twice' }));
    act(() => lab.actions.toEnd());
    // Judged against the run on screen: the XA sink writes every event once.
    expect(answer()!.dataset.judged).toBe('wrong');
    expect(answer()!.textContent).toContain(
      'Not what happened: the run shows every event exactly once',
    );
    expect(answer()!.textContent).toContain('250 rows for 250 events — 0 duplicates, 0 lost');
    expect(screen.getByTestId(testIds.verdict).dataset.observed).toBe('exactly-once');
  });

  it('the variant the question is about asks the preset’s question and reveals its answer', async () => {
    const lab = await mount('flink-checkpoint-replay/plain-sink', { predict: true });
    expect(box().textContent).toContain('With a plain JDBC sink, how many rows');
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: '250' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    expect(answer()).toBeNull();
    act(() => lab.actions.toEnd());
    expect(screen.getByTestId(testIds.predictYours).textContent).toContain('250');
    expect(answer()!.textContent).toContain('Answer: 300');
    expect(answer()!.textContent).toContain('300 rows for 250 events — 50 duplicates');
  });

  it('a locked-in prediction plays the run; the outcome waits for its end, then says right or wrong', async () => {
    // A share link of the at-least-once preset: no preset question, the choices.
    const lab = await mount('at-least-once', { predict: true }, null);
    expect(playing(lab)).toBe(false);
    expect(screen.queryByTestId(testIds.verdict)).toBeNull();
    fireEvent.click(within(box()).getByRole('button', { name: 'Some events twice' }));
    // Locking in plays on, and gives nothing away: no answer, no verdict, no explanations.
    expect(playing(lab)).toBe(true);
    expect(answer()).toBeNull();
    expect(screen.getByTestId(testIds.predictYours).textContent).toContain('Some events twice');
    expect(hidden()).toEqual(['verdict', 'why']);
    act(() => lab.actions.seek(1000));
    expect(answer()).toBeNull();
    // The end of the run reveals it, judged against what the run shows.
    act(() => lab.actions.toEnd());
    expect(answer()!.dataset.judged).toBe('right');
    expect(answer()!.textContent).toContain('Right: the run shows some events twice, none lost');
    expect(answer()!.textContent).toContain('24 rows for 20 events — 4 duplicates, 0 lost');
    expect(hidden()).toEqual([]);
    expect(screen.getByTestId(testIds.verdict).dataset.observed).toBe('at-least-once');
    // Scrubbing back keeps it; "Ask again" asks again, from the start.
    act(() => lab.actions.seek(0));
    expect(answer()).not.toBeNull();
    fireEvent.click(screen.getByText('Ask again'));
    expect(answer()).toBeNull();
    expect(lab.cursor.getState()).toMatchObject({ t: 0, idx: 0 });
    expect(within(box()).getAllByRole('button', { pressed: false })).toHaveLength(4);
  });

  it('the box\'s "Show the answer" shows the answer at once; with autoplay, the run then plays', async () => {
    const lab = await mount('at-least-once', {
      predict: true,
      autoplay: true,
      question: 'Q?',
      answer: 'A.',
    });
    // Autoplay waits for the prediction.
    expect(playing(lab)).toBe(false);
    fireEvent.click(screen.getByTestId(testIds.embedReveal));
    expect(answer()!.textContent).toContain('Answer: A.');
    expect(answer()!.dataset.judged).toBeUndefined();
    expect(playing(lab)).toBe(true);
  });

  it('"Show the answer" skips the question, as on the page; the final verdict waits for the end or "Reveal now"', async () => {
    await mount('at-least-once', { predict: true }, null);
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    expect(answer()!.textContent).toContain('24 rows for 20 events');
    // At t = 0 the run has not happened yet: its verdict and its "why" wait (issue 24).
    expect(hidden()).toEqual(['verdict', 'why']);
    expect(screen.queryByTestId(testIds.verdict)).toBeNull();
    fireEvent.click(screen.getAllByTestId(testIds.outcomeRevealNow)[0]!);
    expect(hidden()).toEqual([]);
  });

  it('without predict=1 nothing is asked and autoplay plays at once; the final verdict waits for the end, as on the page', async () => {
    // Issue 24: `?embed&preset=lost-ack-retry/acks-1` (autoplay) showed "✕ … broken" at t = 0
    // while the frame was sized and played. The page's rule (`outcomeFolded`): the verdict and
    // the "why" wait for the run's end or "Reveal now"; counters show what happened so far.
    const lab = await mount('lost-ack-retry/acks-1', { autoplay: true });
    expect(screen.queryByTestId(testIds.embedPredict)).toBeNull();
    expect(playing(lab)).toBe(true);
    expect(hidden()).toEqual(['verdict', 'why']);
    expect(screen.queryByTestId(testIds.verdict)).toBeNull();
    // Scrubbing to just before the end gives nothing away either.
    const v = lab.app.getState().view!;
    act(() => lab.actions.seek(v.endTime - 1));
    expect(screen.queryByTestId(testIds.verdict)).toBeNull();
    act(() => lab.actions.toEnd());
    expect(hidden()).toEqual([]);
    expect(screen.getByTestId(testIds.verdict).dataset.held).toBe('false');
    // Seen to its end once, it stays shown when the reader scrubs back.
    act(() => lab.actions.seek(0));
    expect(hidden()).toEqual([]);
  });

  it('without predict=1, "Reveal now" shows the folded verdict at once', async () => {
    await mount('lost-ack-retry/acks-1');
    fireEvent.click(screen.getAllByTestId(testIds.outcomeRevealNow)[0]!);
    expect(hidden()).toEqual([]);
    expect(screen.getByTestId(testIds.verdict)).not.toBeNull();
  });

  it('opens at event 0, as the page does; t= opens at that time', async () => {
    const lab = await mount('at-least-once');
    expect(lab.cursor.getState()).toMatchObject({ t: 0, idx: 0 });
    expect(screen.getByTestId(testIds.clock).textContent).toMatch(/^t = 0 ms · event 0 \/ /);
    cleanup();
    const later = await mount('at-least-once', { start: 1000 });
    expect(later.cursor.getState().t).toBe(1000);
    expect(later.cursor.getState().idx).toBeGreaterThan(0);
    // Within the run: nothing to say.
    expect(screen.queryByTestId(testIds.notice)).toBeNull();
  });

  it('t= past the end with autoplay opens at the end and stays there (play would start over), and says so', async () => {
    const lab = await mount('at-least-once', { start: 99_999_999, autoplay: true });
    const v = lab.app.getState().view!;
    expect(lab.cursor.getState()).toEqual({ t: v.endTime, idx: v.n });
    expect(playing(lab)).toBe(false);
    // The preset's run ends at 41,150 ms (pinned here, so the notice's line is checked whole).
    expect(v.endTime).toBe(41_150);
    const notice = screen.getByTestId(testIds.notice);
    expect(notice.textContent).toContain('This embed could not use an option as written:');
    expect([...notice.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '“t=99999999” — past the run’s end, 41,150 ms: opened at its end (t: a virtual time in ms, from 0 to 41,150)',
    ]);
  });
});
