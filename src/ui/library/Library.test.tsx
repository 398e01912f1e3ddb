/**
 * The library's components in jsdom (the keyboard and the browser's own behaviour are the
 * Playwright specs' job, e2e/library.spec.ts): what the dialog lists for a search, that opening
 * a card loads its preset as one undoable edit, and that the prediction's answer waits for the
 * end of the run or a "reveal".
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRunClient } from '../../platform/runClient';
import { createLab, type Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { testIds } from '../testIds';
import { LibraryButton } from './LibraryButton';
import { LibraryProvider } from './LibraryContext';
import { StoryPanel } from './StoryPanel';

// Whole runs on a loaded two-core machine: its slowest test took 1.0 s in a full CI run
// (this file 6.4 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

/** Everything runs inline (jsdom and Node have no Worker), as the page runs small scenarios. */
const inline = createRunClient({ createWorker: null });

beforeAll(() => {
  // jsdom lays nothing out: scrolling a focused card into view is a no-op here.
  Element.prototype.scrollIntoView = () => {};
});

async function mount(): Promise<Lab> {
  const lab = createLab({ runner: inline });
  render(
    <LabProvider lab={lab}>
      <LibraryProvider>
        <LibraryButton />
        <StoryPanel />
      </LibraryProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

const cards = () => screen.queryAllByTestId(testIds.libraryCard).map((c) => c.dataset.preset);

describe('library (jsdom)', () => {
  afterEach(cleanup);

  it('lists every preset by group and filters by the search box', async () => {
    await mount();
    fireEvent.click(screen.getByTestId(testIds.libraryOpen));
    await screen.findByTestId(testIds.libraryDialog);
    // 26 streaming presets and the 7 batch jobs (src/scenarios/library/batch.ts), listed last.
    expect(cards()).toHaveLength(33);
    expect(
      screen.getAllByTestId(testIds.libraryGroup).map((g) => g.getAttribute('data-group')),
    ).toEqual([
      'guarantees',
      'producer',
      'broker',
      'consumer',
      'processor',
      'sink',
      'side effect',
      'batch',
    ]);
    // The open preset (the default, at-least-once) is marked in words.
    const open = screen
      .getAllByTestId(testIds.libraryCard)
      .find((c) => c.getAttribute('aria-current') === 'true');
    expect(open?.dataset.preset).toBe('at-least-once');
    expect(open?.textContent).toContain('open now');
    fireEvent.change(screen.getByTestId(testIds.librarySearch), { target: { value: 'spark' } });
    expect(cards()).toEqual([
      'spark-batch-replay',
      'spark-watermark-dedupe',
      'spark-checkpoint-reset-txnappid',
      'raw-clean-layer',
    ]);
    expect(screen.getByTestId(testIds.libraryCount).textContent).toContain('4 of 33');
    // A newcomer searched "zombie" (the README's first paragraph) and found nothing.
    fireEvent.change(screen.getByTestId(testIds.librarySearch), { target: { value: 'zombie' } });
    expect(cards()).toEqual(['zombie-consumer']);
  });

  it('Enter in the search box opens the first match as one undoable edit', async () => {
    const lab = await mount();
    fireEvent.click(screen.getByTestId(testIds.libraryOpen));
    await screen.findByTestId(testIds.libraryDialog);
    const search = screen.getByTestId(testIds.librarySearch);
    fireEvent.change(search, { target: { value: 'p-77' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(screen.queryByTestId(testIds.libraryDialog)).toBeNull();
    expect(lab.app.getState().presetRef).toBe('payment-resent-by-app/plain-insert');
    expect(lab.app.getState().past).toHaveLength(1);
    await act(() => lab.actions.settled());
    const story = screen.getByTestId(testIds.storyPanel);
    expect(story.dataset.preset).toBe('payment-resent-by-app');
    expect(screen.getAllByTestId(testIds.storyVariant)).toHaveLength(7);
    act(() => lab.actions.undo());
    expect(screen.getByTestId(testIds.storyPanel).dataset.preset).toBe('at-least-once');
  });

  it('the answer waits for a locked-in prediction and the end of the run (or a reveal) and stays across variants', async () => {
    const lab = await mount();
    act(() => lab.actions.loadPreset('flink-checkpoint-replay'));
    await act(() => lab.actions.settled());
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    // While the question is unanswered the end is refused (its counters are the answer).
    act(() => lab.actions.seek(1e9));
    expect(lab.cursor.getState().idx).toBeLessThan(lab.app.getState().view!.n);
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    // Locked in, the answer still waits; the end reveals it.
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: '250' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    act(() => lab.actions.seek(1e9));
    expect(screen.getByTestId(testIds.predictAnswer).textContent).toContain('300');
    act(() => lab.actions.seek(0));
    act(() => lab.actions.seek(4000));
    expect(screen.getByTestId(testIds.predictAnswer).textContent).toContain('300');
    // Scrubbing back does not hide it. Another variant of the same preset does not show it (the
    // answer is about the plain sink's run, not upsert's); back on the plain sink it is there.
    act(() => lab.actions.seek(0));
    expect(screen.getByTestId(testIds.predictAnswer).textContent).toContain('300');
    const variant = (id: string) =>
      fireEvent.click(
        screen.getAllByTestId(testIds.storyVariant).find((b) => b.dataset.variant === id)!,
      );
    variant('upsert');
    await act(() => lab.actions.settled());
    expect(screen.getByTestId(testIds.storyPanel).dataset.variant).toBe('upsert');
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    variant('plain-sink');
    await act(() => lab.actions.settled());
    expect(screen.getByTestId(testIds.predictAnswer).textContent).toContain('300');
    // Another preset asks its own question, unanswered; "Show the answer" shows its answer.
    act(() => lab.actions.loadPreset('spark-batch-replay'));
    await act(() => lab.actions.settled());
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    // One name per action (issue 24): the box's is the verdict card's "Show the answer" (it read
    // "Reveal now", the name of showing a told answer's folded verdict before the run's end).
    expect(screen.getByTestId(testIds.predictReveal).textContent).toBe('Show the answer');
    fireEvent.click(screen.getByTestId(testIds.predictReveal));
    expect(screen.getByTestId(testIds.predictAnswer).textContent).toContain('40');
  });

  it('a written count is judged against the answer; after an edit the answer is not shown for the changed run', async () => {
    // The default preset asks "How many rows does the table end with?"; its answer: "24: …".
    const lab = await mount();
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: '20 rows' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    act(() => lab.actions.seek(1e9));
    const answer = () => screen.getByTestId(testIds.predictAnswer);
    expect(answer().dataset.judged).toBe('wrong');
    expect(answer().textContent).toContain('Not quite: 24, not 20.');
    // Another guarantee: the answer describes the run as opened, not this one — not shown.
    act(() => lab.actions.setGuarantee('exactly-once'));
    await act(() => lab.actions.settled());
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    expect(screen.getByTestId(testIds.predictAnswerEdited).textContent).toContain(
      'Your edit changed the run: the answer describes the preset as shipped, not this run',
    );
    // Undo: the preset as shipped, and its answer, are back.
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(answer().dataset.judged).toBe('wrong');
  });

  it("every preset's question is marked: rows and sum for the lost ack, a choice for the MERGE", async () => {
    const lab = await mount();
    const answer = () => screen.getByTestId(testIds.predictAnswer);
    const predict = async (ref: string, text: string) => {
      act(() => lab.actions.loadPreset(ref));
      await act(() => lab.actions.settled());
      fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: text } });
      fireEvent.click(screen.getByTestId(testIds.predictLock));
      fireEvent.click(screen.getByTestId(testIds.predictReveal));
    };
    // A newcomer wrote "10 rows, $550" and was shown the answer, neither right nor wrong.
    act(() => lab.actions.loadPreset('lost-ack-retry'));
    expect(screen.getByTestId(testIds.predict).textContent).toContain(
      'Marked on 2 numbers: rows and sum, in that order.',
    );
    await predict('lost-ack-retry', '10 rows, $550');
    expect(answer().dataset.judged).toBe('wrong');
    expect(answer().textContent).toContain('✕ Not quite: 11 and 580, not 10 and 550.');
    fireEvent.click(screen.getByText('Ask again'));
    await predict('lost-ack-retry', '11 and 580');
    expect(answer().dataset.judged).toBe('right');
    expect(answer().textContent).toContain('✓ Right: 11 and 580.');
    // Two numbers asked, one given ("twice"): not locked in, and it says what is missing.
    fireEvent.click(screen.getByText('Ask again'));
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: 'twice' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    expect(screen.queryByTestId(testIds.predictYours)).toBeNull();
    expect(screen.getByTestId(testIds.predictProblem).textContent).toBe(
      'Not locked in: The question asks for 2 numbers (rows and sum); your prediction gives 1.',
    );
    // A multiple-choice question: radio buttons, then Lock in; a wrong choice says why not.
    act(() => lab.actions.loadPreset('merge-duplicate-source'));
    await act(() => lab.actions.settled());
    const options = screen.getByTestId(testIds.predictOptions);
    expect(options.querySelectorAll('input[type="radio"]')).toHaveLength(4);
    fireEvent.click(options.querySelector<HTMLInputElement>('input[data-choice="last-wins"]')!);
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    fireEvent.click(screen.getByTestId(testIds.predictReveal));
    expect(answer().dataset.judged).toBe('wrong');
    expect(screen.getByTestId(testIds.predictWhyNot).textContent).toContain(
      'Why not: PostgreSQL’s MERGE may not change one target row twice',
    );
    expect(answer().textContent).toContain(
      'Not quite: Only {o1: 100}: the MERGE fails, and o2 is lost with it',
    );
  });

  it('the story head says which guarantee the story shows only once its outcome shows', async () => {
    const lab = await mount();
    act(() => lab.actions.loadPreset('commit-before-process'));
    await act(() => lab.actions.settled());
    // "shows ≤1 at-most-once" before the answer told a room there would be losses.
    const kicker = () => screen.getByTestId(testIds.storyKicker).textContent;
    expect(kicker()).not.toContain('shows');
    expect(kicker()).not.toContain('at-most-once');
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    expect(kicker()).toContain('shows');
    expect(kicker()).toContain('at-most-once');
  });

  it('the story head says what the variant on screen shows, as shipped, not the preset’s theme', async () => {
    const lab = await mount();
    const kicker = () => screen.getByTestId(testIds.storyKicker).textContent;
    // flink-checkpoint-replay is about exactly-once; its question's variant, the plain JDBC sink,
    // writes e201..e250 twice: "shows =1 exactly-once" sat over "Observed at-least-once".
    act(() => lab.actions.loadPreset('flink-checkpoint-replay/plain-sink'));
    await act(() => lab.actions.settled());
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    expect(kicker()).toContain('shows ≥1at-least-once');
    // lost-ack-retry is about at-least-once; retries=0 writes e3 once.
    act(() => lab.actions.loadPreset('lost-ack-retry/retries-0'));
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(1e9));
    expect(kicker()).toContain('shows =1exactly-once');
    // Edited, the run is no longer the one shipped: the verdict says what it shows, not the head.
    act(() => lab.actions.setSeed(3));
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(1e9));
    expect(kicker()).not.toContain('shows');
  });

  it('the story waits for the answer; an edit keeps it hidden until the changed run ends; "Show the answer" shows it', async () => {
    const lab = await mount();
    const hidden = () => screen.queryByTestId(testIds.outcomeHidden);
    act(() => lab.actions.loadPreset('lost-ack-retry'));
    await act(() => lab.actions.settled());
    expect(hidden()?.dataset.what).toBe('story');
    expect(screen.queryByTestId(testIds.storyText)).toBeNull();
    // The variant's summary ("the retry appends e3 again") tells the outcome too.
    expect(screen.getByTestId(testIds.storyPanel).textContent).not.toContain('appends e3 again');
    // Unanswered, the run waits at its start (revealGuard.ts).
    act(() => lab.actions.seek(2000));
    expect(lab.cursor.getState().t).toBe(0);
    // Edited, unanswered (a newcomer's fault added mid-run showed the story at once): still
    // hidden, and the prediction box says why and when it shows; the changed run moves freely.
    act(() => lab.actions.setSeed(3));
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(2000));
    expect(lab.cursor.getState().t).toBe(2000);
    expect(hidden()?.dataset.what).toBe('story');
    expect(hidden()?.textContent).toContain(
      'Changed since it was opened: hidden until this run reaches its end.',
    );
    expect(screen.queryByTestId(testIds.storyText)).toBeNull();
    expect(screen.getByTestId(testIds.storyPanel).textContent).not.toContain('appends e3 again');
    expect(screen.getByTestId(testIds.predict).textContent).toContain(
      'Your edit changed the run: the question is about the preset as shipped. This run’s outcome shows when it reaches its end.',
    );
    // The edited mark and its "reload as shipped" stay while the summary is hidden.
    expect(screen.getByTestId(testIds.storyEdited).textContent).toBe(
      '✎ edited — reload as shipped',
    );
    // Played to its end: the changed run's outcome shows, the answer (about the preset as
    // shipped) does not.
    act(() => lab.actions.seek(1e9));
    expect(hidden()).toBeNull();
    expect(screen.getByTestId(testIds.storyText).textContent).toContain('An order service');
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    // Scrubbing back keeps it shown.
    act(() => lab.actions.seek(0));
    expect(hidden()).toBeNull();
    // Undo: the preset as shipped asks its question again, its outcome hidden.
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(hidden()?.dataset.what).toBe('story');
    expect(screen.getByTestId(testIds.predictInput)).toBeTruthy();
    // Redo brings back the changed run, already played to its end.
    act(() => lab.actions.redo());
    await act(() => lab.actions.settled());
    expect(hidden()).toBeNull();
    // Another edit: a new run, hidden until its own end.
    act(() => lab.actions.setSeed(4));
    await act(() => lab.actions.settled());
    expect(hidden()?.dataset.what).toBe('story');
    act(() => lab.actions.undo());
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(hidden()?.dataset.what).toBe('story');
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    expect(hidden()).toBeNull();
    expect(screen.getByTestId(testIds.predictAnswer).textContent).toContain('11 rows');
    // Skipped: no empty box and "Lock in" left beside the answer.
    expect(screen.queryByTestId(testIds.predictInput)).toBeNull();
    expect(screen.queryByTestId(testIds.predictLock)).toBeNull();
    expect(screen.getByTestId(testIds.predictSkipped).textContent).toBe(
      'You skipped the prediction.',
    );
    expect(screen.getByTestId(testIds.storyPanel).textContent).toContain('appends e3 again');
  });

  it('"Ask again" hides the answer and goes back to time 0', async () => {
    const lab = await mount();
    act(() => lab.actions.loadPreset('retry-storm'));
    await act(() => lab.actions.settled());
    // Locked in trimmed: no stray space inside the quotes.
    fireEvent.change(screen.getByTestId(testIds.predictInput), {
      target: { value: ' 11 duplicates \n' },
    });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    // Until the reveal it is read in the counters' row (LockedPrediction, not mounted here).
    expect(screen.queryByTestId(testIds.predictYours)).toBeNull();
    act(() => lab.actions.seek(1e12));
    expect(screen.getByTestId(testIds.predictAnswer)).toBeTruthy();
    const yours = screen.getByTestId(testIds.predictYours);
    expect(yours.querySelector('q')?.textContent).toBe('11 duplicates');
    fireEvent.click(screen.getByText('Ask again'));
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    expect(screen.getByTestId(testIds.predictInput)).toHaveProperty('value', '');
    expect(lab.cursor.getState().t).toBe(0);
  });

  it('an edited preset says so and reloads as shipped in one click', async () => {
    const lab = await mount();
    act(() => lab.actions.loadPreset('commit-after-process/plain-insert'));
    expect(screen.getByTestId(testIds.storyPanel).dataset.edited).toBe('false');
    expect(screen.queryByTestId(testIds.storyEditedNote)).toBeNull();
    act(() => lab.actions.setSeed(3));
    expect(screen.getByTestId(testIds.storyPanel).dataset.edited).toBe('true');
    expect(screen.getByTestId(testIds.storyEditedNote).textContent).toContain(
      'describe the preset as shipped, not the run on screen',
    );
    fireEvent.click(screen.getByText('reload as shipped'));
    expect(screen.getByTestId(testIds.storyPanel).dataset.edited).toBe('false');
    expect(screen.queryByTestId(testIds.storyEditedNote)).toBeNull();
    // The guarantee switch changes the preset too (it claims exactly-once): the story says so.
    act(() => lab.actions.setGuarantee('at-least-once'));
    expect(screen.getByTestId(testIds.storyPanel).dataset.edited).toBe('true');
    expect(screen.getByTestId(testIds.storyEditedNote)).toBeTruthy();
    expect(screen.getByTestId(testIds.storyPanel).textContent).toContain('As shipped: ');
    expect(lab.app.getState().scenario.seed).toBeUndefined();
    await act(() => lab.actions.settled());
  });

  it('the library opens a lesson on the variant its question is about, not on its first', async () => {
    const lab = await mount();
    fireEvent.click(screen.getByTestId(testIds.libraryOpen));
    await screen.findByTestId(testIds.libraryDialog);
    const search = screen.getByTestId(testIds.librarySearch);
    fireEvent.change(search, { target: { value: 'Process, then commit' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    // commit-after-process asks about additive-upsert; plain-insert (first) would show its outcome.
    expect(lab.app.getState().presetRef).toBe('commit-after-process/additive-upsert');
    await act(() => lab.actions.settled());
    expect(screen.queryByTestId(testIds.predictAbout)).toBeNull();
    expect(screen.getByTestId(testIds.predictInput)).toBeTruthy();
  });

  it('a question about another variant says which, and opens it in one click', async () => {
    const lab = await mount();
    // commit-after-process asks about its additive-upsert variant; plain-insert is first.
    act(() => lab.actions.loadPreset('commit-after-process/plain-insert'));
    await act(() => lab.actions.settled());
    const about = screen.getByTestId(testIds.predictAbout);
    expect(about.textContent).toContain('additive upsert');
    // Nothing to answer here: the question is not about this run.
    expect(screen.queryByTestId(testIds.predictInput)).toBeNull();
    expect(screen.queryByTestId(testIds.predictLock)).toBeNull();
    // Nor another variant's answer: "Show the answer" gave additive-upsert's as "Answer:" over
    // plain-insert's run. Its outcome shows at its end; the answer is on the variant it is about.
    expect(screen.queryByTestId(testIds.predictReveal)).toBeNull();
    expect(screen.queryByTestId(testIds.predictAnswer)).toBeNull();
    expect(screen.getByTestId(testIds.predict).textContent).toContain(
      'This run’s outcome shows when it reaches its end.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open it' }));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().presetRef).toBe('commit-after-process/additive-upsert');
    expect(screen.queryByTestId(testIds.predictAbout)).toBeNull();
  });

  it('the setup says which variant it describes when another is on screen', async () => {
    const lab = await mount();
    // lost-ack-retry's setup is its question's variant (idempotence off): "the producer sends e3
    // again", which retries=0 does not do. Shown unlabelled over retries=0's run, it was untrue.
    act(() => lab.actions.loadPreset('lost-ack-retry/retries-0'));
    await act(() => lab.actions.settled());
    const setup = screen.getByTestId(testIds.storySetup);
    expect(setup.textContent).toMatch(
      /^Set up for the “idempotence off” variant, not this one: An order service/,
    );
    // On the question's own variant the setup is the run on screen: no label.
    act(() => lab.actions.loadPreset('lost-ack-retry/idempotence-off'));
    await act(() => lab.actions.settled());
    expect(screen.getByTestId(testIds.storySetup).textContent).toMatch(/^An order service/);
    expect(screen.queryByTestId(testIds.storySetupAbout)).toBeNull();
  });

  it('a question about the first variant says so on the other variants', async () => {
    const lab = await mount();
    // flink-checkpoint-replay asks about its first variant (the plain JDBC sink).
    act(() => lab.actions.loadPreset('flink-checkpoint-replay/2pc-read-committed'));
    await act(() => lab.actions.settled());
    expect(screen.getByTestId(testIds.predictAbout).textContent).toContain('plain sink');
    fireEvent.click(screen.getByRole('button', { name: 'Open it' }));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().presetRef).toBe('flink-checkpoint-replay/plain-sink');
    expect(screen.queryByTestId(testIds.predictAbout)).toBeNull();
  });
});
