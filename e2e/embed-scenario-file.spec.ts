/**
 * `<delivery-lab-embed src="payments-lost-ack.json">`: a docs page plays the scenario file beside
 * it (e2e/host-files/payments/, served by e2e/embed-host.mjs with no CORS header). The loader
 * fetches it from the page's own origin and hands it to the player, which validates it: the run
 * is the file's (its trace hash is the CLI's for the same file), with the lab on the docs site
 * (`/lab/`) or on another host; a bad file is refused with the file and the field named, and a
 * file that cannot be fetched says so and plays nothing.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { APP, HOST, SHOWN_PLAYER } from './embedTesting';

const FILE = fileURLToPath(
  new URL('./host-files/payments/payments-lost-ack.json', import.meta.url),
);

/** The CLI's trace hash for the file (`delivery-lab <file> --format json`). */
function cliTraceHash(): string {
  const out = execFileSync('npx', ['tsx', 'src/cli/bin.ts', FILE, '--format', 'json'], {
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { traceHash: string }).traceHash;
}

/** The docs page with `file` beside it, its loader from the docs site or from the lab's origin. */
async function openPage(page: Page, file: string, lab: 'same' | 'other') {
  const from = lab === 'same' ? 'same' : APP;
  await page.goto(
    `${HOST}/payments/page.html?file=${encodeURIComponent(file)}&lab=${encodeURIComponent(from)}`,
  );
  const handle = await page.locator('delivery-lab-embed iframe').elementHandle();
  return (await handle!.contentFrame())!;
}

for (const lab of ['same', 'other'] as const)
  test(`the file beside the page plays its own run, the lab ${lab === 'same' ? 'on the docs site' : 'on another host'}: its trace hash is the CLI's`, async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const frame = await openPage(page, 'payments-lost-ack.json', lab);
    await expect(frame.locator(SHOWN_PLAYER)).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByText('Payments: a lost ack, retried').first()).toBeVisible();
    const hash = await frame.evaluate(() => window.__deliveryLab!.traceHash());
    expect(hash).toBe(cliTraceHash());
    // Its frame is named by the file's scenario, once the player has it.
    await expect(page.locator('delivery-lab-embed iframe')).toHaveAttribute(
      'title',
      'Delivery Lab: Payments: a lost ack, retried',
    );
    expect(errors).toEqual([]);
  });

test('a bad file is refused: the notice names the file and the field, and nothing plays', async ({
  page,
}) => {
  const frame = await openPage(page, 'payments-bad.json', 'other');
  const notice = frame.getByText('The scenario file “payments-bad.json” could not be opened');
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(frame.getByText(/producer\.acks: expected "0", "1", "all" or "-1"/)).toBeVisible();
  await expect(frame.locator(SHOWN_PLAYER)).toHaveCount(0);
});

test('a file that cannot be fetched says so, and never plays another scenario', async ({
  page,
}) => {
  const frame = await openPage(page, 'no-such-file.json', 'other');
  await expect(
    frame.getByText('The scenario file “no-such-file.json” could not be opened'),
  ).toBeVisible({ timeout: 20_000 });
  await expect(
    frame.getByText(
      /no-such-file\.json: could not be fetched: .*\/payments\/no-such-file\.json answered HTTP 404/,
    ),
  ).toBeVisible();
  await expect(frame.locator(SHOWN_PLAYER)).toHaveCount(0);
});
