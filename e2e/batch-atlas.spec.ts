/**
 * "Predict first" on a batch preset folds the batch fault atlas and batch Compare (issue #23):
 * which faults break the claim, and each lane's verdict, are the prediction's answer. While the
 * question waits, batch Compare shows its lanes' choices only, its verdicts and diff behind the
 * page's note ("Hidden until you answer…", src/ui/library/HiddenOutcome.tsx), and the batch atlas
 * — under the job's outcome (src/ui/batch/BatchRun.tsx) — is behind the outcome's note, not
 * offered (a shared job opened at its end: behind the outcome's note); answered and the schedule
 * at its end, both appear. The unit tests
 * (src/ui/atlas/atlasOutcomeGate.test.tsx) render the panels alone; this is the page.
 *
 * One batch preset, airflow-retry-append (S21: 10 source events, try 1 commits them then fails,
 * try 2 appends them again — src/scenarios/library/batch.ts; its atlas is derived in
 * src/views/batch/batchAtlas.test.ts: 23 single faults in 5 cells, 12 of them breaking).
 */
import { expect, test } from '@playwright/test';
import { encodeShare } from '../src/platform/share';
import { findPreset } from '../src/scenarios';
import { withAtlasParam } from '../src/views/atlas/atlasLink';
import { encodeSharePrediction } from '../src/views/io/sharePrediction';

// The batch page's lazy chunks, the lanes and an atlas worker on a shared 2-core machine:
// generous (alone, the whole test takes a few seconds).
test.describe.configure({ timeout: 120_000 });

test('while the prediction waits, batch Compare and the batch atlas are folded behind the page’s note; answered, they appear', async ({
  page,
}) => {
  await page.goto('?preset=airflow-retry-append');
  const hidden = (what: string) =>
    page.locator(`[data-testid="outcome-hidden"][data-what="${what}"]`);
  const atlasButton = page.getByRole('button', { name: 'Fault atlas: every single fault' });
  await expect(page.getByTestId('predict-input')).toBeVisible({ timeout: 30_000 });

  // Compare while the question waits: the three lanes' choices, no verdict, no diff.
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3, { timeout: 30_000 });
  await expect(hidden('compare')).toContainText(
    'Hidden until you answer the prediction and play the run to its end.',
  );
  await expect(page.getByTestId('batch-lane-summary')).toHaveCount(0);
  await expect(page.getByTestId('batch-diff-row')).toHaveCount(0);
  // Compare takes the batch page's place (the question with it): closed, the question waits.
  await page.getByTestId('batch-compare-close').click();
  await expect(page.getByTestId('batch-compare')).toHaveCount(0);
  // The batch atlas is under the job's outcome, at the end of a schedule that waits for the
  // answer: not offered (nor its results).
  await expect(
    page.getByRole('button', { name: 'Play the schedule', exact: true }),
  ).toHaveAttribute('aria-disabled', 'true');
  await expect(atlasButton).toHaveCount(0);
  await expect(page.getByTestId('batch-atlas-summary')).toHaveCount(0);

  // Answered: locked in, the outcome still waits for the schedule's end…
  await page.getByTestId('predict-input').fill('20 rows');
  await page.getByTestId('predict-lock').click();
  await expect(atlasButton).toHaveCount(0);
  // …which "Show the end" reaches: the table, and the batch atlas under it.
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  await expect(hidden('batch-outcome')).toHaveCount(0);
  await atlasButton.click();
  // Its results as they arrive: no note left to fold them.
  await expect(page.getByTestId('batch-atlas-summary')).toContainText(
    '23 placements: 11 held, 12 duplicate — the 12 that duplicate do so as the job alone does.',
    { timeout: 60_000 },
  );
  await expect(page.getByTestId('batch-atlas-cell')).toHaveCount(5);
  await expect(hidden('batch-atlas')).toHaveCount(0);
  // Compare again: the lanes' verdicts and the per-event diff (the 10 source events) unfold.
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane-summary')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('batch-diff-row')).toHaveCount(10);
  await expect(hidden('compare')).toHaveCount(0);
});

test('a shared batch job that asks its question: the outcome and its atlas behind the note; answered, the explored atlas is offered and runs', async ({
  page,
}) => {
  // The preset edited (its name): a scenario of its own, opened at its schedule's start (a shared
  // job plays, docs/page.md#batch-jobs), asking the link's question (p=1) with the sender's
  // explored atlas beside it (a=).
  const job = { ...findPreset('airflow-retry-append')!.variant.scenario, name: 'my retry job' };
  const hash = withAtlasParam(
    `${encodeShare(job)}&${encodeSharePrediction({ ask: true, question: 'How many rows?', answer: '20 rows' })}`,
    { explored: true },
  );
  await page.goto(`./#${hash}`);
  await expect(page.getByTestId('batch-setup')).toBeVisible({ timeout: 30_000 });
  // The question waits: the schedule's end is refused, so is the outcome and its atlas.
  const end = page.getByRole('button', { name: 'Show the end', exact: true });
  await expect(end).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('batch-attempt')).toHaveCount(0);
  await expect(page.getByTestId('batch-summary')).toHaveCount(0);
  await expect(page.getByTestId('batch-atlas-offer')).toHaveCount(0);
  await expect(page.getByTestId('batch-atlas-summary')).toHaveCount(0);
  // Answered, then the schedule's end: the outcome unfolds, and the atlas the sender explored is
  // offered again, its results shown once run.
  await page.getByTestId('predict-input').fill('20 rows');
  await page.getByTestId('predict-lock').click();
  await end.click();
  await expect(page.getByTestId('batch-summary')).toContainText('20 rows');
  await expect(
    page.locator('[data-testid="outcome-hidden"][data-what="batch-outcome"]'),
  ).toHaveCount(0);
  await expect(page.getByTestId('batch-atlas-offer')).toContainText(
    'This atlas was explored with these choices (every kind)',
  );
  await page.getByRole('button', { name: 'Fault atlas: every single fault' }).click();
  await expect(page.getByTestId('batch-atlas-summary')).toContainText(
    '23 placements: 11 held, 12 duplicate — the 12 that duplicate do so as the job alone does.',
    { timeout: 60_000 },
  );
});

test('at 390 px wide the batch heat map and batch Compare scroll sideways in their own box: the page does not', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // A variant whose question is elsewhere: its outcome shows at its end, no answer needed.
  await page.goto('?preset=clear-rerun-window/clock-append');
  await page.getByRole('button', { name: 'Show the end' }).click({ timeout: 30_000 });
  const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  await page.getByRole('button', { name: 'Fault atlas: every single fault' }).click();
  const heat = page.getByTestId('batch-atlas-grid');
  await expect(heat).toBeVisible({ timeout: 60_000 });
  // The heat map pushed the page to 484 px, batch Compare's lanes to 492.
  expect(
    await heat.evaluate((el) => el.parentElement!.scrollWidth > el.parentElement!.clientWidth),
  ).toBe(true);
  expect(await pageWidth()).toBe(390);
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3, { timeout: 30_000 });
  expect(await pageWidth()).toBe(390);
});
