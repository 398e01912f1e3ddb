/**
 * The embedded player (`?embed`) inside a host page served from ANOTHER origin (127.0.0.1:4174,
 * e2e/embed-host.mjs): it autoplays and reports its height with postMessage, and the host sizes
 * the frame from it. The Embed dialog's snippet works as pasted. The build also runs from a
 * sub-path of a plain static host. Predict then reveal: embed-predict.spec.ts; loading, locked
 * knobs, panels and the notices for a link or an option it cannot use: embed-options.spec.ts.
 */
import { expect, test, testIds } from './fixtures';
import { APP, frameVsReported, hostPage, HOST, playerFrame } from './embedTesting';
import { SameOriginAxeBuilder } from './support/axe';

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

test('the host page narrowed (a window resized, a phone turned): the player measures again and the frame grows to it, the sink in view', async ({
  page,
}) => {
  // The host page's body has 16 px margins: a 732 px window frames the player at 700 px, a 390
  // px one at 358 px. Both are compact (≤ 760 px), so only the width says to measure again.
  await page.setViewportSize({ width: 732, height: 900 });
  await page.goto(hostPage({ src: `${APP}?embed&preset=lost-ack-retry/acks-1` }));
  const frame = await playerFrame(page);
  await expect(frame.getByTestId(testIds.embedPlayer)).toHaveAttribute('data-status', 'ready');
  await expect.poll(() => frameVsReported(page)).toBe(0);
  const reported = async () => Number(await page.locator('#height').textContent());
  const wide = await reported();
  const inside = () =>
    frame.evaluate(() => {
      const p = document.querySelector<HTMLElement>('[data-testid="embed-player"]')!;
      return p.scrollHeight - p.clientHeight;
    });
  expect(await inside()).toBe(0);
  await page.setViewportSize({ width: 390, height: 900 });
  // The new height is reported and applied; nothing of the player scrolls inside it.
  await expect.poll(reported).toBeGreaterThan(wide);
  await expect.poll(() => frameVsReported(page)).toBe(0);
  await expect.poll(inside).toBe(0);
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
  const axe = await new SameOriginAxeBuilder(dash.page)
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

test('the build runs from a sub-path of a plain static host', async ({
  page,
  unopenedDash: dash,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await dash.goto(`${HOST}/some/base/path/?embed&preset=at-least-once&autoplay=1`);
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  await dash.goto(`${HOST}/some/base/path/`);
  // The run worker and a lazy chunk (the diagrams' mermaid) load from the sub-path too. The
  // topology: the default preset's prediction hides the whole run's diagram, not that one.
  await page.getByTestId(testIds.diagramsToggle).click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="flow"]`).click();
  await expect(page.getByTestId(testIds.diagramSvg).locator('svg')).toBeVisible({
    timeout: 20_000,
  });
  expect(errors).toEqual([]);
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
  // In the words the player then shows beside its slider.
  await speed.selectOption({ label: '1 s in 10 s (speed=0.1)' });
  const snippet = await dash.byId(testIds.embedSnippet).inputValue();
  expect(snippet).toContain('?embed&amp;speed=0.1&amp;');
  const src = /src="([^"]+)"/.exec(snippet)![1]!.replace(/&amp;/g, '&');
  await dash.goto(src);
  await expect(page.locator('.field.speed output')).toHaveText('1 s in 10 s');
  await expect(page.getByTestId(testIds.notice)).toHaveCount(0);
});

// A doc author's report: in a light docs page the player was a grey card under its white head
// and playback (the lab's page colour, #f4f4f1, behind the counters and the pipeline). Light by
// theme=light and by the reader's system (theme=auto, prefers-color-scheme: light): one white
// ground; dark, its panels' dark.
test('the player’s ground is its panels’ colour: white in light mode (theme= or the system’s), dark in dark', async ({
  page,
}) => {
  const ground = async () => {
    await page.getByTestId(testIds.embedPlayer).waitFor();
    return page.evaluate(() => {
      const paint = (el: Element) => getComputedStyle(el).backgroundColor;
      const panel = paint(document.querySelector('.embed-head')!);
      return {
        html: paint(document.documentElement),
        body: paint(document.body),
        panel,
        theme: document.documentElement.dataset.theme,
      };
    });
  };
  const white = 'rgb(255, 255, 255)';
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('./?embed&preset=at-least-once&theme=light');
  expect(await ground()).toEqual({ html: white, body: white, panel: white, theme: 'light' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('./?embed&preset=at-least-once&theme=auto');
  expect(await ground()).toEqual({ html: white, body: white, panel: white, theme: 'light' });
  // Dark (#1a1d21, base.css --panel): the same one ground.
  const dark = 'rgb(26, 29, 33)';
  await page.goto('./?embed&preset=at-least-once&theme=dark');
  expect(await ground()).toEqual({ html: dark, body: dark, panel: dark, theme: 'dark' });
});
