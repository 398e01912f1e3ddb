/**
 * The batch page: a batch preset plays on the calendar strip, a click fails an attempt mid-write,
 * the table shows its partitions with the rows under the wrong partition, and the explanation
 * names the clock window (docs/semantics/batch.md).
 */
import { expect, test } from '@playwright/test';

test('clear-rerun-window: play, fail an attempt mid-write, wrong-partition rows and the clock window', async ({
  page,
}) => {
  await page.goto('?batch=clear-rerun-window');
  await page.getByRole('button', { name: 'Play' }).click();
  // 3 scheduled runs and the re-run of 2024-03-10, revealed one by one.
  await expect(page.getByTestId('batch-attempt')).toHaveCount(4);
  const p0310 = page.getByTestId('batch-partition').filter({ hasText: '2024-03-10' });
  await expect(p0310).toContainText('f1 (wrong partition)');
  await expect(p0310.locator('[data-wrong]')).toHaveCount(2);
  await expect(page.getByTestId('batch-explanation').first()).toContainText(
    'current_date() - 1 = 2024-03-12',
  );
  // Fail the scheduled run of 2024-03-12 mid-write (after 1 of its 2 rows, atomic: nothing lands).
  await page.getByRole('button', { name: /try 1 of 2024-03-12/ }).click();
  await page.getByRole('menuitem', { name: 'Fail this attempt mid-write' }).click();
  await expect(
    page.getByRole('button', { name: /try 1 of 2024-03-12.*crashed \(mid-write\)/ }),
  ).toBeVisible();
  // f1, f2 now exist only under 2024-03-10: no partition 2024-03-12 any more.
  await expect(page.getByTestId('batch-partition')).toHaveCount(1);
  await expect(page.getByTestId('batch-summary')).toContainText('2 under the wrong partition');
});
