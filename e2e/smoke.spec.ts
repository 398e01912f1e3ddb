import { expect, test } from '@playwright/test';
import { testIds } from '../src/ui/testIds';

test('the built page loads with no console errors and shows the heading', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('./');
  await expect(page.getByTestId(testIds.appHeading)).toHaveText('Delivery Lab');
  await expect(page.getByRole('heading', { level: 1, name: 'Delivery Lab' })).toBeVisible();
  // A Content-Security-Policy violation is reported as a console error, so this also
  // checks that the page runs under the policy in index.html.
  expect(errors).toEqual([]);
});

test('the built page runs under its Content-Security-Policy', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(message.text());
  });
  await page.goto('./');
  await expect(page.getByTestId(testIds.appHeading)).toBeVisible();
  // An inline script must be refused: script-src 'self' without 'unsafe-inline'.
  await page.addScriptTag({ content: 'document.body.dataset.inline = "ran";' }).catch(() => {});
  expect(await page.evaluate(() => document.body.dataset.inline ?? null)).toBeNull();
  expect(violations.join('\n')).toContain('Content Security Policy');
});
