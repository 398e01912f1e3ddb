/**
 * Compare's lane from an engineer's own configuration files, in Chromium: a producer.properties
 * picked by keyboard as lane 2 of the landing preset (at-least-once/default: a lost ack and a
 * consumer crash mid-batch) — its knobs in "What differs", its verdict and counts (by hand in
 * src/views/compare/laneFromConfig.test.ts), one undo step, replayed from the share link alone
 * (same trace hash) — and a bad file refused naming its line, the lanes unchanged. At 1280×720,
 * the page never scrolls sideways; axe-clean.
 */
import { compareTestIds as c } from '../src/ui/compare/compareTestIds';
import { Dashboard, expect, test, testIds } from './fixtures';
import { seriousViolations } from './support/axe';

const producer = (text: string) => ({
  name: 'producer.properties',
  mimeType: 'text/plain',
  buffer: Buffer.from(text),
});

test('a producer.properties as lane 2: its knobs in What differs, its verdict; a bad file refused, the lanes unchanged', async ({
  dash,
  browser,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.showOutcome();
  await dash.byId(c.toggle).click();
  await expect(dash.byId(c.lane)).toHaveCount(3);
  const titles = dash.byId(c.laneTitle);
  await expect(titles).toHaveText([
    '1 as on screen (claims at-least-once)',
    '2 at-most-once',
    '3 exactly-once',
  ]);

  // A bad file first: retries must be an integer
  // (https://kafka.apache.org/documentation/#producerconfigs_retries). Refused naming its line.
  await dash.byId(c.laneFiles).first().setInputFiles(producer('acks=all\nretries=many\n'));
  const refused = dash.byId(c.laneFilesRefused);
  await expect(refused).toContainText(
    'Lane 2 unchanged: “producer.properties” is not a valid configuration',
  );
  await expect(refused).toContainText(
    'producer.properties:2: retries: expected an integer, got "many"',
  );
  await expect(titles).toHaveText([
    '1 as on screen (claims at-least-once)',
    '2 at-most-once',
    '3 exactly-once',
  ]);

  // By keyboard: lane 2's "From files…" opens the file chooser. Focused until it holds the focus:
  // once, under load, the refusal's last render left it unfocused and Enter opened nothing.
  const fromFiles = dash.byId(c.laneFromFiles).first();
  await expect(async () => {
    await fromFiles.focus();
    await expect(fromFiles).toBeFocused({ timeout: 1000 });
  }).toPass();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles(producer('enable.idempotence=true\nacks=all\nbootstrap.servers=localhost:9092\n'));
  await expect(titles.nth(1)).toHaveText('2 as on screen · producer.properties (2 knobs)');
  await expect(refused).toHaveCount(0);
  const notice = dash
    .byId(testIds.notice)
    .filter({ hasText: 'Lane 2: From “producer.properties”' });
  await expect(notice).toContainText('2 keys applied, 1 ignored (on the scenario on screen)');
  await expect(notice).toContainText('ignored bootstrap.servers');

  // At the end: idempotence keeps p-4's retry out, the crash's replay still writes p-6..p-8
  // twice: 23 rows, 3 duplicates, observed at-least-once (its claim held).
  await dash.timeline().focus();
  await page.keyboard.press('End');
  const lane2 = dash.byId(c.lane).nth(1);
  await expect(lane2.getByTestId(c.laneVerdict)).toHaveAttribute('data-observed', 'at-least-once');
  await expect(lane2.getByTestId(c.laneVerdict)).toHaveAttribute('data-held', 'true');
  await expect(lane2.getByTestId(c.laneCounters).locator('dd').first()).toHaveAttribute(
    'data-value',
    '23',
  );
  await expect(lane2.getByTestId(c.laneCounters).locator('dd').nth(1)).toHaveAttribute(
    'data-value',
    '3',
  );
  // What differs: enable.idempotence, false in lane 1, true in lane 2 (acks is all in both).
  const knobs = dash.byId(c.knobs);
  const idempotence = knobs.getByRole('row').filter({ hasText: 'enable.idempotence' });
  await expect(idempotence.getByRole('cell')).toHaveText(['false', 'true', 'true']);
  // Nothing of Compare past the screen's right edge.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  expect(await seriousViolations(page)).toEqual([]);

  // The share link replays the lane from the link alone: the same title and trace.
  await expect
    .poll(async () => ((await lane2.getAttribute('data-trace-hash')) ?? '').length)
    .toBe(64);
  const hash = await lane2.getAttribute('data-trace-hash');
  await dash.byId(testIds.shareButton).click();
  const link = await dash.byId(testIds.shareUrl).inputValue();
  const context = await browser.newContext();
  const other = await context.newPage();
  await new Dashboard(other).goto(link);
  await expect(other.getByTestId(c.laneTitle).nth(1)).toHaveText(
    '2 as on screen · producer.properties (2 knobs)',
  );
  await expect(other.getByTestId(c.lane).nth(1)).toHaveAttribute('data-trace-hash', hash!);
  await context.close();

  // One undo step: lane 2 is at-most-once again.
  await page.keyboard.press('Escape');
  await page.locator('h1').first().click();
  await page.keyboard.press('Control+z');
  await expect(titles.nth(1)).toHaveText('2 at-most-once');
  expect(dash.errors).toEqual([]);
});
