/**
 * The presenter view of a lesson (docs/workshops.md), driven by the keys a presentation clicker
 * sends: PageDown moves to the next step (its question asked, its answer hidden), R reveals, the
 * address keeps the step for a reload; the notes window, a second page of the same context,
 * follows over BroadcastChannel.
 */
import { expect, test } from '@playwright/test';
import { lessonTestIds as ids } from '../src/ui/lesson/lessonTestIds';

test('a lesson driven by PageDown only, its notes window following', async ({ context }) => {
  test.setTimeout(120_000);
  const presenter = await context.newPage();
  // Playwright's clock, paused: the runs do not animate (nothing here waits for playback), so
  // the steps' runs cost no frames on a busy machine.
  await presenter.clock.install();
  await presenter.goto('./?lesson=delivery-guarantees-45');
  const view = presenter.getByTestId(ids.presenter);
  await expect(view).toHaveAttribute('data-step', '1');
  await expect(view).toHaveAttribute('data-present', '');
  await expect(presenter.getByTestId(ids.stepCount)).toHaveText('Step 1 of 10');
  // The first step asks its preset's question; the answer waits for R.
  await expect(presenter.getByTestId(ids.question)).toContainText(
    'How many of the 20 payments reach the table?',
  );
  await expect(presenter.getByTestId(ids.answer)).toHaveCount(0);

  const notes = await context.newPage();
  await notes.goto('./?lesson=delivery-guarantees-45&notes=1');
  await expect(notes.getByTestId(ids.notes)).toHaveAttribute('data-step', '1');

  // PageDown, twice: the presenter is on step 3 and the notes window follows.
  await presenter.bringToFront();
  await presenter.keyboard.press('PageDown');
  await expect(view).toHaveAttribute('data-step', '2');
  await presenter.keyboard.press('PageDown');
  await expect(view).toHaveAttribute('data-step', '3');
  await expect(presenter.getByTestId(ids.stepTitle)).toHaveText(
    'Effectively-once: at-least-once plus an idempotent write',
  );
  await expect(presenter.getByTestId(ids.question)).toContainText(
    'The consumer still writes p-6..p-8 twice. How many rows?',
  );
  await expect(presenter.getByTestId(ids.answer)).toHaveCount(0);
  await expect(notes.getByTestId(ids.notes)).toHaveAttribute('data-step', '3');
  await expect(notes.getByTestId(ids.notesNote)).toContainText('the sink absorbs it');

  // R reveals the preset's answer (src/scenarios/foundation.ts, effectively-once: 20 rows).
  await presenter.keyboard.press('r');
  await expect(presenter.getByTestId(ids.answer)).toContainText('20: the second write');
  await expect(view).toHaveAttribute('data-revealed', 'true');
  await expect(notes.getByTestId(ids.notes)).toHaveAttribute('data-revealed', 'true');

  // The address carries the step and the reveal: a reload resumes there.
  await expect(presenter).toHaveURL(/[?&]step=3&reveal=1/);
  await presenter.reload();
  await expect(presenter.getByTestId(ids.presenter)).toHaveAttribute('data-step', '3');
  await expect(presenter.getByTestId(ids.answer)).toContainText('20: the second write');
});
