/**
 * The Embed dialog's `src=` form end to end, as a doc author uses it: the scenario built on the
 * page (acks=1, the leader of payments-0 failing right after an append), the file DOWNLOADED from
 * the dialog and its element copied, both put in a docs folder served from another origin, and
 * that page's embed plays the file: its verdict the page's, its trace hash the CLI's for the same
 * file, and `delivery-lab check` on the folder pins it by the file's own expect block
 * (docs/embed.md, "A scenario file beside the page"; docs/cli.md, "Pin your docs in CI").
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { expect, test } from './fixtures';
import { SHOWN_PLAYER } from './embedTesting';
import { testIds } from '../src/ui/testIds';

const CAPTION = 'acks=1: a leader failover loses a record';
// The dialog names the file after the caption (EmbedDialog.tsx).
const FILE = 'acks-1-a-leader-failover-loses-a-record.scenario.json';

/** A static host of `dir` on a free loopback port: the docs site, another origin than the lab's. */
async function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.json': 'application/json; charset=utf-8',
  };
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    const file = join(dir, name);
    if (name.includes('..') || !existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The CLI on the docs folder or a file (`delivery-lab …`, from the sources as `npm run sim`). */
function cli(...args: string[]): { code: number; out: string } {
  try {
    return {
      code: 0,
      out: execFileSync('npx', ['tsx', 'src/cli/bin.ts', ...args], { encoding: 'utf8' }),
    };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, out: err.stdout + err.stderr };
  }
}

test('the file the dialog downloads, beside a docs page on another origin, plays its run and is pinned by check', async ({
  dash,
  page,
}) => {
  test.setTimeout(120_000);
  // The doc author's scenario: at-least-once's pipeline without its two faults, acks=1, and the
  // leader of payments-0 failing right after its next append (from 0 ms: p-1's).
  await dash.pickPreset('at-least-once');
  await dash.deleteAllFaults();
  await page.getByRole('tab', { name: 'Knobs' }).click();
  await dash
    .byId(testIds.knobs)
    .locator('[data-knob="producer.acks"]')
    .getByRole('combobox')
    .selectOption('1');
  await dash.settled();
  await dash.fault('partition:payments:0', 'leader-failover-after-append');

  await dash.byId(testIds.embedButton).click();
  const dialog = dash.byId(testIds.embedDialog);
  await dialog.getByLabel('Caption').fill(CAPTION);
  await dialog.getByLabel(/a scenario file beside the page/).check();
  const docs = test.info().outputPath('docs');
  mkdirSync(docs, { recursive: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dash.byId(testIds.embedFile).click(),
  ]);
  expect(download.suggestedFilename()).toBe(FILE);
  await download.saveAs(join(docs, FILE));
  const snippet = await dash.byId(testIds.embedSnippet).inputValue();
  expect(snippet).toContain(`src="${FILE}"`);
  writeFileSync(
    join(docs, 'index.html'),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Producer acks</title></head>
<body><main style="max-width: 720px; margin: 0 auto">
<h1>Producer acks and a leader failover</h1>
${snippet}
<p>Text below the embed.</p>
</main></body></html>
`,
  );

  const { server, origin } = await serve(docs);
  try {
    await page.goto(`${origin}/index.html`);
    const frame = page.frameLocator('delivery-lab-embed iframe');
    await expect(frame.locator(SHOWN_PLAYER)).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('delivery-lab-embed iframe')).toHaveAttribute(
      'title',
      `Delivery Lab: ${CAPTION}`,
    );
    // To the run's end from the keyboard: the verdict shows.
    await frame.getByTestId(testIds.play).focus();
    await page.keyboard.press('End');
    // p-1 ($10) was acknowledged by broker-1 alone, which failed before a follower copied it:
    // 19 rows of the 20 payments, 1 lost, $2,100 - $10.
    await expect(frame.getByTestId(testIds.counterMissing)).toHaveAttribute('data-final', 'true');
    await expect(frame.getByTestId(testIds.counterRows)).toHaveAttribute('data-value', '19');
    await expect(frame.getByTestId(testIds.counterMissing)).toHaveAttribute('data-value', '1');
    await expect(frame.getByTestId(testIds.counterSum)).toHaveAttribute('data-value', '2090');
    await expect(frame.getByTestId(testIds.verdict)).toHaveAttribute(
      'data-observed',
      'at-most-once',
    );
    await expect(frame.getByTestId(testIds.verdict)).toContainText(
      'Observed at-most-once, claimed at-least-once: broken',
    );
    // The very run the CLI gives for the downloaded file.
    const handle = await page.locator('delivery-lab-embed iframe').elementHandle();
    const player = (await handle!.contentFrame())!;
    const hash = await player.evaluate(() => window.__deliveryLab!.traceHash());
    const json = JSON.parse(cli(join(docs, FILE), '--format', 'json').out) as { traceHash: string };
    expect(hash).toBe(json.traceHash);
  } finally {
    server.close();
  }

  // Docs CI: the page's element and the file beside it, pinned by the file's expect block.
  const check = cli('check', docs);
  expect(check.out).toContain(
    `(<delivery-lab-embed>, scenario file ${FILE}, pinned by its file's expect block)`,
  );
  // The folder holds two: the file itself (a scenario, pinned by its expect block) and the embed.
  expect(check.out).toContain(`✓ ${join(docs, FILE)} (At-least-once: retry everything`);
  expect(check.out).toContain('check: 2 scenarios: 2 passed, 0 failed, 0 malformed');
  expect(check.code).toBe(0);
});

test('the src= form reads top to bottom at 1280×720: the forms, the height, the pin, then Download and Copy', async ({
  dash,
}) => {
  await dash.pickPreset('lost-ack-retry/acks-1');
  await dash.byId(testIds.embedButton).click();
  const dialog = dash.byId(testIds.embedDialog);
  await dialog.getByLabel(/a scenario file beside the page/).check();
  await expect(dash.byId(testIds.embedInitialHeight)).toContainText('px in a 720 px column');
  const parts = [
    dialog.getByText('the loader’s element (sizes every frame'),
    dialog.getByText('the loader’s element and a scenario file beside the page'),
    dialog.getByText('an iframe and its listener'),
    dash.byId(testIds.embedInitialHeight),
    // The choices first — the pin above all, which the downloaded file holds — then what to take.
    dialog.getByText('pin what it shows for docs CI'),
    dash.byId(testIds.embedFile),
    dash.byId(testIds.embedFileCopy),
  ];
  // Boxes in the page (the dialog scrolls inside itself: no scrolling between two measures).
  const fieldset = (await dialog.locator('fieldset', { hasText: 'Snippet' }).boundingBox())!;
  let above = fieldset.y;
  for (const part of parts) {
    const box = (await part.boundingBox())!;
    const what = (await part.textContent())!.slice(0, 40);
    // One column: each under the one before, at the fieldset's left (on two columns the Download
    // sat beside the forms, at the middle, above the pin it holds, and the height's note under
    // the iframe's form).
    expect(box.x - fieldset.x, what).toBeLessThan(60);
    expect(box.y, what).toBeGreaterThanOrEqual(above - 1);
    above = box.y + box.height;
  }
});
