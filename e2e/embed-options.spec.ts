/**
 * The embedded player's loading and options: it opens at event 0 and paints before its first run
 * ends, loading the player only (and the virtualizer only for long tables); locked knobs and
 * chosen panels; a link it cannot open, a damaged one, and options it does not know or cannot use
 * are each named in a notice.
 */
import { encodeShare } from '../src/platform/share';
import { WORKSPACE_KEY } from '../src/platform/storage';
import type { ScenarioInput } from '../src/engine';
import { expect, test, testIds } from './fixtures';
import { APP } from './embedTesting';

test('the embed opens at event 0, as the page does; it loads the player, not the lab, nor React DOM', async ({
  page,
  unopenedDash: dash,
}) => {
  const scripts: string[] = [];
  const bodies: Promise<{ file: string; text: string }>[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'script') return;
    const file = new URL(r.url()).pathname.split('/').pop()!;
    scripts.push(file);
    bodies.push(r.text().then((text) => ({ file, text })));
  });
  await dash.goto('./?embed&preset=at-least-once');
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
  // Issue 31: an embed of a preset has no share link to decode (src/ui/io/firstShare.ts), nor its
  // question (`p=`), nor one to make until its reader reaches for "Open in Delivery Lab"
  // (OpenInLab.tsx), shows no Compare, and no knob editor (src/store/knobEditing.ts): no
  // share-link codec (fflate), no prediction reader, no compare chunk, no knob table.
  expect(
    scripts.filter((f) =>
      /^(shareLink|sharePrediction|compareLink|EmbedCompare|ComparePanel|knobs|knobsKey)-/.test(f),
    ),
  ).toEqual([]);
  // Nor zod: a preset as shipped comes parsed, its guarantee switch's answers generated beside
  // it (src/views/run/validationOnDemand.ts) — no schemas, no validation, no zod in any file.
  expect(scripts.filter((f) => /^(schemas?|validate|validationParts)-/.test(f))).toEqual([]);
  // Nor the explanations: its run is not explained until a "why" is shown (LabDeps.explainLater).
  expect(scripts.filter((f) => /^(explain|explainer)-/.test(f))).toEqual([]);
  // Nor the question box (predict=1 only, src/embedMain.tsx), nor a jump's words until a jump
  // (src/store/momentWordsOnDemand.ts).
  expect(
    scripts.filter((f) => /^(EmbedPrediction|Prediction|momentWords|describe)-/.test(f)),
  ).toEqual([]);
  const withZod = (await Promise.all(bodies)).filter((b) => b.text.includes('_zod'));
  expect(withZod.map((b) => b.file)).toEqual([]);
  // A preset as shipped links to its preset from the first render (OpenInLab.tsx): reached for,
  // the link is already whole — copied or middle-clicked, it opens this scenario — and still no codec.
  const open = page.getByRole('link', { name: 'Open in Delivery Lab ↗' });
  await open.hover();
  await expect(open).toHaveAttribute('href', './?preset=at-least-once/default');
  expect(scripts.filter((f) => /^shareLink-/.test(f))).toEqual([]);
});

test('a share link whose scenario the lab refuses: the embed loads its codec and validation, names the field, plays nothing', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script')
      scripts.push(new URL(r.url()).pathname.split('/').pop()!);
  });
  const bad = {
    version: 1,
    name: 'acks seven',
    workload: { generate: { count: 3 } },
    producer: { acks: 7 },
  };
  await page.goto(`${APP}?embed#${encodeShare(bad as unknown as ScenarioInput)}`);
  const refused = page.getByTestId(testIds.embedRefused);
  await expect(refused).toContainText('This share link could not be opened:');
  await expect(refused.getByTestId(testIds.notice).locator('li')).toHaveText([
    'producer.acks: expected "0", "1", "all" or "-1", got 7',
  ]);
  await expect(refused).toContainText('Nothing to play');
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveCount(0);
  // Only a link's embed fetches the codec (src/ui/io/firstShare.ts), and the validation
  // (src/views/run/validationOnDemand.ts) that names the field.
  expect(scripts.some((f) => /^shareLink-/.test(f))).toBe(true);
  expect(scripts.some((f) => /^validationParts-/.test(f))).toBe(true);
});

test('the player is on screen before its first run ends: the embed does not wait for it to paint', async ({
  page,
  unopenedDash: dash,
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
  await dash.goto('./?embed&preset=at-least-once');
  const first = await page.evaluate(
    () => (window as unknown as { firstStatus: string }).firstStatus,
  );
  expect(['idle', 'running']).toContain(first);
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveAttribute('data-status', 'ready');
});

test('tables of ≤ 64 rows render every row and fetch no virtualizer; a longer run loads it', async ({
  page,
  unopenedDash: dash,
}) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script')
      scripts.push(new URL(r.url()).pathname.split('/').pop()!);
  });
  await dash.goto('./?embed&preset=at-least-once');
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
  await dash.goto(`./?embed#${encodeShare(long as ScenarioInput)}`);
  await page.evaluate(() => window.__deliveryLab!.runTo(1e9));
  await expect(page.getByTestId(testIds.sinkTable)).toHaveAttribute('data-rows', '200');
  // Polled: the chunk's response can be reported after the table has drawn (a loaded machine).
  await expect.poll(() => scripts.filter((f) => /^VirtualRows-/.test(f))).toHaveLength(1);
  // Only the rows in view (and a few beyond) are rendered.
  const rendered = await page.getByTestId(testIds.sinkTable).getByTestId(testIds.sinkRow).count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(200);
});

test('locked knobs: no guarantee switch, no fault menu, no drop; panels chosen', async ({
  page,
  unopenedDash: dash,
}) => {
  await dash.goto('./?embed&lock=1&panels=pipeline,verdict&preset=at-least-once');
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
  await dash.goto('./?embed&lock=1&preset=at-least-once');
  await expect(page.getByText('(drag or arrows to move)')).toHaveCount(0);
  // Painted (so focusable) once its height is reserved, a little after the run (ReserveHeight.tsx).
  await expect(page.getByTestId(testIds.faultMarker).first()).toBeVisible();
  await page.getByTestId(testIds.faultMarker).first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(testIds.faultDetails)).toContainText('armed from');
  await expect(page.getByTestId(testIds.faultAt)).toHaveCount(0);
  await expect(page.getByTestId(testIds.faultDelete)).toHaveCount(0);

  // Unlocked, the reader may switch the guarantee.
  await dash.goto('./?embed&preset=at-least-once');
  await page.getByRole('radiogroup', { name: 'Guarantee' }).getByText('Exactly-once').click();
  await page.getByTestId(testIds.toEnd).click();
  await expect(page.getByTestId(testIds.verdict)).toHaveAttribute('data-observed', 'exactly-once');
});

test('an unlocked preset embed answers its guarantee switch without zod; a fault menu loads the validation first', async ({
  page,
  unopenedDash: lab,
  unopenedDash: dash,
}) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script')
      scripts.push(new URL(r.url()).pathname.split('/').pop()!);
  });
  const zodChunks = () => scripts.filter((f) => /^(schemas?|validate|validationParts)-/.test(f));
  await dash.goto('./?embed&preset=consume-transform-produce/read-committed');
  // The switch's answers come generated beside the preset (scripts/parsedPresets.ts): the
  // at-least-once option is refused with the validator's reason, and no zod was fetched for it.
  const switcher = page.getByRole('radiogroup', { name: 'Guarantee' });
  await expect(switcher.getByRole('radio', { name: 'At-least-once' })).toBeDisabled();
  await expect(switcher.locator('label', { hasText: 'At-least-once' })).toHaveAttribute(
    'title',
    /^At-least-once is unavailable: fault "crash" crashes at a transaction commit \(before-commit-transaction\), and at-least-once uses no transactions/,
  );
  await expect(switcher.getByRole('radio', { name: 'Exactly-once' })).toBeChecked();
  expect(zodChunks()).toEqual([]);
  // A fault menu offers only what the validator accepts: it opens once the validation is in.
  await lab.component('producer').locator('.component-head').first().click();
  await page.getByTestId(testIds.faultMenu).locator('[data-action="crash"]').click();
  await page.waitForFunction(
    () =>
      window.__deliveryLab?.status() === 'ready' &&
      (window.__deliveryLab.scenario() as { faults: unknown[] }).faults.length === 2,
  );
  expect(zodChunks().some((f) => /^validationParts-/.test(f))).toBe(true);
  // The crash added runs: the verdict is the new run's.
  await expect(page.getByTestId(testIds.faultMarker)).toHaveCount(2);
});

test('an embed showing its "why" explains its run, in the words the lab uses', async ({
  page,
  unopenedDash: dash,
}) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script')
      scripts.push(new URL(r.url()).pathname.split('/').pop()!);
  });
  await dash.goto('./?embed&panels=transport,counters,verdict,why&preset=lost-ack-retry/acks-1');
  // Shown (at the run's end, or from the start where no question folds it), the why loads the
  // explaining code a preset embed's first load leaves out (the first test) and explains the run.
  await page.getByTestId(testIds.toEnd).click();
  // acks=1's lost acknowledgement: the duplicate e2, said as the engine says it (computeRunView
  // explains as the lab's page does).
  const { computeRunView } = await import('../src/views/run/computeRun');
  const { findPreset } = await import('../src/scenarios');
  const r = computeRunView(structuredClone(findPreset('lost-ack-retry/acks-1')!.variant.scenario));
  if (!r.ok) throw new Error('the preset runs');
  const [x] = r.view.verdict.explanations;
  const why = page.getByTestId(testIds.explanation);
  await expect(why).toHaveCount(1);
  await expect(why).toHaveAttribute('data-events', x!.events.join(','));
  await expect(why).toContainText(x!.sentence);
  expect(scripts.some((f) => /^explainer-/.test(f))).toBe(true);
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

test('an embed given no scenario (no preset=, a hash without its s=) says so and plays nothing, not the default scenario', async ({
  page,
}) => {
  await page.goto(`${APP}?embed&autoplay=1`);
  const refused = page.getByTestId(testIds.embedRefused);
  await expect(refused).toContainText('This embed names no scenario');
  await expect(refused).toContainText('Nothing to play');
  await expect(page.getByTestId(testIds.embedPlayer)).toHaveCount(0);
  // A share link's value pasted without its `s=`: the hash is quoted.
  await page.goto(`${APP}?embed#2.dZrNbttGFIVfReCq`);
  await expect(refused.getByTestId(testIds.notice).locator('li')).toHaveText([
    'the address’s hash “#2.dZrNbttGFIVfReCq” carries no scenario: a share link’s is “#s=2.…”',
  ]);
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
  unopenedDash: dash,
}) => {
  await dash.goto('./?embed&autoply=1&pannels=why&preset=at-least-once');
  const notice = page.getByTestId(testIds.notice);
  await expect(notice).toHaveCount(1);
  await expect(notice).toHaveAttribute('data-tone', 'warn');
  await expect(notice).toContainText(
    'This embed ignores 2 options it does not know. Its options: embed, preset, file, autoplay, t, speed, panels, caption, lock, predict, q, a, id, layout, theme, height.',
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
  await dash.goto(
    './?embed&preset=at-least-once&autoplay=1&t=100&speed=0.5&panels=pipeline,why&caption=Hi&lock=1&predict=1&q=Q&a=A&id=x&layout=full&theme=light&height=600',
  );
  await expect(page.getByTestId(testIds.embedCaption)).toHaveText('Hi');
  // No option is unknown; the one notice is t='s, which waits while predict=1's question does
  // (src/ui/embed/embedOptions.ts).
  await expect(page.getByTestId(testIds.notice)).toHaveCount(1);
  await expect(page.getByTestId(testIds.notice)).not.toContainText('does not know');
  await expect(page.getByTestId(testIds.notice)).toContainText(
    '“t=100” — not used while the question waits (predict=1)',
  );
});

test('option values it cannot use: the notice names each, what was used instead and what the option takes', async ({
  page,
  unopenedDash: dash,
}) => {
  const SPEED = '(speed: 0.001 to 1000, virtual ms per real ms)';
  await dash.goto(
    './?embed&preset=at-least-once&speed=1e9&panels=bogus,verdict,transport&t=99999999',
  );
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
  await expect(page.locator('.field.speed output')).toHaveText('1 s in 1 ms');
  await expect(page.getByTestId(testIds.pipeline)).toHaveCount(0);
  await expect(page.getByTestId(testIds.verdict)).toBeVisible();
  expect(await page.evaluate(() => window.__deliveryLab!.cursor().t)).toBe(41_150);

  await dash.goto('./?embed&preset=at-least-once&speed=abc&panels=transport');
  await expect(page.getByTestId(testIds.notice).locator('li')).toHaveText([
    `“speed=abc” — not a number: played at the scenario’s own pace ${SPEED}`,
  ]);
  // at-least-once's pace (src/views/run/pace.ts), as the page opens it.
  await expect(page.locator('.field.speed output')).toHaveText('1 s in 1.3 min');
});
