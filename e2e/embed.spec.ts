/**
 * The embedded player (`?embed`) inside a host page served from ANOTHER origin (127.0.0.1:4174,
 * e2e/embed-host.mjs): it autoplays and reports its height with postMessage, and the host sizes
 * the frame from it. The Embed dialog's snippet works as pasted. The build also runs from a
 * sub-path of a plain static host. Options: predict then reveal, locked knobs, panels, caption.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Frame, Page } from '@playwright/test';
import { encodeShare } from '../src/platform/share';
import { WORKSPACE_KEY } from '../src/platform/storage';
import { encodeSharePrediction } from '../src/views/io/sharePrediction';
import type { ScenarioInput } from '../src/engine';
import { expect, test, testIds } from './fixtures';

// The ports playwright.config.ts serves on (npm test picks free ones).
const APP = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}/`;
const HOST = `http://127.0.0.1:${process.env.E2E_HOST_PORT ?? 4174}`;

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const hostPage = (data: { src: string } | { snippet: string }) =>
  `${HOST}/host.html#${b64url(JSON.stringify(data))}`;

/** The frame's height minus the last reported height (0 once the host has applied it). */
async function frameVsReported(page: Page): Promise<number> {
  const frame = Math.round((await page.locator('iframe').boundingBox())!.height);
  return frame - Number(await page.locator('#height').textContent());
}

async function playerFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle!.contentFrame();
  return frame!;
}

test('in a host page on another origin, the player autoplays and reports its height', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(
    hostPage({ src: `${APP}?embed&autoplay=1&speed=0.05&id=demo&preset=at-least-once` }),
  );
  // Height messages arrive, from the lab's origin, with the frame's id.
  await expect(page.locator('#count')).not.toHaveText('0', { timeout: 20_000 });
  await expect(page.locator('#id')).toHaveText('demo');
  expect(await page.evaluate(() => document.body.dataset.origin)).toBe(new URL(APP).origin);
  const reported = Number(await page.locator('#height').textContent());
  expect(reported).toBeGreaterThan(300);
  // The host sized the frame from the message: the frame shows the whole player, no scrolling.
  await expect.poll(() => frameVsReported(page)).toBe(0);

  // It plays by itself: the cursor moves on.
  const frame = await playerFrame(page);
  await expect(frame.getByTestId(testIds.embedPlayer)).toHaveAttribute('data-status', 'ready');
  await expect(frame.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(() => frame.evaluate(() => window.__deliveryLab!.cursor().t))
    .toBeGreaterThan(100);
  // Frames are cross-origin: the host cannot reach into the player.
  expect(
    await page.evaluate(() => {
      try {
        return typeof document.querySelector('iframe')!.contentWindow!.document;
      } catch {
        return 'blocked';
      }
    }),
  ).toBe('blocked');
  expect(errors).toEqual([]);
});

test("the Embed dialog does not carry another variant's question", async ({ dash }) => {
  // flink-checkpoint-replay's question is about its plain-sink variant (300 rows): for the XA
  // variant it would describe another run. Unticked and empty: ticking asks the generic question.
  await dash.pickPreset('flink-checkpoint-replay/2pc-jdbc-xa');
  await dash.byId(testIds.embedButton).click();
  const dialog = dash.byId(testIds.embedDialog);
  await expect(dialog.getByLabel('Ask for a prediction, then reveal')).not.toBeChecked();
  await dialog.getByLabel('Ask for a prediction, then reveal').check();
  await expect(dialog.getByLabel('Question')).toHaveValue('');
  await expect(dialog.getByLabel('Answer')).toHaveValue('');
  await dialog.getByLabel('an iframe and its listener').check();
  const snippet = await dash.byId(testIds.embedSnippet).inputValue();
  expect(snippet).toContain('predict=1');
  expect(snippet).not.toContain('q=');
});

test('an edited preset: the Embed dialog fills in no answer (the preset’s describes another run)', async ({
  dash,
}) => {
  await dash.pickPreset('at-most-once');
  // An edit that keeps the preset open (its story and question), as a fault click does.
  const seed = dash.byId(testIds.seedInput);
  await seed.fill('7');
  await seed.press('Enter');
  await dash.settled();
  expect(await dash.api('scenario')).toMatchObject({ seed: 7 });
  await dash.byId(testIds.embedButton).click();
  const dialog = dash.byId(testIds.embedDialog);
  await expect(dialog.getByLabel('Ask for a prediction, then reveal')).not.toBeChecked();
  await dialog.getByLabel('Ask for a prediction, then reveal').check();
  await expect(dialog.getByLabel('Question')).toHaveValue('');
  await expect(dialog.getByLabel('Answer')).toHaveValue('');
  await dialog.getByLabel('an iframe and its listener').check();
  const snippet = await dash.byId(testIds.embedSnippet).inputValue();
  expect(snippet).toContain('predict=1');
  expect(snippet).not.toContain('q=');
  expect(snippet).not.toContain('a=');
});

test('the Embed dialog writes a snippet that works as pasted on another origin', async ({
  dash,
  page,
}) => {
  await dash.pickPreset('at-most-once');
  await dash.byId(testIds.embedButton).click();
  const dialog = dash.byId(testIds.embedDialog);
  // The open preset's question comes along, asked by default.
  await expect(dialog.getByLabel('Ask for a prediction, then reveal')).toBeChecked();
  await expect(dialog.getByLabel('Question')).toHaveValue(
    'How many of the 20 payments reach the table?',
  );
  await dialog.getByLabel('Autoplay').check();
  await dialog.getByLabel('Caption').fill('At-most-once: <b>watch</b> p-9 & p-10');
  await dialog.getByLabel('Frame id').fill('lesson-1');
  // The loader's element is the default form; the iframe is one choice away.
  await expect(dash.byId(testIds.embedSnippet)).toContainText('<delivery-lab-embed ');
  await dialog.getByLabel('an iframe and its listener').check();
  const snippet = await dash.byId(testIds.embedSnippet).inputValue();
  const axe = await new AxeBuilder({ page: dash.page })
    .include(`[data-testid="${testIds.embedDialog}"]`)
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  expect(snippet).toContain('<iframe id="lesson-1"');
  expect(snippet).toContain('?embed&amp;autoplay=1&amp;caption=');
  // The preset's own question and answer are not in the URL (its source would show the answer):
  // the player knows the preset from the scenario, sent as shipped.
  expect(snippet).toContain('&amp;predict=1');
  expect(snippet).not.toContain('&amp;q=');
  expect(snippet).not.toContain('&amp;a=');
  expect(snippet).toContain('#s=2.');
  expect(snippet).toContain("m.type === 'delivery-lab:height'");
  // The caption is an attribute value, escaped: no markup gets out of it.
  expect(snippet).toContain(
    'title="Delivery Lab: At-most-once: &lt;b&gt;watch&lt;/b&gt; p-9 &amp; p-10"',
  );
  const hash = await dash.api('traceHash');

  await page.goto(hostPage({ snippet }));
  await expect(page.locator('#id')).toHaveText('lesson-1', { timeout: 20_000 });
  const frame = await playerFrame(page);
  await expect(frame.getByTestId(testIds.embedCaption)).toHaveText(
    'At-most-once: <b>watch</b> p-9 & p-10',
  );
  // Asked first: autoplay waits for the reader's answer, then plays.
  await expect(frame.getByTestId(testIds.embedPredict)).toContainText(
    'How many of the 20 payments reach the table?',
  );
  await expect(frame.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  await frame.getByTestId(testIds.embedReveal).click();
  await expect(frame.getByTestId(testIds.embedAnswer)).toContainText(
    '18: p-9 and p-10 were committed but never written.',
  );
  await expect(frame.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  expect(await frame.evaluate(() => window.__deliveryLab!.traceHash())).toBe(hash);
  // The snippet's listener sized the frame.
  await expect.poll(() => frameVsReported(page)).toBe(0);
});

test('the build runs from a sub-path of a plain static host', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${HOST}/some/base/path/?embed&autoplay=1`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  await page.goto(`${HOST}/some/base/path/`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  // The run worker and a lazy chunk (the diagrams' mermaid) load from the sub-path too. The
  // topology: the default preset's prediction hides the whole run's diagram, not that one.
  await page.getByTestId(testIds.diagramsToggle).click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="flow"]`).click();
  await expect(page.getByTestId(testIds.diagramSvg).locator('svg')).toBeVisible({
    timeout: 20_000,
  });
  expect(errors).toEqual([]);
});

test('predict first: locking the answer in plays the run; the answer waits for its end', async ({
  page,
}) => {
  await page.goto('./?embed&predict=1&preset=at-most-once&t=1000');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const predict = page.getByTestId(testIds.embedPredict);
  // The preset's own question; the verdict hidden; nothing plays yet.
  await expect(predict).toContainText('How many of the 20 payments reach the table?');
  await expect(page.getByTestId(testIds.verdict)).toHaveCount(0);
  await expect(
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`),
  ).toBeVisible();
  // The player goes to t= once its height is reserved, which can be just after the run is ready.
  await expect.poll(() => page.evaluate(() => window.__deliveryLab!.cursor().t)).toBe(1000);
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await page.getByTestId(testIds.predictInput).fill('20');
  await page.getByTestId(testIds.predictLock).click();
  // Locked in: the run plays on from where it stood, and gives nothing away yet.
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId(testIds.predictYours)).toContainText('20');
  await expect(page.getByTestId(testIds.embedAnswer)).toHaveCount(0);
  await expect(page.getByTestId(testIds.verdict)).toHaveCount(0);
  // The end of the run reveals the answer and the verdict.
  await page.getByTestId(testIds.play).focus();
  await page.keyboard.press('End');
  const answer = page.getByTestId(testIds.embedAnswer);
  await expect(answer).toContainText('18: p-9 and p-10 were committed but never written.');
  await expect(answer).toContainText('18 rows for 20 events — 0 duplicates, 2 lost');
  await expect(page.getByTestId(testIds.verdict)).toHaveAttribute('data-observed', 'at-most-once');
});

test('a shared scenario with no question gets the generic one, judged at the end of the run', async ({
  page,
}) => {
  const scenario = {
    version: 1,
    name: 'no question',
    workload: { generate: { count: 5 } },
  } as ScenarioInput;
  await page.goto(`./?embed&predict=1&speed=0.02#${encodeShare(scenario)}`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.embedPredict)).toContainText(
    'What will the sink end with?',
  );
  await page.getByRole('button', { name: 'Some events twice' }).click();
  // Not at the start of the run: the answer waits while it plays.
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId(testIds.embedAnswer)).toHaveCount(0);
  await expect(page.getByTestId(testIds.predictYours)).toContainText('Some events twice');
  // It plays to its end by itself, and says whether the prediction matched.
  const answer = page.getByTestId(testIds.embedAnswer);
  await expect(answer).toHaveAttribute('data-judged', 'wrong', { timeout: 20_000 });
  await expect(answer).toContainText('Not what happened: the run shows every event exactly once');
  await expect(answer).toContainText('5 rows for 5 events');
});

test('a share link that asks for a prediction (p=1) asks it in the embed too, as on the page and in its Embed dialog; predict=0 turns it off', async ({
  page,
}) => {
  const scenario = {
    version: 1,
    name: 'five payments',
    workload: { generate: { count: 5 } },
  } as ScenarioInput;
  const hash = `${encodeShare(scenario)}&${encodeSharePrediction({
    ask: true,
    question: 'How many rows will the table hold?',
    answer: '5: one row per payment.',
  })}`;
  // The page asks it…
  await page.goto(`./#${hash}`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.predictQuestion)).toHaveText(
    'How many rows will the table hold?',
  );
  // Its Embed dialog starts with the link's question…
  await page.getByTestId(testIds.embedButton).click();
  const dialog = page.getByTestId(testIds.embedDialog);
  await expect(dialog.getByLabel('Ask for a prediction, then reveal')).toBeChecked();
  await dialog.getByLabel('an iframe and its listener').check();
  await expect(page.getByTestId(testIds.embedSnippet)).toContainText(
    '&amp;predict=1&amp;q=How+many+rows+will+the+table+hold%3F&amp;a=5%3A+one+row+per+payment.#s=2.',
  );
  // …and so does the share link made an embed by adding ?embed.
  await page.goto('about:blank');
  await page.goto(`./?embed#${hash}`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.embedPredict)).toBeVisible();
  await expect(page.getByTestId(testIds.predictQuestion)).toHaveText(
    'How many rows will the table hold?',
  );
  await expect(page.getByTestId(testIds.verdict)).toHaveCount(0);
  await expect(
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`),
  ).toBeVisible();
  await page.getByTestId(testIds.predictInput).fill('5');
  await page.getByTestId(testIds.predictLock).click();
  await page.getByTestId(testIds.play).focus();
  await page.keyboard.press('End');
  const answer = page.getByTestId(testIds.embedAnswer);
  await expect(answer).toHaveAttribute('data-judged', 'right');
  await expect(answer).toContainText('Right: 5.');
  await expect(answer).toContainText('Answer: 5: one row per payment.');
  await expect(answer).toContainText('5 rows for 5 events');
  // The embed's own predict=0 wins: nothing asked; the verdict waits for the run's end (issue 24).
  await page.goto('about:blank');
  await page.goto(`./?embed&predict=0#${hash}`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.embedPredict)).toHaveCount(0);
  await expect(page.getByTestId(testIds.verdict)).toHaveCount(0);
  await page.getByTestId(testIds.play).focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId(testIds.verdict)).toBeVisible();
});

test('a preset variant its question is not about is asked about its own run', async ({ page }) => {
  await page.goto('./?embed&preset=flink-checkpoint-replay/2pc-jdbc-xa&predict=1');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const predict = page.getByTestId(testIds.embedPredict);
  // Not the plain-sink question (300 rows): the XA run's own outcome is asked for.
  await expect(predict).toContainText('What will the sink end with?');
  await expect(predict).not.toContainText('plain JDBC sink');
  await page.getByRole('button', { name: 'Every event exactly once' }).click();
  await page.getByTestId(testIds.play).focus();
  await page.keyboard.press('End');
  const answer = page.getByTestId(testIds.embedAnswer);
  await expect(answer).toHaveAttribute('data-judged', 'right');
  await expect(answer).toContainText('250 rows for 250 events — 0 duplicates, 0 lost');
});

test('the embed opens at event 0, as the page does; it loads the player, not the lab, nor React DOM', async ({
  page,
}) => {
  const scripts: string[] = [];
  const bodies: Promise<{ file: string; text: string }>[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'script') return;
    const file = new URL(r.url()).pathname.split('/').pop()!;
    scripts.push(file);
    bodies.push(r.text().then((text) => ({ file, text })));
  });
  await page.goto('./?embed&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.clock)).toHaveText(/^t = 0 ms · event 0 \/ /);
  expect(await page.evaluate(() => window.__deliveryLab!.cursor().idx)).toBe(0);
  // src/entry.ts: the embed's page module (src/embedMain.tsx), never the lab's (src/main.tsx).
  expect(scripts.filter((f) => /^embedMain-/.test(f))).toHaveLength(1);
  expect(scripts.filter((f) => /^main-/.test(f))).toEqual([]);
  // vite.config.ts (preactForTheEmbed): the embed renders with preact/compat, ~60 kB gzip less
  // than React DOM, whose every build names its root's key `__reactContainer$…`.
  const withReactDom = (await Promise.all(bodies)).filter((b) =>
    b.text.includes('__reactContainer$'),
  );
  expect(withReactDom.map((b) => b.file)).toEqual([]);
});

test('the player is on screen before its first run ends: the embed does not wait for it to paint', async ({
  page,
}) => {
  // The player's status when it first appears in the document (src/embedMain.tsx renders at
  // once; it used to render once the first run was ready, up to 300 ms later).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const player = document.querySelector<HTMLElement>('[data-testid="embed-player"]');
      if (!player) return;
      (window as unknown as { firstStatus: string }).firstStatus = player.dataset.status ?? '';
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('./?embed&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const first = await page.evaluate(
    () => (window as unknown as { firstStatus: string }).firstStatus,
  );
  expect(['idle', 'running']).toContain(first);
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveAttribute('data-status', 'ready');
});

test('tables of ≤ 64 rows render every row and fetch no virtualizer; a longer run loads it', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script')
      scripts.push(new URL(r.url()).pathname.split('/').pop()!);
  });
  await page.goto('./?embed&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await page.evaluate(() => window.__deliveryLab!.runTo(1e9));
  const table = page.getByTestId(testIds.sinkTable);
  const rows = Number(await table.getAttribute('data-rows'));
  expect(rows).toBeGreaterThan(0);
  expect(rows).toBeLessThanOrEqual(64);
  // Every row is in the document (src/ui/hooks/useAllRows.ts), none left to a virtualizer.
  await expect(table.getByTestId(testIds.sinkRow)).toHaveCount(rows);
  await expect(page.getByTestId(testIds.partitionLog).first()).toBeVisible();
  await page.waitForTimeout(500);
  expect(scripts.filter((f) => /^VirtualRows-/.test(f))).toEqual([]);

  // 200 events: the sink table is past 64 rows, so its rows are virtualized (a lazy chunk).
  const long = { version: 1, name: 'long', workload: { generate: { count: 200 } } };
  await page.goto(`./?embed#${encodeShare(long as ScenarioInput)}`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await page.evaluate(() => window.__deliveryLab!.runTo(1e9));
  await expect(page.getByTestId(testIds.sinkTable)).toHaveAttribute('data-rows', '200');
  expect(scripts.filter((f) => /^VirtualRows-/.test(f))).toHaveLength(1);
  // Only the rows in view (and a few beyond) are rendered.
  const rendered = await page.getByTestId(testIds.sinkTable).getByTestId(testIds.sinkRow).count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(200);
});

test('locked knobs: no guarantee switch, no fault menu, no drop; panels chosen', async ({
  page,
}) => {
  await page.goto('./?embed&lock=1&panels=pipeline,verdict&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const before = await page.evaluate(() => window.__deliveryLab!.traceHash());
  await expect(page.getByRole('radiogroup', { name: 'Guarantee' })).toHaveCount(0);
  await expect(page.getByTestId(testIds.play)).toHaveCount(0); // no time controls panel
  // Folded until the run's end (issue 24); without time controls, "Reveal now" shows it.
  await page.getByTestId(testIds.outcomeRevealNow).click();
  await expect(page.getByTestId(testIds.verdict)).toBeVisible();
  await expect(page.getByTestId(testIds.counterRows)).toBeHidden();
  await page
    .locator(`[data-testid="${testIds.component}"][data-component="consumer-0"] .component-head`)
    .click();
  await expect(page.getByTestId(testIds.faultMenu)).toHaveCount(0);
  await page.keyboard.press('Control+z');
  expect(await page.evaluate(() => window.__deliveryLab!.traceHash())).toBe(before);

  // Locked with its time controls: a fault marker tells what it is, and offers no edit.
  await page.goto('./?embed&lock=1&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByText('(drag or arrows to move)')).toHaveCount(0);
  await page.getByTestId(testIds.faultMarker).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(testIds.faultDetails)).toContainText('armed from');
  await expect(page.getByTestId(testIds.faultAt)).toHaveCount(0);
  await expect(page.getByTestId(testIds.faultDelete)).toHaveCount(0);

  // Unlocked, the reader may switch the guarantee.
  await page.goto('./?embed&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await page.getByRole('radiogroup', { name: 'Guarantee' }).getByText('Exactly-once').click();
  await page.getByTestId(testIds.toEnd).click();
  await expect(page.getByTestId(testIds.verdict)).toHaveAttribute('data-observed', 'exactly-once');
});

test('an embed whose link cannot be opened says why and plays nothing, not the default scenario', async ({
  page,
}) => {
  await page.goto(`${APP}?embed&preset=nope/nope`);
  const refused = page.getByTestId(testIds.embedRefused);
  await expect(refused).toContainText('No preset “nope/nope” in the library.');
  await expect(refused).toContainText('Nothing to play');
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveCount(0);
  await expect(page.getByTestId(testIds.play)).toHaveCount(0);
});

test('a damaged share link (#s=2.AAAA): the embed says what failed and plays nothing; the page keeps the saved work', async ({
  dash,
}) => {
  const { page } = dash;
  const why =
    'share link: the data is damaged: it decodes to 3 bytes, too few for a scenario and its 4-byte checksum (was the link cut short?)';
  await page.goto(`${APP}?embed#s=2.AAAA`);
  const refused = page.getByTestId(testIds.embedRefused);
  await expect(refused).toContainText('This share link could not be opened:');
  await expect(refused.getByTestId(testIds.notice).locator('li')).toHaveText([why]);
  await expect(refused).not.toContainText('empty');
  await expect(refused).toContainText('Nothing to play');
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveCount(0);
  await expect(page.getByText('Payments, at-least-once')).toHaveCount(0);

  // The full page: the reader's saved work stays, and the notice says why the link was refused.
  await page.goto(APP);
  await dash.settled();
  await dash.pickPreset('at-most-once');
  await dash.fault('consumer-0', 'crash-before-commit');
  const mine = await dash.api('scenario');
  // Wait for the autosave of the last edit (it comes a moment after).
  await expect
    .poll(
      async () =>
        JSON.parse((await page.evaluate((k) => localStorage.getItem(k), WORKSPACE_KEY)) ?? '{}')
          .state?.scenario,
    )
    .toEqual(mine);
  await page.goto('about:blank');
  await page.goto(`${APP}#s=2.AAAA`);
  await dash.settled();
  const notice = page.getByTestId(testIds.notice);
  await expect(notice).toContainText(
    'This share link could not be opened; the lab opened without it:',
  );
  await expect(notice.locator('li')).toHaveText([why]);
  expect(await dash.api('scenario')).toEqual(mine);
  // Pasted into the open page's address bar (only the hash changes): refused the same way.
  await notice.getByTestId(testIds.noticeDismiss).click();
  await page.evaluate(() => (location.hash = 's=2.AAAA'));
  await expect(page.getByTestId(testIds.notice).locator('li')).toHaveText([why]);
  expect(await dash.api('scenario')).toEqual(mine);
});

test('unknown options in the address: a dismissible notice names them and lists the known ones; none when all are known', async ({
  page,
}) => {
  await page.goto('./?embed&autoply=1&pannels=why&preset=at-least-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const notice = page.getByTestId(testIds.notice);
  await expect(notice).toHaveCount(1);
  await expect(notice).toHaveAttribute('data-tone', 'warn');
  await expect(notice).toContainText(
    'This embed ignores 2 options it does not know. Its options: embed, preset, autoplay, t, speed, panels, caption, lock, predict, q, a, id, layout, theme, height.',
  );
  await expect(notice.locator('li')).toHaveText([
    '“autoply” — did you mean “autoplay”?',
    '“pannels” — did you mean “panels”?',
  ]);
  // Ignored, as before: no autoplay, the default panels (no explanations).
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('.embed-why')).toHaveCount(0);
  await notice.getByTestId(testIds.noticeDismiss).click();
  await expect(notice).toHaveCount(0);

  // Every option known (as the Embed dialog writes them): no notice.
  await page.goto(
    './?embed&preset=at-least-once&autoplay=1&t=100&speed=0.5&panels=pipeline,why&caption=Hi&lock=1&predict=1&q=Q&a=A&id=x&layout=full&theme=light&height=600',
  );
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.embedCaption)).toHaveText('Hi');
  await expect(page.getByTestId(testIds.notice)).toHaveCount(0);
});

test('option values it cannot use: the notice names each, what was used instead and what the option takes', async ({
  page,
}) => {
  const SPEED = '(speed: 0.001 to 1000, virtual ms per real ms)';
  await page.goto(
    './?embed&preset=at-least-once&speed=1e9&panels=bogus,verdict,transport&t=99999999',
  );
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const notices = page.getByTestId(testIds.notice);
  await expect(notices).toHaveCount(2);
  await expect(notices.first()).toContainText('This embed could not use 2 options as written:');
  await expect(notices.first().locator('li')).toHaveText([
    `“speed=1e9” — above the fastest: played at ×1000 ${SPEED}`,
    '“panels=bogus,verdict,transport” — no panel “bogus”: showed transport, verdict (panels: pipeline, transport, counters, verdict, why, compare)',
  ]);
  // The run's length is known once it has run: the start past its end is said then.
  await expect(notices.nth(1).locator('li')).toHaveText([
    '“t=99999999” — past the run’s end, 41,150 ms: opened at its end (t: a virtual time in ms, from 0 to 41,150)',
  ]);
  // …and the embed does what the lines say.
  await expect(page.locator('.field.speed output')).toHaveText('×1000');
  await expect(page.getByTestId(testIds.pipeline)).toHaveCount(0);
  await expect(page.getByTestId(testIds.verdict)).toBeVisible();
  expect(await page.evaluate(() => window.__deliveryLab!.cursor().t)).toBe(41_150);

  await page.goto('./?embed&preset=at-least-once&speed=abc&panels=transport');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByTestId(testIds.notice).locator('li')).toHaveText([
    `“speed=abc” — not a number: played at the scenario’s own pace ${SPEED}`,
  ]);
  // at-least-once's pace (src/views/run/pace.ts), as the page opens it.
  await expect(page.locator('.field.speed output')).toHaveText('×0.013');
});

test('the Embed dialog sets the speed: the snippet carries it and the player plays at it', async ({
  dash,
  page,
}) => {
  await dash.pickPreset('at-least-once');
  await dash.byId(testIds.embedButton).click();
  const dialog = dash.byId(testIds.embedDialog);
  const speed = dialog.getByLabel('Speed');
  await dialog.getByLabel('an iframe and its listener').check();
  await expect(speed).toHaveValue('');
  expect(await dash.byId(testIds.embedSnippet).inputValue()).not.toContain('speed=');
  await speed.selectOption({ label: '×0.1' });
  const snippet = await dash.byId(testIds.embedSnippet).inputValue();
  expect(snippet).toContain('?embed&amp;speed=0.1&amp;');
  const src = /src="([^"]+)"/.exec(snippet)![1]!.replace(/&amp;/g, '&');
  await page.goto(src);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.locator('.field.speed output')).toHaveText('×0.1');
  await expect(page.getByTestId(testIds.notice)).toHaveCount(0);
});

// The full page's Export menu (not the embed's: it has none), kept in this file with the other
// fixes of the same pass. The fault menu's counterpart is in dashboard.spec.ts.
test('the Export menu closed by Escape: Space on its button plays and pauses, not opens it again; reached anew, Space opens it', async ({
  dash,
}) => {
  const { page } = dash;
  const kb = page.keyboard;
  const play = dash.byId(testIds.play);
  const exp = dash.byId(testIds.exportButton);
  const items = dash.byId(testIds.exportItem);
  await exp.click();
  await expect(items.first()).toBeFocused();
  await kb.press('Escape');
  await expect(items).toHaveCount(0);
  await expect(exp).toBeFocused();
  await kb.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await expect(items).toHaveCount(0);
  await kb.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  await expect(items).toHaveCount(0);
  // Enter still opens it; a second Escape, and Space plays again.
  await kb.press('Enter');
  await expect(items.first()).toBeFocused();
  await kb.press('Escape');
  await expect(exp).toBeFocused();
  await kb.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await kb.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // Tab away and back (Shift+Tab): reached anew, the button's Space opens the menu.
  await kb.press('Tab');
  await kb.press('Shift+Tab');
  await expect(exp).toBeFocused();
  await kb.press(' ');
  await expect(items.first()).toBeFocused();
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  expect(dash.errors).toEqual([]);
});
