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

test('the specs’ static host sends the hashed assets as the classroom server does: immutable; the page no-cache', async ({
  request,
}) => {
  // e2e/preview.config.ts: a reload takes /assets/ from the cache (server/staticFiles.ts's header).
  const html = await request.get('./');
  expect(html.headers()['cache-control']).toBe('no-cache');
  const entry = /\/assets\/[\w-]+\.js/.exec(await html.text())?.[0];
  expect(entry).toBeDefined();
  const asset = await request.get(`.${entry!}`);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});
