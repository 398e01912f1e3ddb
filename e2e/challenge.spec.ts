/**
 * A challenge, as a student meets it: opened by its link, solved by clicking a fault on the
 * pipeline and playing the run to its end, the engine's success screen with the run's explanation.
 */
import { expect, test } from './fixtures';
import { testIds } from '../src/ui/testIds';

// A loaded machine: the page's first run and the fixture's setup share this budget.
test.describe.configure({ timeout: 90_000 });

test('a challenge opened by ?challenge= is solved by one crash clicked on the consumer', async ({
  unopenedDash: dash,
}) => {
  await dash.page.goto('./?challenge=commit-before-crash-point');
  await dash.page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const panel = dash.byId(testIds.challengePanel);
  await expect(panel).toHaveAttribute('data-challenge', 'commit-before-crash-point');
  await expect(dash.byId(testIds.challengeGoal)).toContainText('Lose an event');
  await expect(dash.byId(testIds.challengeAttempts)).toHaveAttribute('data-value', '0');
  // The start has no fault: the consumer commits right after poll() (commitSync), then writes.
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  // Crash it right after its next commit: the batch is committed and never written (at-most-once).
  await dash.fault('consumer-0', 'crash-after-commit');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);
  await dash.toEnd();
  const success = dash.byId(testIds.challengeSuccess);
  await expect(success).toContainText('Solved!');
  // All 10 records were in the one batch it polled (max.poll.records=10): all 10 lost.
  await expect(success).toContainText('10 lost');
  await expect(dash.byId(testIds.challengeAttempts)).toHaveAttribute('data-value', '1');
  // The attempt is kept: a reload finds the counter where it was.
  await dash.page.reload();
  await dash.page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(dash.byId(testIds.challengeAttempts)).toHaveAttribute('data-value', '1');
  expect(dash.errors).toEqual([]);
});
